// NumPy's shape helpers (squeeze, expand_dims, moveaxis, swapaxes, flatten, split, tile, repeat,
// roll, diag, diagonal) and the *_like constructors, over any value type of the op surface.
// Each is a composition of structural ops that already have derivative rules (reshape,
// transpose, slice, broadcast, concatenate, gather, pad, diagonal extraction), so every engine
// runs and differentiates them. Axes are column-major tensor dims and arrive normalised only
// where the comment says so; extents along a sliced or repeated axis must be concrete.
#pragma once

#include <span>
#include <vector>

#include "eager/surface.hpp"

namespace tfe::eager {

// Drops the listed axes (each of extent 1), or every extent-1 axis when axes is empty.
template <class V> V squeeze(const V& x, std::span<const int64_t> axes);
// Inserts extent-1 axes at the listed positions, counted in the result's rank.
template <class V> V expand_dims(const V& x, std::span<const int64_t> axes);
// Moves axes src[i] to positions dst[i]; the other axes keep their order.
template <class V>
V moveaxis(const V& x, std::span<const int64_t> src, std::span<const int64_t> dst);
template <class V> V swapaxes(const V& x, int64_t a, int64_t b);
// The column-major reshape to rank 1.
template <class V> V flatten(const V& x);
// Pieces along axis: `sections` equal ones (indices empty) or the ones between the split points
// `indices` (NumPy's clamping and negative points).
template <class V>
std::vector<V> split(const V& x, int64_t sections, std::span<const int64_t> indices, int64_t axis);
// x repeated reps[d] times along dim d; reps longer than the rank adds trailing dims, shorter
// reps leave the remaining dims alone (the library's left-aligned convention).
template <class V> V tile(const V& x, std::span<const int64_t> reps);
// Each element along axis repeated repeats[0] times (one count) or repeats[i] times (one per
// element).
template <class V> V repeat(const V& x, std::span<const int64_t> repeats, int64_t axis);
// Elements shifted by shifts[i] along axes[i], wrapping around; no axes: over the column-major
// flattening, shape kept.
template <class V>
V roll(const V& x, std::span<const int64_t> shifts, std::span<const int64_t> axes);
// The diagonal of dims (a, b) at offset k (above for k > 0), as dim 0; the other dims follow in
// their order (matrix dims first, batch dims after).
template <class V> V diagonal(const V& x, int64_t offset, int64_t a, int64_t b);
// A vector gives the square matrix with it on diagonal k; a matrix gives its diagonal k.
template <class V> V diag(const V& x, int64_t k);
// A tensor of x's shape with every element `fill` (a rank-0 tensor of the result's dtype): a
// constant, not a function of x's values.
template <class V> V full_like(const V& x, const Tensor& fill);

} // namespace tfe::eager
