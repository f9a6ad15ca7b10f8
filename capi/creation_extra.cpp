// linspace, logspace and the *_like constructors (tenferro/tensor.h, "creation").
#include "capi/creation_device.hpp"
#include "capi/op_call.hpp"
#include "eager/creation.hpp"
#include "eager/shape_extra.hpp"
#include "eager/spaced.hpp"

using namespace tfe;
using namespace tfe::capi;

namespace {

// A real dtype ignores the imaginary part.
std::complex<double> endpoint_arg(double re, double im, DType d, const char* name) {
  std::complex<double> v(re, is_complex(d) ? im : 0.0);
  if (!std::isfinite(v.real()) || !std::isfinite(v.imag()))
    fail(Status::InvalidArgument, "%s (%g, %g) is not finite", name, v.real(), v.imag());
  return v;
}

template <class F>
tfe_status spaced(const char* fn, tfe_tensor** out, tfe_context* ctx, int32_t endpoint, F&& make) {
  return guarded(fn, [&] {
    out_slot(out);
    require(ctx, "ctx");
    if (endpoint != 0 && endpoint != 1)
      fail(Status::InvalidArgument, "endpoint takes 0 or 1, not %d", endpoint);
    *out = new_tensor(ctx, on_creation_device(*ctx, make()));
  });
}

// The *_like functions: x's shape, x's dtype for -1 (else the given one), and the rank-0 fill
// that fill(dtype) makes.
template <class MakeFill>
tfe_status like(const char* fn, tfe_tensor** out, const tfe_tensor* x, int32_t dtype,
                MakeFill fill) {
  return op_call(
      fn, out,
      [&](const auto& v) {
        DType d = dtype == -1 ? meta_of(v).dtype : require_dtype(dtype);
        return eager::full_like(v, fill(d));
      },
      Arg{x, "x"});
}

} // namespace

extern "C" {

tfe_status tfe_linspace(tfe_tensor** out, tfe_context* ctx, int32_t dtype, double start,
                        double start_imag, double stop, double stop_imag, int64_t num,
                        int32_t endpoint) {
  return spaced("tfe_linspace", out, ctx, endpoint, [&] {
    DType d = require_dtype(dtype);
    return eager::linspace(d, endpoint_arg(start, start_imag, d, "start"),
                           endpoint_arg(stop, stop_imag, d, "stop"), num, endpoint == 1);
  });
}

tfe_status tfe_logspace(tfe_tensor** out, tfe_context* ctx, int32_t dtype, double start,
                        double start_imag, double stop, double stop_imag, int64_t num,
                        int32_t endpoint, double base) {
  return spaced("tfe_logspace", out, ctx, endpoint, [&] {
    DType d = require_dtype(dtype);
    if (!std::isfinite(base)) fail(Status::InvalidArgument, "base %g is not finite", base);
    return eager::logspace(d, endpoint_arg(start, start_imag, d, "start"),
                           endpoint_arg(stop, stop_imag, d, "stop"), num, endpoint == 1, base);
  });
}

tfe_status tfe_zeros_like(tfe_tensor** out, const tfe_tensor* x, int32_t dtype) {
  return like("tfe_zeros_like", out, x, dtype, [](DType d) { return eager::zeros(d, {}); });
}

tfe_status tfe_ones_like(tfe_tensor** out, const tfe_tensor* x, int32_t dtype) {
  return like("tfe_ones_like", out, x, dtype, [](DType d) { return eager::ones(d, {}); });
}

tfe_status tfe_full_like(tfe_tensor** out, const tfe_tensor* x, int32_t dtype, const void* value) {
  return like("tfe_full_like", out, x, dtype,
              [&](DType d) { return eager::full(d, {}, require(value, "value")); });
}

} // extern "C"
