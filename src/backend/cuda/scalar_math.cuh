// Element-level arithmetic with the library's semantics, as the CPU backend defines it: wrapping
// integers, naive complex multiplication (as NumPy), NaN-propagating max/min, saturating casts.
#pragma once

#include <cuda/std/limits>

#include <type_traits>

#include "backend/cuda/types.cuh"

namespace tfe::cuda {

template <class T> __device__ __forceinline__ T wrap_add(T a, T b) {
  if constexpr (is_integer_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}
template <class T> __device__ __forceinline__ T wrap_sub(T a, T b) {
  if constexpr (is_integer_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
  } else {
    return a - b;
  }
}
template <class T> __device__ __forceinline__ T wrap_mul(T a, T b) {
  if constexpr (is_integer_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
  } else if constexpr (is_complex_v<T>) {
    return T(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
  } else {
    return a * b;
  }
}
template <class T> __device__ __forceinline__ T wrap_neg(T a) {
  if constexpr (is_integer_v<T>)
    return wrap_sub(T(0), a);
  else
    return -a;
}

template <class T> __device__ __forceinline__ T max_of(T a, T b) {
  if constexpr (std::is_floating_point_v<T>)
    return (a > b || a != a) ? a : b;
  else
    return a > b ? a : b;
}
template <class T> __device__ __forceinline__ T min_of(T a, T b) {
  if constexpr (std::is_floating_point_v<T>)
    return (a < b || a != a) ? a : b;
  else
    return a < b ? a : b;
}

template <class T> __device__ __forceinline__ bool is_zero(T v) {
  if constexpr (is_complex_v<T>)
    return v.real() == 0 && v.imag() == 0;
  else
    return v == T(0);
}

// The library's conversion: to Bool is != 0; complex to real keeps the real part; float to
// integer truncates toward zero, saturates at the bounds and maps NaN to 0; integers are modular.
template <class To, class From> __device__ __forceinline__ To cast_value(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (std::is_same_v<To, bool>) {
    return !is_zero(v);
  } else if constexpr (is_complex_v<From>) {
    if constexpr (is_complex_v<To>)
      return To(static_cast<real_of_t<To>>(v.real()), static_cast<real_of_t<To>>(v.imag()));
    else
      return cast_value<To>(v.real());
  } else if constexpr (is_complex_v<To>) {
    return To(static_cast<real_of_t<To>>(v), real_of_t<To>(0));
  } else if constexpr (is_integer_v<To> && std::is_floating_point_v<From>) {
    if (v != v) return To(0);
    constexpr From lo = static_cast<From>(::cuda::std::numeric_limits<To>::min());
    constexpr From hi = static_cast<From>(::cuda::std::numeric_limits<To>::max());
    if (v <= lo) return ::cuda::std::numeric_limits<To>::min();
    if (v >= hi) return ::cuda::std::numeric_limits<To>::max();
    return static_cast<To>(v);
  } else {
    return static_cast<To>(v);
  }
}

} // namespace tfe::cuda
