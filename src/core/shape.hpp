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

// The most elements one tensor may hold (2^48). Below it, byte counts and element offsets of any
// dtype stay far from int64 overflow, so kernels index without checks; shapes with a zero extent
// hold no elements whatever their other extents, and are not limited.
inline constexpr int64_t kMaxElements = int64_t{1} << 48;

// Product of the extents; InvalidArgument on a negative, Numerical when it overflows int64,
// OutOfMemory naming the limit when it exceeds kMaxElements.
int64_t checked_numel(std::span<const int64_t> shape);

// Product without checks, for shapes already validated. Unsigned on purpose: a validated shape
// with a zero extent may have other extents whose product overflows ([INT64_MAX, 2, 0]), and a
// wrapping product with a zero factor is still exactly zero.
inline int64_t numel_of(std::span<const int64_t> shape) {
  uint64_t n = 1;
  for (int64_t e : shape) n *= static_cast<uint64_t>(e);
  return static_cast<int64_t>(n);
}

// True when some extent is zero: the tensor holds no element.
inline bool has_zero_extent(std::span<const int64_t> shape) {
  for (int64_t e : shape)
    if (e == 0) return true;
  return false;
}

// Compact column-major strides for shape; for a shape with no element (a zero extent), where
// strides address nothing, every stride is 1.
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
