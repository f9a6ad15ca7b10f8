// Creation entry points (tenferro/tensor.h, "creation").
#include "capi/op_call.hpp"
#include "eager/creation.hpp"

using namespace tfe;
using namespace tfe::capi;

namespace {

template <class F> tfe_status create(const char* fn, tfe_tensor** out, tfe_context* ctx, F&& make) {
  return guarded(fn, [&] {
    out_slot(out);
    require(ctx, "ctx");
    Tensor t = make();
    *out = new_tensor(ctx, std::move(t));
  });
}

} // namespace

extern "C" {

tfe_status tfe_zeros(tfe_tensor** out, tfe_context* ctx, int32_t dtype, int32_t ndim,
                     const int64_t* shape) {
  return create("tfe_zeros", out, ctx,
                [&] { return eager::zeros(require_dtype(dtype), shape_arg(ndim, shape)); });
}

tfe_status tfe_ones(tfe_tensor** out, tfe_context* ctx, int32_t dtype, int32_t ndim,
                    const int64_t* shape) {
  return create("tfe_ones", out, ctx,
                [&] { return eager::ones(require_dtype(dtype), shape_arg(ndim, shape)); });
}

tfe_status tfe_full(tfe_tensor** out, tfe_context* ctx, int32_t dtype, int32_t ndim,
                    const int64_t* shape, const void* value) {
  return create("tfe_full", out, ctx, [&] {
    DType dt = require_dtype(dtype);
    Dims s = shape_arg(ndim, shape);
    return eager::full(dt, s, require(value, "value"));
  });
}

tfe_status tfe_eye(tfe_tensor** out, tfe_context* ctx, int32_t dtype, int64_t n, int64_t m) {
  return create("tfe_eye", out, ctx, [&] {
    DType dt = require_dtype(dtype);
    if (n < 0 || m < 0)
      fail(Status::InvalidArgument, "n %lld and m %lld must be >= 0", (long long)n, (long long)m);
    return eager::eye(dt, n, m);
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
