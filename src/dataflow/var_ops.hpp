// The ops on scalar Var<T> (T = float, double, complex<float>, complex<double>): + - * / and pow
// between Vars or with a plain scalar on either side, and the unary functions. Each schedules a
// forward task and, when an operand is tracked, a reverse task (var_kernels.hpp) from the op's row
// in scalar_rules.hpp. An operand whose gradient is sealed or finalized enters as a constant.
#pragma once

#include <type_traits>

#include "dataflow/var_kernels.hpp"

namespace tfe::dataflow {

template <class T> using scalar_arg = std::type_identity_t<T>;

#define TFE_DATAFLOW_BINARY(OPNAME, RULE)                                                          \
  template <Scalar T> Var<T> OPNAME(const Var<T>& a, const Var<T>& b) {                            \
    return detail::binary<rules::RULE, T>(&a, nullptr, &b, nullptr);                               \
  }                                                                                                \
  template <Scalar T> Var<T> OPNAME(const Var<T>& a, const scalar_arg<T>& b) {                     \
    return detail::binary<rules::RULE, T>(&a, nullptr, nullptr, &b);                               \
  }                                                                                                \
  template <Scalar T> Var<T> OPNAME(const scalar_arg<T>& a, const Var<T>& b) {                     \
    return detail::binary<rules::RULE, T>(nullptr, &a, &b, nullptr);                               \
  }

TFE_DATAFLOW_BINARY(operator+, Add)
TFE_DATAFLOW_BINARY(operator-, Sub)
TFE_DATAFLOW_BINARY(operator*, Mul)
TFE_DATAFLOW_BINARY(operator/, Div)
TFE_DATAFLOW_BINARY(pow, Pow)

#define TFE_DATAFLOW_UNARY(OPNAME, RULE)                                                           \
  template <Scalar T> auto OPNAME(const Var<T>& x) { return detail::unary<rules::RULE, T>(x); }

TFE_DATAFLOW_UNARY(operator-, Neg)
TFE_DATAFLOW_UNARY(abs, Abs) // Var<real_t<T>>
TFE_DATAFLOW_UNARY(conj, Conj)
TFE_DATAFLOW_UNARY(real, Real) // Var<real_t<T>>
TFE_DATAFLOW_UNARY(imag, Imag) // Var<real_t<T>>

// The analytic functions: one per Smooth row of ops/defs/analytic.hpp (sin, exp, atan2, ...).
#define TFE_DATAFLOW_ANALYTIC_1(op_name, Code) TFE_DATAFLOW_UNARY(op_name, Code)
#define TFE_DATAFLOW_ANALYTIC_2(op_name, Code) TFE_DATAFLOW_BINARY(op_name, Code)
#define TFE_DATAFLOW_ANALYTIC_Smooth(Code, op_name, arity)                                         \
  TFE_DATAFLOW_ANALYTIC_##arity(op_name, Code)
#define TFE_DATAFLOW_ANALYTIC_ZeroDerivative(Code, op_name, arity)
#define TFE_DATAFLOW_ANALYTIC(Code, op_name, arity, accepts, ad, ...)                              \
  TFE_DATAFLOW_ANALYTIC_##ad(Code, op_name, arity)
TFE_ANALYTIC_OPS(TFE_DATAFLOW_ANALYTIC)
#undef TFE_DATAFLOW_ANALYTIC
#undef TFE_DATAFLOW_ANALYTIC_ZeroDerivative
#undef TFE_DATAFLOW_ANALYTIC_Smooth
#undef TFE_DATAFLOW_ANALYTIC_2
#undef TFE_DATAFLOW_ANALYTIC_1
#undef TFE_DATAFLOW_UNARY
#undef TFE_DATAFLOW_BINARY

} // namespace tfe::dataflow
