// The scalar functions of the arithmetic ops (ops/defs/arithmetic.hpp), one functor per row,
// named like the op code. The kernels (arithmetic.cpp) and the fused block interpreter map them
// over tensors; a functor is instantiated only for the dtypes its row accepts. A functor may
// declare `static void check(Operands)`: the kernel calls it before anything is written.
#pragma once

#include <cmath>
#include <complex>

#include "backend/cpu/kernels/elementwise.hpp"
#include "backend/cpu/kernels/scalar_math.hpp"
#include "backend/cpu/thread_budget.hpp"
#include "backend/cpu/vector_block.hpp"

namespace tfe::cpu::arithmetic {

// Integer division, remainder and power refuse a bad right operand (pred true) as a whole.
template <class Pred> void check_integer_rhs(Operands in, const char* what, Pred pred) {
  const Tensor& b = in[1];
  visit_dtype(b.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_integer_v<T>)
      if (kernels::any_element<T>(b, [&](T v) { return pred(v); }))
        fail(Status::Numerical, "integer %s", what);
  });
}

struct Add {
  template <class T> T operator()(T a, T b) const { return wrap_add(a, b); }
};
struct Sub {
  template <class T> T operator()(T a, T b) const { return wrap_sub(a, b); }
};
struct Mul {
  template <class T> T operator()(T a, T b) const { return wrap_mul(a, b); }
};
struct Div {
  static void check(Operands in) {
    check_integer_rhs(in, "division by zero", [](auto v) { return v == 0; });
  }
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
struct Rem {
  static void check(Operands in) {
    check_integer_rhs(in, "remainder by zero", [](auto v) { return v == 0; });
  }
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

struct Pow : VectorBlock<vec::Fn::Pow> {
  static constexpr int64_t grain = kGrainMedium;
  static void check(Operands in) {
    check_integer_rhs(in, "power with a negative exponent", [](auto v) { return v < 0; });
  }
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
struct Neg {
  template <class T> T operator()(T a) const { return wrap_neg(a); }
};
struct Conj {
  template <class T> T operator()(T a) const {
    if constexpr (is_complex_v<T>)
      return std::conj(a);
    else
      return a;
  }
};
struct Abs {
  template <class T> real_of_t<T> operator()(T a) const {
    if constexpr (is_integer_v<T>)
      return a < 0 ? wrap_neg(a) : a;
    else
      return std::abs(a);
  }
};
struct Sign {
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
struct Maximum {
  template <class T> T operator()(T a, T b) const { return max_of(a, b); }
};
struct Minimum {
  template <class T> T operator()(T a, T b) const { return min_of(a, b); }
};
// NaN loses to a number (NumPy's fmax and fmin); Bool and integers as maximum and minimum.
template <class Extremum> struct NanIgnoring {
  template <class T> T operator()(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (a != a) return b;
      if (b != b) return a;
    }
    return Extremum{}(a, b);
  }
};
struct Fmax : NanIgnoring<Maximum> {};
struct Fmin : NanIgnoring<Minimum> {};

} // namespace tfe::cpu::arithmetic
