// CPU kernels of the order group (ops/defs/order.hpp). Every op works on lanes: the elements
// along the axis for one position of the other dims. Scans are one pass per lane (O(n)); argsort
// sorts (value, index) pairs with the index as tie-break, which is stable and lets the faster
// unstable sort do the work (O(n log n)); argmax/argmin are one pass. Lanes run in parallel in
// fixed chunks, so results never depend on the thread count.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

#include "backend/cpu/kernels/kernels.hpp"
#include "backend/cpu/kernels/scalar_math.hpp"
#include "backend/cpu/thread_budget.hpp"

namespace tfe::cpu::kernels {
namespace {

using ops::OpCode;

Tensor compact_input(const Tensor& t) {
  if (t.is_compact()) return t;
  Tensor out = Tensor::empty(t.dtype(), t.shape());
  copy_into(out, t);
  return out;
}

// Column-major: element (i, k, o) of dims before the axis, the axis, dims after sits at
// i + inner * (k + extent * o).
struct Lanes {
  int64_t inner = 1, extent = 1, outer = 1;
};
Lanes lanes_of(const Dims& shape, int64_t axis) {
  Lanes l;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
    int64_t n = shape[static_cast<size_t>(d)];
    if (d < axis)
      l.inner *= n;
    else if (d == axis)
      l.extent = n;
    else
      l.outer *= n;
  }
  return l;
}

int64_t axis_of(const ops::Params& p) {
  if (const auto* s = std::get_if<ops::SortParams>(&p)) return s->axis;
  return std::get<ops::AxisParams>(p).axis;
}

// Chunks of about kGrainCheap elements, counted in units of `unit` elements each.
int64_t grain_for(int64_t unit) {
  return std::max<int64_t>(1, kGrainCheap / std::max<int64_t>(unit, 1));
}

template <class T> bool is_nan_v(T v) {
  if constexpr (std::is_floating_point_v<T>)
    return std::isnan(v);
  else
    return false;
}

template <OpCode Op, class Combine>
Tensor scan(Operands in, const ops::Params& p, const ops::ConcreteMeta& m, Combine combine) {
  Tensor x = compact_input(in[0]);
  Tensor out = Tensor::empty(m.dtype, m.shape);
  if (out.numel() == 0) return out;
  Lanes l = lanes_of(m.shape, axis_of(p));
  dispatch_accepted<Op>(m.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = x.data<T>();
    T* dst = out.data<T>();
    int64_t block = l.inner * l.extent;
    parallel_for(l.outer, grain_for(block), [&](int64_t ob, int64_t oe) {
      for (int64_t o = ob; o < oe; ++o) {
        const T* s = src + o * block;
        T* d = dst + o * block;
        // The first row as is, then each row combined with the previous one: rows are
        // contiguous runs of `inner` elements, so the loop streams through memory.
        for (int64_t i = 0; i < l.inner; ++i) d[i] = s[i];
        for (int64_t k = 1; k < l.extent; ++k) {
          const T* sk = s + k * l.inner;
          const T* prev = d + (k - 1) * l.inner;
          T* dk = d + k * l.inner;
          for (int64_t i = 0; i < l.inner; ++i) dk[i] = combine(prev[i], sk[i]);
        }
      }
    });
  });
  return out;
}

// a sorts before b among numbers (NaN never reaches it): by value, then by position.
template <bool Descending> struct Before {
  template <class P> bool operator()(const P& a, const P& b) const {
    if (a.first == b.first) return a.second < b.second;
    return Descending ? b.first < a.first : a.first < b.first;
  }
};

// Sorts one lane: the numbers, then the NaNs in their order (they need no comparison).
template <class T>
void sort_lane(const T* src, int64_t n, int64_t step, bool descending,
               std::vector<std::pair<T, int64_t>>& buf, int64_t* dst) {
  size_t numbers = 0, last = static_cast<size_t>(n);
  for (int64_t k = 0; k < n; ++k) {
    T v = src[k * step];
    if (is_nan_v(v))
      buf[--last] = {v, k};
    else
      buf[numbers++] = {v, k};
  }
  std::reverse(buf.begin() + static_cast<std::ptrdiff_t>(numbers), buf.end());
  auto end = buf.begin() + static_cast<std::ptrdiff_t>(numbers);
  if (descending)
    std::sort(buf.begin(), end, Before<true>{});
  else
    std::sort(buf.begin(), end, Before<false>{});
  for (int64_t k = 0; k < n; ++k) dst[k * step] = buf[static_cast<size_t>(k)].second;
}

