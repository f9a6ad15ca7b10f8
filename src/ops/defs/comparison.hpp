// Rows of the comparison and selection group. Kernels: backend/cpu/kernels/comparison.cpp.
#pragma once

#include "ops/defs/elementwise_rules.hpp"

namespace tfe::ops::defs {

// clang-format off
inline constexpr OpDef kComparison[] = {
  {OpCode::Compare, "compare", "tfe_compare", OpGroup::Comparison, 2, 2, ParamsKind::Compare, dtypes::kAll, kAllOperands, true, true, rules::compare, AdClass::NotDiff, "C1 C2 C3", "eq, ne, lt, le, gt, ge -> Bool; complex only for eq and ne; NaN compares unequal."},
  {OpCode::Select, "select", "tfe_select", OpGroup::Comparison, 3, 3, ParamsKind::None, dtypes::kAll, 0b110u, true, true, rules::select, AdClass::Smooth, "C1 C2 C3", "pred ? on_true : on_false, elementwise."},
  {OpCode::Clamp, "clamp", "tfe_clamp", OpGroup::Comparison, 3, 3, ParamsKind::None, dtypes::kOrdered, kAllOperands, true, true, rules::same_as_operands, AdClass::Smooth, "C1 C2", "minimum(maximum(x, lo), hi), so lo > hi gives hi; at a bound (x == lo or x == hi) the derivative is split, half to x and half to the bound."},
};
// clang-format on

} // namespace tfe::ops::defs
