// The vectorised version of an elementwise functor: a functor that derives from VectorBlock<fn>
// gets block(), which Map (strided_loop.hpp) calls on runs of float or double elements instead
// of its scalar loop. block() returns false when this build or CPU has no vector version
// (vector_math.hpp), and the scalar loop runs.
#pragma once

#include <cstdint>
#include <type_traits>

#include "backend/cpu/vector_math.hpp"

namespace tfe::cpu {

template <vec::Fn F> struct VectorBlock {
  template <class T>
  static constexpr bool vectorised = std::is_same_v<T, double> || std::is_same_v<T, float>;
  template <class T> static bool block(int64_t n, T* out, const T* a) {
    return vec::apply(F, n, out, a);
  }
  template <class T> static bool block(int64_t n, T* out, const T* a, const T* b) {
    return vec::apply(F, n, out, a, b);
  }
};

// Whether Map runs F's block() for outputs of type Out and operands of types In...
template <class F, class Out, class... In>
constexpr bool has_vector_block = [] {
  if constexpr (requires { F::template vectorised<Out>; })
    return F::template vectorised<Out> && (std::is_same_v<In, Out> && ...);
  else
    return false;
}();

} // namespace tfe::cpu
