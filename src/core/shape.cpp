// Implementation of the extent and axis helpers of shape.hpp.
#include "core/shape.hpp"

#include "core/error.hpp"

namespace tfe {

int64_t checked_numel(std::span<const int64_t> shape) {
  int64_t n = 1;
  bool zero = false;
  for (int64_t e : shape) {
    if (e < 0)
      fail(Status::InvalidArgument, "negative extent in shape %s", format_dims(shape).c_str());
    if (e == 0) zero = true;
  }
  if (zero) return 0;
  for (int64_t e : shape) {
    if (__builtin_mul_overflow(n, e, &n))
      fail(Status::Numerical, "shape %s has more than 2^63-1 elements", format_dims(shape).c_str());
  }
  if (n > kMaxElements)
    fail(Status::OutOfMemory,
         "shape %s has %lld elements, above the limit of 2^48 elements per tensor",
         format_dims(shape).c_str(), (long long)n);
  return n;
}

Dims compact_strides(std::span<const int64_t> shape) {
  // No element, nothing addressed: strides of 1 keep any arithmetic done on them small (the
  // running product over extents next to a zero may not even be representable).
  if (has_zero_extent(shape)) return Dims(shape.size(), 1);
  Dims s(shape.size());
  int64_t acc = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    s[i] = acc;
    acc *= shape[i];
  }
  return s;
}

bool is_compact(std::span<const int64_t> shape, std::span<const int64_t> strides) {
  if (has_zero_extent(shape)) return true; // first: the extents before a zero may overflow acc
  int64_t acc = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] != 1 && strides[i] != acc) return false;
    acc *= shape[i];
  }
  return true;
}

int64_t normalize_axis(int64_t axis, int64_t rank) {
  int64_t a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank)
    fail(Status::InvalidArgument, "axis %lld is out of range for rank %lld", (long long)axis,
         (long long)rank);
  return a;
}

Dims normalize_axes(std::span<const int64_t> axes, int64_t rank) {
  Dims out;
  out.reserve(axes.size());
  for (int64_t ax : axes) {
    int64_t a = normalize_axis(ax, rank);
    for (int64_t b : out)
      if (a == b)
        fail(Status::InvalidArgument, "axes %s contain axis %lld twice", format_dims(axes).c_str(),
             (long long)a);
    out.push_back(a);
  }
  return out;
}

bool is_permutation(std::span<const int64_t> perm) {
  std::vector<bool> seen(perm.size(), false);
  for (int64_t p : perm) {
    if (p < 0 || p >= static_cast<int64_t>(perm.size()) || seen[static_cast<size_t>(p)])
      return false;
    seen[static_cast<size_t>(p)] = true;
  }
  return true;
}

} // namespace tfe
