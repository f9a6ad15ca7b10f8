// The rule table: op code -> (JVP, transpose). Exhaustive switch: with -Werror=switch a new op
// without an entry fails the build. Ops whose outputs are Bool or integers, and piecewise-constant
// ops, have zero_jvp (their outputs never carry tangents). transpose is set exactly for the ops
// that can be linear in an operand.
#include "ad/rules/row_rules.hpp"

namespace tfe::ad {

using ops::OpCode;

Tangent rules::zero_jvp(const JvpArgs&) { return std::nullopt; }

const Rules& rules_for(OpCode op) {
  using namespace rules;
  static const Rules none{};
  static const Rules zero{zero_jvp, nullptr};
  switch (op) {
    // the generated elementwise groups: each row's rules come from its group's rules file
    // (row_rules.hpp), by the row's AD class
#define TFE_ROW_CASE(Code, ...) case OpCode::Code:
    TFE_ARITHMETIC_OPS(TFE_ROW_CASE)
    return arithmetic_rules(op);
    TFE_COMPLEX_PARTS_OPS(TFE_ROW_CASE)
    return complex_parts_rules(op);
#undef TFE_ROW_CASE
    TFE_LOGICAL_OPS(TFE_ROW_RULES_CASE) // every row NotDiff: Bool/integer outputs
    // analytic: one entry per row of ops/defs/analytic.hpp, by its AD class
#define TFE_ANALYTIC_RULES_Smooth(Code, arity) formula_rules<formulas::Code, arity>()
#define TFE_ANALYTIC_RULES_ZeroDerivative(Code, arity) zero
#define TFE_ANALYTIC_RULE(Code, name, arity, accepts, ad, ...)                                     \
  case OpCode::Code: return TFE_ANALYTIC_RULES_##ad(Code, arity);
    TFE_ANALYTIC_OPS(TFE_ANALYTIC_RULE)
#undef TFE_ANALYTIC_RULE
#undef TFE_ANALYTIC_RULES_ZeroDerivative
#undef TFE_ANALYTIC_RULES_Smooth
  // comparison and selection
  case OpCode::Compare: return zero;
  case OpCode::Select: {
    static const Rules r{select_jvp, select_t};
    return r;
  }
  case OpCode::Clamp: {
    static const Rules r{clamp_jvp, nullptr};
    return r;
  }
  // contraction
  case OpCode::DotGeneral: {
    static const Rules r{dot_general_jvp, dot_general_t};
    return r;
  }
  // reductions
  case OpCode::ReduceSum: {
    static const Rules r{reduce_sum_jvp, reduce_sum_t};
    return r;
  }
  case OpCode::ReduceProd: {
    static const Rules r{reduce_prod_jvp, nullptr};
    return r;
  }
  case OpCode::ReduceMax:
  case OpCode::ReduceMin: {
    static const Rules r{reduce_extremum_jvp, nullptr};
    return r;
  }
  // structural
  case OpCode::Transpose: {
    static const Rules r{linear_jvp, transpose_t};
    return r;
  }
  case OpCode::Reshape: {
    static const Rules r{linear_jvp, reshape_t};
    return r;
  }
  case OpCode::BroadcastInDim: {
    static const Rules r{linear_jvp, broadcast_in_dim_t};
    return r;
  }
  case OpCode::Convert: {
    static const Rules r{convert_jvp, convert_t};
    return r;
  }
  case OpCode::Reverse: {
    static const Rules r{linear_jvp, reverse_t};
    return r;
  }
  case OpCode::ExtractDiag: {
    static const Rules r{linear_jvp, extract_diag_t};
    return r;
  }
  case OpCode::EmbedDiag: {
    static const Rules r{linear_jvp, embed_diag_t};
    return r;
  }
  case OpCode::Tril:
  case OpCode::Triu: {
    static const Rules r{linear_jvp, triangle_t};
    return r;
  }
  case OpCode::Iota: return zero;
  case OpCode::Transfer: {
    static const Rules r{linear_jvp, transfer_t};
    return r;
  }
  // indexing
  case OpCode::Slice: {
    static const Rules r{linear_jvp, slice_t};
    return r;
  }
  case OpCode::DynamicSlice: {
    static const Rules r{dynamic_slice_jvp, dynamic_slice_t};
    return r;
  }
  case OpCode::DynamicUpdateSlice: {
    static const Rules r{dynamic_update_slice_jvp, dynamic_update_slice_t};
    return r;
  }
  case OpCode::Gather: {
    static const Rules r{gather_jvp, gather_t};
    return r;
  }
  case OpCode::Scatter: {
    static const Rules r{scatter_jvp, scatter_t};
    return r;
  }
  case OpCode::Pad: {
    static const Rules r{linear_jvp, pad_t};
    return r;
  }
  case OpCode::Concatenate: {
    static const Rules r{linear_jvp, concatenate_t};
    return r;
  }
  // order
  case OpCode::Cumsum: {
    static const Rules r{cumsum_jvp, cumsum_t};
    return r;
  }
  case OpCode::Cumprod: {
    static const Rules r{cumprod_jvp, nullptr};
    return r;
  }
  case OpCode::Argsort:
  case OpCode::Argmax:
  case OpCode::Argmin: return zero;
  // constants
  case OpCode::Constant: return zero;
  case OpCode::Extension: {
    static const Rules r{extension_jvp, extension_t};
    return r;
  }
  case OpCode::Count: break;
  }
  return none;
}

Tangent jvp_of(const graph::Node& node, std::span<const Value> x, const Value& y,
               std::span<const Tangent> dx) {
  bool active = false;
  for (const Tangent& t : dx) active |= t.has_value();
  if (!active) return std::nullopt;
  if (!is_inexact(y.meta().dtype)) return std::nullopt; // Bool/integer outputs are never active
  const Rules& r = rules_for(node.op);
  if (!r.jvp)
    fail(Status::NotDifferentiable, "%s has no derivative rule",
         std::string(ops::op_def(node.op).name).c_str());
  return r.jvp(JvpArgs{node, x, y, dx});
}

} // namespace tfe::ad
