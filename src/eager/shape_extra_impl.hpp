// Definitions of the shape helpers (shape_extra.hpp). Included only by the files that
// instantiate them for the value types (eager/shape_extra.cpp,
// ad/recording/shape_extra_instances.cpp, dataflow/tensor/shape_extra_instances.cpp), each in the
// layer that knows its type.
#pragma once

#include <algorithm>
#include <array>
#include <string>

#include "backend/device/plugin.hpp"
#include "core/error.hpp"
#include "eager/shape_extra.hpp"
#include "ops/shape_checks.hpp"

namespace tfe::eager {

namespace shape_detail {

template <class V> V op1(ops::OpCode code, const V& x, const ops::Params& p) {
  std::array<V, 1> in{x};
  return call<V>(code, std::span<const V>(in), p);
}

template <class V> V reshaped(const V& x, Shape shape) {
  return op1(ops::OpCode::Reshape, x, ops::ReshapeParams{std::move(shape)});
}

template <class V> V transposed(const V& x, Dims perm) {
  return op1(ops::OpCode::Transpose, x, ops::TransposeParams{std::move(perm)});
}

template <class V> Shape shape_of(const V& x) { return meta_of(x).shape; }

inline int64_t concrete(Extent e, int64_t axis, const char* what) {
  if (!e.is_const())
    fail(Status::InvalidArgument, "%s needs a concrete extent along axis %lld, not %s", what,
         static_cast<long long>(axis), to_string(e).c_str());
  return e.value();
}

// x[lo:hi] along axis (a view).
template <class V> V take(const V& x, int64_t axis, int64_t lo, int64_t hi) {
  Shape s = shape_of(x);
  ops::SliceParams p;
  p.starts.assign(s.size(), Extent(0));
  p.limits = s;
  p.strides.assign(s.size(), 1);
  p.starts[static_cast<size_t>(axis)] = Extent(lo);
  p.limits[static_cast<size_t>(axis)] = Extent(hi);
  return op1(ops::OpCode::Slice, x, p);
}

// index: a rank-1 I64 tensor on the host (made with the library's allocation, so a list too long
// for memory is OutOfMemory, not an abort).
template <class V> V gather_along(const V& x, const Tensor& index, int64_t axis) {
  std::array<V, 2> in{x, literal(index, static_cast<const V*>(nullptr))};
  return call<V>(ops::OpCode::Gather, std::span<const V>(in), ops::AxisParams{axis});
}

inline Dims identity_perm(size_t n) {
  Dims p(n);
  for (size_t i = 0; i < n; ++i) p[i] = static_cast<int64_t>(i);
  return p;
}

} // namespace shape_detail

template <class V> V squeeze(const V& x, std::span<const int64_t> axes) {
  Shape s = shape_detail::shape_of(x);
  std::vector<bool> drop(s.size(), false);
  if (axes.empty()) {
    for (size_t d = 0; d < s.size(); ++d) drop[d] = s[d] == Extent(1);
  } else {
    for (int64_t a : normalize_axes(axes, static_cast<int64_t>(s.size()))) {
      if (!(s[static_cast<size_t>(a)] == Extent(1)))
        fail(Status::InvalidArgument, "axis %lld has extent %s, not 1", static_cast<long long>(a),
             to_string(s[static_cast<size_t>(a)]).c_str());
      drop[static_cast<size_t>(a)] = true;
    }
  }
  Shape out;
  for (size_t d = 0; d < s.size(); ++d)
    if (!drop[d]) out.push_back(s[d]);
  return shape_detail::reshaped(x, std::move(out));
}

template <class V> V expand_dims(const V& x, std::span<const int64_t> axes) {
  Shape s = shape_detail::shape_of(x);
  int64_t rank = static_cast<int64_t>(s.size() + axes.size());
  std::vector<bool> added(static_cast<size_t>(rank), false);
  for (int64_t a : normalize_axes(axes, rank)) added[static_cast<size_t>(a)] = true;
  Shape out;
  size_t next = 0;
  for (int64_t d = 0; d < rank; ++d)
    out.push_back(added[static_cast<size_t>(d)] ? Extent(1) : s[next++]);
  return shape_detail::reshaped(x, std::move(out));
}

template <class V>
V moveaxis(const V& x, std::span<const int64_t> src, std::span<const int64_t> dst) {
  int64_t rank = static_cast<int64_t>(shape_detail::shape_of(x).size());
  if (src.size() != dst.size())
    fail(Status::InvalidArgument, "%zu source axes but %zu destination axes", src.size(),
         dst.size());
  Dims s = normalize_axes(src, rank), t = normalize_axes(dst, rank);
  Dims perm(static_cast<size_t>(rank), -1);
  for (size_t i = 0; i < s.size(); ++i) perm[static_cast<size_t>(t[i])] = s[i];
  size_t next = 0;
  for (int64_t a = 0; a < rank; ++a) {
    if (std::find(s.begin(), s.end(), a) != s.end()) continue;
    while (perm[next] != -1) ++next;
    perm[next] = a;
  }
  return shape_detail::transposed(x, std::move(perm));
}

template <class V> V swapaxes(const V& x, int64_t a, int64_t b) {
  int64_t rank = static_cast<int64_t>(shape_detail::shape_of(x).size());
  int64_t i = normalize_axis(a, rank), j = normalize_axis(b, rank);
  Dims perm = shape_detail::identity_perm(static_cast<size_t>(rank));
  std::swap(perm[static_cast<size_t>(i)], perm[static_cast<size_t>(j)]);
  return shape_detail::transposed(x, std::move(perm));
}

template <class V> V flatten(const V& x) {
  Extent n(1);
  for (Extent e : shape_detail::shape_of(x)) n = n * e;
  return shape_detail::reshaped(x, Shape{n});
}

template <class V>
std::vector<V> split(const V& x, int64_t sections, std::span<const int64_t> indices, int64_t axis) {
  Shape s = shape_detail::shape_of(x);
  int64_t ax = normalize_axis(axis, static_cast<int64_t>(s.size()));
  int64_t n = shape_detail::concrete(s[static_cast<size_t>(ax)], ax, "splitting");
  std::vector<int64_t> bounds{0};
  if (indices.empty()) {
    if (sections <= 0 || n % sections != 0)
      fail(Status::InvalidArgument, "%lld sections do not divide extent %lld equally",
           static_cast<long long>(sections), static_cast<long long>(n));
    for (int64_t i = 1; i < sections; ++i) bounds.push_back(n / sections * i);
  } else {
    // NumPy's split points: negative ones count from the end, then clamp into [0, n].
    for (int64_t i : indices) bounds.push_back(std::clamp(i < 0 ? i + n : i, int64_t{0}, n));
  }
  bounds.push_back(n);
  std::vector<V> out;
  for (size_t k = 0; k + 1 < bounds.size(); ++k)
    out.push_back(shape_detail::take(x, ax, bounds[k], std::max(bounds[k], bounds[k + 1])));
  return out;
}

template <class V> V tile(const V& x, std::span<const int64_t> reps) {
  for (int64_t r : reps)
    if (r < 0) fail(Status::InvalidArgument, "a repetition count is negative (%lld)", (long long)r);
  Shape s = shape_detail::shape_of(x);
  if (reps.size() > s.size()) s.resize(reps.size(), Extent(1));
  V v = shape_detail::reshaped(x, s);
  // Column-major: each dim d becomes the pair (d, copy), copy varying slower, so one broadcast
  // and one reshape place the copies one after another.
  Shape wide, merged;
  Dims dims;
  for (size_t d = 0; d < s.size(); ++d) {
    int64_t r = d < reps.size() ? reps[d] : 1;
    dims.push_back(static_cast<int64_t>(wide.size()));
    wide.push_back(s[d]);
    wide.push_back(Extent(r));
    merged.push_back(s[d] * Extent(r));
  }
  V b = shape_detail::op1(ops::OpCode::BroadcastInDim, v, ops::BroadcastInDimParams{wide, dims});
  return shape_detail::reshaped(b, std::move(merged));
}

template <class V> V repeat(const V& x, std::span<const int64_t> repeats, int64_t axis) {
  Shape s = shape_detail::shape_of(x);
  int64_t ax = normalize_axis(axis, static_cast<int64_t>(s.size()));
  for (int64_t r : repeats)
    if (r < 0) fail(Status::InvalidArgument, "a repeat count is negative (%lld)", (long long)r);
  if (repeats.size() == 1) {
    // Copy index fastest, then the element: a broadcast into a new dim before axis, merged.
    int64_t r = repeats[0];
    Shape wide;
    Dims dims;
    for (size_t d = 0; d < s.size(); ++d) {
      if (static_cast<int64_t>(d) == ax) wide.push_back(Extent(r));
      dims.push_back(static_cast<int64_t>(wide.size()));
      wide.push_back(s[d]);
    }
    Shape merged = s;
    merged[static_cast<size_t>(ax)] = s[static_cast<size_t>(ax)] * Extent(r);
    V b = shape_detail::op1(ops::OpCode::BroadcastInDim, x, ops::BroadcastInDimParams{wide, dims});
    return shape_detail::reshaped(b, std::move(merged));
  }
  int64_t n = shape_detail::concrete(s[static_cast<size_t>(ax)], ax, "repeating per element");
  if (static_cast<int64_t>(repeats.size()) != n)
    fail(Status::InvalidArgument, "%zu repeat counts for extent %lld along axis %lld (one or %lld)",
         repeats.size(), (long long)n, (long long)ax, (long long)n);
  // The result's index list is built in full: its length is checked against the element limit
  // first (a vector that long throws length_error, and the sum may overflow).
  int64_t total = 0;
  for (int64_t r : repeats)
    if (__builtin_add_overflow(total, r, &total) || total > kMaxElements)
      fail(Status::OutOfMemory, "the repeat counts add up to more than 2^48 elements");
  // An empty result (another extent is 0) needs no index list, whose length is the total: a pad
  // or a slice along the axis gives its shape.
  for (size_t d = 0; d < s.size(); ++d) {
    std::optional<int64_t> e = ops::decide_value(s[d]);
    if (static_cast<int64_t>(d) == ax || !e || *e != 0) continue;
    if (total < n) return shape_detail::take(x, ax, 0, total);
    ops::PadParams p{Shape(s.size(), Extent(0)), Shape(s.size(), Extent(0)), Dims(s.size(), 0)};
    p.high[static_cast<size_t>(ax)] = Extent(total - n);
    return shape_detail::op1(ops::OpCode::Pad, x, p);
  }
  Tensor index = Tensor::empty(DType::I64, {total});
  int64_t* at = index.data<int64_t>();
  for (int64_t i = 0; i < n; ++i) at = std::fill_n(at, repeats[i], i);
  return shape_detail::gather_along(x, index, ax);
}

template <class V>
V roll(const V& x, std::span<const int64_t> shifts, std::span<const int64_t> axes) {
  if (axes.empty()) {
    if (shifts.size() != 1)
      fail(Status::InvalidArgument, "without axes roll takes one shift, not %zu", shifts.size());
    std::array<int64_t, 1> zero{0};
    return shape_detail::reshaped(roll(flatten(x), shifts, zero), shape_detail::shape_of(x));
  }
  if (shifts.size() != axes.size())
    fail(Status::InvalidArgument, "%zu shifts for %zu axes (one per axis)", shifts.size(),
         axes.size());
  V v = x;
  int64_t rank = static_cast<int64_t>(shape_detail::shape_of(x).size());
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t ax = normalize_axis(axes[i], rank);
    int64_t n =
        shape_detail::concrete(shape_detail::shape_of(v)[static_cast<size_t>(ax)], ax, "rolling");
    if (n == 0) continue;
    // The shift modulo n in [0, n), without forming shift % n + n (n may be INT64_MAX).
    const int64_t r = shifts[i] % n;
    const int64_t k = r < 0 ? r + n : r;
    if (k == 0) continue;
    // The last k elements move to the front: two views joined.
    std::array<V, 2> parts{shape_detail::take(v, ax, n - k, n),
                           shape_detail::take(v, ax, 0, n - k)};
    v = concatenate(std::span<const V>(parts), ax);
  }
  return v;
}

