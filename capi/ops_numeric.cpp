// The numeric functions of tenferro/ops_numeric.h: argument checks, then the compositions of
// eager/numeric.hpp in whichever value type the operands call for.
#include <cmath>
#include <optional>
#include <vector>

#include "capi/op_call.hpp"
#include "eager/numeric_impl.hpp"

using namespace tfe;
using namespace tfe::capi;
namespace num = tfe::eager::numeric;

namespace {

// The axes array as given (normalised against the rank by the composition).
std::vector<int64_t> axes_list(const int64_t* axes, int32_t n_axes) {
  auto a = int64_array(axes, n_axes, "axes");
  return {a.begin(), a.end()};
}

void check_tolerances(double rtol, double atol) {
  if (!(rtol >= 0) || !(atol >= 0))
    fail(Status::InvalidArgument, "rtol=%g and atol=%g must be non-negative numbers", rtol, atol);
}

} // namespace

extern "C" {

tfe_status tfe_logaddexp(tfe_tensor** out, const tfe_tensor* a, const tfe_tensor* b) {
  return op_call(
      "tfe_logaddexp", out, [](const auto& x, const auto& y) { return num::logaddexp(x, y); },
      Arg{a, "a"}, Arg{b, "b"});
}

tfe_status tfe_hypot(tfe_tensor** out, const tfe_tensor* a, const tfe_tensor* b) {
  return op_call(
      "tfe_hypot", out, [](const auto& x, const auto& y) { return num::hypot(x, y); }, Arg{a, "a"},
      Arg{b, "b"});
}

tfe_status tfe_sigmoid(tfe_tensor** out, const tfe_tensor* x) {
  return op_call(
      "tfe_sigmoid", out, [](const auto& v) { return num::sigmoid(v); }, Arg{x, "x"});
}

tfe_status tfe_square(tfe_tensor** out, const tfe_tensor* x) {
  return op_call(
      "tfe_square", out, [](const auto& v) { return num::square(v); }, Arg{x, "x"});
}

tfe_status tfe_reciprocal(tfe_tensor** out, const tfe_tensor* x) {
  return op_call(
      "tfe_reciprocal", out, [](const auto& v) { return num::reciprocal(v); }, Arg{x, "x"});
}

tfe_status tfe_angle(tfe_tensor** out, const tfe_tensor* z, int32_t deg) {
  return op_call(
      "tfe_angle", out, [&](const auto& v) { return num::angle(v, deg != 0); }, Arg{z, "z"});
}

tfe_status tfe_copysign(tfe_tensor** out, const tfe_tensor* a, const tfe_tensor* b) {
  return op_call(
      "tfe_copysign", out, [](const auto& x, const auto& y) { return num::copysign(x, y); },
      Arg{a, "a"}, Arg{b, "b"});
}

tfe_status tfe_isnan(tfe_tensor** out, const tfe_tensor* x) {
  return op_call(
      "tfe_isnan", out, [](const auto& v) { return num::isnan(v); }, Arg{x, "x"});
}

tfe_status tfe_isinf(tfe_tensor** out, const tfe_tensor* x) {
  return op_call(
      "tfe_isinf", out, [](const auto& v) { return num::isinf(v); }, Arg{x, "x"});
}

tfe_status tfe_isfinite(tfe_tensor** out, const tfe_tensor* x) {
  return op_call(
      "tfe_isfinite", out, [](const auto& v) { return num::isfinite(v); }, Arg{x, "x"});
}

tfe_status tfe_nan_to_num(tfe_tensor** out, const tfe_tensor* x, double nan, double posinf,
                          double neginf) {
  std::optional<double> pos, neg;
  if (!std::isnan(posinf)) pos = posinf;
  if (!std::isnan(neginf)) neg = neginf;
  return op_call(
      "tfe_nan_to_num", out, [&](const auto& v) { return num::nan_to_num(v, nan, pos, neg); },
      Arg{x, "x"});
}

tfe_status tfe_isclose(tfe_tensor** out, const tfe_tensor* a, const tfe_tensor* b, double rtol,
                       double atol, int32_t equal_nan) {
  return op_call(
      "tfe_isclose", out,
      [&](const auto& x, const auto& y) {
        check_tolerances(rtol, atol);
        return num::isclose(x, y, rtol, atol, equal_nan != 0);
      },
      Arg{a, "a"}, Arg{b, "b"});
}

tfe_status tfe_allclose(tfe_tensor** out, const tfe_tensor* a, const tfe_tensor* b, double rtol,
                        double atol, int32_t equal_nan) {
  return op_call(
      "tfe_allclose", out,
      [&](const auto& x, const auto& y) {
        check_tolerances(rtol, atol);
        return num::allclose(x, y, rtol, atol, equal_nan != 0);
      },
      Arg{a, "a"}, Arg{b, "b"});
}

tfe_status tfe_any(tfe_tensor** out, const tfe_tensor* x, int32_t n_axes, const int64_t* axes,
                   int32_t keepdims) {
  return op_call(
      "tfe_any", out,
      [&](const auto& v) { return num::any(v, axes_list(axes, n_axes), keepdims != 0); },
      Arg{x, "x"});
}

tfe_status tfe_all(tfe_tensor** out, const tfe_tensor* x, int32_t n_axes, const int64_t* axes,
                   int32_t keepdims) {
  return op_call(
      "tfe_all", out,
      [&](const auto& v) { return num::all(v, axes_list(axes, n_axes), keepdims != 0); },
      Arg{x, "x"});
}

tfe_status tfe_var(tfe_tensor** out, const tfe_tensor* x, int32_t n_axes, const int64_t* axes,
                   double ddof, int32_t keepdims) {
  return op_call(
      "tfe_var", out,
      [&](const auto& v) { return num::var(v, axes_list(axes, n_axes), ddof, keepdims != 0); },
      Arg{x, "x"});
}

tfe_status tfe_std(tfe_tensor** out, const tfe_tensor* x, int32_t n_axes, const int64_t* axes,
                   double ddof, int32_t keepdims) {
  return op_call(
      "tfe_std", out,
      [&](const auto& v) { return num::stddev(v, axes_list(axes, n_axes), ddof, keepdims != 0); },
      Arg{x, "x"});
}

tfe_status tfe_logsumexp(tfe_tensor** out, const tfe_tensor* x, int32_t n_axes, const int64_t* axes,
                         int32_t keepdims) {
  return op_call(
      "tfe_logsumexp", out,
      [&](const auto& v) { return num::logsumexp(v, axes_list(axes, n_axes), keepdims != 0); },
      Arg{x, "x"});
}

} // extern "C"
