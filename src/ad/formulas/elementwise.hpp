// The derivative formulas of the elementwise ops that both AD engines differentiate, written
// once (one formula source per op, decision 0018). Each is the op's JVP: from the primal
// operands x, the output y and the operand tangents dx (std::nullopt: a zero tangent) it gives
// the output tangent, linear (real-linear for complex values) in dx. The formulas are templates
// over a value algebra A:
//   ad/rules/ir_algebra.hpp        A::Value = graph::Value: the program-AD rules emit them as IR
//                                  (VJP = this JVP, then transposed);
//   dataflow/scalar_algebra.hpp    A::Value = a number: the dataflow engine evaluates them on
//                                  scalars and reads the VJP off unit tangents.
// An algebra provides: Value, Pred; add sub mul div neg conj real imag sign cos sin log pow;
// constant(like, c) (like's dtype and shape), is_complex(v), equal(v, c), both(p, q),
// select(p, a, b). real/imag keep one Value type (for numbers: a complex with zero imaginary
// part, for IR: the real dtype).
// Conventions (docs/program-ad.md, decision 0006): holomorphic ops have dy = f'(z) dz; pow's
// x-factor is 0 where x = p = 0 and its p-factor 0 where x = 0; abs of complex has dy =
// Re(conj(sign z) dz).
#pragma once

#include <optional>

namespace tfe::ad::formulas {

template <class A> using Tangent = std::optional<typename A::Value>;

namespace detail {
template <class A> Tangent<A> sum(const Tangent<A>& a, const Tangent<A>& b) {
  if (!a) return b;
  if (!b) return a;
  return A::add(*a, *b);
}
template <class A, class F> Tangent<A> scaled(const Tangent<A>& dx, F factor) {
  if (!dx) return std::nullopt;
  return A::mul(*dx, factor());
}
} // namespace detail

// ---- unary: jvp(x, y, dx) ---------------------------------------------------------------------
template <class A> struct Neg {
  using V = typename A::Value;
  static Tangent<A> jvp(const V&, const V&, const Tangent<A>& dx) {
    if (!dx) return std::nullopt;
    return A::neg(*dx);
  }
};
template <class A> struct Conj {
  using V = typename A::Value;
  static Tangent<A> jvp(const V&, const V&, const Tangent<A>& dx) {
    if (!dx) return std::nullopt;
    return A::conj(*dx);
  }
};
// Real x: sign(x) dx. Complex z: Re(conj(sign z) dz), a real tangent.
template <class A> struct Abs {
  using V = typename A::Value;
  static Tangent<A> jvp(const V& x, const V&, const Tangent<A>& dx) {
    if (!dx) return std::nullopt;
    V s = A::sign(x);
    if (!A::is_complex(x)) return A::mul(*dx, s);
    return A::real(A::mul(A::conj(s), *dx));
  }
};
template <class A> struct Real {
  using V = typename A::Value;
  static Tangent<A> jvp(const V&, const V&, const Tangent<A>& dx) {
    if (!dx) return std::nullopt;
    return A::real(*dx);
  }
};
template <class A> struct Imag {
  using V = typename A::Value;
  static Tangent<A> jvp(const V& x, const V&, const Tangent<A>& dx) {
    if (!dx || !A::is_complex(x)) return std::nullopt; // Im of a real is 0
    return A::imag(*dx);
  }
};

// ---- binary: jvp(x0, x1, y, dx0, dx1) ------------------------------------------------------
template <class A> struct Add {
  using V = typename A::Value;
  static Tangent<A> jvp(const V&, const V&, const V&, const Tangent<A>& d0, const Tangent<A>& d1) {
    return detail::sum<A>(d0, d1);
  }
};
template <class A> struct Sub {
  using V = typename A::Value;
  static Tangent<A> jvp(const V&, const V&, const V&, const Tangent<A>& d0, const Tangent<A>& d1) {
    if (!d1) return d0;
    if (!d0) return A::neg(*d1);
    return A::sub(*d0, *d1);
  }
};
template <class A> struct Mul {
  using V = typename A::Value;
  static Tangent<A> jvp(const V& x0, const V& x1, const V&, const Tangent<A>& d0,
                        const Tangent<A>& d1) {
    Tangent<A> t0, t1;
    if (d0) t0 = A::mul(*d0, x1);
    if (d1) t1 = A::mul(x0, *d1);
    return detail::sum<A>(t0, t1);
  }
};
// d(x0 / x1) = (dx0 - y dx1) / x1.
template <class A> struct Div {
  using V = typename A::Value;
  static Tangent<A> jvp(const V&, const V& x1, const V& y, const Tangent<A>& d0,
                        const Tangent<A>& d1) {
    Tangent<A> num = d0;
    if (d1) num = detail::sum<A>(num, Tangent<A>(A::neg(A::mul(y, *d1))));
    if (!num) return std::nullopt;
    return A::div(*num, x1);
  }
};
// d x^p = p x^(p-1) dx + log(x) x^p dp, with the x-factor 0 where x == 0 and p == 0 (0 * inf)
// and the p-factor 0 where x == 0. Only those exact points are overridden, so mixed second
// derivatives (d/dp of p x^(p-1) = x^(p-1) at p = 0) still flow.
template <class A> struct Pow {
  using V = typename A::Value;
  static Tangent<A> jvp(const V& x, const V& p, const V& y, const Tangent<A>& d0,
                        const Tangent<A>& d1) {
    Tangent<A> t0, t1;
    if (d0) {
      V factor = A::mul(p, A::pow(x, A::sub(p, A::constant(x, 1.0))));
      auto both_zero = A::both(A::equal(p, 0.0), A::equal(x, 0.0));
      factor = A::select(both_zero, A::constant(x, 0.0), factor);
      t0 = A::mul(*d0, factor);
    }
    if (d1) {
      V factor = A::mul(A::log(x), y);
      factor = A::select(A::equal(x, 0.0), A::constant(x, 0.0), factor);
      t1 = A::mul(*d1, factor);
    }
    return detail::sum<A>(t0, t1);
  }
};

} // namespace tfe::ad::formulas
