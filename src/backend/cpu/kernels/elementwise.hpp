// Kernel templates for the elementwise groups: one functor per op (templated on the element
// type), one strided loop (strided_loop.hpp), instantiated only for the dtypes the op accepts.
#pragma once

#include "backend/cpu/kernel.hpp"
#include "backend/cpu/strided_loop.hpp"

namespace tfe::cpu::kernels {

// Functors may declare `static constexpr int64_t grain` (elements per chunk); cheap ops use the
// default.
template <class F> constexpr int64_t grain_of() {
  if constexpr (requires { F::grain; })
    return F::grain;
  else
    return kGrainCheap;
}

// T -> R where R is the output meta's dtype: same dtype for most ops, real for Abs/Real/Imag.
template <ops::OpCode Op, class F> Tensor unary(Operands in, const ops::ConcreteMeta& m) {
  Tensor out = Tensor::empty(m.dtype, m.shape);
  dispatch_accepted<Op>(in[0].dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using R = decltype(F{}(T{}));
    Map<R, T>::run(F{}, grain_of<F>(), out, in[0]);
  });
  return out;
}

// (T, T) -> R.
template <ops::OpCode Op, class F>
Tensor binary(Operands in, const ops::ConcreteMeta& m, F f = F{}) {
  Tensor out = Tensor::empty(m.dtype, m.shape);
  dispatch_accepted<Op>(in[0].dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using R = decltype(f(T{}, T{}));
    Map<R, T, T>::run(f, grain_of<F>(), out, in[0], in[1]);
  });
  return out;
}

// (T, T, T) -> T.
template <ops::OpCode Op, class F> Tensor ternary(Operands in, const ops::ConcreteMeta& m) {
  Tensor out = Tensor::empty(m.dtype, m.shape);
  dispatch_accepted<Op>(in[0].dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    Map<T, T, T, T>::run(F{}, grain_of<F>(), out, in[0], in[1], in[2]);
  });
  return out;
}

// True when any element of t satisfies pred (used for checks that must precede any write).
template <class T, class Pred> bool any_element(const Tensor& t, Pred pred) {
  bool found = false;
  StridedLoop<1> loop(t.shape(), {&t});
  loop.run(0, loop.numel(), [&](const auto& p, int64_t n, const auto& s) {
    for (int64_t i = 0; i < n && !found; ++i)
      found = pred(*reinterpret_cast<const T*>(p[0] + i * s[0]));
  });
  return found;
}

// The kernel of a row of a generated elementwise group: functor F of the row's arity over its
// operands, after F::check(in) where the functor refuses some operands as a whole.
template <ops::OpCode Op, class F, int Arity>
Tensor map_row(Operands in, const ops::ConcreteMeta& m) {
  if constexpr (requires { F::check(in); }) F::check(in);
  if constexpr (Arity == 1)
    return unary<Op, F>(in, m);
  else
    return binary<Op, F>(in, m);
}

} // namespace tfe::cpu::kernels
