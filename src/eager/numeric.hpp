// NumPy's numerically careful elementwise functions, predicates and reductions (logaddexp, hypot,
// sigmoid, isclose, var, logsumexp, ...) as compositions of the op surface, written once over the
// value type V (eager Tensor, traced graph::Value, recorded ad::recording::Recorded, dataflow
// TensorVar), so each runs and differentiates in every engine through ops that have rules.
// Axes are NumPy-style over the column-major dims; an empty list means every axis. The
// definitions are in numeric_impl.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "eager/surface.hpp"

namespace tfe::eager::numeric {

// x * x, dtype kept.
template <class V> V square(const V& x);
// 1 / x; Bool and integers in F64.
template <class V> V reciprocal(const V& x);
// 1 / (1 + e^-x) without overflow and with full relative accuracy in both tails (complex: through
// tanh); Bool and integers in F64.
template <class V> V sigmoid(const V& x);
// log(e^a + e^b) and sqrt(a^2 + b^2) without overflow or underflow; real floats (Bool and
// integers in F64).
template <class V> V logaddexp(const V& a, const V& b);
template <class V> V hypot(const V& a, const V& b);
// The argument in (-pi, pi] (0 or pi for real x), in degrees when deg.
template <class V> V angle(const V& z, bool deg);
// |a| with the sign of b (b = -0 counts as negative, as NumPy); real floats.
template <class V> V copysign(const V& a, const V& b);

// Predicates: Bool results, no derivative.
template <class V> V isnan(const V& x);
template <class V> V isinf(const V& x);
template <class V> V isfinite(const V& x);
// NumPy's |a - b| <= atol + rtol |b|, or a == b; equal_nan makes NaN close to NaN.
template <class V> V isclose(const V& a, const V& b, double rtol, double atol, bool equal_nan);
// Every element close: a rank-0 Bool.
template <class V> V allclose(const V& a, const V& b, double rtol, double atol, bool equal_nan);

// NaN to nan, +inf to posinf, -inf to neginf (defaults: the dtype's largest finite values), per
// part for complex; other dtypes are returned unchanged.
template <class V>
V nan_to_num(const V& x, double nan, std::optional<double> posinf, std::optional<double> neginf);

// Reductions with NumPy's keepdims.
template <class V> V any(const V& x, std::span<const int64_t> axes, bool keepdims);
template <class V> V all(const V& x, std::span<const int64_t> axes, bool keepdims);
// mean(|x - mean(x)|^2) with n - ddof in the denominator (real for complex x; Bool and integers
// in F64); ddof needs concrete extents.
template <class V> V var(const V& x, std::span<const int64_t> axes, double ddof, bool keepdims);
template <class V> V stddev(const V& x, std::span<const int64_t> axes, double ddof, bool keepdims);
// log(sum(e^x)) with the maximum taken out first; real floats.
template <class V> V logsumexp(const V& x, std::span<const int64_t> axes, bool keepdims);

} // namespace tfe::eager::numeric
