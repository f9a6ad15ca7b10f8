// Arithmetic operators on the values of the op surface: eager tensors, traced graph::Values,
// recorded values and dataflow tensors. `a * b` is the surface's multiply (one promotion plan,
// left-aligned broadcasting; operands of one dtype and shape emit the op and nothing else), and
// `a / b` its true division; operands that differ only in symbolic extents go to the op's own
// shape rule (detail::differ_in_symbols_only). The linalg functions and the derivative rules build
// their arithmetic with these operators, so there is one vocabulary for "emit a multiply" whatever
// the value type (decision 0042).
//
// They live in their own namespace because argument-dependent lookup would look for them only in
// each value type's namespace (tfe, tfe::graph, ...): a file that builds computations says
// `using namespace tfe::eager::operators;` (the AD builders do it for namespace tfe::ad).
#pragma once

#include <array>
#include <concepts>
#include <span>

#include "eager/surface.hpp"

namespace tfe::eager::operators {

// A value of the op surface: it has the surface's hooks (found by ADL).
template <class V>
concept SurfaceValue = requires(const V& v) {
  { meta_of(v) } -> std::same_as<ops::Meta>;
};

namespace detail {

// Whether a and b have one dtype and one rank and differ only where an extent is symbolic and
// the other is not 1 (min(m, n) against n, say): no broadcast is meant there. The surface
// refuses to relate two different symbols; the op's own shape rule takes them as equal, decided
// at the recorded extents of an eager derivative request or kept as a guard of the program
// (decision 0020). Derivative rules rely on that: their operands have equal extents that the
// algebra cannot prove equal.
inline bool differ_in_symbols_only(const ops::Meta& a, const ops::Meta& b) {
  if (a.dtype != b.dtype || a.shape.size() != b.shape.size() || a.shape == b.shape) return false;
  for (size_t d = 0; d < a.shape.size(); ++d) {
    const Extent &x = a.shape[d], &y = b.shape[d];
    if (x == y) continue;
    if ((x.is_const() && y.is_const()) || x == Extent(1) || y == Extent(1)) return false;
  }
  return true;
}

template <class V> V binary(ops::OpCode code, const V& a, const V& b) {
  std::array<V, 2> in{a, b};
  std::span<const V> operands(in);
  if constexpr (requires { emit(code, operands, ops::Params(ops::NoParams{})); }) {
    if (differ_in_symbols_only(meta_of(a), meta_of(b)))
      return emit(code, operands, ops::Params(ops::NoParams{}));
  }
  return call(code, operands);
}

} // namespace detail

template <SurfaceValue V> V operator+(const V& a, const V& b) {
  return detail::binary(ops::OpCode::Add, a, b);
}
template <SurfaceValue V> V operator-(const V& a, const V& b) {
  return detail::binary(ops::OpCode::Sub, a, b);
}
template <SurfaceValue V> V operator*(const V& a, const V& b) {
  return detail::binary(ops::OpCode::Mul, a, b);
}
// True division: integers and Bool divide as F64 (the surface's true_divide).
template <SurfaceValue V> V operator/(const V& a, const V& b) {
  if (is_inexact(meta_of(a).dtype) && is_inexact(meta_of(b).dtype))
    return detail::binary(ops::OpCode::Div, a, b);
  return true_divide(a, b);
}
template <SurfaceValue V> V operator-(const V& a) {
  std::array<V, 1> in{a};
  return call(ops::OpCode::Neg, std::span<const V>(in));
}

} // namespace tfe::eager::operators
