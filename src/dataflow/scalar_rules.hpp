// The scalar Var ops, one row per op: its value, which primal values its reverse task reads and
// which shared derivative formula (ad/formulas/elementwise.hpp) it is. The formulas are the very
// templates the program-AD rules emit as IR (ad/rules/ir_algebra.hpp), so both engines
// differentiate with one set of formulas; var_kernels.hpp evaluates them with ScalarAlgebra.
// Conventions (decision 0006): for a real loss L a complex leaf receives dL/dRe z + i dL/dIm z.
#pragma once

#include <cmath>
#include <complex>
#include <type_traits>

#include "dataflow/scalar_algebra.hpp"

namespace tfe::dataflow {

// The scalar types of Var ops: f32, f64, c32, c64.
template <class T>
concept Scalar = std::is_same_v<T, float> || std::is_same_v<T, double> ||
    std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;

namespace rules {

// Which primal values a reverse task reads (x: input, y: output; a, b for binary ops); the
// formula receives a default value for the others.
enum Needs : unsigned { kNone = 0, kX = 1, kY = 2, kA = 4, kB = 8 };

namespace f = ad::formulas;

// clang-format off
// ---- unary: value(x) ---------------------------------------------------------------------
struct Neg  { static constexpr const char* name = "neg";  static constexpr unsigned needs = kNone;
  template <class T> using result = T;  template <class A> using formula = f::Neg<A>;
  template <class T> static T value(const T& x) { return -x; } };
struct Conj { static constexpr const char* name = "conj"; static constexpr unsigned needs = kNone;
  template <class T> using result = T;  template <class A> using formula = f::Conj<A>;
  template <class T> static T value(const T& x) { return conj_of(x); } };
// Complex to real.
struct Abs  { static constexpr const char* name = "abs";  static constexpr unsigned needs = kX;
  template <class T> using result = real_t<T>;  template <class A> using formula = f::Abs<A>;
  template <class T> static real_t<T> value(const T& x) { return std::abs(x); } };
struct Real { static constexpr const char* name = "real"; static constexpr unsigned needs = kNone;
  template <class T> using result = real_t<T>;  template <class A> using formula = f::Real<A>;
  template <class T> static real_t<T> value(const T& x) { return std::real(x); } };
struct Imag { static constexpr const char* name = "imag"; static constexpr unsigned needs = kNone;
  template <class T> using result = real_t<T>;  template <class A> using formula = f::Imag<A>;
  template <class T> static real_t<T> value(const T& x) { return std::imag(x); } };

// ---- binary: value(a, b) ---------------------------------------------------------------------
struct Add { static constexpr const char* name = "add"; static constexpr unsigned needs = kNone;
  template <class A> using formula = f::Add<A>;
  template <class T> static T value(const T& a, const T& b) { return a + b; } };
struct Sub { static constexpr const char* name = "sub"; static constexpr unsigned needs = kNone;
  template <class A> using formula = f::Sub<A>;
  template <class T> static T value(const T& a, const T& b) { return a - b; } };
struct Mul { static constexpr const char* name = "mul"; static constexpr unsigned needs = kA | kB;
  template <class A> using formula = f::Mul<A>;
  template <class T> static T value(const T& a, const T& b) { return a * b; } };
struct Div { static constexpr const char* name = "div"; static constexpr unsigned needs = kB | kY;
  template <class A> using formula = f::Div<A>;
  template <class T> static T value(const T& a, const T& b) { return a / b; } };
struct Pow { static constexpr const char* name = "pow"; static constexpr unsigned needs = kA | kB | kY;
  template <class A> using formula = f::Pow<A>;
  template <class T> static T value(const T& a, const T& b) { return std::pow(a, b); } };
// clang-format on

// The values a reverse task keeps, from what the formula reads.
constexpr unsigned needs_unary(unsigned reads) {
  return ((reads & f::kReadsOperands) ? kX : 0u) | ((reads & f::kReadsOutput) ? kY : 0u);
}
constexpr unsigned needs_binary(unsigned reads) {
  return ((reads & f::kReadsOperands) ? kA | kB : 0u) | ((reads & f::kReadsOutput) ? kY : 0u);
}

// ---- the analytic ops: one row each from ops/defs/analytic.hpp (the Smooth ones), with the
// value of the CPU kernel's functor and the formula of the same name.
#define TFE_VAR_RULE_1(Code, op_name)                                                              \
  struct Code {                                                                                    \
    static constexpr const char* name = #op_name;                                                  \
    static constexpr unsigned needs = needs_unary(f::Code<ScalarAlgebra<double>>::reads);          \
    template <class T> using result = T;                                                           \
    template <class A> using formula = f::Code<A>;                                                 \
    template <class T> static T value(const T& x) { return cpu::analytic::Code{}(x); }             \
  };
#define TFE_VAR_RULE_2(Code, op_name)                                                              \
  struct Code {                                                                                    \
    static constexpr const char* name = #op_name;                                                  \
    static constexpr unsigned needs = needs_binary(f::Code<ScalarAlgebra<double>>::reads);         \
    template <class A> using formula = f::Code<A>;                                                 \
    template <class T> static T value(const T& a, const T& b) {                                    \
      return cpu::analytic::Code{}(a, b);                                                          \
    }                                                                                              \
  };
#define TFE_VAR_RULE_Smooth(Code, op_name, arity) TFE_VAR_RULE_##arity(Code, op_name)
#define TFE_VAR_RULE_ZeroDerivative(Code, op_name, arity)
#define TFE_VAR_RULE(Code, op_name, arity, accepts, ad, ...) TFE_VAR_RULE_##ad(Code, op_name, arity)
TFE_ANALYTIC_OPS(TFE_VAR_RULE)
#undef TFE_VAR_RULE
#undef TFE_VAR_RULE_ZeroDerivative
#undef TFE_VAR_RULE_Smooth
#undef TFE_VAR_RULE_2
#undef TFE_VAR_RULE_1

} // namespace rules
} // namespace tfe::dataflow
