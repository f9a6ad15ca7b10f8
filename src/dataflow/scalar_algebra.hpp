// The value algebra of the shared derivative formulas (ad/formulas/elementwise.hpp, analytic.hpp)
// over one scalar type S (float, double, complex<float>, complex<double>), and the VJP of a scalar
// op read off its JVP formula. Neighbours: scalar_rules.hpp (the ops), var_kernels.hpp (their
// tasks).
#pragma once

#include <cmath>
#include <complex>
#include <optional>
#include <type_traits>

#include "ad/formulas/analytic.hpp"
#include "backend/cpu/kernels/analytic.hpp"

namespace tfe::dataflow {

template <class T> struct real_of { using type = T; };
template <class T> struct real_of<std::complex<T>> { using type = T; };
template <class T> using real_t = typename real_of<T>::type;
// is_complex_v: core/dtype.hpp (through the analytic functors).

template <class T> T conj_of(const T& x) {
  if constexpr (is_complex_v<T>)
    return std::conj(x);
  else
    return x;
}

// z / |z|, 0 at 0.
template <class T> T sign_of(const T& x) {
  if constexpr (is_complex_v<T>) {
    real_t<T> m = std::abs(x);
    return m == 0 ? T(0) : x / m;
  } else {
    return T((x > 0) - (x < 0));
  }
}

template <class S> struct ScalarAlgebra {
  using Value = S;
  using Pred = bool;
  static S add(const S& a, const S& b) { return a + b; }
  static S sub(const S& a, const S& b) { return a - b; }
  static S mul(const S& a, const S& b) { return a * b; }
  static S div(const S& a, const S& b) { return a / b; }
  static S neg(const S& a) { return -a; }
  static S conj(const S& a) { return conj_of(a); }
  static S real(const S& a) { return S(std::real(a)); }
  static S imag(const S& a) { return S(std::imag(a)); }
  static S sign(const S& a) { return sign_of(a); }
  static S cos(const S& a) { return std::cos(a); }
  static S sin(const S& a) { return std::sin(a); }
  static S log(const S& a) { return std::log(a); }
  static S pow(const S& a, const S& b) { return std::pow(a, b); }
  // A unary analytic op by its code: the very function its CPU kernel maps.
  template <ops::OpCode Op> static S apply(const S& a) {
    return cpu::analytic::functor_of<Op>{}(a);
  }
  template <ops::OpCode Op> static S apply(const S& a, const S& b) {
    return cpu::analytic::functor_of<Op>{}(a, b);
  }
  static S constant(const S&, double c) { return S(static_cast<real_t<S>>(c)); }
  static bool is_complex(const S&) { return is_complex_v<S>; }
  static bool equal(const S& v, double c) { return v == constant(v, c); }
  static bool both(bool p, bool q) { return p && q; }
  static S select(bool p, const S& a, const S& b) { return p ? a : b; }
};

// The cotangent of one operand of type T from a JVP `jvp(dx)` that is real-linear in dx:
// dy = a dx + b conj(dx), so jvp(1) = a + b and jvp(i) = i (a - b); then (decision 0006)
// xbar = conj(a) ybar + b conj(ybar). ybar has the output's type (real for abs, real, imag).
template <class T, class R, class Jvp> T vjp_from_jvp(Jvp jvp, const R& ybar) {
  if constexpr (!is_complex_v<T>) {
    T a = jvp(T(1)).value_or(T(0));
    return a * T(ybar);
  } else {
    const T i(0, 1);
    T j1 = jvp(T(1)).value_or(T(0));
    T ji = jvp(i).value_or(T(0));
    T a = (j1 - i * ji) / real_t<T>(2);
    T b = (j1 + i * ji) / real_t<T>(2);
    T g(ybar);
    return std::conj(a) * g + b * std::conj(g);
  }
}

} // namespace tfe::dataflow
