// Rows of the reduction group. Kernels: backend/cpu/kernels/reduce.cpp.
#pragma once

#include "ops/op_def.hpp"

namespace tfe::ops::rules {
// C1 axes in range and distinct. Reduced axes are dropped.
Meta reduce(std::span<const Meta> in, const Params& p);
} // namespace tfe::ops::rules

namespace tfe::ops::defs {

// clang-format off
inline constexpr OpDef kReduce[] = {
  {OpCode::ReduceSum, "reduce_sum", "tfe_reduce_sum", OpGroup::Reduce, 1, 1, ParamsKind::Axes, dtypes::kNumeric, kAllOperands, false, false, rules::reduce, AdClass::Linear, "C1", "Sum over axes (dropped); integers wrap; the empty sum is 0."},
  {OpCode::ReduceProd, "reduce_prod", "tfe_reduce_prod", OpGroup::Reduce, 1, 1, ParamsKind::Axes, dtypes::kNumeric, kAllOperands, false, false, rules::reduce, AdClass::Smooth, "C1", "Product over axes (dropped); integers wrap; the empty product is 1."},
  {OpCode::ReduceMax, "reduce_max", "tfe_reduce_max", OpGroup::Reduce, 1, 1, ParamsKind::Axes, dtypes::kOrdered, kAllOperands, false, false, rules::reduce, AdClass::Smooth, "C1", "Maximum over axes (dropped), NaN propagates; any() on Bool; empty gives the lowest value."},
  {OpCode::ReduceMin, "reduce_min", "tfe_reduce_min", OpGroup::Reduce, 1, 1, ParamsKind::Axes, dtypes::kOrdered, kAllOperands, false, false, rules::reduce, AdClass::Smooth, "C1", "Minimum over axes (dropped), NaN propagates; all() on Bool; empty gives the highest value."},
};
// clang-format on

} // namespace tfe::ops::defs