template <class V> V diagonal(const V& x, int64_t offset, int64_t a, int64_t b) {
  Shape s = shape_detail::shape_of(x);
  int64_t rank = static_cast<int64_t>(s.size());
  if (rank < 2)
    fail(Status::InvalidArgument, "x has rank %lld; a diagonal needs rank >= 2", (long long)rank);
  int64_t i = normalize_axis(a, rank), j = normalize_axis(b, rank);
  if (i == j)
    fail(Status::InvalidArgument, "axis1 and axis2 are both dim %lld", static_cast<long long>(i));
  V v = x;
  if (offset != 0) {
    // Rows (offset < 0) or columns (offset > 0) before the diagonal's start are dropped; an
    // offset beyond the matrix leaves an empty diagonal.
    size_t dim = static_cast<size_t>(offset > 0 ? j : i);
    Extent skip(offset > 0 ? offset : -std::max(offset, -INT64_MAX));
    ops::SliceParams p;
    p.starts.assign(s.size(), Extent(0));
    p.limits = s;
    p.strides.assign(s.size(), 1);
    p.starts[dim] = min_extent(skip, s[dim]);
    v = shape_detail::op1(ops::OpCode::Slice, v, p);
  }
  V d = shape_detail::op1(ops::OpCode::ExtractDiag, v, ops::DiagParams{i, j});
  // The diagonal sits at axis i's place among the remaining dims; dim 0 is its place here.
  int64_t at = i < j ? i : i - 1;
  if (at == 0) return d;
  std::array<int64_t, 1> from{at}, to{0};
  return moveaxis(d, from, to);
}

