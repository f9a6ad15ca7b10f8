// Rows of the arithmetic group. Kernels: backend/cpu/kernels/arithmetic.cpp.
#pragma once

#include "ops/defs/elementwise_rules.hpp"

namespace tfe::ops::defs {

// clang-format off
inline constexpr OpDef kArithmetic[] = {
  {OpCode::Add, "add", "tfe_add", OpGroup::Arithmetic, 2, 2, ParamsKind::None, dtypes::kNumeric, kAllOperands, true, true, rules::same_as_operands, AdClass::Linear, "C1 C2", "Elementwise sum; integers wrap."},
  {OpCode::Sub, "sub", "tfe_sub", OpGroup::Arithmetic, 2, 2, ParamsKind::None, dtypes::kNumeric, kAllOperands, true, true, rules::same_as_operands, AdClass::Linear, "C1 C2", "Elementwise difference; integers wrap."},
  {OpCode::Mul, "mul", "tfe_mul", OpGroup::Arithmetic, 2, 2, ParamsKind::None, dtypes::kNumeric, kAllOperands, true, true, rules::same_as_operands, AdClass::Smooth, "C1 C2", "Elementwise product; integers wrap."},
  {OpCode::Div, "div", "tfe_div_trunc", OpGroup::Arithmetic, 2, 2, ParamsKind::None, dtypes::kNumeric, kAllOperands, true, true, rules::same_as_operands, AdClass::Smooth, "C1 C2", "Elementwise quotient; truncates toward zero on integers (MIN/-1 wraps), a zero integer divisor is an error."},
  {OpCode::Rem, "rem", "tfe_rem", OpGroup::Arithmetic, 2, 2, ParamsKind::None, dtypes::kRealNumeric, kAllOperands, true, true, rules::same_as_operands, AdClass::Smooth, "C1 C2", "Remainder with the dividend's sign (C fmod); MIN%-1 is 0, a zero integer divisor is an error."},
  {OpCode::Pow, "pow", "tfe_pow", OpGroup::Arithmetic, 2, 2, ParamsKind::None, dtypes::kNumeric, kAllOperands, true, true, rules::same_as_operands, AdClass::Smooth, "C1 C2", "x raised to y; integers wrap, a negative integer exponent is an error."},
  {OpCode::Neg, "neg", "tfe_neg", OpGroup::Arithmetic, 1, 1, ParamsKind::None, dtypes::kNumeric, kAllOperands, false, true, rules::same_as_operands, AdClass::Linear, "", "Negation; integers wrap."},
  {OpCode::Conj, "conj", "tfe_conj", OpGroup::Arithmetic, 1, 1, ParamsKind::None, dtypes::kNumeric, kAllOperands, false, true, rules::same_as_operands, AdClass::Linear, "", "Complex conjugate; the identity on real and integer values."},
  {OpCode::Abs, "abs", "tfe_abs", OpGroup::Arithmetic, 1, 1, ParamsKind::None, dtypes::kNumeric, kAllOperands, false, true, rules::real_of_operand, AdClass::Smooth, "", "Absolute value; complex input gives its real modulus, abs(MIN) wraps to MIN."},
  {OpCode::Sign, "sign", "tfe_sign", OpGroup::Arithmetic, 1, 1, ParamsKind::None, dtypes::kNumeric, kAllOperands, false, true, rules::same_as_operands, AdClass::Smooth, "", "-1, 0 or 1 (NaN stays NaN); z/|z| for complex z != 0, else 0."},
  {OpCode::Maximum, "maximum", "tfe_maximum", OpGroup::Arithmetic, 2, 2, ParamsKind::None, dtypes::kOrdered, kAllOperands, true, true, rules::same_as_operands, AdClass::Smooth, "C1 C2", "Elementwise maximum, NaN propagates; logical or on Bool."},
  {OpCode::Minimum, "minimum", "tfe_minimum", OpGroup::Arithmetic, 2, 2, ParamsKind::None, dtypes::kOrdered, kAllOperands, true, true, rules::same_as_operands, AdClass::Smooth, "C1 C2", "Elementwise minimum, NaN propagates; logical and on Bool."},
};
// clang-format on

} // namespace tfe::ops::defs
