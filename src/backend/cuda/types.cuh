// Element types on the device and the one dtype dispatch: Bool is a one-byte 0/1 (C++ bool),
// complex is cuda::std::complex (interleaved re/im, as the library stores it).
#pragma once

#include <cuda/std/complex>

#include <cstdint>
#include <type_traits>

#include "tenferro/base.h"

namespace tfe::cuda {

using c32 = ::cuda::std::complex<float>;
using c64 = ::cuda::std::complex<double>;

template <class T> inline constexpr bool is_complex_v = false;
template <> inline constexpr bool is_complex_v<c32> = true;
template <> inline constexpr bool is_complex_v<c64> = true;
template <class T>
inline constexpr bool is_integer_v = std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>;
template <class T> inline constexpr bool is_real_float_v = std::is_floating_point_v<T>;

template <class T> struct real_of { using type = T; };
template <> struct real_of<c32> { using type = float; };
template <> struct real_of<c64> { using type = double; };
template <class T> using real_of_t = typename real_of<T>::type;

template <class T> struct dtype_of;
template <> struct dtype_of<bool> { static constexpr int32_t value = TFE_BOOL; };
template <> struct dtype_of<int32_t> { static constexpr int32_t value = TFE_I32; };
template <> struct dtype_of<int64_t> { static constexpr int32_t value = TFE_I64; };
template <> struct dtype_of<float> { static constexpr int32_t value = TFE_F32; };
template <> struct dtype_of<double> { static constexpr int32_t value = TFE_F64; };
template <> struct dtype_of<c32> { static constexpr int32_t value = TFE_C32; };
template <> struct dtype_of<c64> { static constexpr int32_t value = TFE_C64; };
template <> struct dtype_of<void> { static constexpr int32_t value = 0; };
template <class T> inline constexpr int32_t dtype_of_v = dtype_of<T>::value;

inline constexpr bool valid_dtype(int32_t d) { return d >= TFE_BOOL && d <= TFE_C64; }

inline constexpr int64_t itemsize(int32_t d) {
  switch (d) {
  case TFE_BOOL: return 1;
  case TFE_I32:
  case TFE_F32: return 4;
  case TFE_I64:
  case TFE_F64:
  case TFE_C32: return 8;
  case TFE_C64: return 16;
  default: return 0;
  }
}

inline const char* dtype_name(int32_t d) {
  switch (d) {
  case TFE_BOOL: return "Bool";
  case TFE_I32: return "I32";
  case TFE_I64: return "I64";
  case TFE_F32: return "F32";
  case TFE_F64: return "F64";
  case TFE_C32: return "C32";
  case TFE_C64: return "C64";
  default: return "?";
  }
}

template <class T> struct Tag { using type = T; };

// Calls f(Tag<T>{}) with the element type of dtype d (a valid dtype).
template <class F> decltype(auto) visit_dtype(int32_t d, F&& f) {
  switch (d) {
  case TFE_BOOL: return f(Tag<bool>{});
  case TFE_I32: return f(Tag<int32_t>{});
  case TFE_I64: return f(Tag<int64_t>{});
  case TFE_F32: return f(Tag<float>{});
  case TFE_F64: return f(Tag<double>{});
  case TFE_C32: return f(Tag<c32>{});
  default: return f(Tag<c64>{});
  }
}

// Element-size carriers for kernels that only move bit patterns (fill, triangle, gather,
// scatter's copies); 16 bytes as two words, so 8-byte alignment suffices.
struct Bytes16 {
  uint64_t lo, hi;
};

// Calls f(Tag<T>{}) with the carrier of an element of `size` bytes (1, 4, 8 or 16).
template <class F> decltype(auto) visit_size(int64_t size, F&& f) {
  switch (size) {
  case 1: return f(Tag<uint8_t>{});
  case 4: return f(Tag<uint32_t>{});
  case 8: return f(Tag<uint64_t>{});
  default: return f(Tag<Bytes16>{});
  }
}

} // namespace tfe::cuda
