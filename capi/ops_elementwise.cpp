// Entry points of the elementwise ops (tenferro/ops_elementwise.h): each runs one IR op through
// the eager surface (promotion plan + left-aligned broadcasting).
#include <array>

#include "capi/op_call.hpp"
#include "eager/surface.hpp"

using namespace tfe;
using namespace tfe::capi;
using ops::OpCode;

namespace {

struct DivTrunc {
  template <class V> V operator()(const V& a, const V& b) const {
    DType da = meta_of(a).dtype, db = meta_of(b).dtype;
    if (!is_integer(da) || !is_integer(db))
      fail(Status::DtypeMismatch,
           "needs integer operands, got %s and %s (use tfe_div for true division)",
           std::string(dtype_name(da)).c_str(), std::string(dtype_name(db)).c_str());
    return Run<OpCode::Div>{}(a, b);
  }
};

struct TrueDivide {
  template <class V> V operator()(const V& a, const V& b) const { return eager::true_divide(a, b); }
};

} // namespace

#define TFE_BINARY(cname, Op) TFE_CAPI_BINARY(cname, OpCode::Op)
#define TFE_UNARY(cname, Op) TFE_CAPI_UNARY(cname, OpCode::Op)

extern "C" {

TFE_BINARY(tfe_add, Add)
TFE_BINARY(tfe_sub, Sub)
TFE_BINARY(tfe_mul, Mul)
TFE_BINARY(tfe_rem, Rem)
TFE_BINARY(tfe_pow, Pow)
TFE_BINARY(tfe_maximum, Maximum)
TFE_BINARY(tfe_minimum, Minimum)
TFE_BINARY(tfe_and, And)
TFE_BINARY(tfe_or, Or)
TFE_BINARY(tfe_xor, Xor)

tfe_status tfe_div(tfe_tensor** out, const tfe_tensor* a, const tfe_tensor* b) {
  return op_call("tfe_div", out, TrueDivide{}, Arg{a, "a"}, Arg{b, "b"});
}

tfe_status tfe_div_trunc(tfe_tensor** out, const tfe_tensor* a, const tfe_tensor* b) {
  return op_call("tfe_div_trunc", out, DivTrunc{}, Arg{a, "a"}, Arg{b, "b"});
}

tfe_status tfe_complex(tfe_tensor** out, const tfe_tensor* re, const tfe_tensor* im) {
  return op_call("tfe_complex", out, Run<OpCode::Complex>{}, Arg{re, "re"}, Arg{im, "im"});
}

tfe_status tfe_compare(tfe_tensor** out, const tfe_tensor* a, const tfe_tensor* b,
                       int32_t direction) {
  return op_call(
      "tfe_compare", out,
      [direction](const auto& x, const auto& y) {
        using V = std::decay_t<decltype(x)>;
        if (direction < TFE_CMP_EQ || direction > TFE_CMP_GE)
          fail(Status::InvalidArgument, "unknown comparison direction %d", direction);
        std::array<V, 2> in{x, y};
        return eager::call<V>(OpCode::Compare, std::span<const V>(in),
                              ops::CompareParams{static_cast<ops::CompareDir>(direction)});
      },
      Arg{a, "a"}, Arg{b, "b"});
}

tfe_status tfe_select(tfe_tensor** out, const tfe_tensor* pred, const tfe_tensor* on_true,
                      const tfe_tensor* on_false) {
  return op_call("tfe_select", out, Run<OpCode::Select>{}, Arg{pred, "pred"},
                 Arg{on_true, "on_true"}, Arg{on_false, "on_false"});
}

tfe_status tfe_clamp(tfe_tensor** out, const tfe_tensor* x, const tfe_tensor* lo,
                     const tfe_tensor* hi) {
  return op_call("tfe_clamp", out, Run<OpCode::Clamp>{}, Arg{x, "x"}, Arg{lo, "lo"}, Arg{hi, "hi"});
}

TFE_UNARY(tfe_neg, Neg)
TFE_UNARY(tfe_conj, Conj)
TFE_UNARY(tfe_abs, Abs)
TFE_UNARY(tfe_sign, Sign)
TFE_UNARY(tfe_not, Not)
TFE_UNARY(tfe_real, Real)
TFE_UNARY(tfe_imag, Imag)

} // extern "C"
