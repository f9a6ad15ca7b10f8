// The index logic of the plugin entries gather, scatter, scan, arg_extremum and argsort
// (plugin_abi.h): what one thread does for one element or one line. The CUDA plugin's kernels
// (src/backend/cuda/indexing.cu, order.cu) and the host-memory test double
// (tests/device/fake_plugin.cpp) both call these functions, so the suites that run on the double in
// every build exercise the very index arithmetic the GPU runs. Header-only, free of CUDA and of
// the library's types: element types and their arithmetic come from the caller.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "backend/device/plugin_abi.h"

#ifdef __CUDACC__
#define TFE_HOST_DEVICE __host__ __device__
#else
#define TFE_HOST_DEVICE
#endif

namespace tfe::kernel_bodies {

// ---- indexing along dim 1 of 3-D views (gather and scatter-add, mode AXIS) ----

// The big side is [inner, extent, outer], the small side [inner, n, outer], the index [n].
struct AxisGeometry {
  int64_t inner = 0, n = 0, outer = 0, extent = 0;
  int64_t big[3] = {0, 0, 0}, small[3] = {0, 0, 0};
  int64_t index_stride = 0;
};

inline AxisGeometry axis_geometry(const tfe_dev_view& big, const tfe_dev_view& small,
                                  const tfe_dev_view& index) {
  AxisGeometry g;
  g.inner = small.shape[0];
  g.n = small.shape[1];
  g.outer = small.shape[2];
  g.extent = big.shape[1];
  for (int d = 0; d < 3; ++d) {
    g.big[d] = big.strides[d];
    g.small[d] = small.strides[d];
  }
  g.index_stride = index.rank == 1 ? index.strides[0] : 0;
  return g;
}

template <class I>
TFE_HOST_DEVICE inline int64_t index_at(const I* index, int64_t stride, int64_t j) {
  return static_cast<int64_t>(index[j * stride]);
}

TFE_HOST_DEVICE inline bool in_range(int64_t v, int64_t extent) { return v >= 0 && v < extent; }

// Element e (column-major) of the small side of a gather: its offset, and the offset of the big
// side's element it copies. False when its index is out of range (nothing to copy).
template <class I>
TFE_HOST_DEVICE inline bool gather_offsets(const AxisGeometry& g, const I* index, int64_t e,
                                           int64_t* small_off, int64_t* big_off) {
  const int64_t i = e % g.inner, r = e / g.inner;
  const int64_t j = r % g.n, o = r / g.n;
  const int64_t k = index_at(index, g.index_stride, j);
  *small_off = i * g.small[0] + j * g.small[1] + o * g.small[2];
  if (!in_range(k, g.extent)) return false;
  *big_off = i * g.big[0] + k * g.big[1] + o * g.big[2];
  return true;
}

// The first position of sorted keys[0, n) not below v.
template <class K> TFE_HOST_DEVICE inline int64_t lower_bound(const K* keys, int64_t n, K v) {
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (keys[mid] < v)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// Element e (column-major) of the big side of a scatter-add: perm holds the positions j sorted
// stably by index[j], and seg[k] .. seg[k + 1] the run of perm whose index is k, so the updates
// of element (i, k, o) are added in increasing j: the host's order, whatever the scheduling.
template <class T, class Add>
TFE_HOST_DEVICE inline void scatter_add_element(const AxisGeometry& g, int64_t e, T* big,
                                                const T* small, const int64_t* perm,
                                                const int64_t* seg, Add add) {
  const int64_t i = e % g.inner, r = e / g.inner;
  const int64_t k = r % g.extent, o = r / g.extent;
  int64_t b = seg[k];
  const int64_t end = seg[k + 1];
  if (b == end) return;
  T* dst = big + i * g.big[0] + k * g.big[1] + o * g.big[2];
  const T* src = small + i * g.small[0] + o * g.small[2];
  T acc = *dst;
  for (; b < end; ++b) acc = add(acc, src[perm[b] * g.small[1]]);
  *dst = acc;
}

// ---- a block at clamped start indices (dynamic_slice and dynamic_update_slice, mode BLOCK) ----

// The small side's shape and strides, the big side's strides, and how far each start may go.
struct BlockGeometry {
  int32_t rank = 0;
  int64_t shape[TFE_PLUGIN_MAX_RANK] = {};
  int64_t small[TFE_PLUGIN_MAX_RANK] = {}, big[TFE_PLUGIN_MAX_RANK] = {};
  int64_t room[TFE_PLUGIN_MAX_RANK] = {};
  int64_t index_stride = 0;
};

inline BlockGeometry block_geometry(const tfe_dev_view& big, const tfe_dev_view& small,
                                    const tfe_dev_view& index) {
  BlockGeometry g;
  g.rank = small.rank;
  for (int32_t d = 0; d < small.rank; ++d) {
    g.shape[d] = small.shape[d];
    g.small[d] = small.strides[d];
    g.big[d] = big.strides[d];
    g.room[d] = big.shape[d] - small.shape[d];
  }
  g.index_stride = index.rank == 1 ? index.strides[0] : 0;
  return g;
}

// The offsets of element e (column-major over shape) in two layouts of that shape.
TFE_HOST_DEVICE inline void offsets_in_two_layouts(int32_t rank, const int64_t* shape,
                                                   const int64_t* a_strides,
                                                   const int64_t* b_strides, int64_t e, int64_t* a,
                                                   int64_t* b) {
  int64_t x = 0, y = 0;
  for (int32_t d = 0; d < rank; ++d) {
    const int64_t q = e / shape[d], r = e - q * shape[d];
    e = q;
    x += r * a_strides[d];
    y += r * b_strides[d];
  }
  *a = x;
  *b = y;
}

// The big side's offset of the block's first element: start d clamped into [0, room[d]].
template <class I>
TFE_HOST_DEVICE inline int64_t block_origin(const BlockGeometry& g, const I* starts) {
  int64_t off = 0;
  for (int32_t d = 0; d < g.rank; ++d) {
    int64_t s = index_at(starts, g.index_stride, d);
    s = s < 0 ? 0 : s > g.room[d] ? g.room[d] : s;
    off += s * g.big[d];
  }
  return off;
}

// Element e (column-major) of the block: its offset on the small side and from the origin on the
// big side.
TFE_HOST_DEVICE inline void block_offsets(const BlockGeometry& g, int64_t e, int64_t* small_off,
                                          int64_t* big_off) {
  offsets_in_two_layouts(g.rank, g.shape, g.small, g.big, e, small_off, big_off);
}

// ---- lines along one axis (scan, arg_extremum, argsort) ----

// The dims other than the axis (unit dims dropped) with the strides of out and in, and the axis'
// extent and steps. out may have extent 1 at the axis (arg_extremum): only its strides are used.
struct LineGeometry {
  int32_t rank = 0;
  int64_t shape[TFE_PLUGIN_MAX_RANK] = {};
  int64_t out[TFE_PLUGIN_MAX_RANK] = {}, in[TFE_PLUGIN_MAX_RANK] = {};
  int64_t extent = 0, out_step = 0, in_step = 0;
  int64_t lines = 1;
};

inline LineGeometry line_geometry(const tfe_dev_view& out, const tfe_dev_view& in, int32_t axis) {
  LineGeometry g;
  for (int32_t d = 0; d < in.rank; ++d) {
    if (d == axis) {
      g.extent = in.shape[d];
      g.out_step = out.strides[d];
      g.in_step = in.strides[d];
      continue;
    }
    g.lines *= in.shape[d];
    if (in.shape[d] == 1) continue;
    g.shape[g.rank] = in.shape[d];
    g.out[g.rank] = out.strides[d];
    g.in[g.rank] = in.strides[d];
    ++g.rank;
  }
  return g;
}

// The offsets of element 0 of line `line` (column-major over the other dims) in out and in.
TFE_HOST_DEVICE inline void line_bases(const LineGeometry& g, int64_t line, int64_t* out_base,
                                       int64_t* in_base) {
  offsets_in_two_layouts(g.rank, g.shape, g.out, g.in, line, out_base, in_base);
}

// An inclusive scan of one line in order: out[k] = combine(out[k - 1], in[k]), the host's fold.
template <class T, class Combine>
TFE_HOST_DEVICE inline void scan_line(const LineGeometry& g, int64_t line, T* out, const T* in,
                                      Combine combine) {
  int64_t ob = 0, ib = 0;
  line_bases(g, line, &ob, &ib);
  T acc = in[ib];
  out[ob] = acc;
  for (int64_t k = 1; k < g.extent; ++k) {
    acc = combine(acc, in[ib + k * g.in_step]);
    out[ob + k * g.out_step] = acc;
  }
}

template <class T> TFE_HOST_DEVICE inline bool is_nan(T v) {
  if constexpr (std::is_floating_point_v<T>)
    return v != v;
  else
    return false;
}

// A candidate for arg_extremum: a value and its position along the line.
template <class T> struct ArgBest {
  T value;
  int64_t pos;
};

// The answer for the union of the positions a and b stand for: a NaN beats every number, a
// larger (Max) or smaller value beats the other, and between equals (or two NaNs) the first
// position wins. Associative and commutative, so any fold or tree gives the host's answer.
template <bool Max, class T>
TFE_HOST_DEVICE inline ArgBest<T> arg_better(const ArgBest<T>& a, const ArgBest<T>& b) {
  const bool an = is_nan(a.value), bn = is_nan(b.value);
  if (an != bn) return an ? a : b;
  if (!an) {
    if (Max ? a.value < b.value : b.value < a.value) return b;
    if (Max ? b.value < a.value : a.value < b.value) return a;
  }
  return a.pos < b.pos ? a : b;
}

// The best of positions first, first + by, ... below last of a line starting at in (step
// between positions); first < last. Stops at a NaN: nothing after it can win.
template <bool Max, class T>
TFE_HOST_DEVICE inline ArgBest<T> arg_fold(const T* in, int64_t step, int64_t first, int64_t last,
                                           int64_t by) {
  ArgBest<T> best{in[first * step], first};
  for (int64_t k = first + by; k < last && !is_nan(best.value); k += by)
    best = arg_better<Max>(best, ArgBest<T>{in[k * step], k});
  return best;
}

// ---- sort keys: unsigned integers whose order is the sort order ----

template <class T> struct SortKey { using type = uint32_t; };
template <> struct SortKey<int64_t> { using type = uint64_t; };
template <> struct SortKey<double> { using type = uint64_t; };
template <class T> using sort_key_t = typename SortKey<T>::type;

// The key of v: ascending order of keys is the order of values (-0 equal to 0, every NaN equal
// and after every number); with descending, numbers in reverse and NaN still last. A stable sort
// of (key, position) pairs is then argsort.
template <class T> TFE_HOST_DEVICE inline sort_key_t<T> sort_key(T v, bool descending) {
  using K = sort_key_t<T>;
  constexpr K top = K{1} << (sizeof(K) * 8 - 1);
  K key;
  if constexpr (std::is_same_v<T, bool>) {
    key = v ? 1u : 0u;
    return descending ? 1u - key : key;
  } else if constexpr (std::is_integral_v<T>) {
    key = static_cast<K>(v) ^ top;
  } else {
    if (v != v) return ~K{0};
    if (v == T(0)) v = T(0); // -0 sorts as 0
    K bits;
    memcpy(&bits, &v, sizeof bits);
    key = (bits & top) ? ~bits : (bits | top);
  }
  return descending ? ~key : key;
}

} // namespace tfe::kernel_bodies
