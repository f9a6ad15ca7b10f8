// tensordot, outer, kron and the matrix trace (tenferro/einsum.h): thin entry points over the
// einsum layer's compositions (einsum/products.hpp), in whichever value type the operands call for.
#include "capi/op_call.hpp"
#include "einsum/products.hpp"

using namespace tfe;
using namespace tfe::capi;

extern "C" {

tfe_status tfe_tensordot(tfe_tensor** out, const tfe_tensor* a, const tfe_tensor* b, int32_t n_axes,
                         const int64_t* axes_a, const int64_t* axes_b) {
  return op_call(
      "tfe_tensordot", out,
      [&](const auto& x, const auto& y) {
        Dims da = axes_arg(axes_a, n_axes, rank_of(x), "axes_a");
        Dims db = axes_arg(axes_b, n_axes, rank_of(y), "axes_b");
        return einsum::tensordot(x, y, da, db, nullptr);
      },
      Arg{a, "a"}, Arg{b, "b"});
}

tfe_status tfe_outer(tfe_tensor** out, const tfe_tensor* a, const tfe_tensor* b) {
  return op_call(
      "tfe_outer", out, [](const auto& x, const auto& y) { return einsum::outer(x, y, nullptr); },
      Arg{a, "a"}, Arg{b, "b"});
}

tfe_status tfe_kron(tfe_tensor** out, const tfe_tensor* a, const tfe_tensor* b) {
  return op_call(
      "tfe_kron", out, [](const auto& x, const auto& y) { return einsum::kron(x, y, nullptr); },
      Arg{a, "a"}, Arg{b, "b"});
}

tfe_status tfe_trace(tfe_tensor** out, const tfe_tensor* x, int64_t offset) {
  return op_call(
      "tfe_trace", out, [&](const auto& v) { return einsum::trace(v, offset); }, Arg{x, "x"});
}

} // extern "C"
