// Rows of the order group: scans, sorting and arg-reductions along one axis.
// Kernels: backend/cpu/kernels/order.cpp; derivative rules: ad/rules/order.cpp.
#pragma once

#include "ops/op_def.hpp"

namespace tfe::ops::rules {
// C1 axis in range. Same shape; the dtype of the operand.
Meta scan(std::span<const Meta> in, const Params& p);
// C1 axis in range. Same shape, I64.
Meta argsort(std::span<const Meta> in, const Params& p);
// C1 axis in range. The axis is dropped, I64.
Meta arg_extremum(std::span<const Meta> in, const Params& p);
} // namespace tfe::ops::rules

namespace tfe::ops::defs {

// clang-format off
inline constexpr OpDef kOrder[] = {
  {OpCode::Cumsum, "cumsum", "tfe_cumsum", OpGroup::Order, 1, 1, ParamsKind::Axis, dtypes::kNumeric, kAllOperands, false, false, rules::scan, AdClass::Linear, "C1", "Inclusive running sum along axis; integers wrap."},
  {OpCode::Cumprod, "cumprod", "tfe_cumprod", OpGroup::Order, 1, 1, ParamsKind::Axis, dtypes::kNumeric, kAllOperands, false, false, rules::scan, AdClass::Smooth, "C1", "Inclusive running product along axis; integers wrap."},
  {OpCode::Argsort, "argsort", "tfe_argsort", OpGroup::Order, 1, 1, ParamsKind::Sort, dtypes::kOrdered, kAllOperands, false, false, rules::argsort, AdClass::NotDiff, "C1", "Stable sorting permutation along axis (I64), NaN last; descending keeps equal elements in their order."},
  {OpCode::Argmax, "argmax", "tfe_argmax", OpGroup::Order, 1, 1, ParamsKind::Axis, dtypes::kOrdered, kAllOperands, false, false, rules::arg_extremum, AdClass::NotDiff, "C1", "Index (I64) of the first maximum along axis (dropped); the first NaN wins."},
  {OpCode::Argmin, "argmin", "tfe_argmin", OpGroup::Order, 1, 1, ParamsKind::Axis, dtypes::kOrdered, kAllOperands, false, false, rules::arg_extremum, AdClass::NotDiff, "C1", "Index (I64) of the first minimum along axis (dropped); the first NaN wins."},
};
// clang-format on

} // namespace tfe::ops::defs
