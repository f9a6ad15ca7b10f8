// The derivative rules of the scalar Var ops, one row per op: its value and its Wirtinger
// partials, nothing else. var_kernels.hpp turns a row into a forward and a reverse task;
// var_ops.hpp names the ops. Conventions (ad-contract.md):
// - `partial` is df/dz for a holomorphic op (and for real T), or Wirtinger{df/dz, df/d(conj z)};
//   the VJP is  zbar = conj(df/dz) * ybar + df/d(conj z) * conj(ybar),  so a real loss L gives a
//   complex leaf dL/dRe z + i dL/dIm z.
// - `needs` says which primal values the reverse task reads (x: input, y: output; a, b for
//   binary ops); the partial receives a default value for the others.
// - The formulas match the program-AD rules of src/ad/rules/ (pow's conventions at 0 included).
#pragma once

#include <cmath>
#include <complex>
#include <type_traits>

namespace tfe::dataflow {

template <class T> struct real_of { using type = T; };
template <class T> struct real_of<std::complex<T>> { using type = T; };
template <class T> using real_t = typename real_of<T>::type;
template <class T> inline constexpr bool is_complex_v = !std::is_same_v<T, real_t<T>>;

// The scalar types of Var ops: f32, f64, c32, c64.
template <class T>
concept Scalar = std::is_same_v<T, float> || std::is_same_v<T, double> ||
    std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;

template <class T> T conj_of(const T& x) {
  if constexpr (is_complex_v<T>)
    return std::conj(x);
  else
    return x;
}

namespace rules {

// Partials of a non-holomorphic op.
template <class T> struct Wirtinger {
  T dz;
  T dconj;
};
template <class T> struct Partials2 {
  T da;
  T db;
};

enum Needs : unsigned { kNone = 0, kX = 1, kY = 2, kA = 4, kB = 8 };

// The VJP of one operand from its partial and the output cotangent (real or complex).
template <class T, class R> T vjp(const T& dz, const R& ybar) { return conj_of(dz) * T(ybar); }
template <class T, class R> T vjp(const Wirtinger<T>& d, const R& ybar) {
  T g(ybar);
  return conj_of(d.dz) * g + d.dconj * conj_of(g);
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

// clang-format off
// ---- unary: value(x), partial(x, y) ---------------------------------------------------------
struct Neg  { static constexpr const char* name = "neg";  static constexpr unsigned needs = kNone;
  template <class T> using result = T;
  template <class T> static T value(const T& x) { return -x; }
  template <class T> static T partial(const T&, const T&) { return T(-1); } };
struct Sin  { static constexpr const char* name = "sin";  static constexpr unsigned needs = kX;
  template <class T> using result = T;
  template <class T> static T value(const T& x) { return std::sin(x); }
  template <class T> static T partial(const T& x, const T&) { return std::cos(x); } };
struct Cos  { static constexpr const char* name = "cos";  static constexpr unsigned needs = kX;
  template <class T> using result = T;
  template <class T> static T value(const T& x) { return std::cos(x); }
  template <class T> static T partial(const T& x, const T&) { return -std::sin(x); } };
struct Tan  { static constexpr const char* name = "tan";  static constexpr unsigned needs = kY;
  template <class T> using result = T;
  template <class T> static T value(const T& x) { return std::tan(x); }
  template <class T> static T partial(const T&, const T& y) { return T(1) + y * y; } };
struct Tanh { static constexpr const char* name = "tanh"; static constexpr unsigned needs = kY;
  template <class T> using result = T;
  template <class T> static T value(const T& x) { return std::tanh(x); }
  template <class T> static T partial(const T&, const T& y) { return T(1) - y * y; } };
struct Exp  { static constexpr const char* name = "exp";  static constexpr unsigned needs = kY;
  template <class T> using result = T;
  template <class T> static T value(const T& x) { return std::exp(x); }
  template <class T> static T partial(const T&, const T& y) { return y; } };
struct Log  { static constexpr const char* name = "log";  static constexpr unsigned needs = kX;
  template <class T> using result = T;
  template <class T> static T value(const T& x) { return std::log(x); }
  template <class T> static T partial(const T& x, const T&) { return T(1) / x; } };
struct Sqrt { static constexpr const char* name = "sqrt"; static constexpr unsigned needs = kY;
  template <class T> using result = T;
  template <class T> static T value(const T& x) { return std::sqrt(x); }
  template <class T> static T partial(const T&, const T& y) { return T(1) / (T(2) * y); } };
struct Conj { static constexpr const char* name = "conj"; static constexpr unsigned needs = kNone;
  template <class T> using result = T;
  template <class T> static T value(const T& x) { return conj_of(x); }
  template <class T> static auto partial(const T&, const T&) {
    if constexpr (is_complex_v<T>) return Wirtinger<T>{T(0), T(1)}; else return T(1); } };
// Complex to real: |z| = sqrt(z conj z), Re z = (z + conj z)/2, Im z = (z - conj z)/(2i).
struct Abs  { static constexpr const char* name = "abs";  static constexpr unsigned needs = kX;
  template <class T> using result = real_t<T>;
  template <class T> static real_t<T> value(const T& x) { return std::abs(x); }
  template <class T> static auto partial(const T& x, const real_t<T>&) {
    T s = sign_of(x);
    if constexpr (is_complex_v<T>) return Wirtinger<T>{conj_of(s) / real_t<T>(2), s / real_t<T>(2)};
    else return s; } };
struct Real { static constexpr const char* name = "real"; static constexpr unsigned needs = kNone;
  template <class T> using result = real_t<T>;
  template <class T> static real_t<T> value(const T& x) { return std::real(x); }
  template <class T> static auto partial(const T&, const real_t<T>&) {
    if constexpr (is_complex_v<T>) return Wirtinger<T>{T(0.5), T(0.5)}; else return T(1); } };
struct Imag { static constexpr const char* name = "imag"; static constexpr unsigned needs = kNone;
  template <class T> using result = real_t<T>;
  template <class T> static real_t<T> value(const T& x) { return std::imag(x); }
  template <class T> static auto partial(const T&, const real_t<T>&) {
    if constexpr (is_complex_v<T>) return Wirtinger<T>{T(0, -0.5), T(0, 0.5)}; else return T(0); } };

// ---- binary: value(a, b), partials(a, b, y) = {df/da, df/db}, all holomorphic -----------------
struct Add { static constexpr const char* name = "add"; static constexpr unsigned needs = kNone;
  template <class T> static T value(const T& a, const T& b) { return a + b; }
  template <class T> static Partials2<T> partials(const T&, const T&, const T&) { return {T(1), T(1)}; } };
struct Sub { static constexpr const char* name = "sub"; static constexpr unsigned needs = kNone;
  template <class T> static T value(const T& a, const T& b) { return a - b; }
  template <class T> static Partials2<T> partials(const T&, const T&, const T&) { return {T(1), T(-1)}; } };
struct Mul { static constexpr const char* name = "mul"; static constexpr unsigned needs = kA | kB;
  template <class T> static T value(const T& a, const T& b) { return a * b; }
  template <class T> static Partials2<T> partials(const T& a, const T& b, const T&) { return {b, a}; } };
struct Div { static constexpr const char* name = "div"; static constexpr unsigned needs = kB | kY;
  template <class T> static T value(const T& a, const T& b) { return a / b; }
  template <class T> static Partials2<T> partials(const T&, const T& b, const T& y) { return {T(1) / b, -y / b}; } };
// d/da a^b = b a^(b-1), 0 when a = b = 0; d/db a^b = log(a) a^b, 0 at a = 0.
struct Pow { static constexpr const char* name = "pow"; static constexpr unsigned needs = kA | kB | kY;
  template <class T> static T value(const T& a, const T& b) { return std::pow(a, b); }
  template <class T> static Partials2<T> partials(const T& a, const T& b, const T& y) {
    T da = (a == T(0) && b == T(0)) ? T(0) : b * std::pow(a, b - T(1));
    T db = a == T(0) ? T(0) : std::log(a) * y;
    return {da, db}; } };
// clang-format on

} // namespace rules
} // namespace tfe::dataflow
