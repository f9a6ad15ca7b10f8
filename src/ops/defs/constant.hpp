// Rows of the constants group. Kernel: backend/cpu/kernels/constant.cpp.
#pragma once

#include "ops/op_def.hpp"

namespace tfe::ops::rules {
Meta constant(std::span<const Meta> in, const Params& p); // C1 shape valid, C2 byte count
} // namespace tfe::ops::rules

namespace tfe::ops::defs {

// clang-format off
inline constexpr OpDef kConstant[] = {
  {OpCode::Constant, "constant", "tfe_tensor_from_data", OpGroup::Constant, 0, 0, ParamsKind::Constant, dtypes::kAll, 0, false, false, rules::constant, AdClass::NotDiff, "C1 C2", "A literal (dtype, shape, column-major bytes); users create data with tfe_tensor_from_data."},
};
// clang-format on

} // namespace tfe::ops::defs
