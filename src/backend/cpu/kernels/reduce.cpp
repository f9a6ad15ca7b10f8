// CPU kernels of the reductions (ops/defs/reduce.hpp). The output is viewed with the input's
// rank (stride 0 on reduced dims) and one strided loop accumulates into it. A run along a reduced
// inner dim is folded in registers with four accumulators. Work is split so that every output
// element is accumulated in the same order whatever the thread count: full reductions use
// fixed-size chunks whose partials are combined in order; partial reductions split a kept dim.
#include <limits>
#include <vector>

#include "backend/cpu/kernels/elementwise.hpp"
#include "backend/cpu/kernels/kernels.hpp"
#include "backend/cpu/kernels/scalar_math.hpp"

namespace tfe::cpu::kernels {
namespace {

using ops::OpCode;

struct SumR {
  template <class T> static T identity() { return T(0); }
  template <class T> static T combine(T a, T b) { return wrap_add(a, b); }
};
struct ProdR {
  template <class T> static T identity() { return T(1); }
  template <class T> static T combine(T a, T b) { return wrap_mul(a, b); }
};
struct MaxR {
  template <class T> static T identity() {
    if constexpr (std::is_floating_point_v<T>)
      return -std::numeric_limits<T>::infinity();
    else
      return std::numeric_limits<T>::lowest();
  }
  template <class T> static T combine(T a, T b) { return max_of(a, b); }
};
struct MinR {
  template <class T> static T identity() {
    if constexpr (std::is_floating_point_v<T>)
      return std::numeric_limits<T>::infinity();
    else
      return std::numeric_limits<T>::max();
  }
  template <class T> static T combine(T a, T b) { return min_of(a, b); }
};

// Folds n strided values into one, four accumulators wide.
template <class R, class T> T fold_run(const std::byte* p, int64_t n, int64_t step) {
  T acc[4] = {R::template identity<T>(), R::template identity<T>(), R::template identity<T>(),
              R::template identity<T>()};
  int64_t i = 0;
  if (step == static_cast<int64_t>(sizeof(T))) {
    const T* x = reinterpret_cast<const T*>(p);
    for (; i + 4 <= n; i += 4)
      for (int j = 0; j < 4; ++j) acc[j] = R::combine(acc[j], x[i + j]);
    for (; i < n; ++i) acc[i & 3] = R::combine(acc[i & 3], x[i]);
  } else {
    for (; i < n; ++i)
      acc[i & 3] = R::combine(acc[i & 3], *reinterpret_cast<const T*>(p + i * step));
  }
  return R::combine(R::combine(acc[0], acc[1]), R::combine(acc[2], acc[3]));
}

// Accumulates x into out_view (same shape as x, stride 0 on reduced dims) over [begin, end).
template <class R, class T>
void accumulate(const StridedLoop<2>& loop, int64_t begin, int64_t end) {
  loop.run(begin, end, [](const auto& p, int64_t n, const auto& s) {
    T* o = reinterpret_cast<T*>(p[0]);
    if (s[0] == 0) {
      *o = R::combine(*o, fold_run<R, T>(p[1], n, s[1]));
    } else {
      for (int64_t i = 0; i < n; ++i) {
        T* oi = reinterpret_cast<T*>(p[0] + i * s[0]);
        *oi = R::combine(*oi, *reinterpret_cast<const T*>(p[1] + i * s[1]));
      }
    }
  });
}

template <class R, class T> void fill(const Tensor& out) {
  T* o = out.data<T>();
  int64_t n = out.numel();
  for (int64_t i = 0; i < n; ++i) o[i] = R::template identity<T>();
}

template <class R, class T> void reduce_impl(const Tensor& out, const Tensor& x, const Dims& axes) {
  fill<R, T>(out);
  int64_t n = x.numel();
  if (n == 0) return;
  const size_t rank = static_cast<size_t>(x.ndim());
  std::vector<bool> reduced(rank, false);
  for (int64_t a : axes) reduced[static_cast<size_t>(a)] = true;
  Dims view_strides(rank, 0);
  for (size_t d = 0, k = 0; d < rank; ++d)
    if (!reduced[d]) view_strides[d] = out.stride(static_cast<int64_t>(k++));
  Tensor out_view = out.with_layout(x.shape(), view_strides, out.offset());

  constexpr int64_t grain = kGrainCheap;
  if (n <= grain) {
    StridedLoop<2> loop(x.shape(), {&out_view, &x});
    accumulate<R, T>(loop, 0, n);
    return;
  }
  if (out.numel() == 1) {
    // Full reduction: fixed chunks, partials combined in chunk order.
    StridedLoop<2> loop(x.shape(), {&out_view, &x});
    int64_t chunks = (n + grain - 1) / grain;
    std::vector<T> partial(static_cast<size_t>(chunks), R::template identity<T>());
    parallel_for(chunks, 1, [&](int64_t cb, int64_t ce) {
      for (int64_t c = cb; c < ce; ++c) {
        T acc = R::template identity<T>();
        loop.run(c * grain, std::min(n, (c + 1) * grain),
                 [&](const auto& p, int64_t m, const auto& s) {
                   acc = R::combine(acc, fold_run<R, T>(p[1], m, s[1]));
                 });
        partial[static_cast<size_t>(c)] = acc;
      }
    });
    T total = R::template identity<T>();
    for (T v : partial) total = R::combine(total, v);
    *out.data<T>() = total;
    return;
  }
  // Partial reduction: split the outermost kept dim with extent > 1; slices touch disjoint outputs.
  int64_t split = -1;
  for (int64_t d = static_cast<int64_t>(rank) - 1; d >= 0; --d)
    if (!reduced[static_cast<size_t>(d)] && x.dim(d) > 1) {
      split = d;
      break;
    }
  int64_t extent = x.dim(split);
  int64_t per_slice = n / extent;
  int64_t slices_per_chunk = std::max<int64_t>(1, grain / std::max<int64_t>(1, per_slice));
  int64_t chunks = (extent + slices_per_chunk - 1) / slices_per_chunk;
  parallel_for(chunks, 1, [&](int64_t cb, int64_t ce) {
    for (int64_t c = cb; c < ce; ++c) {
      Dims starts(rank, 0), limits = x.shape(), steps(rank, 1);
      starts[static_cast<size_t>(split)] = c * slices_per_chunk;
      limits[static_cast<size_t>(split)] = std::min(extent, (c + 1) * slices_per_chunk);
      Tensor xs = x.sliced(starts, limits, steps);
      Tensor os = out_view.sliced(starts, limits, steps);
      StridedLoop<2> loop(xs.shape(), {&os, &xs});
      accumulate<R, T>(loop, 0, loop.numel());
    }
  });
}

template <OpCode Op, class R>
Tensor reduce_kernel(Operands in, const ops::Params& p, const ops::ConcreteMeta& m) {
  Tensor out = Tensor::empty(m.dtype, m.shape);
  const Dims& axes = std::get<ops::AxesParams>(p).axes;
  dispatch_accepted<Op>(in[0].dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    reduce_impl<R, T>(out, in[0], axes);
  });
  return out;
}

} // namespace

Tensor reduce_sum(Operands in, const ops::Params& p, const ops::ConcreteMeta& m) {
  return reduce_kernel<OpCode::ReduceSum, SumR>(in, p, m);
}
Tensor reduce_prod(Operands in, const ops::Params& p, const ops::ConcreteMeta& m) {
  return reduce_kernel<OpCode::ReduceProd, ProdR>(in, p, m);
}
Tensor reduce_max(Operands in, const ops::Params& p, const ops::ConcreteMeta& m) {
  return reduce_kernel<OpCode::ReduceMax, MaxR>(in, p, m);
}
Tensor reduce_min(Operands in, const ops::Params& p, const ops::ConcreteMeta& m) {
  return reduce_kernel<OpCode::ReduceMin, MinR>(in, p, m);
}

} // namespace tfe::cpu::kernels
