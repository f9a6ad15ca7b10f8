// Device functors of the elementwise ops, one per op of the op table, with the CPU backend's
// semantics (backend/cpu/kernels/arithmetic.hpp, logical.hpp, complex_parts.hpp, analytic.hpp and
// elementwise_functors.hpp): the same integer wrapping, division and remainder conventions, NaN
// handling and complex special cases. Each is instantiated only for the dtypes its row accepts
// (the tables in ew_*.cu).
#pragma once

#include <cuda/std/cmath>
#include <cuda/std/complex>

#include "backend/cuda/scalar_math.cuh"
#include "backend/cuda/special.cuh"

namespace tfe::cuda::fn {

// What a kernel hands every functor: the op's integer parameter and a device flag that integer
// division, remainder and power raise on a zero divisor or a negative exponent.
struct Base {
  int64_t param = 0;
  int* flag = nullptr;
  __device__ __forceinline__ void raise() const { atomicOr(flag, 1); }
};

namespace cs = ::cuda::std;

// ---- arithmetic
struct Add : Base {
  template <class T> __device__ T operator()(T a, T b) const { return wrap_add(a, b); }
};
struct Sub : Base {
  template <class T> __device__ T operator()(T a, T b) const { return wrap_sub(a, b); }
};
struct Mul : Base {
  template <class T> __device__ T operator()(T a, T b) const { return wrap_mul(a, b); }
};
struct Div : Base {
  template <class T> __device__ T operator()(T a, T b) const {
    if constexpr (is_integer_v<T>) {
      if (b == 0) {
        raise();
        return T(0);
      }
      if (b == T(-1)) return wrap_neg(a); // MIN / -1 wraps to MIN
      return static_cast<T>(a / b);
    } else {
      return a / b;
    }
  }
};
struct Rem : Base {
  template <class T> __device__ T operator()(T a, T b) const {
    if constexpr (is_integer_v<T>) {
      if (b == 0) {
        raise();
        return T(0);
      }
      if (b == T(-1)) return T(0); // MIN % -1 == 0
      return static_cast<T>(a % b);
    } else {
      return cs::fmod(a, b);
    }
  }
};

template <class T> __device__ T int_pow(T base, T exp) {
  T result = T(1);
  while (exp > 0) {
    if (exp & 1) result = wrap_mul(result, base);
    base = wrap_mul(base, base);
    exp >>= 1;
  }
  return result;
}
template <class T> __device__ T complex_int_pow(T base, int64_t n) {
  T result(1);
  while (n > 0) {
    if (n & 1) result = wrap_mul(result, base);
    base = wrap_mul(base, base);
    n >>= 1;
  }
  return result;
}

struct Pow : Base {
  template <class T> __device__ T operator()(T a, T b) const {
    if constexpr (is_integer_v<T>) {
      if (b < 0) {
        raise();
        return T(0);
      }
      return int_pow(a, b);
    } else if constexpr (is_complex_v<T>) {
      using R = real_of_t<T>;
      if (is_zero(b)) return T(1);
      if (b.imag() == 0 && cs::fabs(b.real()) <= 64 && b.real() == cs::rint(b.real())) {
        // Small integer powers by squaring: exact for small Gaussian integers, as NumPy does.
        int64_t n = static_cast<int64_t>(b.real());
        T r = complex_int_pow(a, n < 0 ? -n : n);
        return n < 0 ? T(R(1)) / r : r;
      }
      if (is_zero(a)) return b.real() > 0 ? T(0) : T(cs::numeric_limits<R>::quiet_NaN(), 0);
      return cs::pow(a, b);
    } else {
      return cs::pow(a, b);
    }
  }
};
struct Neg : Base {
  template <class T> __device__ T operator()(T a) const { return wrap_neg(a); }
};
struct Conj : Base {
  template <class T> __device__ T operator()(T a) const {
    if constexpr (is_complex_v<T>)
      return cs::conj(a);
    else
      return a;
  }
};
struct Abs : Base {
  template <class T> __device__ real_of_t<T> operator()(T a) const {
    if constexpr (is_integer_v<T>)
      return a < 0 ? wrap_neg(a) : a;
    else
      return cs::abs(a);
  }
};
struct Sign : Base {
  template <class T> __device__ T operator()(T a) const {
    if constexpr (is_complex_v<T>) {
      if (is_zero(a)) return T(0);
      auto m = cs::abs(a);
      return T(a.real() / m, a.imag() / m);
    } else if constexpr (std::is_floating_point_v<T>) {
      if (a != a) return a;
      return T((a > 0) - (a < 0));
    } else {
      return T((a > 0) - (a < 0));
    }
  }
};
struct Maximum : Base {
  template <class T> __device__ T operator()(T a, T b) const { return max_of(a, b); }
};
struct Minimum : Base {
  template <class T> __device__ T operator()(T a, T b) const { return min_of(a, b); }
};
// NaN loses to a number (fmax, fmin); Bool and integers as maximum and minimum.
template <class Extremum> struct NanIgnoring : Base {
  template <class T> __device__ T operator()(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (a != a) return b;
      if (b != b) return a;
    }
    return Extremum{}(a, b);
  }
};
struct Fmax : NanIgnoring<Maximum> {};
struct Fmin : NanIgnoring<Minimum> {};

