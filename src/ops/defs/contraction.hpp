// Rows of the contraction group. Kernels: backend/cpu/kernels/contraction.cpp.
#pragma once

#include "ops/op_def.hpp"

namespace tfe::ops::rules {
// C1 batch/contracting lists pair up; C2 axes in range and distinct per operand; C3 batch
// extents equal; C4 contracting extents equal; C5 equal dtypes.
Meta dot_general(std::span<const Meta> in, const Params& p);
} // namespace tfe::ops::rules

namespace tfe::ops::defs {

// clang-format off
inline constexpr OpDef kContraction[] = {
  {OpCode::DotGeneral, "dot_general", "tfe_dot_general", OpGroup::Contraction, 2, 2, ParamsKind::DotGeneral, dtypes::kNumeric, kAllOperands, true, false, rules::dot_general, AdClass::Smooth, "C1 C2 C3 C4 C5", "Tensor contraction; output dims are lhs free, rhs free, then batch (column-major batched matmul)."},
};
// clang-format on

} // namespace tfe::ops::defs
