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

// One entry point per Regular row of the arithmetic, logical and complex-parts lists
// (ops/defs/arithmetic.hpp); the Custom rows' entry points follow.
#define TFE_ENTRY_APPLY(macro, ...) macro(__VA_ARGS__)
#define TFE_ENTRY_UNPAREN(...) __VA_ARGS__
#define TFE_ENTRY_Custom(...)
#define TFE_ENTRY_Regular(c_stem, Code, arity, operands)                                           \
  TFE_ENTRY_APPLY(TFE_CAPI_OP##arity, tfe_##c_stem, OpCode::Code, TFE_ENTRY_UNPAREN operands)
#define TFE_ENTRY(Code, name, c_stem, entry, arity, operands, ...)                                 \
  TFE_ENTRY_##entry(c_stem, Code, arity, operands)

extern "C" {

TFE_ARITHMETIC_OPS(TFE_ENTRY)
TFE_LOGICAL_OPS(TFE_ENTRY)
TFE_COMPLEX_PARTS_OPS(TFE_ENTRY)

tfe_status tfe_div(tfe_tensor** out, const tfe_tensor* a, const tfe_tensor* b) {
  return op_call("tfe_div", out, TrueDivide{}, Arg{a, "a"}, Arg{b, "b"});
}

tfe_status tfe_div_trunc(tfe_tensor** out, const tfe_tensor* a, const tfe_tensor* b) {
  return op_call("tfe_div_trunc", out, DivTrunc{}, Arg{a, "a"}, Arg{b, "b"});
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

} // extern "C"
