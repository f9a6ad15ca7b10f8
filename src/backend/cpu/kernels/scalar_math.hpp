// Element-level arithmetic with the library's semantics: two's-complement wrapping for integers,
// naive complex multiplication (as NumPy), NaN-propagating max/min, saturating casts.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "core/dtype.hpp"

namespace tfe::cpu {

template <class T> T wrap_add(T a, T b) {
  if constexpr (is_integer_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}
template <class T> T wrap_sub(T a, T b) {
  if constexpr (is_integer_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
  } else {
    return a - b;
  }
}
template <class T> T wrap_mul(T a, T b) {
  if constexpr (is_integer_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
  } else if constexpr (is_complex_v<T>) {
    return T(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
  } else {
    return a * b;
  }
}
template <class T> T wrap_neg(T a) {
  if constexpr (is_integer_v<T>)
    return wrap_sub(T(0), a);
  else
    return -a;
}

// Complex power: z^0 = 1; small integer exponents by repeated squaring (exact for small Gaussian
// integers, as NumPy); 0^b = 0 when Re b > 0 and NaN otherwise; else the C library's cpow.
template <class T> T complex_pow(T a, T b) {
  using R = typename T::value_type;
  if (b.real() == 0 && b.imag() == 0) return T(1);
  if (b.imag() == 0 && std::abs(b.real()) <= 64 && b.real() == std::nearbyint(b.real())) {
    auto n = static_cast<int64_t>(b.real());
    T r(1);
    for (int64_t k = n < 0 ? -n : n; k > 0; k >>= 1) {
      if (k & 1) r = wrap_mul(r, a);
      a = wrap_mul(a, a);
    }
    return n < 0 ? T(R(1)) / r : r;
  }
  if (a.real() == 0 && a.imag() == 0)
    return b.real() > 0 ? T(0) : T(std::numeric_limits<R>::quiet_NaN(), 0);
  return std::pow(a, b);
}

// NaN-propagating maximum/minimum; or/and on bool.
template <class T> T max_of(T a, T b) {
  if constexpr (std::is_floating_point_v<T>)
    return (a > b || a != a) ? a : b;
  else
    return a > b ? a : b;
}
template <class T> T min_of(T a, T b) {
  if constexpr (std::is_floating_point_v<T>)
    return (a < b || a != a) ? a : b;
  else
    return a < b ? a : b;
}

template <class T> bool is_zero(T v) {
  if constexpr (is_complex_v<T>)
    return v.real() == 0 && v.imag() == 0;
  else
    return v == T(0);
}

// Lossy conversion (the IR Convert): float -> int truncates toward zero, saturates at the
// bounds and maps NaN to 0; complex -> real keeps the real part; anything -> Bool is != 0.
template <class To, class From> To cast_value(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (std::is_same_v<To, bool>) {
    return !is_zero(v);
  } else if constexpr (is_complex_v<From>) {
    if constexpr (is_complex_v<To>)
      return To(static_cast<typename To::value_type>(v.real()),
                static_cast<typename To::value_type>(v.imag()));
    else
      return cast_value<To>(v.real());
  } else if constexpr (is_complex_v<To>) {
    return To(static_cast<typename To::value_type>(v), 0);
  } else if constexpr (is_integer_v<To> && std::is_floating_point_v<From>) {
    if (v != v) return To(0);
    constexpr From lo = static_cast<From>(std::numeric_limits<To>::min());
    constexpr From hi = static_cast<From>(std::numeric_limits<To>::max());
    if (v <= lo) return std::numeric_limits<To>::min();
    if (v >= hi) return std::numeric_limits<To>::max();
    return static_cast<To>(v);
  } else if constexpr (is_integer_v<To> && is_integer_v<From>) {
    return static_cast<To>(v); // modular (C++20)
  } else {
    return static_cast<To>(v);
  }
}

} // namespace tfe::cpu
