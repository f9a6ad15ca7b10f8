// The scalar functions of the non-analytic elementwise ops, for the fused block interpreter
// (fused_steps.cpp). They repeat, expression for expression, the functors the single-op kernels
// map (kernels/arithmetic.cpp, logical.cpp, comparison.cpp, complex_parts.cpp), which are local
// to those files; the fusion tests compare fused and unfused results bit for bit over every
// elementwise op, so a change on one side only fails them. The analytic ops share their
// functors directly (kernels/analytic.hpp).
#pragma once

#include <cmath>
#include <complex>
#include <limits>

#include "backend/cpu/kernels/scalar_math.hpp"
#include "backend/cpu/vector_block.hpp"
#include "ops/params.hpp"

namespace tfe::cpu::fused {

struct AddF {
  template <class T> T operator()(T a, T b) const { return wrap_add(a, b); }
};
struct SubF {
  template <class T> T operator()(T a, T b) const { return wrap_sub(a, b); }
};
struct MulF {
  template <class T> T operator()(T a, T b) const { return wrap_mul(a, b); }
};
// Floating point only: integer regions are never fused.
struct DivF {
  template <class T> T operator()(T a, T b) const { return a / b; }
};
struct RemF {
  template <class T> T operator()(T a, T b) const { return std::fmod(a, b); }
};

struct PowF : VectorBlock<vec::Fn::Pow> {
  template <class T> T operator()(T a, T b) const {
    if constexpr (is_complex_v<T>) {
      using R = typename T::value_type;
      if (is_zero(b)) return T(1);
      if (b.imag() == 0 && std::abs(b.real()) <= 64 && b.real() == std::nearbyint(b.real())) {
        int64_t n = static_cast<int64_t>(b.real());
        T r = int_pow_complex(a, n < 0 ? -n : n);
        return n < 0 ? T(R(1)) / r : r;
      }
      if (is_zero(a)) return b.real() > 0 ? T(0) : T(std::numeric_limits<R>::quiet_NaN(), 0);
      return std::pow(a, b);
    } else {
      return std::pow(a, b);
    }
  }
  template <class T> static T int_pow_complex(T base, int64_t n) {
    T result(1);
    while (n > 0) {
      if (n & 1) result = wrap_mul(result, base);
      base = wrap_mul(base, base);
      n >>= 1;
    }
    return result;
  }
};
struct NegF {
  template <class T> T operator()(T a) const { return wrap_neg(a); }
};
struct ConjF {
  template <class T> T operator()(T a) const {
    if constexpr (is_complex_v<T>)
      return std::conj(a);
    else
      return a;
  }
};
struct AbsF {
  template <class T> real_of_t<T> operator()(T a) const { return std::abs(a); }
};
struct SignF {
  template <class T> T operator()(T a) const {
    if constexpr (is_complex_v<T>) {
      if (is_zero(a)) return T(0);
      return a / std::abs(a);
    } else if constexpr (std::is_floating_point_v<T>) {
      if (a != a) return a;
      return T((a > 0) - (a < 0));
    } else {
      return T((a > 0) - (a < 0));
    }
  }
};
struct MaxF {
  template <class T> T operator()(T a, T b) const { return max_of(a, b); }
};
struct MinF {
  template <class T> T operator()(T a, T b) const { return min_of(a, b); }
};

// Logical ops: the fused dtypes include Bool only.
struct AndF {
  bool operator()(bool a, bool b) const { return a && b; }
};
struct OrF {
  bool operator()(bool a, bool b) const { return a || b; }
};
struct XorF {
  bool operator()(bool a, bool b) const { return a != b; }
};
struct NotF {
  bool operator()(bool a) const { return !a; }
};

struct RealF {
  template <class T> real_of_t<T> operator()(T a) const {
    if constexpr (is_complex_v<T>)
      return a.real();
    else
      return a;
  }
};
struct ImagF {
  template <class T> real_of_t<T> operator()(T a) const {
    if constexpr (is_complex_v<T>)
      return a.imag();
    else
      return T(0);
  }
};
struct ComplexF {
  template <class T> std::complex<T> operator()(T re, T im) const { return {re, im}; }
};

template <ops::CompareDir D> struct CompareF {
  template <class T> bool operator()(T a, T b) const {
    if constexpr (D == ops::CompareDir::Eq)
      return a == b;
    else if constexpr (D == ops::CompareDir::Ne)
      return a != b;
    else if constexpr (is_complex_v<T>)
      return false; // rejected by the shape rule
    else if constexpr (D == ops::CompareDir::Lt)
      return a < b;
    else if constexpr (D == ops::CompareDir::Le)
      return a <= b;
    else if constexpr (D == ops::CompareDir::Gt)
      return a > b;
    else
      return a >= b;
  }
};

struct SelectF {
  template <class T> T operator()(bool c, T a, T b) const { return c ? a : b; }
};
struct ClampF {
  template <class T> T operator()(T x, T lo, T hi) const { return min_of(max_of(x, lo), hi); }
};
template <class To> struct ConvertF {
  template <class From> To operator()(From v) const { return cast_value<To>(v); }
};

} // namespace tfe::cpu::fused
