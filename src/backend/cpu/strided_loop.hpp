// The strided iteration every elementwise-shaped kernel uses: N operands of one shape, each with
// its own signed strides (0 for broadcast dims). Dims of extent 1 are dropped and neighbouring
// dims that are contiguous for every operand are merged, so a compact tensor is one flat run.
// Dimension 0 (column-major: the fastest) is the inner loop.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <utility>
#include <vector>

#include "backend/cpu/isa_clones.hpp"
#include "backend/cpu/strided_copy.hpp"
#include "backend/cpu/thread_budget.hpp"
#include "backend/cpu/vector_block.hpp"
#include "core/tensor.hpp"

namespace tfe::cpu {

template <size_t N> class StridedLoop {
public:
  using Ptrs = std::array<std::byte*, N>;
  using Steps = std::array<int64_t, N>; // byte strides of one dim

  // ops[k] must have `shape` (views included); operand 0 is usually the output.
  StridedLoop(const Dims& shape, const std::array<const Tensor*, N>& ops) {
    numel_ = numel_of(shape);
    for (size_t k = 0; k < N; ++k) base_[k] = ops[k]->raw_data();
    // Nothing to visit: no dims either, since merging multiplies extents and strides that may be
    // huge next to a zero extent.
    if (numel_ == 0) return;
    for (size_t d = 0; d < shape.size(); ++d) {
      if (shape[d] == 1) continue;
      Steps s;
      for (size_t k = 0; k < N; ++k)
        s[k] = ops[k]->stride(static_cast<int64_t>(d)) * itemsize(ops[k]->dtype());
      if (!shape_.empty()) {
        bool mergeable = true;
        for (size_t k = 0; k < N; ++k) mergeable &= (s[k] == steps_.back()[k] * shape_.back());
        if (mergeable) {
          shape_.back() *= shape[d];
          continue;
        }
      }
      shape_.push_back(shape[d]);
      steps_.push_back(s);
    }
  }

  int64_t numel() const { return numel_; }
  size_t ndim() const { return shape_.size(); }
  // The coalesced iteration space (dims of extent 1 dropped, contiguous neighbours merged).
  int64_t extent(size_t d) const { return shape_[d]; }
  const Steps& steps(size_t d) const { return steps_[d]; }
  const Ptrs& base() const { return base_; }
  const Steps& inner_steps() const { return steps_.empty() ? zero_steps_ : steps_[0]; }

  // Calls inner(ptrs, count, steps) over runs of the inner dim covering linear indices
  // [begin, end) (column-major order).
  template <class Inner> void run(int64_t begin, int64_t end, Inner&& inner) const {
    if (begin >= end) return;
    if (shape_.empty()) {
      inner(base_, int64_t{1}, zero_steps_);
      return;
    }
    Cursor c(*this, begin);
    for (int64_t pos = begin; pos < end;) {
      int64_t count = std::min(shape_[0] - c.idx[0], end - pos);
      inner(c.p, count, steps_[0]);
      pos += count;
      c.advance(0, count);
    }
  }

  // Like run, but hands whole runs of the inner dim over in blocks: rows(ptrs, n, count, steps0,
  // steps1) covers `count` runs of n elements, the k-th starting at ptrs + k * steps1. A run cut
  // by begin or end comes alone (count 1). A broadcast result of many short runs then costs one
  // call per block instead of one per run.
  template <class Rows> void run_rows(int64_t begin, int64_t end, Rows&& rows) const {
    if (shape_.size() < 2) {
      run(begin, end, [&](const Ptrs& p, int64_t n, const Steps& s) {
        rows(p, n, int64_t{1}, s, zero_steps_);
      });
      return;
    }
    const int64_t n0 = shape_[0];
    Cursor c(*this, begin);
    for (int64_t pos = begin; pos < end;) {
      if (c.idx[0] == 0 && end - pos >= n0) {
        int64_t count = std::min(shape_[1] - c.idx[1], (end - pos) / n0);
        rows(c.p, n0, count, steps_[0], steps_[1]);
        pos += count * n0;
        c.advance(1, count);
      } else {
        int64_t count = std::min(n0 - c.idx[0], end - pos);
        rows(c.p, count, int64_t{1}, steps_[0], steps_[1]);
        pos += count;
        c.advance(0, count);
      }
    }
  }

private:
  // A position in the coalesced iteration space: its multi-index and the operands' addresses.
  class Cursor {
  public:
    Cursor(const StridedLoop& loop, int64_t linear) : p(loop.base_), loop_(loop) {
      const size_t nd = loop.shape_.size();
      if (nd > small_.size()) big_.assign(nd, 0);
      idx = nd > small_.size() ? big_.data() : small_.data();
      for (size_t d = 0; d < nd; ++d) {
        idx[d] = linear % loop.shape_[d];
        linear /= loop.shape_[d];
        for (size_t k = 0; k < N; ++k) p[k] += idx[d] * loop.steps_[d][k];
      }
    }
    Cursor(const Cursor&) = delete;
    Cursor& operator=(const Cursor&) = delete;

    // `count` steps along dim d (staying within its extent, or reaching it exactly), then the
    // carry into the dims above.
    void advance(size_t d, int64_t count) {
      const auto& shape = loop_.shape_;
      const auto& steps = loop_.steps_;
      idx[d] += count;
      for (size_t k = 0; k < N; ++k) p[k] += count * steps[d][k];
      for (size_t e = d; e + 1 < shape.size() && idx[e] == shape[e]; ++e) {
        idx[e] = 0;
        ++idx[e + 1];
        for (size_t k = 0; k < N; ++k) p[k] += steps[e + 1][k] - shape[e] * steps[e][k];
      }
    }

    Ptrs p;
    int64_t* idx = nullptr;

  private:
    const StridedLoop& loop_;
    std::array<int64_t, 16> small_{};
    std::vector<int64_t> big_;
  };

  Dims shape_;
  SmallVector<Steps, 6> steps_;
  Ptrs base_{};
  Steps zero_steps_{};
  int64_t numel_ = 0;
};

// Elementwise map: out[i] = f(in[i]...) for tensors of one shape. `out` may be any view that
// does not overlap itself; inputs may be broadcast views. Runs contiguous runs through a loop
// the compiler vectorises, and splits large work over the thread budget.

template <class Out, class... In> struct Map {
  template <class F, class... Ts>
  static void run(F f, int64_t grain, const Tensor& out, const Ts&... in) {
    if (out.is_compact() && ((in.shape() == out.shape() && in.is_compact()) && ...)) {
      run_compact(f, grain, out, in...);
      return;
    }
    if ((reread_across_runs(out, in) || ...)) {
      run_loop(f, grain, out, staged(out, in)...);
      return;
    }
    run_loop(f, grain, out, in...);
  }

private:
  // Every operand of the result's shape and compact, the common case: one contiguous loop split
  // like the strided walk's (so with the same bits), without setting the walk up.
  template <class F, class... Ts>
  static void run_compact(F& f, int64_t grain, const Tensor& out, const Ts&... in) {
    const int64_t n = out.numel();
    if (n == 0) return;
    Out* o = out.template data<Out>();
    if (n <= grain) {
      contiguous_loop(f, n, o, in.template data<const In>()...);
      return;
    }
    parallel_for(n, grain, [&](int64_t b, int64_t e) {
      contiguous_loop(f, e - b, o + b, (in.template data<const In>() + b)...);
    });
  }

  // An operand read with a stride along the loop's inner dim although it is broadcast along
  // another (a batched outer product of transposed operands): each run gathers its elements again
  // from far apart, and the operand, much smaller than the result, is read many times over.
  static bool reread_across_runs(const Tensor& out, const Tensor& t) {
    constexpr int64_t kMinResult = 4096, kMinRereads = 8;
    const int64_t n = out.numel();
    if (n < kMinResult || t.ndim() != out.ndim()) return false;
    int64_t inner = 0;
    while (inner < out.ndim() && out.dim(inner) == 1) ++inner;
    if (inner == out.ndim() || t.stride(inner) == 0 || t.stride(inner) == 1) return false;
    int64_t distinct = 1;
    bool broadcast = false;
    for (int64_t d = 0; d < t.ndim(); ++d) {
      if (t.stride(d) == 0)
        broadcast |= t.dim(d) > 1;
      else
        distinct *= t.dim(d);
    }
    return broadcast && distinct * kMinRereads <= n;
  }

  // Such an operand as a compact copy of its distinct elements, broadcast again: one pass over
  // them, after which every run reads it contiguously (the same values, so the same results).
  static Tensor staged(const Tensor& out, const Tensor& t) {
    if (!reread_across_runs(out, t)) return t;
    Dims distinct_shape = t.shape();
    for (int64_t d = 0; d < t.ndim(); ++d)
      if (t.stride(d) == 0) distinct_shape[static_cast<size_t>(d)] = 1;
    Tensor compact = Tensor::empty(t.dtype(), distinct_shape);
    strided_copy(compact, t.with_layout(distinct_shape, t.strides(), t.offset()));
    Dims strides = compact.strides();
    for (int64_t d = 0; d < t.ndim(); ++d)
      if (t.stride(d) == 0) strides[static_cast<size_t>(d)] = 0;
    return compact.with_layout(t.shape(), strides, 0);
  }

  template <class F, class... Ts>
  static void run_loop(F f, int64_t grain, const Tensor& out, const Ts&... in) {
    constexpr size_t N = 1 + sizeof...(In);
    StridedLoop<N> loop(out.shape(), {&out, &in...});
    using Ptrs = typename StridedLoop<N>::Ptrs;
    using Steps = typename StridedLoop<N>::Steps;
    auto rows = [&f](const Ptrs& p, int64_t n, int64_t count, const Steps& s0, const Steps& s1) {
      run_rows(f, p, n, count, s0, s1, std::make_index_sequence<N - 1>{});
    };
    if (loop.numel() <= grain) {
      loop.run_rows(0, loop.numel(), rows);
    } else {
      parallel_for(loop.numel(), grain, [&](int64_t b, int64_t e) { loop.run_rows(b, e, rows); });
    }
  }

  static constexpr bool kIsUnaryOrBinary = sizeof...(In) == 1 || sizeof...(In) == 2;

  template <class F>
  TFE_ISA_CLONES static void contiguous_loop(F& f, int64_t n, Out* __restrict o,
                                             const In* __restrict... in) {
    if constexpr (kIsUnaryOrBinary && has_vector_block<F, Out, In...>)
      if (F::block(n, o, in...)) return;
    for (int64_t i = 0; i < n; ++i) o[i] = f(in[i]...);
  }

  // `count` contiguous runs, one clone call for all of them (the loop below is the same as
  // contiguous_loop's, so every element gets the same bits).
  template <class F, size_t N, size_t... I>
  TFE_ISA_CLONES static void
  contiguous_rows(F& f, int64_t n, int64_t count, std::array<std::byte*, N> p,
                  const std::array<int64_t, N>& s1, std::index_sequence<I...>) {
    for (int64_t r = 0; r < count; ++r) {
      Out* __restrict o = reinterpret_cast<Out*>(p[0]);
      if constexpr (kIsUnaryOrBinary && has_vector_block<F, Out, In...>) {
        if (!F::block(n, o, reinterpret_cast<const In*>(p[I + 1])...))
          rows_loop(f, n, o, reinterpret_cast<const In*>(p[I + 1])...);
      } else {
        rows_loop(f, n, o, reinterpret_cast<const In*>(p[I + 1])...);
      }
      for (size_t k = 0; k < N; ++k) p[k] += s1[k];
    }
  }
  template <class F>
  [[gnu::always_inline]] static inline void rows_loop(F& f, int64_t n, Out* __restrict o,
                                                      const In* __restrict... in) {
    for (int64_t i = 0; i < n; ++i) o[i] = f(in[i]...);
  }

  template <class F, size_t N, size_t... I>
  static void run_rows(F& f, const std::array<std::byte*, N>& p, int64_t n, int64_t count,
                       const std::array<int64_t, N>& s0, const std::array<int64_t, N>& s1,
                       std::index_sequence<I...> seq) {
    bool contiguous = s0[0] == static_cast<int64_t>(sizeof(Out)) &&
                      ((s0[I + 1] == static_cast<int64_t>(sizeof(In))) && ...);
    if (contiguous && count > 1) {
      contiguous_rows(f, n, count, p, s1, seq);
      return;
    }
    std::array<std::byte*, N> q = p;
    for (int64_t r = 0; r < count; ++r) {
      run_inner(f, q, n, s0, seq);
      for (size_t k = 0; k < N; ++k) q[k] += s1[k];
    }
  }

  // A strided run of a vectorised functor: gathered into contiguous blocks, so each element
  // gets the same bits as in a contiguous run.
  template <class F, size_t N, size_t... I>
  static bool gathered_block(const std::array<std::byte*, N>& p, int64_t n,
                             const std::array<int64_t, N>& s, std::index_sequence<I...>) {
    constexpr int64_t kBlock = 256;
    std::array<Out, kBlock> out;
    std::array<std::array<Out, kBlock>, N - 1> in; // a vector block's operands are all of type Out
    for (int64_t b = 0; b < n; b += kBlock) {
      int64_t m = std::min(kBlock, n - b);
      for (size_t k = 0; k < N - 1; ++k)
        for (int64_t i = 0; i < m; ++i)
          in[k][i] = *reinterpret_cast<const Out*>(p[k + 1] + (b + i) * s[k + 1]);
      if (!F::block(m, out.data(), in[I].data()...)) return false;
      for (int64_t i = 0; i < m; ++i) *reinterpret_cast<Out*>(p[0] + (b + i) * s[0]) = out[i];
    }
    return true;
  }

  template <class F, size_t N, size_t... I>
  static void run_inner(F& f, const std::array<std::byte*, N>& p, int64_t n,
                        const std::array<int64_t, N>& s, std::index_sequence<I...> seq) {
    bool contiguous = s[0] == static_cast<int64_t>(sizeof(Out)) &&
                      ((s[I + 1] == static_cast<int64_t>(sizeof(In))) && ...);
    if (contiguous) {
      contiguous_loop(f, n, reinterpret_cast<Out*>(p[0]), reinterpret_cast<const In*>(p[I + 1])...);
      return;
    }
    if constexpr (kIsUnaryOrBinary && has_vector_block<F, Out, In...>)
      if (gathered_block<F>(p, n, s, seq)) return;
    for (int64_t i = 0; i < n; ++i)
      *reinterpret_cast<Out*>(p[0] + i * s[0]) =
          f(*reinterpret_cast<const In*>(p[I + 1] + i * s[I + 1])...);
  }
};

} // namespace tfe::cpu
