// The scalar functions of the elementwise ops outside the analytic group (those are in
// analytic.hpp): arithmetic, logical, complex parts, comparison, clamp, select and convert. The
// single-op kernels map them over tensors, and the fused block interpreter (fused_steps.cpp)
// runs the same functors, so fused and unfused programs give the same bits.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "backend/cpu/kernels/scalar_math.hpp"
#include "backend/cpu/thread_budget.hpp"
#include "backend/cpu/vector_block.hpp"
#include "ops/params.hpp"

namespace tfe::cpu::functors {

// ---- arithmetic (ops/defs/arithmetic.hpp)
struct AddF {
  template <class T> T operator()(T a, T b) const { return wrap_add(a, b); }
};
struct SubF {
  template <class T> T operator()(T a, T b) const { return wrap_sub(a, b); }
};
struct MulF {
  template <class T> T operator()(T a, T b) const { return wrap_mul(a, b); }
};
struct DivF {
  template <class T> T operator()(T a, T b) const {
    if constexpr (is_integer_v<T>) {
      // Divisors were checked non-zero; MIN / -1 wraps to MIN.
      if (b == T(-1)) return wrap_neg(a);
      return static_cast<T>(a / b);
    } else {
      return a / b;
    }
  }
};
struct RemF {
  template <class T> T operator()(T a, T b) const {
    if constexpr (is_integer_v<T>) {
      if (b == T(-1)) return T(0); // MIN % -1 == 0
      return static_cast<T>(a % b);
    } else {
      return std::fmod(a, b);
    }
  }
};

template <class T> T int_pow(T base, T exp) {
  T result = T(1);
  while (exp > 0) {
    if (exp & 1) result = wrap_mul(result, base);
    base = wrap_mul(base, base);
    exp >>= 1;
  }
  return result;
}

struct PowF : VectorBlock<vec::Fn::Pow> {
  static constexpr int64_t grain = kGrainMedium;
  template <class T> T operator()(T a, T b) const {
    if constexpr (is_integer_v<T>) {
      return int_pow(a, b); // negative exponents were rejected
    } else if constexpr (is_complex_v<T>) {
      return complex_pow(a, b);
    } else {
      return std::pow(a, b);
    }
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
  template <class T> real_of_t<T> operator()(T a) const {
    if constexpr (is_integer_v<T>)
      return a < 0 ? wrap_neg(a) : a;
    else
      return std::abs(a);
  }
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

// ---- logical (ops/defs/logical.hpp): logical on Bool, bitwise on integers
struct AndF {
  template <class T> T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>)
      return a && b;
    else
      return static_cast<T>(a & b);
  }
};
struct OrF {
  template <class T> T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>)
      return a || b;
    else
      return static_cast<T>(a | b);
  }
};
struct XorF {
  template <class T> T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>)
      return a != b;
    else
      return static_cast<T>(a ^ b);
  }
};
struct NotF {
  template <class T> T operator()(T a) const {
    if constexpr (std::is_same_v<T, bool>)
      return !a;
    else
      return static_cast<T>(~a);
  }
};

// ---- complex parts (ops/defs/complex_parts.hpp)
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

// ---- comparison and selection (ops/defs/comparison.hpp)
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

struct ClampF {
  template <class T> T operator()(T x, T lo, T hi) const { return min_of(max_of(x, lo), hi); }
};
struct SelectF {
  template <class T> T operator()(bool c, T a, T b) const { return c ? a : b; }
};

// ---- convert (a structural op whose elementwise part is this cast)
template <class To> struct ConvertF {
  template <class From> To operator()(From v) const { return cast_value<To>(v); }
};

} // namespace tfe::cpu::functors
