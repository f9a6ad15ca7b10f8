// The vectorised version of an elementwise functor: a functor that derives from VectorBlock<fn>
// gets block(), which Map (strided_loop.hpp) and the fused block interpreter (fused_steps.cpp)
// call on runs of float, double or complex elements instead of their scalar loop. block()
// returns false when this build or CPU has no vector version of fn for that type
// (vector_math.hpp), and the scalar loop runs.
#pragma once

#include <complex>
#include <cstdint>
#include <type_traits>

#include "backend/cpu/vector_math.hpp"

namespace tfe::cpu {

template <vec::Fn F> struct VectorBlock {
  template <class T>
  static constexpr bool vectorised = std::is_same_v<T, double> || std::is_same_v<T, float> ||
                                     (vec::has_complex(F) &&
                                      (std::is_same_v<T, std::complex<double>> ||
                                       std::is_same_v<T, std::complex<float>>));
  template <class T> static bool block(int64_t n, T* out, const T* a) {
    return vec::apply(F, n, out, a);
  }
  template <class T> static bool block(int64_t n, T* out, const T* a, const T* b) {
    return vec::apply(F, n, out, a, b);
  }
  // std::complex<R> arrays are arrays of (real, imaginary) pairs of R, by the standard's rule.
  template <class R> static bool block(int64_t n, std::complex<R>* out, const std::complex<R>* a) {
    return vec::apply_complex(F, n, reinterpret_cast<R*>(out), reinterpret_cast<const R*>(a));
  }
  template <class R>
  static bool block(int64_t n, std::complex<R>* out, const std::complex<R>* a,
                    const std::complex<R>* b) {
    return vec::apply_complex(F, n, reinterpret_cast<R*>(out), reinterpret_cast<const R*>(a),
                              reinterpret_cast<const R*>(b));
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
