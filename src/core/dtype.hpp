// Element types, their C++ representations, the promotion lattice and the one dtype dispatch.
// Neighbours: error.hpp (typed errors), tensor.hpp (values). Contract:
// docs/design/ops-and-dtypes.md "Dtypes".
#pragma once

#include <complex>
#include <cstdint>
#include <string_view>
#include <type_traits>

namespace tfe {

// Values equal the public TFE_BOOL..TFE_C64 constants.
enum class DType : int32_t { Bool = 1, I32 = 2, I64 = 3, F32 = 4, F64 = 5, C32 = 6, C64 = 7 };

inline constexpr int kNumDTypes = 7;
inline constexpr DType kAllDTypes[kNumDTypes] = {DType::Bool, DType::I32, DType::I64, DType::F32,
                                                 DType::F64,  DType::C32, DType::C64};

using c32 = std::complex<float>;
using c64 = std::complex<double>;

template <class T> struct dtype_of;
template <> struct dtype_of<bool> { static constexpr DType value = DType::Bool; };
template <> struct dtype_of<int32_t> { static constexpr DType value = DType::I32; };
template <> struct dtype_of<int64_t> { static constexpr DType value = DType::I64; };
template <> struct dtype_of<float> { static constexpr DType value = DType::F32; };
template <> struct dtype_of<double> { static constexpr DType value = DType::F64; };
template <> struct dtype_of<c32> { static constexpr DType value = DType::C32; };
template <> struct dtype_of<c64> { static constexpr DType value = DType::C64; };
template <class T> inline constexpr DType dtype_of_v = dtype_of<T>::value;

template <class T> inline constexpr bool is_complex_v = false;
template <class T> inline constexpr bool is_complex_v<std::complex<T>> = true;
template <class T>
inline constexpr bool is_integer_v = std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>;
template <class T> inline constexpr bool is_real_float_v = std::is_floating_point_v<T>;

// The real type underlying T (float for c32, T itself for real types).
template <class T> struct real_of { using type = T; };
template <class T> struct real_of<std::complex<T>> { using type = T; };
template <class T> using real_of_t = typename real_of<T>::type;

constexpr bool is_valid_dtype(int32_t v) { return v >= 1 && v <= kNumDTypes; }
constexpr int dtype_index(DType d) { return static_cast<int>(d) - 1; }

constexpr int64_t itemsize(DType d) {
  switch (d) {
  case DType::Bool: return 1;
  case DType::I32: return 4;
  case DType::I64: return 8;
  case DType::F32: return 4;
  case DType::F64: return 8;
  case DType::C32: return 8;
  case DType::C64: return 16;
  }
  return 0;
}

constexpr bool is_complex(DType d) { return d == DType::C32 || d == DType::C64; }
constexpr bool is_real_float(DType d) { return d == DType::F32 || d == DType::F64; }
constexpr bool is_inexact(DType d) { return is_real_float(d) || is_complex(d); }
constexpr bool is_integer(DType d) { return d == DType::I32 || d == DType::I64; }

// C32 -> F32, C64 -> F64, others unchanged.
constexpr DType real_dtype(DType d) {
  return d == DType::C32 ? DType::F32 : d == DType::C64 ? DType::F64 : d;
}
// The complex type of the same precision (F32 -> C32); integers and Bool go to C64 like the join.
constexpr DType complex_dtype(DType d) {
  return (d == DType::F32 || d == DType::C32) ? DType::C32 : DType::C64;
}

// NumPy's result_type on the seven types (docs/design/ops-and-dtypes.md, "Promotion").
constexpr DType join(DType a, DType b) {
  using D = DType;
  constexpr D table[kNumDTypes][kNumDTypes] = {
      /* Bool */ {D::Bool, D::I32, D::I64, D::F32, D::F64, D::C32, D::C64},
      /* I32  */ {D::I32, D::I32, D::I64, D::F64, D::F64, D::C64, D::C64},
      /* I64  */ {D::I64, D::I64, D::I64, D::F64, D::F64, D::C64, D::C64},
      /* F32  */ {D::F32, D::F64, D::F64, D::F32, D::F64, D::C32, D::C64},
      /* F64  */ {D::F64, D::F64, D::F64, D::F64, D::F64, D::C64, D::C64},
      /* C32  */ {D::C32, D::C64, D::C64, D::C32, D::C64, D::C32, D::C64},
      /* C64  */ {D::C64, D::C64, D::C64, D::C64, D::C64, D::C64, D::C64},
  };
  return table[dtype_index(a)][dtype_index(b)];
}

// A checked conversion a -> b is allowed iff it loses nothing ("safe" casting).
constexpr bool can_convert_safely(DType from, DType to) { return join(from, to) == to; }

constexpr std::string_view dtype_name(DType d) {
  switch (d) {
  case DType::Bool: return "Bool";
  case DType::I32: return "I32";
  case DType::I64: return "I64";
  case DType::F32: return "F32";
  case DType::F64: return "F64";
  case DType::C32: return "C32";
  case DType::C64: return "C64";
  }
  return "?";
}

// The name with its article, for messages: "an F64", "an I32", "a C64", "a Bool".
constexpr std::string_view dtype_phrase(DType d) {
  switch (d) {
  case DType::Bool: return "a Bool";
  case DType::I32: return "an I32";
  case DType::I64: return "an I64";
  case DType::F32: return "an F32";
  case DType::F64: return "an F64";
  case DType::C32: return "a C32";
  case DType::C64: return "a C64";
  }
  return "a ?";
}

// A set of dtypes as a bit mask (bit dtype_index(d)); the op table's "accepts" column.
class DTypeSet {
public:
  constexpr DTypeSet() = default;
  constexpr DTypeSet(std::initializer_list<DType> ds) {
    for (DType d : ds) bits_ |= bit(d);
  }
  constexpr bool contains(DType d) const { return (bits_ & bit(d)) != 0; }
  constexpr DTypeSet operator|(DTypeSet o) const { return from_bits(bits_ | o.bits_); }
  constexpr DTypeSet operator-(DTypeSet o) const { return from_bits(bits_ & ~o.bits_); }
  constexpr bool operator==(const DTypeSet&) const = default;
  constexpr uint8_t bits() const { return bits_; }
  constexpr bool empty() const { return bits_ == 0; }
  static constexpr DTypeSet from_bits(uint8_t b) {
    DTypeSet s;
    s.bits_ = b;
    return s;
  }

private:
  static constexpr uint8_t bit(DType d) { return static_cast<uint8_t>(1u << dtype_index(d)); }
  uint8_t bits_ = 0;
};

namespace dtypes {
inline constexpr DTypeSet kBool{DType::Bool};
inline constexpr DTypeSet kInt{DType::I32, DType::I64};
inline constexpr DTypeSet kRealFloat{DType::F32, DType::F64};
inline constexpr DTypeSet kComplex{DType::C32, DType::C64};
inline constexpr DTypeSet kInexact = kRealFloat | kComplex;
inline constexpr DTypeSet kNumeric = kInt | kInexact;           // no Bool
inline constexpr DTypeSet kOrdered = kBool | kInt | kRealFloat; // no complex
inline constexpr DTypeSet kRealNumeric = kInt | kRealFloat;
inline constexpr DTypeSet kAll = kBool | kNumeric;
inline constexpr DTypeSet kLogical = kBool | kInt;
} // namespace dtypes

template <class T> struct type_tag { using type = T; };

// The one dtype dispatch: calls f(type_tag<T>{}) for the C++ type of d.
template <class F> decltype(auto) visit_dtype(DType d, F&& f) {
  switch (d) {
  case DType::Bool: return f(type_tag<bool>{});
  case DType::I32: return f(type_tag<int32_t>{});
  case DType::I64: return f(type_tag<int64_t>{});
  case DType::F32: return f(type_tag<float>{});
  case DType::F64: return f(type_tag<double>{});
  case DType::C32: return f(type_tag<c32>{});
  case DType::C64: return f(type_tag<c64>{});
  }
  return f(type_tag<double>{}); // unreachable for validated dtypes
}

} // namespace tfe