template <class V> V diag(const V& x, int64_t k) {
  Shape s = shape_detail::shape_of(x);
  if (s.size() == 2) return diagonal(x, k, 0, 1);
  if (s.size() != 1)
    fail(Status::InvalidArgument, "x has shape %s; diag takes a vector or a matrix",
         ops::format_shape(s).c_str());
  // |k| rows and columns of padding: past the element limit no result exists (and the negation
  // of INT64_MIN does not either).
  if (k < -kMaxElements || k > kMaxElements)
    fail(Status::OutOfMemory,
         "offset k %lld makes a matrix above the limit of 2^48 elements per tensor",
         static_cast<long long>(k));
  V m = shape_detail::op1(ops::OpCode::EmbedDiag, x, ops::DiagParams{0, 1});
  if (k == 0) return m;
  Extent o(k > 0 ? k : -k);
  // Diagonal k > 0 of an (n+k)-square matrix: k zero columns before, k zero rows after.
  ops::PadParams p{k > 0 ? Shape{Extent(0), o} : Shape{o, Extent(0)},
                   k > 0 ? Shape{o, Extent(0)} : Shape{Extent(0), o}, Dims{0, 0}};
  return shape_detail::op1(ops::OpCode::Pad, m, p);
}

template <class V> V full_like(const V& x, const Tensor& fill) {
  Shape s = shape_detail::shape_of(x);
  if constexpr (std::is_same_v<V, Tensor>) {
    // A plain result owns compact storage, as tfe_full's does, on x's device (the fill's one
    // element is uploaded, then filled there).
    Tensor placed = x.device().is_cpu() ? fill : device::to_device(fill, x.device());
    return contiguous(
        shape_detail::op1(ops::OpCode::BroadcastInDim, placed, ops::BroadcastInDimParams{s, {}}));
  } else {
    V c = literal(fill, static_cast<const V*>(nullptr));
    return shape_detail::op1(ops::OpCode::BroadcastInDim, c, ops::BroadcastInDimParams{s, {}});
  }
}

#define TFE_SHAPE_EXTRA_INSTANCES(V)                                                               \
  template V squeeze<V>(const V&, std::span<const int64_t>);                                       \
  template V expand_dims<V>(const V&, std::span<const int64_t>);                                   \
  template V moveaxis<V>(const V&, std::span<const int64_t>, std::span<const int64_t>);            \
  template V swapaxes<V>(const V&, int64_t, int64_t);                                              \
  template V flatten<V>(const V&);                                                                 \
  template std::vector<V> split<V>(const V&, int64_t, std::span<const int64_t>, int64_t);          \
  template V tile<V>(const V&, std::span<const int64_t>);                                          \
  template V repeat<V>(const V&, std::span<const int64_t>, int64_t);                               \
  template V roll<V>(const V&, std::span<const int64_t>, std::span<const int64_t>);                \
  template V diagonal<V>(const V&, int64_t, int64_t, int64_t);                                     \
  template V diag<V>(const V&, int64_t);                                                           \
  template V full_like<V>(const V&, const Tensor&);

} // namespace tfe::eager
