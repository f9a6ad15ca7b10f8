// Rows of the complex-parts group. Kernels: backend/cpu/kernels/complex_parts.cpp.
#pragma once

#include "ops/defs/elementwise_rules.hpp"

namespace tfe::ops::defs {

// clang-format off
inline constexpr OpDef kComplexParts[] = {
  {OpCode::Real, "real", "tfe_real", OpGroup::ComplexParts, 1, 1, ParamsKind::None, dtypes::kInexact, kAllOperands, false, true, rules::real_of_operand, AdClass::Linear, "", "Real part (F32/F64 result); the identity on real input."},
  {OpCode::Imag, "imag", "tfe_imag", OpGroup::ComplexParts, 1, 1, ParamsKind::None, dtypes::kInexact, kAllOperands, false, true, rules::real_of_operand, AdClass::Linear, "", "Imaginary part (F32/F64 result); zeros for real input."},
  {OpCode::Complex, "complex", "tfe_complex", OpGroup::ComplexParts, 2, 2, ParamsKind::None, dtypes::kRealFloat, kAllOperands, false, true, rules::complex, AdClass::Linear, "C1 C2", "re + i*im from two real tensors of one dtype."},
};
// clang-format on

} // namespace tfe::ops::defs
