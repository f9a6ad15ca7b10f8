// Rows of the indexing group. Kernels: backend/cpu/kernels/indexing.cpp.
#pragma once

#include "ops/op_def.hpp"

namespace tfe::ops::rules {
Meta slice(std::span<const Meta> in, const Params& p);                // C1 C2 C3
Meta dynamic_slice(std::span<const Meta> in, const Params& p);        // C1 C2
Meta dynamic_update_slice(std::span<const Meta> in, const Params& p); // C1 C2 C3
Meta gather(std::span<const Meta> in, const Params& p);               // C1 C2
Meta scatter(std::span<const Meta> in, const Params& p);              // C1 C2 C3 C4
Meta pad(std::span<const Meta> in, const Params& p);                  // C1 C2 C3
Meta concatenate(std::span<const Meta> in, const Params& p);          // C1 C2 C3 C4
} // namespace tfe::ops::rules

namespace tfe::ops::defs {

// clang-format off
inline constexpr OpDef kIndexing[] = {
  {OpCode::Slice, "slice", "tfe_slice", OpGroup::Indexing, 1, 1, ParamsKind::Slice, dtypes::kAll, kAllOperands, false, false, rules::slice, AdClass::Linear, "C1 C2 C3", "Elements starts[d] <= i < limits[d] with step strides[d] in every dim (a view)."},
  {OpCode::DynamicSlice, "dynamic_slice", "tfe_dynamic_slice", OpGroup::Indexing, 2, 2, ParamsKind::DynamicSlice, dtypes::kAll, 0b1u, false, false, rules::dynamic_slice, AdClass::Linear, "C1 C2", "A block of extents sizes at start indices read from a rank-1 integer tensor, clamped into range."},
  {OpCode::DynamicUpdateSlice, "dynamic_update_slice", "tfe_dynamic_update_slice", OpGroup::Indexing, 3, 3, ParamsKind::None, dtypes::kAll, 0b11u, true, false, rules::dynamic_update_slice, AdClass::Linear, "C1 C2 C3", "operand with the block at (clamped) start indices replaced by update."},
  {OpCode::Gather, "gather", "tfe_gather", OpGroup::Indexing, 2, 2, ParamsKind::Axis, dtypes::kAll, 0b1u, false, false, rules::gather, AdClass::Linear, "C1 C2 C3", "Take along axis: out[..., j..., ...] = operand[..., indices[j...], ...]; out-of-range indices are errors."},
  {OpCode::Scatter, "scatter", "tfe_scatter", OpGroup::Indexing, 3, 3, ParamsKind::Axis, dtypes::kAll, 0b101u, true, false, rules::scatter, AdClass::Linear, "C1 C2 C3 C4", "Scatter-add along axis: operand plus updates added at indices (duplicates accumulate in order)."},
  {OpCode::Pad, "pad", "tfe_pad", OpGroup::Indexing, 1, 1, ParamsKind::Pad, dtypes::kAll, kAllOperands, false, false, rules::pad, AdClass::Linear, "C1 C2 C3", "Zero padding: low/high per dim (negative crops), interior zeros between elements."},
  {OpCode::Concatenate, "concatenate", "tfe_concatenate", OpGroup::Indexing, 1, -1, ParamsKind::Axis, dtypes::kAll, kAllOperands, true, false, rules::concatenate, AdClass::Linear, "C1 C2 C3 C4", "Joins operands along axis; every other extent must agree."},
};
// clang-format on

} // namespace tfe::ops::defs