// ---- logical: logical on Bool, bitwise on integers
struct And : Base {
  template <class T> __device__ T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>)
      return a && b;
    else
      return static_cast<T>(a & b);
  }
};
struct Or : Base {
  template <class T> __device__ T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>)
      return a || b;
    else
      return static_cast<T>(a | b);
  }
};
struct Xor : Base {
  template <class T> __device__ T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>)
      return a != b;
    else
      return static_cast<T>(a ^ b);
  }
};
struct Not : Base {
  template <class T> __device__ T operator()(T a) const {
    if constexpr (std::is_same_v<T, bool>)
      return !a;
    else
      return static_cast<T>(~a);
  }
};

// ---- complex parts
struct Real : Base {
  template <class T> __device__ real_of_t<T> operator()(T a) const {
    if constexpr (is_complex_v<T>)
      return a.real();
    else
      return a;
  }
};
struct Imag : Base {
  template <class T> __device__ real_of_t<T> operator()(T a) const {
    if constexpr (is_complex_v<T>)
      return a.imag();
    else
      return T(0);
  }
};
struct Complex : Base {
  template <class T> __device__ cs::complex<T> operator()(T re, T im) const { return {re, im}; }
};

// ---- comparison and selection; the direction is the op's parameter (0 eq .. 5 ge), checked
// by the entry (complex only eq and ne).
struct Compare : Base {
  template <class T> __device__ bool operator()(T a, T b) const {
    if (param == 0) return a == b;
    if (param == 1) return a != b;
    if constexpr (is_complex_v<T>) {
      return false;
    } else {
      if (param == 2) return a < b;
      if (param == 3) return a <= b;
      if (param == 4) return a > b;
      return a >= b;
    }
  }
};
struct Clamp : Base {
  template <class T> __device__ T operator()(T x, T lo, T hi) const {
    return min_of(max_of(x, lo), hi);
  }
};
struct Select : Base {
  template <class T> __device__ T operator()(bool c, T a, T b) const { return c ? a : b; }
};

// ---- analytic (ops/defs/analytic.hpp), named like the op codes
#define TFE_CUDA_STD_FUNCTOR(Name, f)                                                              \
  struct Name : Base {                                                                             \
    template <class T> __device__ T operator()(T a) const { return cs::f(a); }                     \
  };
