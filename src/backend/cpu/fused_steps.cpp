// Block functions of the elementwise ops for fused regions (fused_steps.hpp). Each runs the
// op's functor exactly as the single-op kernel's contiguous loop does (strided_loop.hpp: the
// vectorised block() where the functor has one, the scalar functor otherwise), so a fused
// region gives the bits of the unfused program.
#include "backend/cpu/fused_steps.hpp"

#include <utility>

#include "backend/cpu/isa_clones.hpp"
#include "backend/cpu/kernels/analytic.hpp"
#include "backend/cpu/kernels/arithmetic.hpp"
#include "backend/cpu/kernels/complex_parts.hpp"
#include "backend/cpu/kernels/elementwise_functors.hpp"
#include "backend/cpu/kernels/logical.hpp"

namespace tfe::cpu::fused {
namespace {

using namespace functors;

using ops::OpCode;

template <class F, class Out, class... In, size_t... I>
TFE_ISA_CLONES void block_impl(int64_t n, std::byte* out, const std::byte* const* in,
                               std::index_sequence<I...>) {
  Out* __restrict o = reinterpret_cast<Out*>(out);
  if constexpr ((sizeof...(In) == 1 || sizeof...(In) == 2) && has_vector_block<F, Out, In...>)
    if (F::block(n, o, reinterpret_cast<const In*>(in[I])...)) return;
  F f{};
  for (int64_t i = 0; i < n; ++i) o[i] = f(reinterpret_cast<const In*>(in[I])[i]...);
}

template <class F, class Out, class... In>
void block(int64_t n, std::byte* out, const std::byte* const* in) {
  block_impl<F, Out, In...>(n, out, in, std::index_sequence_for<In...>{});
}

// Calls f(type_tag<T>{}) for the dtypes a fused region carries; nothing for the others.
template <class Fn> void visit_fused_dtype(DType d, Fn&& f) {
  switch (d) {
  case DType::Bool: f(type_tag<bool>{}); break;
  case DType::F32: f(type_tag<float>{}); break;
  case DType::F64: f(type_tag<double>{}); break;
  case DType::C32: f(type_tag<c32>{}); break;
  case DType::C64: f(type_tag<c64>{}); break;
  default: break;
  }
}

template <OpCode Op, class T> constexpr bool accepts() {
  return ((ops::kOpTable[static_cast<size_t>(Op)].accepts.bits() >> dtype_index(dtype_of_v<T>)) &
          1u) != 0;
}

// Op with `Arity` operands of one dtype (the value operands' dtype `d`).
template <OpCode Op, class F, int Arity> BlockFn pick(DType d, DType out) {
  BlockFn r = nullptr;
  visit_fused_dtype(d, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (accepts<Op, T>()) {
      if constexpr (Arity == 1) {
        using R = decltype(F{}(T{}));
        if (dtype_of_v<R> == out) r = &block<F, R, T>;
      } else if constexpr (Arity == 2) {
        using R = decltype(F{}(T{}, T{}));
        if (dtype_of_v<R> == out) r = &block<F, R, T, T>;
      } else {
        using R = decltype(F{}(T{}, T{}, T{}));
        if (dtype_of_v<R> == out) r = &block<F, R, T, T, T>;
      }
    }
  });
  return r;
}

BlockFn pick_select(DType pred, DType d, DType out) {
  BlockFn r = nullptr;
  if (pred != DType::Bool || d != out) return r;
  visit_fused_dtype(d, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (accepts<OpCode::Select, T>()) r = &block<SelectF, T, bool, T, T>;
  });
  return r;
}

BlockFn pick_convert(DType from, DType to) {
  BlockFn r = nullptr;
  visit_fused_dtype(from, [&](auto from_tag) {
    using From = typename decltype(from_tag)::type;
    visit_fused_dtype(to, [&](auto to_tag) {
      using To = typename decltype(to_tag)::type;
      r = &block<ConvertF<To>, To, From>;
    });
  });
  return r;
}

BlockFn pick_compare(ops::CompareDir dir, DType d, DType out) {
  using D = ops::CompareDir;
  switch (dir) {
  case D::Eq: return pick<OpCode::Compare, CompareF<D::Eq>, 2>(d, out);
  case D::Ne: return pick<OpCode::Compare, CompareF<D::Ne>, 2>(d, out);
  case D::Lt: return pick<OpCode::Compare, CompareF<D::Lt>, 2>(d, out);
  case D::Le: return pick<OpCode::Compare, CompareF<D::Le>, 2>(d, out);
  case D::Gt: return pick<OpCode::Compare, CompareF<D::Gt>, 2>(d, out);
  case D::Ge: return pick<OpCode::Compare, CompareF<D::Ge>, 2>(d, out);
  }
  return nullptr;
}

// Transcendentals cost an order of magnitude more than an add: they set the chunk size. A
// functor that asks for smaller chunks than the cheap grain is such a function.
constexpr int kTranscendentalCost = 8;
template <class F> constexpr int cost_of() {
  return kernels::grain_of<F>() < kGrainCheap ? kTranscendentalCost : 1;
}

} // namespace

BoundStep bind_step(OpCode op, const ops::Params& params, std::span<const DType> operands,
                    DType out) {
  if (operands.empty()) return {};
  DType d = operands[0];
  for (DType o : operands.subspan(op == OpCode::Select ? 1 : 0))
    if (o != (op == OpCode::Select ? operands[1] : d)) return {};
  switch (op) {
#define TFE_FUSED_ROW(group, Code, arity)                                                          \
  case OpCode::Code:                                                                               \
    return {pick<OpCode::Code, group::Code, arity>(d, out), cost_of<group::Code>()};
#define TFE_FUSED_ARITHMETIC(Code, name, c_stem, entry, arity, ...)                                \
  TFE_FUSED_ROW(arithmetic, Code, arity)
#define TFE_FUSED_LOGICAL(Code, name, c_stem, entry, arity, ...) TFE_FUSED_ROW(logical, Code, arity)
#define TFE_FUSED_COMPLEX_PARTS(Code, name, c_stem, entry, arity, ...)                             \
  TFE_FUSED_ROW(complex_parts, Code, arity)
#define TFE_FUSED_ANALYTIC(Code, name, arity, ...) TFE_FUSED_ROW(analytic, Code, arity)
    TFE_ARITHMETIC_OPS(TFE_FUSED_ARITHMETIC)
    TFE_LOGICAL_OPS(TFE_FUSED_LOGICAL)
    TFE_COMPLEX_PARTS_OPS(TFE_FUSED_COMPLEX_PARTS)
    TFE_ANALYTIC_OPS(TFE_FUSED_ANALYTIC)
#undef TFE_FUSED_ANALYTIC
#undef TFE_FUSED_COMPLEX_PARTS
#undef TFE_FUSED_LOGICAL
#undef TFE_FUSED_ARITHMETIC
#undef TFE_FUSED_ROW
  case OpCode::Compare: return {pick_compare(std::get<ops::CompareParams>(params).dir, d, out)};
  case OpCode::Select:
    return {operands.size() == 3 ? pick_select(operands[0], operands[1], out) : nullptr};
  case OpCode::Clamp: return {pick<OpCode::Clamp, ClampF, 3>(d, out)};
  case OpCode::Convert: return {pick_convert(d, out)};
  default: return {};
  }
}

} // namespace tfe::cpu::fused
