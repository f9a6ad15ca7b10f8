// Rows of the structural group. Kernels: backend/cpu/kernels/structural.cpp.
#pragma once

#include "ops/op_def.hpp"

namespace tfe::ops::rules {
Meta transpose(std::span<const Meta> in, const Params& p);        // C1 perm is a permutation
Meta reshape(std::span<const Meta> in, const Params& p);          // C1 valid shape, C2 same count
Meta broadcast_in_dim(std::span<const Meta> in, const Params& p); // C1..C4, see .cpp
Meta convert(std::span<const Meta> in, const Params& p);          // C1 valid dtype
Meta reverse(std::span<const Meta> in, const Params& p);          // C1 axes valid
Meta extract_diag(std::span<const Meta> in, const Params& p);     // C1 axes valid and distinct
Meta embed_diag(std::span<const Meta> in, const Params& p);       // C1 axes valid and distinct
Meta triangle(std::span<const Meta> in, const Params& p);         // C1 rank >= 2
Meta iota(std::span<const Meta> in, const Params& p);             // C1 shape, C2 axis, C3 dtype
Meta transfer(std::span<const Meta> in, const Params& p);         // no constraint: the operand
} // namespace tfe::ops::rules

namespace tfe::ops::defs {

// clang-format off
inline constexpr OpDef kStructural[] = {
  {OpCode::Transpose, "transpose", "tfe_transpose", OpGroup::Structural, 1, 1, ParamsKind::Transpose, dtypes::kAll, kAllOperands, false, false, rules::transpose, AdClass::Linear, "C1", "Permutes dims: output dim i is input dim perm[i] (a view)."},
  {OpCode::Reshape, "reshape", "tfe_reshape", OpGroup::Structural, 1, 1, ParamsKind::Reshape, dtypes::kAll, kAllOperands, false, false, rules::reshape, AdClass::Linear, "C1 C2", "Same elements in column-major order, new shape (a view when the layout allows)."},
  {OpCode::BroadcastInDim, "broadcast_in_dim", "tfe_broadcast_in_dim", OpGroup::Structural, 1, 1, ParamsKind::BroadcastInDim, dtypes::kAll, kAllOperands, false, false, rules::broadcast_in_dim, AdClass::Linear, "C1 C2 C3 C4", "Operand dim i becomes output dim dims[i]; extents of 1 repeat (a view)."},
  {OpCode::Convert, "convert", "tfe_cast", OpGroup::Structural, 1, 1, ParamsKind::Convert, dtypes::kAll, kAllOperands, false, true, rules::convert, AdClass::Linear, "C1", "Converts to another dtype (lossy: float->int truncates and saturates, NaN -> 0, complex->real drops imag)."},
  {OpCode::Reverse, "reverse", "tfe_reverse", OpGroup::Structural, 1, 1, ParamsKind::Axes, dtypes::kAll, kAllOperands, false, false, rules::reverse, AdClass::Linear, "C1", "Reverses the order along axes (a view)."},
  {OpCode::ExtractDiag, "extract_diag", "tfe_extract_diag", OpGroup::Structural, 1, 1, ParamsKind::Diag, dtypes::kAll, kAllOperands, false, false, rules::extract_diag, AdClass::Linear, "C1", "Diagonal of dims (axis_a, axis_b): axis_b is removed, the diagonal (length min) stays at axis_a (a view)."},
  {OpCode::EmbedDiag, "embed_diag", "tfe_embed_diag", OpGroup::Structural, 1, 1, ParamsKind::Diag, dtypes::kAll, kAllOperands, false, false, rules::embed_diag, AdClass::Linear, "C1", "Transpose of extract_diag: inserts axis_b and places the values on the (axis_a, axis_b) diagonal, zeros elsewhere."},
  {OpCode::Tril, "tril", "tfe_tril", OpGroup::Structural, 1, 1, ParamsKind::Triangle, dtypes::kAll, kAllOperands, false, false, rules::triangle, AdClass::Linear, "C1", "Keeps entries (i, j) of each matrix with j - i <= k, zeros the rest."},
  {OpCode::Triu, "triu", "tfe_triu", OpGroup::Structural, 1, 1, ParamsKind::Triangle, dtypes::kAll, kAllOperands, false, false, rules::triangle, AdClass::Linear, "C1", "Keeps entries (i, j) of each matrix with j - i >= k, zeros the rest."},
  {OpCode::Iota, "iota", "tfe_iota", OpGroup::Structural, 0, 0, ParamsKind::Iota, dtypes::kNumeric, 0, false, false, rules::iota, AdClass::NotDiff, "C1 C2 C3", "The index along axis, as dtype, for every position of shape."},
  {OpCode::Transfer, "transfer", "tfe_tensor_to_device", OpGroup::Structural, 1, 1, ParamsKind::Transfer, dtypes::kAll, kAllOperands, false, false, rules::transfer, AdClass::Linear, "", "The operand copied from device `from` to device `to` (the one explicit transfer; its derivative is the transfer back)."},
};
// clang-format on

} // namespace tfe::ops::defs
