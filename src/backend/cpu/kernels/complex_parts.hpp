// The scalar functions of the complex-parts ops (ops/defs/complex_parts.hpp), one functor per
// row, named like the op code.
#pragma once

#include <complex>

#include "backend/cpu/kernels/scalar_math.hpp"

namespace tfe::cpu::complex_parts {

struct Real {
  template <class T> real_of_t<T> operator()(T a) const {
    if constexpr (is_complex_v<T>)
      return a.real();
    else
      return a;
  }
};
struct Imag {
  template <class T> real_of_t<T> operator()(T a) const {
    if constexpr (is_complex_v<T>)
      return a.imag();
    else
      return T(0);
  }
};
struct Complex {
  template <class T> std::complex<T> operator()(T re, T im) const { return {re, im}; }
};

} // namespace tfe::cpu::complex_parts
