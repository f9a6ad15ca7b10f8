// Extents, strides and axes: the small helpers every layer uses. Layout is column-major
// (dimension 0 fastest); strides are signed and counted in elements.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/small_vector.hpp"

namespace tfe {

// Extents, strides or axes. Inline room for 6 entries covers nearly every tensor without a
// heap allocation (see small_vector.hpp).
using Dims = SmallVector<int64_t, 6>;

// Product of the extents; Numerical error when it overflows int64, InvalidArgument on a negative.
int64_t checked_numel(std::span<const int64_t> shape);

// Product without checks, for shapes already validated.
inline int64_t numel_of(std::span<const int64_t> shape) {
  int64_t n = 1;
  for (int64_t e : shape) n *= e;
  return n;
}

// Compact column-major strides for shape.
Dims compact_strides(std::span<const int64_t> shape);

// True when strides describe the compact column-major layout of shape (extent-1 dims ignored).
bool is_compact(std::span<const int64_t> shape, std::span<const int64_t> strides);

// Maps a NumPy-style axis (negative counts from the end) into [0, rank); InvalidArgument names
// the axis and the rank when it is out of range.
int64_t normalize_axis(int64_t axis, int64_t rank);

// Normalises each axis and rejects duplicates (InvalidArgument).
Dims normalize_axes(std::span<const int64_t> axes, int64_t rank);

// True when perm is a permutation of 0..n-1.
bool is_permutation(std::span<const int64_t> perm);

} // namespace tfe
