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

// Complex elements (interleaved real/imaginary pairs of T) go through Isa's double kernels
// Isa::Z<fn>(x, y, re, im) one vector of elements at a time, split into parts in registers. A
// vector with a lane in the mask the kernel returns, and the tail, go through double arrays
// (the tail padded to a full vector), and the masked lanes take the scalar library's value
// (vector_math.cpp). Float parts are rounded once, at the end.
template <class Isa, class T> void complex_split(int64_t m, const T* a, double* x, double* y) {
  for (int64_t j = 0; j < Isa::kLanesD; ++j) {
    x[j] = j < m ? static_cast<double>(a[2 * j]) : 1.0;
    y[j] = j < m ? static_cast<double>(a[2 * j + 1]) : 0.5;
  }
}

template <class Isa, class T, Fn F, auto K, int Arity>
void complex_map(int64_t n, T* out, const T* a, const T* b) {
  constexpr int64_t kL = Isa::kLanesD;
  for (int64_t i = 0; i < n; i += kL) {
    int64_t m = n - i < kL ? n - i : kL;
    if (m == kL) { // a full vector in registers; redone below when a lane needs the scalar value
      typename Isa::VD x, y, bx{}, by{}, vr, vi;
      Isa::load_pairs(a + 2 * i, x, y);
      unsigned special;
      if constexpr (Arity == 1) {
        special = Isa::bits(K(x, y, vr, vi));
      } else {
        Isa::load_pairs(b + 2 * i, bx, by);
        special = Isa::bits(K(x, y, bx, by, vr, vi));
      }
      if (special == 0) {
        Isa::store_pairs(out + 2 * i, vr, vi);
        continue;
      }
    }
    double x[kL], y[kL], bx[kL] = {}, by[kL] = {}, re[kL], im[kL];
    complex_split<Isa, T>(m, a + 2 * i, x, y);
    typename Isa::VD vr, vi;
    unsigned special;
    if constexpr (Arity == 1) {
      special = Isa::bits(K(Isa::loadd(x), Isa::loadd(y), vr, vi));
    } else {
      complex_split<Isa, T>(m, b + 2 * i, bx, by);
      special = Isa::bits(K(Isa::loadd(x), Isa::loadd(y), Isa::loadd(bx), Isa::loadd(by), vr, vi));
    }
    Isa::stored(re, vr);
    Isa::stored(im, vi);
    if (special != 0)
      for (int64_t j = 0; j < m; ++j)
        if ((special >> j) & 1u) scalar_complex(F, x[j], y[j], bx[j], by[j], &re[j], &im[j]);
    for (int64_t j = 0; j < m; ++j) {
      out[2 * (i + j)] = static_cast<T>(re[j]);
      out[2 * (i + j) + 1] = static_cast<T>(im[j]);
    }
  }
}

template <class Isa, class T, Fn F, auto K> void complex_unary(int64_t n, T* out, const T* a) {
  complex_map<Isa, T, F, K, 1>(n, out, a, nullptr);
}
template <class Isa, class T, Fn F, auto K>
void complex_binary(int64_t n, T* out, const T* a, const T* b) {
  complex_map<Isa, T, F, K, 2>(n, out, a, b);
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
#define TFE_VEC_COMPLEX(Name)                                                                      \
  t.unary_z[static_cast<int>(Fn::Name)] = &complex_unary<Isa, double, Fn::Name, Isa::Z##Name>;     \
  t.unary_c[static_cast<int>(Fn::Name)] = &complex_unary<Isa, float, Fn::Name, Isa::Z##Name>;
  TFE_VEC_COMPLEX(Exp)
  TFE_VEC_COMPLEX(Exp2)
  TFE_VEC_COMPLEX(Expm1)
  TFE_VEC_COMPLEX(Log)
  TFE_VEC_COMPLEX(Log2)
  TFE_VEC_COMPLEX(Log10)
  TFE_VEC_COMPLEX(Log1p)
  TFE_VEC_COMPLEX(Sqrt)
  TFE_VEC_COMPLEX(Rsqrt)
  TFE_VEC_COMPLEX(Sin)
  TFE_VEC_COMPLEX(Cos)
  TFE_VEC_COMPLEX(Tan)
  TFE_VEC_COMPLEX(Sinh)
  TFE_VEC_COMPLEX(Cosh)
  TFE_VEC_COMPLEX(Tanh)
  TFE_VEC_COMPLEX(Asin)
  TFE_VEC_COMPLEX(Acos)
  TFE_VEC_COMPLEX(Atan)
  TFE_VEC_COMPLEX(Asinh)
  TFE_VEC_COMPLEX(Acosh)
  TFE_VEC_COMPLEX(Atanh)
  static_assert(has_complex(Fn::Pow) && has_complex(Fn::Atanh) && !has_complex(Fn::Erf));
  t.binary_z[static_cast<int>(Fn::Pow)] = &complex_binary<Isa, double, Fn::Pow, Isa::ZPow>;
  t.binary_c[static_cast<int>(Fn::Pow)] = &complex_binary<Isa, float, Fn::Pow, Isa::ZPow>;
#undef TFE_VEC_UNARY
#undef TFE_VEC_BINARY
#undef TFE_VEC_COMPLEX
  return t;
}

} // namespace tfe::cpu::vec::loops
