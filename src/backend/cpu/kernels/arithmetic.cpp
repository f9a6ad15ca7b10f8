// CPU kernels of the arithmetic group (ops/defs/arithmetic.hpp).
#include <cmath>
#include <limits>

#include "backend/cpu/kernels/elementwise.hpp"
#include "backend/cpu/kernels/kernels.hpp"
#include "backend/cpu/kernels/scalar_math.hpp"
#include "backend/cpu/vector_block.hpp"

namespace tfe::cpu::kernels {
namespace {

using ops::OpCode;

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
      using R = typename T::value_type;
      if (is_zero(b)) return T(1);
      if (b.imag() == 0 && std::abs(b.real()) <= 64 && b.real() == std::nearbyint(b.real())) {
        // Small integer powers by squaring: exact for small Gaussian integers, as NumPy does.
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

// Integer division, remainder and power check their right operand before anything is written.
template <OpCode Op> void check_integer_rhs(std::span<const Tensor> in, const char* what) {
  const Tensor& b = in[1];
  visit_dtype(b.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_integer_v<T>) {
      bool bad = Op == OpCode::Pow ? any_element<T>(b, [](T v) { return v < 0; })
                                   : any_element<T>(b, [](T v) { return v == 0; });
      if (bad) fail(Status::Numerical, "integer %s", what);
    }
  });
}

} // namespace

Tensor add(std::span<const Tensor> in, const ops::Params&, const ops::ConcreteMeta& m) {
  return binary<OpCode::Add, AddF>(in, m);
}
Tensor sub(std::span<const Tensor> in, const ops::Params&, const ops::ConcreteMeta& m) {
  return binary<OpCode::Sub, SubF>(in, m);
}
Tensor mul(std::span<const Tensor> in, const ops::Params&, const ops::ConcreteMeta& m) {
  return binary<OpCode::Mul, MulF>(in, m);
}
Tensor div(std::span<const Tensor> in, const ops::Params&, const ops::ConcreteMeta& m) {
  check_integer_rhs<OpCode::Div>(in, "division by zero");
  return binary<OpCode::Div, DivF>(in, m);
}
Tensor rem(std::span<const Tensor> in, const ops::Params&, const ops::ConcreteMeta& m) {
  check_integer_rhs<OpCode::Rem>(in, "remainder by zero");
  return binary<OpCode::Rem, RemF>(in, m);
}
Tensor pow(std::span<const Tensor> in, const ops::Params&, const ops::ConcreteMeta& m) {
  check_integer_rhs<OpCode::Pow>(in, "power with a negative exponent");
  return binary<OpCode::Pow, PowF>(in, m);
}
Tensor neg(std::span<const Tensor> in, const ops::Params&, const ops::ConcreteMeta& m) {
  return unary<OpCode::Neg, NegF>(in, m);
}
Tensor conj(std::span<const Tensor> in, const ops::Params&, const ops::ConcreteMeta& m) {
  return unary<OpCode::Conj, ConjF>(in, m);
}
Tensor abs(std::span<const Tensor> in, const ops::Params&, const ops::ConcreteMeta& m) {
  return unary<OpCode::Abs, AbsF>(in, m);
}
Tensor sign(std::span<const Tensor> in, const ops::Params&, const ops::ConcreteMeta& m) {
  return unary<OpCode::Sign, SignF>(in, m);
}
Tensor maximum(std::span<const Tensor> in, const ops::Params&, const ops::ConcreteMeta& m) {
  return binary<OpCode::Maximum, MaxF>(in, m);
}
Tensor minimum(std::span<const Tensor> in, const ops::Params&, const ops::ConcreteMeta& m) {
  return binary<OpCode::Minimum, MinF>(in, m);
}

} // namespace tfe::cpu::kernels
