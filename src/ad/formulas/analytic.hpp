// The derivative formulas of the analytic ops (ops/defs/analytic.hpp), one per Smooth row, named
// like the op code: the rule table and the dataflow engine's scalar ops are generated from the
// rows and pick these by name, so a Smooth row without a formula does not compile. Same
// conventions and value algebras as elementwise.hpp. Every complex-accepting function here is
// holomorphic: dy = f'(z) dz, no conjugate. A formula reuses the output y where that saves work.
#pragma once

#include "ad/formulas/elementwise.hpp"
#include "ops/op_code.hpp"

namespace tfe::ad::formulas {

// What a formula reads besides the tangents (its `reads`): the primal operands, the primal output.
// The dataflow engine keeps exactly these for the reverse pass.
enum Reads : unsigned { kReadsOperands = 1, kReadsOutput = 2 };

// ---- unary: jvp(x, y, dx) ---------------------------------------------------------------------
template <class A> struct Sin {
  using V = typename A::Value;
  static constexpr unsigned reads = kReadsOperands;
  static Tangent<A> jvp(const V& x, const V&, const Tangent<A>& dx) {
    return detail::scaled<A>(dx, [&] { return A::cos(x); });
  }
};
template <class A> struct Cos {
  using V = typename A::Value;
  static constexpr unsigned reads = kReadsOperands;
  static Tangent<A> jvp(const V& x, const V&, const Tangent<A>& dx) {
    return detail::scaled<A>(dx, [&] { return A::neg(A::sin(x)); });
  }
};
// d tan = (1 + y^2) dx, d tanh = (1 - y^2) dx, d exp = y dx.
template <class A> struct Tan {
  using V = typename A::Value;
  static constexpr unsigned reads = kReadsOutput;
  static Tangent<A> jvp(const V&, const V& y, const Tangent<A>& dx) {
    return detail::scaled<A>(dx, [&] { return A::add(A::constant(y, 1.0), A::mul(y, y)); });
  }
};
template <class A> struct Tanh {
  using V = typename A::Value;
  static constexpr unsigned reads = kReadsOutput;
  static Tangent<A> jvp(const V&, const V& y, const Tangent<A>& dx) {
    return detail::scaled<A>(dx, [&] { return A::sub(A::constant(y, 1.0), A::mul(y, y)); });
  }
};
template <class A> struct Sinh {
  using V = typename A::Value;
  static constexpr unsigned reads = kReadsOperands;
  static Tangent<A> jvp(const V& x, const V&, const Tangent<A>& dx) {
    return detail::scaled<A>(dx, [&] { return A::template apply<ops::OpCode::Cosh>(x); });
  }
};
template <class A> struct Cosh {
  using V = typename A::Value;
  static constexpr unsigned reads = kReadsOperands;
  static Tangent<A> jvp(const V& x, const V&, const Tangent<A>& dx) {
    return detail::scaled<A>(dx, [&] { return A::template apply<ops::OpCode::Sinh>(x); });
  }
};
template <class A> struct Exp {
  using V = typename A::Value;
  static constexpr unsigned reads = kReadsOutput;
  static Tangent<A> jvp(const V&, const V& y, const Tangent<A>& dx) {
    return detail::scaled<A>(dx, [&] { return y; });
  }
};
// d expm1 = e^x dx = (y + 1) dx.
template <class A> struct Expm1 {
  using V = typename A::Value;
  static constexpr unsigned reads = kReadsOutput;
  static Tangent<A> jvp(const V&, const V& y, const Tangent<A>& dx) {
    return detail::scaled<A>(dx, [&] { return A::add(y, A::constant(y, 1.0)); });
  }
};
template <class A> struct Log {
  using V = typename A::Value;
  static constexpr unsigned reads = kReadsOperands;
  static Tangent<A> jvp(const V& x, const V&, const Tangent<A>& dx) {
    if (!dx) return std::nullopt;
    return A::div(*dx, x);
  }
};
template <class A> struct Log1p {
  using V = typename A::Value;
  static constexpr unsigned reads = kReadsOperands;
  static Tangent<A> jvp(const V& x, const V&, const Tangent<A>& dx) {
    if (!dx) return std::nullopt;
    return A::div(*dx, A::add(x, A::constant(x, 1.0)));
  }
};
template <class A> struct Sqrt {
  using V = typename A::Value;
  static constexpr unsigned reads = kReadsOutput;
  static Tangent<A> jvp(const V&, const V& y, const Tangent<A>& dx) {
    if (!dx) return std::nullopt;
    return A::div(*dx, A::mul(y, A::constant(y, 2.0)));
  }
};
// d x^(-1/2) = -1/2 x^(-3/2) dx = -1/2 y^3 dx: no division by x.
template <class A> struct Rsqrt {
  using V = typename A::Value;
  static constexpr unsigned reads = kReadsOutput;
  static Tangent<A> jvp(const V&, const V& y, const Tangent<A>& dx) {
    return detail::scaled<A>(dx,
                             [&] { return A::mul(A::mul(y, A::mul(y, y)), A::constant(y, -0.5)); });
  }
};
// d erf = 2/sqrt(pi) e^(-x^2) dx.
template <class A> struct Erf {
  using V = typename A::Value;
  static constexpr unsigned reads = kReadsOperands;
  static Tangent<A> jvp(const V& x, const V&, const Tangent<A>& dx) {
    return detail::scaled<A>(dx, [&] {
      V gauss = A::template apply<ops::OpCode::Exp>(A::neg(A::mul(x, x)));
      return A::mul(gauss, A::constant(x, 1.1283791670955126));
    });
  }
};

// ---- binary: jvp(x0, x1, y, dx0, dx1) ------------------------------------------------------
// atan2(a, b): d = (b da - a db) / (a^2 + b^2).
template <class A> struct Atan2 {
  using V = typename A::Value;
  static constexpr unsigned reads = kReadsOperands;
  static Tangent<A> jvp(const V& a, const V& b, const V&, const Tangent<A>& da,
                        const Tangent<A>& db) {
    if (!da && !db) return std::nullopt;
    Tangent<A> num;
    if (da) num = A::mul(*da, b);
    if (db) num = detail::sum<A>(num, A::neg(A::mul(*db, a)));
    return A::div(*num, A::add(A::mul(a, a), A::mul(b, b)));
  }
};

// ---- inverse functions, base-2/10 exponential and logarithms, erfc: jvp(x, y, dx) -----------
namespace detail {
// dx / d for a denominator d(x) built by `denominator`.
template <class A, class F> Tangent<A> over(const Tangent<A>& dx, F&& denominator) {
  if (!dx) return std::nullopt;
  return A::div(*dx, denominator());
}
} // namespace detail

// d asin = dx / sqrt(1 - x^2), d acos = -dx / sqrt(1 - x^2).
template <class A> struct Asin {
  using V = typename A::Value;
  static constexpr unsigned reads = kReadsOperands;
  static Tangent<A> jvp(const V& x, const V&, const Tangent<A>& dx) {
    return detail::over<A>(dx, [&] {
      return A::template apply<ops::OpCode::Sqrt>(A::sub(A::constant(x, 1.0), A::mul(x, x)));
    });
  }
};
template <class A> struct Acos {
  using V = typename A::Value;
  static constexpr unsigned reads = kReadsOperands;
  static Tangent<A> jvp(const V& x, const V&, const Tangent<A>& dx) {
    return detail::over<A>(dx, [&] {
      return A::neg(
          A::template apply<ops::OpCode::Sqrt>(A::sub(A::constant(x, 1.0), A::mul(x, x))));
    });
  }
};
// d atan = dx / (1 + x^2), d atanh = dx / (1 - x^2).
template <class A> struct Atan {
  using V = typename A::Value;
  static constexpr unsigned reads = kReadsOperands;
  static Tangent<A> jvp(const V& x, const V&, const Tangent<A>& dx) {
    return detail::over<A>(dx, [&] { return A::add(A::constant(x, 1.0), A::mul(x, x)); });
  }
};
template <class A> struct Atanh {
  using V = typename A::Value;
  static constexpr unsigned reads = kReadsOperands;
  static Tangent<A> jvp(const V& x, const V&, const Tangent<A>& dx) {
    return detail::over<A>(dx, [&] { return A::sub(A::constant(x, 1.0), A::mul(x, x)); });
  }
};
// d asinh = dx / sqrt(x^2 + 1).
template <class A> struct Asinh {
  using V = typename A::Value;
  static constexpr unsigned reads = kReadsOperands;
  static Tangent<A> jvp(const V& x, const V&, const Tangent<A>& dx) {
    return detail::over<A>(dx, [&] {
      return A::template apply<ops::OpCode::Sqrt>(A::add(A::mul(x, x), A::constant(x, 1.0)));
    });
  }
};
// d acosh = dx / (sqrt(x - 1) sqrt(x + 1)): the split product is the derivative of the principal
// branch off the real axis too, where sqrt(x^2 - 1) takes the other sign in half the plane.
template <class A> struct Acosh {
  using V = typename A::Value;
  static constexpr unsigned reads = kReadsOperands;
  static Tangent<A> jvp(const V& x, const V&, const Tangent<A>& dx) {
    return detail::over<A>(dx, [&] {
      return A::mul(A::template apply<ops::OpCode::Sqrt>(A::sub(x, A::constant(x, 1.0))),
                    A::template apply<ops::OpCode::Sqrt>(A::add(x, A::constant(x, 1.0))));
    });
  }
};
// d 2^x = ln 2 y dx, d log2 = dx / (x ln 2), d log10 = dx / (x ln 10).
template <class A> struct Exp2 {
  using V = typename A::Value;
  static constexpr unsigned reads = kReadsOutput;
  static Tangent<A> jvp(const V&, const V& y, const Tangent<A>& dx) {
    return detail::scaled<A>(dx, [&] { return A::mul(y, A::constant(y, 0.69314718055994530942)); });
  }
};
template <class A> struct Log2 {
  using V = typename A::Value;
  static constexpr unsigned reads = kReadsOperands;
  static Tangent<A> jvp(const V& x, const V&, const Tangent<A>& dx) {
    return detail::over<A>(dx, [&] { return A::mul(x, A::constant(x, 0.69314718055994530942)); });
  }
};
template <class A> struct Log10 {
  using V = typename A::Value;
  static constexpr unsigned reads = kReadsOperands;
  static Tangent<A> jvp(const V& x, const V&, const Tangent<A>& dx) {
    return detail::over<A>(dx, [&] { return A::mul(x, A::constant(x, 2.30258509299404568402)); });
  }
};
// d erfc = -2/sqrt(pi) e^(-x^2) dx.
template <class A> struct Erfc {
  using V = typename A::Value;
  static constexpr unsigned reads = kReadsOperands;
  static Tangent<A> jvp(const V& x, const V&, const Tangent<A>& dx) {
    return detail::scaled<A>(dx, [&] {
      V gauss = A::template apply<ops::OpCode::Exp>(A::neg(A::mul(x, x)));
      return A::mul(gauss, A::constant(x, -1.1283791670955126));
    });
  }
};

// ---- the gamma family: each derivative is the next function of the family ------------------
// d lgamma = digamma dx, d digamma = polygamma(1, x) dx, d polygamma(n, x) = polygamma(n + 1, x)
// dx. The order n is rounded to an integer by the function, so its derivative is zero.
template <class A> struct Lgamma {
  using V = typename A::Value;
  static constexpr unsigned reads = kReadsOperands;
  static Tangent<A> jvp(const V& x, const V&, const Tangent<A>& dx) {
    return detail::scaled<A>(dx, [&] { return A::template apply<ops::OpCode::Digamma>(x); });
  }
};
template <class A> struct Digamma {
  using V = typename A::Value;
  static constexpr unsigned reads = kReadsOperands;
  static Tangent<A> jvp(const V& x, const V&, const Tangent<A>& dx) {
    return detail::scaled<A>(
        dx, [&] { return A::template apply<ops::OpCode::Polygamma>(A::constant(x, 1.0), x); });
  }
};
// The order's tangent enters times 0, so that n gets a cotangent (zeros) like any other operand.
template <class A> struct Polygamma {
  using V = typename A::Value;
  static constexpr unsigned reads = kReadsOperands;
  static Tangent<A> jvp(const V& n, const V& x, const V&, const Tangent<A>& dn,
                        const Tangent<A>& dx) {
    Tangent<A> t = detail::scaled<A>(dx, [&] {
      return A::template apply<ops::OpCode::Polygamma>(A::add(n, A::constant(n, 1.0)), x);
    });
    if (dn) t = detail::sum<A>(t, Tangent<A>(A::mul(*dn, A::constant(n, 0.0))));
    return t;
  }
};

} // namespace tfe::ad::formulas
