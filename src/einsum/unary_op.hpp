// One op on one operand through the op surface, for the einsum layer's lowerings (lower.cpp,
// products.cpp), in any of the surface's value types.
#pragma once

#include <array>
#include <span>

#include "eager/surface.hpp"

namespace tfe::einsum {

template <class V> V unary_op(ops::OpCode code, const V& x, const ops::Params& p) {
  std::array<V, 1> in{x};
  return eager::call<V>(code, std::span<const V>(in), p);
}

} // namespace tfe::einsum
