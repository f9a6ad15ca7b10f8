// The AD rule interface and the declarations of every rule, grouped like src/ops/defs/. Each op
// has one JVP rule (linear in the tangents, emitting IR ops) and, when it can appear in the
// linear part of a linearized program, a transpose rule. The table (rule_table.cpp) maps every
// op code to its rules with an exhaustive switch, so a new op without rules fails the build.
//
// Conventions (docs/design/ad-contract.md): JVP is real-linear, dy = a dz + b conj(dz); a transpose
// rule is the adjoint under Re<u, v> = Re(sum conj(u) v); tangents and cotangents have their
// value's dtype and shape; a missing tangent is a symbolic zero (std::nullopt).
#pragma once

#include <span>

#include "ad/builder.hpp"

namespace tfe::ad {

struct JvpArgs {
  const graph::Node& node;
  std::span<const Value> x;    // primal operands
  const Value& y;              // primal output
  std::span<const Tangent> dx; // operand tangents (nullopt: zero or inactive)
  template <class P> const P& params() const { return std::get<P>(node.params); }
};
// Returns the output tangent (nullopt when it is zero).
using JvpRule = Tangent (*)(const JvpArgs&);

struct TransposeArgs {
  const graph::Node& node;  // a node of the linear part
  std::span<const Value> x; // its operands (linear ones carry tangents, others are residuals)
  std::span<const bool> linear;
  const Value& ct; // cotangent of its output
  template <class P> const P& params() const { return std::get<P>(node.params); }
};
// Writes the cotangent of every linear operand into out[i] (nullopt: zero).
using TransposeRule = void (*)(const TransposeArgs&, std::span<Tangent> out);

// The JVP of an op with several outputs (an extension op).
struct MultiJvpArgs {
  const graph::Node& node;
  std::span<const Value> x;    // primal operands
  std::span<const Value> y;    // every primal output
  std::span<const Tangent> dx; // operand tangents (nullopt: zero or inactive)
};

struct Rules {
  JvpRule jvp = nullptr;             // nullptr: the op has no derivative rule
  TransposeRule transpose = nullptr; // nullptr: the op is never linear in an operand
};

const Rules& rules_for(ops::OpCode op);

// The JVP of a node whose inputs are the given values and tangents (dispatches to the rule;
// NotDifferentiable error naming the op when it has none and a tangent reaches it).
Tangent jvp_of(const graph::Node& node, std::span<const Value> x, const Value& y,
               std::span<const Tangent> dx);

// The same for a node with several outputs: writes out[i] for output i (nullopt: zero).
void jvp_multi_of(const graph::Node& node, std::span<const Value> x, std::span<const Value> y,
                  std::span<const Tangent> dx, std::span<Tangent> out);

namespace rules {
#define TFE_JVP(name) Tangent name(const JvpArgs& a)
#define TFE_TRANSPOSE(name) void name(const TransposeArgs& a, std::span<Tangent> out)
// arithmetic.cpp, complex_parts.cpp: the rules of each row of the group (row_rules.hpp)
const Rules& arithmetic_rules(ops::OpCode op);
const Rules& complex_parts_rules(ops::OpCode op);
// rule_table.cpp (the analytic ops get formula_rules from their rows, ir_algebra.hpp)
TFE_JVP(zero_jvp); // piecewise-constant ops and ops with Bool/integer outputs: no tangent
// comparison.cpp
TFE_JVP(select_jvp);
TFE_JVP(clamp_jvp);
TFE_TRANSPOSE(select_t);
// contraction.cpp
TFE_JVP(dot_general_jvp);
TFE_TRANSPOSE(dot_general_t);
// reduce.cpp
TFE_JVP(reduce_sum_jvp);
TFE_JVP(reduce_prod_jvp);
TFE_JVP(reduce_extremum_jvp);
TFE_TRANSPOSE(reduce_sum_t);
// structural.cpp
TFE_JVP(linear_jvp); // ops linear in every operand: the op applied to the tangents
TFE_JVP(convert_jvp);
TFE_TRANSPOSE(transpose_t);
TFE_TRANSPOSE(reshape_t);
TFE_TRANSPOSE(broadcast_in_dim_t);
TFE_TRANSPOSE(convert_t);
TFE_TRANSPOSE(transfer_t); // the transfer back
TFE_TRANSPOSE(reverse_t);
TFE_TRANSPOSE(extract_diag_t);
TFE_TRANSPOSE(embed_diag_t);
TFE_TRANSPOSE(triangle_t);
// indexing.cpp
TFE_JVP(dynamic_slice_jvp);
TFE_JVP(dynamic_update_slice_jvp);
TFE_JVP(gather_jvp);
TFE_JVP(scatter_jvp);
TFE_TRANSPOSE(slice_t);
TFE_TRANSPOSE(dynamic_slice_t);
TFE_TRANSPOSE(dynamic_update_slice_t);
TFE_TRANSPOSE(gather_t);
TFE_TRANSPOSE(scatter_t);
TFE_TRANSPOSE(pad_t);
TFE_TRANSPOSE(concatenate_t);
// order.cpp
TFE_JVP(cumsum_jvp);
TFE_JVP(cumprod_jvp);
TFE_TRANSPOSE(cumsum_t);
// extension.cpp: dispatch to the op's ExtensionRules (extension_rules.hpp)
TFE_JVP(extension_jvp);
TFE_TRANSPOSE(extension_t);
#undef TFE_JVP
#undef TFE_TRANSPOSE
} // namespace rules

} // namespace tfe::ad