// A contiguous float lane in two branch-free passes the compiler can vectorise: the extremum of
// the numbers (comparisons with NaN are false, so NaN never enters) and whether a NaN is there,
// then the first position holding the answer.
template <bool Max, class T> int64_t arg_extremum_contiguous(const T* x, int64_t n) {
  T acc[4] = {x[0], x[0], x[0], x[0]};
  bool nan[4] = {false, false, false, false};
  int64_t k = 0;
  for (; k + 4 <= n; k += 4)
    for (int j = 0; j < 4; ++j) {
      T v = x[k + j];
      acc[j] = (Max ? v > acc[j] : v < acc[j]) ? v : acc[j];
      nan[j] |= v != v;
    }
  for (; k < n; ++k) {
    T v = x[k];
    acc[0] = (Max ? v > acc[0] : v < acc[0]) ? v : acc[0];
    nan[0] |= v != v;
  }
  T best = acc[0];
  for (int j = 1; j < 4; ++j) best = (Max ? acc[j] > best : acc[j] < best) ? acc[j] : best;
  bool any_nan = nan[0] || nan[1] || nan[2] || nan[3];
  for (k = 0; k < n; ++k)
    if (any_nan ? x[k] != x[k] : x[k] == best) return k;
  return 0;
}

// Index of the first extremum of a lane; the first NaN wins (as NumPy).
template <bool Max, class T> int64_t arg_extremum_of(const T* x, int64_t n, int64_t step) {
  if constexpr (std::is_floating_point_v<T>)
    if (step == 1 && n >= 64) return arg_extremum_contiguous<Max>(x, n);
  int64_t best = 0;
  T bv = x[0];
  if (is_nan_v(bv)) return 0;
  for (int64_t k = 1; k < n; ++k) {
    T v = x[k * step];
    if (is_nan_v(v)) return k;
    if (Max ? bv < v : v < bv) {
      bv = v;
      best = k;
    }
  }
  return best;
}

template <OpCode Op, bool Max>
Tensor arg_extremum(Operands in, const ops::Params& p, const ops::ConcreteMeta& m) {
  Tensor x = compact_input(in[0]);
  Tensor out = Tensor::empty(DType::I64, m.shape);
  int64_t axis = axis_of(p);
  // An empty result first: the lanes of an empty x may multiply extents past int64 (the zero
  // can come last).
  if (out.numel() == 0) return out;
  Lanes l = lanes_of(x.shape(), axis);
  if (l.extent == 0)
    fail(Status::InvalidArgument, "%s of an empty axis (axis %lld has extent 0)",
         Max ? "argmax" : "argmin", (long long)axis);
  int64_t* dst = out.data<int64_t>();
  dispatch_accepted<Op>(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = x.data<T>();
    parallel_for(l.outer * l.inner, grain_for(l.extent), [&](int64_t b, int64_t e) {
      for (int64_t lane = b; lane < e; ++lane) {
        int64_t o = lane / l.inner, i = lane % l.inner;
        dst[lane] = arg_extremum_of<Max>(src + o * l.inner * l.extent + i, l.extent, l.inner);
      }
    });
  });
  return out;
}

} // namespace

Tensor cumsum(Operands in, const ops::Params& p, const ops::ConcreteMeta& m) {
  return scan<OpCode::Cumsum>(in, p, m, [](auto a, auto b) { return wrap_add(a, b); });
}

Tensor cumprod(Operands in, const ops::Params& p, const ops::ConcreteMeta& m) {
  return scan<OpCode::Cumprod>(in, p, m, [](auto a, auto b) { return wrap_mul(a, b); });
}

Tensor argsort(Operands in, const ops::Params& p, const ops::ConcreteMeta& m) {
  const auto& sp = std::get<ops::SortParams>(p);
  Tensor x = compact_input(in[0]);
  Tensor out = Tensor::empty(DType::I64, m.shape);
  if (out.numel() == 0) return out;
  Lanes l = lanes_of(m.shape, sp.axis);
  int64_t* dst = out.data<int64_t>();
  dispatch_accepted<OpCode::Argsort>(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = x.data<T>();
    parallel_for(l.outer * l.inner, grain_for(l.extent), [&](int64_t b, int64_t e) {
      std::vector<std::pair<T, int64_t>> buf(static_cast<size_t>(l.extent));
      for (int64_t lane = b; lane < e; ++lane) {
        int64_t o = lane / l.inner, i = lane % l.inner;
        int64_t base = o * l.inner * l.extent + i;
        sort_lane(src + base, l.extent, l.inner, sp.descending, buf, dst + base);
      }
    });
  });
  return out;
}

Tensor argmax(Operands in, const ops::Params& p, const ops::ConcreteMeta& m) {
  return arg_extremum<OpCode::Argmax, true>(in, p, m);
}

Tensor argmin(Operands in, const ops::Params& p, const ops::ConcreteMeta& m) {
  return arg_extremum<OpCode::Argmin, false>(in, p, m);
}

} // namespace tfe::cpu::kernels
