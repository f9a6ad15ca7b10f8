// The scalar functions of the analytic ops (ops/defs/analytic.hpp), one functor per row, named
// like the op code. The CPU kernels map them over tensors (analytic.cpp) and the dataflow
// engine's scalar ops call them directly, so each function is written once. A functor is
// instantiated only for the dtypes its row accepts.
#pragma once

#include <cmath>
#include <complex>

#include "backend/cpu/kernels/special_functions.hpp"
#include "backend/cpu/vector_block.hpp"
#include "backend/cpu/thread_budget.hpp"
#include "core/dtype.hpp"
#include "ops/op_code.hpp"

namespace tfe::cpu::analytic {

// Transcendentals cost tens of cycles per element: chunks of kGrainMedium. The optional bases
// give float and double runs the vectorised function of the same name (vector_math.hpp).
#define TFE_LIBM_FUNCTOR(Name, fn, ...)                                                            \
  struct Name __VA_ARGS__ {                                                                        \
    static constexpr int64_t grain = kGrainMedium;                                                 \
    template <class T> T operator()(T a) const { return std::fn(a); }                              \
  };
#define TFE_STD_FUNCTOR(Name, fn) TFE_LIBM_FUNCTOR(Name, fn, : VectorBlock<vec::Fn::Name>)
TFE_STD_FUNCTOR(Exp, exp)
TFE_STD_FUNCTOR(Log, log)
TFE_STD_FUNCTOR(Sin, sin)
TFE_STD_FUNCTOR(Cos, cos)
TFE_STD_FUNCTOR(Tan, tan)
TFE_STD_FUNCTOR(Tanh, tanh)
TFE_STD_FUNCTOR(Sinh, sinh)
TFE_STD_FUNCTOR(Cosh, cosh)
TFE_STD_FUNCTOR(Sqrt, sqrt)
TFE_STD_FUNCTOR(Erf, erf) // real only (the row accepts F32/F64)
TFE_STD_FUNCTOR(Floor, floor)
TFE_STD_FUNCTOR(Ceil, ceil)
TFE_STD_FUNCTOR(Round, nearbyint) // halves to even under the default rounding mode
TFE_STD_FUNCTOR(Trunc, trunc)     // real only (the row accepts F32/F64)
TFE_STD_FUNCTOR(Asin, asin)
TFE_STD_FUNCTOR(Acos, acos)
TFE_STD_FUNCTOR(Atan, atan)
TFE_STD_FUNCTOR(Asinh, asinh)
TFE_STD_FUNCTOR(Acosh, acosh)
TFE_STD_FUNCTOR(Atanh, atanh)
TFE_STD_FUNCTOR(Log10, log10)
#undef TFE_STD_FUNCTOR

struct Rsqrt : VectorBlock<vec::Fn::Rsqrt> {
  static constexpr int64_t grain = kGrainMedium;
  template <class T> T operator()(T a) const { return T(1) / std::sqrt(a); }
};

// Complex expm1/log1p keep their accuracy near 0 by working on the real and imaginary parts.
struct Expm1 : VectorBlock<vec::Fn::Expm1> {
  static constexpr int64_t grain = kGrainMedium;
  template <class T> T operator()(T a) const {
    if constexpr (is_complex_v<T>) {
      // expm1(x + iy) = expm1(x) cos y + (cos y - 1) + i e^x sin y, with cos y - 1 = -2 sin^2(y/2).
      auto x = a.real(), y = a.imag();
      if (y == 0) return T(std::expm1(x), y); // real axis: exact, and NaN + 0i stays so (as cexp)
      auto s = std::sin(y / 2);
      return T(std::expm1(x) * std::cos(y) - 2 * s * s, std::exp(x) * std::sin(y));
    } else {
      return std::expm1(a);
    }
  }
};

struct Log1p : VectorBlock<vec::Fn::Log1p> {
  static constexpr int64_t grain = kGrainMedium;
  template <class T> T operator()(T a) const {
    if constexpr (is_complex_v<T>) {
      // log1p(x + iy) = log|1 + z| + i arg(1 + z), |1 + z|^2 = 1 + (2x + x^2 + y^2).
      auto x = a.real(), y = a.imag();
      auto m = std::abs(T(x + 1, y));
      if (m > 0.5 && m < 2) return T(std::log1p(x * (2 + x) + y * y) / 2, std::atan2(y, x + 1));
      return T(std::log(m), std::atan2(y, x + 1));
    } else {
      return std::log1p(a);
    }
  }
};

// atan2(a, b) = the angle of the point (b, a): C's atan2(y = a, x = b).
struct Atan2 : VectorBlock<vec::Fn::Atan2> {
  static constexpr int64_t grain = kGrainMedium;
  template <class T> T operator()(T a, T b) const { return std::atan2(a, b); }
};

// erfc: a scalar loop only (SLEEF's vector erfc is specified to 1.5 ulp, above this library's
// 1 ulp bound).
TFE_LIBM_FUNCTOR(Erfc, erfc) // real only (the row accepts F32/F64)
#undef TFE_LIBM_FUNCTOR

// std:: has no complex exp2/log2: complex operands go through exp/log.
struct Exp2 : VectorBlock<vec::Fn::Exp2> {
  static constexpr int64_t grain = kGrainMedium;
  template <class T> T operator()(T a) const {
    if constexpr (is_complex_v<T>)
      return std::exp(a * typename T::value_type(0.69314718055994530942));
    else
      return std::exp2(a);
  }
};

struct Log2 : VectorBlock<vec::Fn::Log2> {
  static constexpr int64_t grain = kGrainMedium;
  template <class T> T operator()(T a) const {
    if constexpr (is_complex_v<T>)
      return std::log(a) * typename T::value_type(1.44269504088896340736); // 1 / ln 2
    else
      return std::log2(a);
  }
};

// The gamma family: scalar loops over Boost.Math (special_functions.cpp), real only (the rows
// accept F32/F64).
struct Lgamma {
  static constexpr int64_t grain = kGrainMedium;
  template <class T> T operator()(T a) const { return special::lgamma(a); }
};
struct Digamma {
  static constexpr int64_t grain = kGrainMedium;
  template <class T> T operator()(T a) const { return special::digamma(a); }
};
// polygamma(n, x): n is the order, rounded to the nearest integer.
struct Polygamma {
  static constexpr int64_t grain = kGrainMedium;
  template <class T> T operator()(T n, T x) const { return special::polygamma(n, x); }
};

// The functor of an analytic op code: functor_of<ops::OpCode::Exp> is Exp.
template <ops::OpCode> struct FunctorOf;
#define TFE_ANALYTIC_FUNCTOR_OF(Code, ...)                                                         \
  template <> struct FunctorOf<ops::OpCode::Code> { using type = Code; };
TFE_ANALYTIC_OPS(TFE_ANALYTIC_FUNCTOR_OF)
#undef TFE_ANALYTIC_FUNCTOR_OF
template <ops::OpCode Op> using functor_of = typename FunctorOf<Op>::type;

} // namespace tfe::cpu::analytic