TFE_CUDA_STD_FUNCTOR(Exp, exp)
TFE_CUDA_STD_FUNCTOR(Log, log)
TFE_CUDA_STD_FUNCTOR(Sin, sin)
TFE_CUDA_STD_FUNCTOR(Cos, cos)
TFE_CUDA_STD_FUNCTOR(Tan, tan)
TFE_CUDA_STD_FUNCTOR(Tanh, tanh)
TFE_CUDA_STD_FUNCTOR(Sinh, sinh)
TFE_CUDA_STD_FUNCTOR(Cosh, cosh)
TFE_CUDA_STD_FUNCTOR(Sqrt, sqrt)
TFE_CUDA_STD_FUNCTOR(Erf, erf)
TFE_CUDA_STD_FUNCTOR(Erfc, erfc)
TFE_CUDA_STD_FUNCTOR(Floor, floor)
TFE_CUDA_STD_FUNCTOR(Ceil, ceil)
TFE_CUDA_STD_FUNCTOR(Round, rint) // halves to even, as nearbyint under the default rounding
TFE_CUDA_STD_FUNCTOR(Trunc, trunc)
TFE_CUDA_STD_FUNCTOR(Asin, asin)
TFE_CUDA_STD_FUNCTOR(Acos, acos)
TFE_CUDA_STD_FUNCTOR(Atan, atan)
TFE_CUDA_STD_FUNCTOR(Asinh, asinh)
TFE_CUDA_STD_FUNCTOR(Acosh, acosh)
TFE_CUDA_STD_FUNCTOR(Atanh, atanh)
TFE_CUDA_STD_FUNCTOR(Log10, log10)
#undef TFE_CUDA_STD_FUNCTOR

struct Rsqrt : Base {
  template <class T> __device__ T operator()(T a) const { return T(1) / cs::sqrt(a); }
};

// Complex expm1/log1p work on the parts to stay accurate near 0 (the CPU backend's formulas).
struct Expm1 : Base {
  template <class T> __device__ T operator()(T a) const {
    if constexpr (is_complex_v<T>) {
      auto x = a.real(), y = a.imag();
      if (y == 0) return T(cs::expm1(x), y);
      auto s = cs::sin(y / 2);
      return T(cs::expm1(x) * cs::cos(y) - 2 * s * s, cs::exp(x) * cs::sin(y));
    } else {
      return cs::expm1(a);
    }
  }
};
struct Log1p : Base {
  template <class T> __device__ T operator()(T a) const {
    if constexpr (is_complex_v<T>) {
      auto x = a.real(), y = a.imag();
      auto m = cs::abs(T(x + 1, y));
      if (m > 0.5 && m < 2) return T(cs::log1p(x * (2 + x) + y * y) / 2, cs::atan2(y, x + 1));
      return T(cs::log(m), cs::atan2(y, x + 1));
    } else {
      return cs::log1p(a);
    }
  }
};
struct Atan2 : Base {
  template <class T> __device__ T operator()(T a, T b) const { return cs::atan2(a, b); }
};
struct Exp2 : Base {
  template <class T> __device__ T operator()(T a) const {
    if constexpr (is_complex_v<T>)
      return cs::exp(a * real_of_t<T>(0.69314718055994530942));
    else
      return cs::exp2(a);
  }
};
struct Log2 : Base {
  template <class T> __device__ T operator()(T a) const {
    if constexpr (is_complex_v<T>)
      return cs::log(a) * real_of_t<T>(1.44269504088896340736);
    else
      return cs::log2(a);
  }
};
// The gamma family in double, rounded once for F32 (as the CPU backend).
struct Lgamma : Base {
  template <class T> __device__ T operator()(T a) const {
    return static_cast<T>(::lgamma(static_cast<double>(a)));
  }
};
struct Digamma : Base {
  template <class T> __device__ T operator()(T a) const {
    return static_cast<T>(special::digamma(static_cast<double>(a)));
  }
};
struct Polygamma : Base {
  template <class T> __device__ T operator()(T n, T x) const {
    return static_cast<T>(special::polygamma(static_cast<double>(n), static_cast<double>(x)));
  }
};

} // namespace tfe::cuda::fn
