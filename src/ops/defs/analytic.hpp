// Rows of the analytic group. Kernels: backend/cpu/kernels/analytic.cpp.
#pragma once

#include "ops/defs/elementwise_rules.hpp"

namespace tfe::ops::defs {

#define TFE_ANALYTIC_ROW(code, name, accepts, ad, summary)                                         \
  OpDef {                                                                                          \
    OpCode::code, name, "tfe_" name, OpGroup::Analytic, 1, 1, ParamsKind::None, accepts,           \
        kAllOperands, false, true, rules::same_as_operands, ad, "", summary                        \
  }

inline constexpr OpDef kAnalytic[] = {
    TFE_ANALYTIC_ROW(Exp, "exp", dtypes::kInexact, AdClass::Smooth, "e^x."),
    TFE_ANALYTIC_ROW(Log, "log", dtypes::kInexact, AdClass::Smooth,
                     "Natural logarithm (principal branch for complex)."),
    TFE_ANALYTIC_ROW(Sin, "sin", dtypes::kInexact, AdClass::Smooth, "Sine."),
    TFE_ANALYTIC_ROW(Cos, "cos", dtypes::kInexact, AdClass::Smooth, "Cosine."),
    TFE_ANALYTIC_ROW(Tan, "tan", dtypes::kInexact, AdClass::Smooth, "Tangent."),
    TFE_ANALYTIC_ROW(Tanh, "tanh", dtypes::kInexact, AdClass::Smooth, "Hyperbolic tangent."),
    TFE_ANALYTIC_ROW(Sqrt, "sqrt", dtypes::kInexact, AdClass::Smooth,
                     "Square root (principal branch for complex)."),
    TFE_ANALYTIC_ROW(Rsqrt, "rsqrt", dtypes::kInexact, AdClass::Smooth, "1/sqrt(x)."),
    TFE_ANALYTIC_ROW(Expm1, "expm1", dtypes::kInexact, AdClass::Smooth,
                     "e^x - 1, accurate near 0."),
    TFE_ANALYTIC_ROW(Log1p, "log1p", dtypes::kInexact, AdClass::Smooth,
                     "log(1 + x), accurate near 0."),
    TFE_ANALYTIC_ROW(Floor, "floor", dtypes::kRealFloat, AdClass::ZeroDerivative,
                     "Largest integer value not above x."),
    TFE_ANALYTIC_ROW(Ceil, "ceil", dtypes::kRealFloat, AdClass::ZeroDerivative,
                     "Smallest integer value not below x."),
    TFE_ANALYTIC_ROW(Round, "round", dtypes::kRealFloat, AdClass::ZeroDerivative,
                     "Nearest integer value, halves to even (NumPy)."),
};

#undef TFE_ANALYTIC_ROW

} // namespace tfe::ops::defs
