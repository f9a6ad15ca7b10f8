// The numeric compositions of numeric.hpp, written once over the value type. The C entry points
// (capi/ops_numeric.cpp) instantiate them for the four value types, whose surface instances
// (eager/surface.hpp, ad/recording/recorded.hpp, dataflow/tensor/surface.hpp) they see. Where a
// function has two regimes (the tails of sigmoid, the larger operand of logaddexp and hypot), a
// select picks the branch, and both branches stay finite so that no NaN reaches a derivative
// through the branch not taken.
#pragma once

#include <array>
#include <cfloat>
#include <cmath>
#include <limits>
#include <string>

#include "core/error.hpp"
#include "eager/numeric.hpp"

namespace tfe::eager::numeric {
namespace detail {

using ops::CompareDir;
using ops::OpCode;

inline constexpr double kInf = std::numeric_limits<double>::infinity();
inline constexpr double kPi = 3.14159265358979323846;

template <class V> DType dtype_of(const V& v) { return meta_of(v).dtype; }

template <class V> V op1(OpCode c, const V& x, const ops::Params& p = ops::NoParams{}) {
  std::array<V, 1> in{x};
  return call<V>(c, std::span<const V>(in), p);
}
template <class V> V op2(OpCode c, const V& a, const V& b, const ops::Params& p = ops::NoParams{}) {
  std::array<V, 2> in{a, b};
  return call<V>(c, std::span<const V>(in), p);
}
template <class V> V select(const V& p, const V& a, const V& b) {
  std::array<V, 3> in{p, a, b};
  return call<V>(OpCode::Select, std::span<const V>(in));
}
template <class V> V cmp(const V& a, const V& b, CompareDir d) {
  return op2(OpCode::Compare, a, b, ops::CompareParams{d});
}

// The constant c as a rank-0 value of dtype d (it broadcasts against any operand).
template <class V> V lit(double c, DType d) {
  return cast(literal(Tensor::scalar(c), static_cast<const V*>(nullptr)), d);
}

// x as an inexact value: Bool and integers in F64, as NumPy's float functions.
template <class V> V inexact(const V& x) {
  DType d = dtype_of(x);
  return is_inexact(d) ? x : cast(x, DType::F64);
}

template <class V> V real_float(const V& x) {
  V f = inexact(x);
  if (is_complex(dtype_of(f)))
    fail(Status::DtypeMismatch, "complex input (%s) is not supported: real floats only",
         std::string(dtype_name(dtype_of(f))).c_str());
  return f;
}

// Both operands real floats of their common dtype.
template <class V> std::array<V, 2> real_pair(const V& a, const V& b) {
  V fa = real_float(a), fb = real_float(b);
  DType d = join(dtype_of(fa), dtype_of(fb));
  return {dtype_of(fa) == d ? fa : cast(fa, d), dtype_of(fb) == d ? fb : cast(fb, d)};
}

// The reduced axes, normalised; every axis when the list is empty.
inline Dims reduced_axes(std::span<const int64_t> axes, int64_t rank) {
  if (!axes.empty()) return normalize_axes(axes, rank);
  Dims all;
  for (int64_t d = 0; d < rank; ++d) all.push_back(d);
  return all;
}

// r (reduced over axes of a value of shape `in`) with the reduced dims back as extent 1.
template <class V> V keep(const V& r, const Shape& in, const Dims& axes) {
  Shape s = in;
  for (int64_t a : axes) s[static_cast<size_t>(a)] = Extent(1);
  return op1(OpCode::Reshape, r, ops::ReshapeParams{s});
}

template <class V>
V reduce_bool(const V& x, std::span<const int64_t> axes, bool keepdims, OpCode code) {
  DType d = dtype_of(x);
  V b = d == DType::Bool ? x : cmp(x, lit<V>(0.0, d), CompareDir::Ne);
  Shape sh = meta_of(x).shape;
  Dims ax = reduced_axes(axes, static_cast<int64_t>(sh.size()));
  V r = ax.empty() ? b : reduce(code, b, ax);
  return keepdims ? keep(r, sh, ax) : r;
}

} // namespace detail
using namespace detail; // the helpers read like the ops they emit

template <class V> V square(const V& x) { return op2(OpCode::Mul, x, x); }

template <class V> V reciprocal(const V& x) {
  V f = inexact(x);
  return op2(OpCode::Div, lit<V>(1.0, dtype_of(f)), f);
}

template <class V> V sigmoid(const V& x) {
  V f = inexact(x);
  DType d = dtype_of(f);
  if (is_complex(d)) { // holomorphic: 1/2 + tanh(x/2)/2
    V half = lit<V>(0.5, d);
    return op2(OpCode::Add, op2(OpCode::Mul, half, op1(OpCode::Tanh, op2(OpCode::Mul, half, f))),
               half);
  }
  // e = e^-|x| <= 1, with -|x| written as a select so that its derivative at 0 is -1 (not the
  // 0 of |x|'s subgradient); then 1/(1+e) for x >= 0 and e/(1+e) below.
  V pos = cmp(f, lit<V>(0.0, d), CompareDir::Ge);
  V e = op1(OpCode::Exp, select(pos, op1(OpCode::Neg, f), f));
  V one = lit<V>(1.0, d);
  V den = op2(OpCode::Add, one, e);
  return op2(OpCode::Div, select(pos, one, e), den);
}

template <class V> V logaddexp(const V& a0, const V& b0) {
  auto [a, b] = real_pair(a0, b0);
  DType d = dtype_of(a);
  // hi + log1p(e^(lo - hi)): the select gives ties one operand as hi and the other as lo, so
  // each gets half the gradient.
  V p = cmp(a, b, CompareDir::Ge);
  V hi = select(p, a, b), lo = select(p, b, a);
  V t = op2(OpCode::Sub, lo, hi); // <= 0, or NaN for equal infinities or a NaN operand
  V ok = cmp(t, t, CompareDir::Eq);
  V safe = select(ok, t, lit<V>(0.0, d));
  V r = op2(OpCode::Add, hi, op1(OpCode::Log1p, op1(OpCode::Exp, safe)));
  return select(ok, r, op2(OpCode::Add, a, b)); // inf + inf, -inf + -inf, or NaN
}

template <class V> V hypot(const V& a0, const V& b0) {
  auto [a, b] = real_pair(a0, b0);
  DType d = dtype_of(a);
  V aa = op1(OpCode::Abs, a), ab = op1(OpCode::Abs, b);
  V p = cmp(aa, ab, CompareDir::Ge);
  V hi = select(p, aa, ab), lo = select(p, ab, aa);
  V zero = lit<V>(0.0, d), one = lit<V>(1.0, d), inf = lit<V>(kInf, d);
  V r = op2(OpCode::Div, lo, select(cmp(hi, zero, CompareDir::Eq), one, hi));
  V h = op2(OpCode::Mul, hi, op1(OpCode::Sqrt, op2(OpCode::Add, one, op2(OpCode::Mul, r, r))));
  // An infinite operand wins even over NaN, as C's hypot.
  V any_inf = op2(OpCode::Or, cmp(aa, inf, CompareDir::Eq), cmp(ab, inf, CompareDir::Eq));
  return select(any_inf, inf, h);
}

template <class V> V angle(const V& z, bool deg) {
  V f = inexact(z);
  DType d = dtype_of(f);
  V r = is_complex(d) ? op2(OpCode::Atan2, op1(OpCode::Imag, f), op1(OpCode::Real, f))
                      : op2(OpCode::Atan2, lit<V>(0.0, d), f); // pi for negative x and -0
  return deg ? op2(OpCode::Mul, r, lit<V>(180.0 / kPi, dtype_of(r))) : r;
}

template <class V> V copysign(const V& a0, const V& b0) {
  auto [a, b] = real_pair(a0, b0);
  DType d = dtype_of(a);
  V zero = lit<V>(0.0, d);
  V m = op1(OpCode::Abs, a);
  // b < 0, or b = -0 (whose reciprocal is -inf).
  V neg_zero = op2(OpCode::And, cmp(b, zero, CompareDir::Eq),
                   cmp(op2(OpCode::Div, lit<V>(1.0, d), b), zero, CompareDir::Lt));
  V neg = op2(OpCode::Or, cmp(b, zero, CompareDir::Lt), neg_zero);
  return select(neg, op1(OpCode::Neg, m), m);
}

template <class V> V isnan(const V& x) { return cmp(x, x, CompareDir::Ne); }

template <class V> V isinf(const V& x) {
  DType d = dtype_of(x);
  if (!is_inexact(d)) return cmp(x, x, CompareDir::Ne); // all false
  if (is_complex(d))
    return op2(OpCode::Or, isinf(op1(OpCode::Real, x)), isinf(op1(OpCode::Imag, x)));
  return cmp(op1(OpCode::Abs, x), lit<V>(kInf, d), CompareDir::Eq);
}

template <class V> V isfinite(const V& x) {
  DType d = dtype_of(x);
  if (!is_inexact(d)) return cmp(x, x, CompareDir::Eq); // all true
  // x - x is 0 exactly for finite x and NaN for NaN and infinities (per part for complex).
  return cmp(op2(OpCode::Sub, x, x), lit<V>(0.0, d), CompareDir::Eq);
}

template <class V> V isclose(const V& a0, const V& b0, double rtol, double atol, bool equal_nan) {
  V a = inexact(a0), b = inexact(b0);
  DType d = join(dtype_of(a), dtype_of(b));
  if (dtype_of(a) != d) a = cast(a, d);
  if (dtype_of(b) != d) b = cast(b, d);
  DType r = real_dtype(d);
  V bound =
      op2(OpCode::Add, lit<V>(atol, r), op2(OpCode::Mul, lit<V>(rtol, r), op1(OpCode::Abs, b)));
  V near = cmp(op1(OpCode::Abs, op2(OpCode::Sub, a, b)), bound, CompareDir::Le);
  // An infinity is close only to itself (the bound is infinite too when b is).
  V finite = op2(OpCode::And, isfinite(a), isfinite(b));
  V close = op2(OpCode::Or, op2(OpCode::And, near, finite), cmp(a, b, CompareDir::Eq));
  if (equal_nan) close = op2(OpCode::Or, close, op2(OpCode::And, isnan(a), isnan(b)));
  return close;
}

template <class V> V allclose(const V& a, const V& b, double rtol, double atol, bool equal_nan) {
  return all(isclose(a, b, rtol, atol, equal_nan), {}, false);
}

template <class V>
V nan_to_num(const V& x, double nan, std::optional<double> posinf, std::optional<double> neginf) {
  DType d = dtype_of(x);
  if (!is_inexact(d)) return x;
  if (is_complex(d))
    return op2(OpCode::Complex, nan_to_num(op1(OpCode::Real, x), nan, posinf, neginf),
               nan_to_num(op1(OpCode::Imag, x), nan, posinf, neginf));
  const double big = d == DType::F32 ? static_cast<double>(FLT_MAX) : DBL_MAX;
  V y = select(isnan(x), lit<V>(nan, d), x);
  y = select(cmp(y, lit<V>(kInf, d), CompareDir::Eq), lit<V>(posinf.value_or(big), d), y);
  return select(cmp(y, lit<V>(-kInf, d), CompareDir::Eq), lit<V>(neginf.value_or(-big), d), y);
}

template <class V> V any(const V& x, std::span<const int64_t> axes, bool keepdims) {
  return reduce_bool(x, axes, keepdims, OpCode::ReduceMax);
}
template <class V> V all(const V& x, std::span<const int64_t> axes, bool keepdims) {
  return reduce_bool(x, axes, keepdims, OpCode::ReduceMin);
}

template <class V> V var(const V& x, std::span<const int64_t> axes, double ddof, bool keepdims) {
  if (!std::isfinite(ddof)) fail(Status::InvalidArgument, "ddof=%g is not a finite number", ddof);
  V f = inexact(x);
  Shape sh = meta_of(f).shape;
  Dims ax = reduced_axes(axes, static_cast<int64_t>(sh.size()));
  V m = ax.empty() ? f : keep(mean(f, ax), sh, ax);
  V dev = op2(OpCode::Sub, f, m);
  V d2;
  if (is_complex(dtype_of(dev))) {
    V re = op1(OpCode::Real, dev), im = op1(OpCode::Imag, dev);
    d2 = op2(OpCode::Add, op2(OpCode::Mul, re, re), op2(OpCode::Mul, im, im));
  } else {
    d2 = op2(OpCode::Mul, dev, dev);
  }
  V r = ax.empty() ? d2 : mean(d2, ax);
  if (ddof != 0) {
    double n = 1;
    for (int64_t a : ax) {
      Extent e = sh[static_cast<size_t>(a)];
      if (!e.is_const())
        fail(Status::InvalidArgument, "ddof=%g needs concrete extents, but axis %lld has extent %s",
             ddof, static_cast<long long>(a), to_string(e).c_str());
      n *= static_cast<double>(e.value());
    }
    // mean * n / (n - ddof); no degrees of freedom left is a division by zero, as NumPy.
    r = op2(OpCode::Mul, r, lit<V>(n > ddof ? n / (n - ddof) : kInf, dtype_of(r)));
  }
  return keepdims ? keep(r, sh, ax) : r;
}

template <class V> V stddev(const V& x, std::span<const int64_t> axes, double ddof, bool keepdims) {
  return op1(OpCode::Sqrt, var(x, axes, ddof, keepdims));
}

template <class V> V logsumexp(const V& x, std::span<const int64_t> axes, bool keepdims) {
  V f = real_float(x);
  DType d = dtype_of(f);
  Shape sh = meta_of(f).shape;
  Dims ax = reduced_axes(axes, static_cast<int64_t>(sh.size()));
  // m's derivative cancels exactly (log sum e^(x - m) + m), so the maximum needs no detaching; a
  // non-finite maximum is replaced by 0 so that x - m stays meaningful.
  V m = ax.empty() ? f : reduce(OpCode::ReduceMax, f, ax);
  m = select(isfinite(m), m, lit<V>(0.0, d));
  V mk = ax.empty() ? m : keep(m, sh, ax);
  V e = op1(OpCode::Exp, op2(OpCode::Sub, f, mk));
  V s = op2(OpCode::Add, op1(OpCode::Log, ax.empty() ? e : sum(e, ax)), m);
  return keepdims ? keep(s, sh, ax) : s;
}
} // namespace tfe::eager::numeric
