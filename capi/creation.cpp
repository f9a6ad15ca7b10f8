// Creation entry points (tenferro/tensor.h, "creation").
#include <array>

#include "capi/creation_device.hpp"
#include "capi/op_call.hpp"
#include "backend/cpu/kernels/kernels.hpp"
#include "eager/creation.hpp"

using namespace tfe;
using namespace tfe::capi;

namespace {

template <class F> tfe_status create(const char* fn, tfe_tensor** out, tfe_context* ctx, F&& make) {
  return guarded(fn, [&] {
    out_slot(out);
    require(ctx, "ctx");
    *out = new_tensor(ctx, on_creation_device(*ctx, make()));
  });
}

// A filled tensor: on a GPU the device writes it (nothing is made on the host first).
// host(dtype, shape) makes the host tensor; its rank-0 form is the element a GPU fills with.
template <class Host>
tfe_status create_filled(const char* fn, tfe_tensor** out, tfe_context* ctx, int32_t dtype,
                         int32_t ndim, const int64_t* shape, Host&& host) {
  return guarded(fn, [&] {
    out_slot(out);
    require(ctx, "ctx");
    DType dt = require_dtype(dtype);
    Dims s = shape_arg(ndim, shape);
    Device d = ctx->creation_device();
    if (d.is_cpu()) {
      *out = new_tensor(ctx, host(dt, s));
      return;
    }
    checked_numel(s);
    Tensor one = host(dt, Dims{});
    *out = new_tensor(ctx, device::filled(d, dt, s, one.raw_data()));
  });
}

} // namespace

extern "C" {

tfe_status tfe_zeros(tfe_tensor** out, tfe_context* ctx, int32_t dtype, int32_t ndim,
                     const int64_t* shape) {
  return create_filled("tfe_zeros", out, ctx, dtype, ndim, shape,
                       [](DType dt, const Dims& s) { return eager::zeros(dt, s); });
}

tfe_status tfe_ones(tfe_tensor** out, tfe_context* ctx, int32_t dtype, int32_t ndim,
                    const int64_t* shape) {
  return create_filled("tfe_ones", out, ctx, dtype, ndim, shape,
                       [](DType dt, const Dims& s) { return eager::ones(dt, s); });
}

tfe_status tfe_full(tfe_tensor** out, tfe_context* ctx, int32_t dtype, int32_t ndim,
                    const int64_t* shape, const void* value) {
  return create_filled("tfe_full", out, ctx, dtype, ndim, shape, [&](DType dt, const Dims& s) {
    return eager::full(dt, s, require(value, "value"));
  });
}

tfe_status tfe_eye(tfe_tensor** out, tfe_context* ctx, int32_t dtype, int64_t n, int64_t m) {
  return guarded("tfe_eye", [&] {
    out_slot(out);
    require(ctx, "ctx");
    DType dt = require_dtype(dtype);
    if (n < 0 || m < 0)
      fail(Status::InvalidArgument, "n %lld and m %lld must be >= 0", (long long)n, (long long)m);
    Device d = ctx->creation_device();
    if (d.is_cpu()) {
      *out = new_tensor(ctx, eager::eye(dt, n, m));
      return;
    }
    // Zeros and a filled diagonal, both written by the device.
    Tensor one = eager::ones(dt, {});
    std::array<std::byte, 16> zero{};
    Dims s{n, m};
    checked_numel(s);
    Tensor t = device::filled(d, dt, s, zero.data());
    device::fill_view(cpu::kernels::diagonal_view(t, 0, 1), one.raw_data());
    *out = new_tensor(ctx, std::move(t));
  });
}

tfe_status tfe_arange(tfe_tensor** out, tfe_context* ctx, int32_t dtype, double start, double stop,
                      double step) {
  return create("tfe_arange", out, ctx,
                [&] { return eager::arange(require_dtype(dtype), start, stop, step); });
}

tfe_status tfe_random_uniform(tfe_tensor** out, tfe_context* ctx, int32_t dtype, int32_t ndim,
                              const int64_t* shape, uint64_t seed, double low, double high) {
  return create("tfe_random_uniform", out, ctx, [&] {
    DType dt = require_dtype(dtype);
    return eager::random_uniform(dt, shape_arg(ndim, shape), seed, low, high);
  });
}

tfe_status tfe_random_normal(tfe_tensor** out, tfe_context* ctx, int32_t dtype, int32_t ndim,
                             const int64_t* shape, uint64_t seed) {
  return create("tfe_random_normal", out, ctx, [&] {
    DType dt = require_dtype(dtype);
    return eager::random_normal(dt, shape_arg(ndim, shape), seed);
  });
}

} // extern "C"
