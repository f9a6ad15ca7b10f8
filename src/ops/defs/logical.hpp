// Rows of the logical group. Kernels: backend/cpu/kernels/logical.cpp.
#pragma once

#include "ops/defs/elementwise_rules.hpp"

namespace tfe::ops::defs {

// clang-format off
inline constexpr OpDef kLogical[] = {
  {OpCode::And, "and", "tfe_and", OpGroup::Logical, 2, 2, ParamsKind::None, dtypes::kLogical, kAllOperands, false, true, rules::same_as_operands, AdClass::NotDiff, "C1 C2", "Logical and on Bool, bitwise and on integers."},
  {OpCode::Or, "or", "tfe_or", OpGroup::Logical, 2, 2, ParamsKind::None, dtypes::kLogical, kAllOperands, false, true, rules::same_as_operands, AdClass::NotDiff, "C1 C2", "Logical or on Bool, bitwise or on integers."},
  {OpCode::Xor, "xor", "tfe_xor", OpGroup::Logical, 2, 2, ParamsKind::None, dtypes::kLogical, kAllOperands, false, true, rules::same_as_operands, AdClass::NotDiff, "C1 C2", "Logical exclusive or on Bool, bitwise on integers."},
  {OpCode::Not, "not", "tfe_not", OpGroup::Logical, 1, 1, ParamsKind::None, dtypes::kLogical, kAllOperands, false, true, rules::same_as_operands, AdClass::NotDiff, "", "Logical not on Bool, bitwise complement on integers."},
};
// clang-format on

} // namespace tfe::ops::defs
