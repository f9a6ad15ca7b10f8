// The loops behind one instruction set's table (vector_math.hpp), included only by the files
// compiled for that instruction set (vector_math_avx2.cpp, vector_math_avx512.cpp). Isa supplies
// the vector types and their unaligned loads and stores. A run's tail goes through a zero-padded
// full vector, so every element gets exactly the vector function's result. Nothing from the
// standard library is used here: an inline function compiled for AVX-512 could otherwise be
// the copy the linker keeps for the whole program.
#pragma once

#include <cstdint>

#include "backend/cpu/vector_math.hpp"

namespace tfe::cpu::vec::loops {

template <class Isa, class T> struct Lanes;
template <class Isa> struct Lanes<Isa, double> {
  using V = typename Isa::VD;
  static constexpr int64_t n = Isa::kLanesD;
  static V load(const double* p) { return Isa::loadd(p); }
  static void store(double* p, V v) { Isa::stored(p, v); }
};
template <class Isa> struct Lanes<Isa, float> {
  using V = typename Isa::VF;
  static constexpr int64_t n = Isa::kLanesF;
  static V load(const float* p) { return Isa::loadf(p); }
  static void store(float* p, V v) { Isa::storef(p, v); }
};

template <class Isa, class T, auto F> void unary(int64_t n, T* out, const T* a) {
  using L = Lanes<Isa, T>;
  int64_t i = 0;
  for (; i + L::n <= n; i += L::n) L::store(out + i, F(L::load(a + i)));
  if (i == n) return;
  T in[L::n] = {}, res[L::n];
  for (int64_t j = 0; i + j < n; ++j) in[j] = a[i + j];
  L::store(res, F(L::load(in)));
  for (int64_t j = 0; i + j < n; ++j) out[i + j] = res[j];
}

template <class Isa, class T, auto F> void binary(int64_t n, T* out, const T* a, const T* b) {
  using L = Lanes<Isa, T>;
  int64_t i = 0;
  for (; i + L::n <= n; i += L::n) L::store(out + i, F(L::load(a + i), L::load(b + i)));
  if (i == n) return;
  T x[L::n] = {}, y[L::n] = {}, res[L::n];
  for (int64_t j = 0; i + j < n; ++j) {
    x[j] = a[i + j];
    y[j] = b[i + j];
  }
  L::store(res, F(L::load(x), L::load(y)));
  for (int64_t j = 0; i + j < n; ++j) out[i + j] = res[j];
}

// Fills a table from Isa's functions: Isa::D<fn>/F<fn> name the double/float vector function
// of fn (or nullptr).
template <class Isa> Table make_table() {
  Table t{};
#define TFE_VEC_UNARY(Name)                                                                        \
  t.unary_d[static_cast<int>(Fn::Name)] = &unary<Isa, double, Isa::D##Name>;                       \
  t.unary_f[static_cast<int>(Fn::Name)] = &unary<Isa, float, Isa::F##Name>;
#define TFE_VEC_BINARY(Name)                                                                       \
  t.binary_d[static_cast<int>(Fn::Name)] = &binary<Isa, double, Isa::D##Name>;                     \
  t.binary_f[static_cast<int>(Fn::Name)] = &binary<Isa, float, Isa::F##Name>;
  TFE_VEC_UNARY(Exp)
  TFE_VEC_UNARY(Expm1)
  TFE_VEC_UNARY(Log)
  TFE_VEC_UNARY(Log1p)
  TFE_VEC_UNARY(Sin)
  TFE_VEC_UNARY(Cos)
  TFE_VEC_UNARY(Tan)
  TFE_VEC_UNARY(Tanh)
  TFE_VEC_UNARY(Sinh)
  TFE_VEC_UNARY(Cosh)
  TFE_VEC_UNARY(Erf)
  TFE_VEC_UNARY(Sqrt)
  TFE_VEC_UNARY(Rsqrt)
  TFE_VEC_UNARY(Floor)
  TFE_VEC_UNARY(Ceil)
  TFE_VEC_UNARY(Round)
  TFE_VEC_UNARY(Trunc)
  TFE_VEC_UNARY(Asin)
  TFE_VEC_UNARY(Acos)
  TFE_VEC_UNARY(Atan)
  TFE_VEC_UNARY(Asinh)
  TFE_VEC_UNARY(Acosh)
  TFE_VEC_UNARY(Atanh)
  TFE_VEC_UNARY(Exp2)
  TFE_VEC_UNARY(Log2)
  TFE_VEC_UNARY(Log10)
  TFE_VEC_BINARY(Atan2)
  TFE_VEC_BINARY(Pow)
#undef TFE_VEC_UNARY
#undef TFE_VEC_BINARY
  return t;
}

} // namespace tfe::cpu::vec::loops
