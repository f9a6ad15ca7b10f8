// Vectorised elementwise math: SLEEF's 1-ULP (u10) functions and exact rounding/sqrt intrinsics
// over contiguous float and double arrays, and complex functions built on them (apply_complex),
// for the widest instruction set this CPU runs (AVX-512, else AVX2 with FMA), chosen once at
// first use. The elementwise kernels call apply() on each contiguous run and fall back to their
// scalar loop when it returns false (no SLEEF in the build, an older CPU, or
// TFE_VECTOR_MATH=scalar). Every element's result depends on its value only, never on its
// position or on the length of the run, so threading, chunking and views give identical bits.
#pragma once

#include <cstdint>

namespace tfe::cpu::vec {

// The vectorised functions. Unary ones take one operand; Atan2 and Pow take two.
enum class Fn : uint8_t {
  Exp,
  Expm1,
  Log,
  Log1p,
  Sin,
  Cos,
  Tan,
  Tanh,
  Sinh,
  Cosh,
  Erf,
  Sqrt,
  Rsqrt,
  Floor,
  Ceil,
  Round, // to nearest, halves to even (nearbyint under the default rounding mode)
  Trunc,
  Asin,
  Acos,
  Atan,
  Asinh,
  Acosh,
  Atanh,
  Exp2,
  Log2,
  Log10,
  Atan2,
  Pow,
  Count
};
constexpr int kFnCount = static_cast<int>(Fn::Count);

// Whether fn has complex vector versions (the table's unary_z/unary_c or binary_z/binary_c).
constexpr bool has_complex(Fn fn) {
  switch (fn) {
  case Fn::Exp:
  case Fn::Exp2:
  case Fn::Expm1:
  case Fn::Log:
  case Fn::Log2:
  case Fn::Log10:
  case Fn::Log1p:
  case Fn::Sqrt:
  case Fn::Rsqrt:
  case Fn::Sin:
  case Fn::Cos:
  case Fn::Tan:
  case Fn::Sinh:
  case Fn::Cosh:
  case Fn::Tanh:
  case Fn::Asin:
  case Fn::Acos:
  case Fn::Atan:
  case Fn::Asinh:
  case Fn::Acosh:
  case Fn::Atanh:
  case Fn::Pow: return true;
  default: return false;
  }
}

enum class Isa : uint8_t { Scalar, Avx2, Avx512 };

using UnaryD = void (*)(int64_t n, double* out, const double* a);
using UnaryF = void (*)(int64_t n, float* out, const float* a);
using BinaryD = void (*)(int64_t n, double* out, const double* a, const double* b);
using BinaryF = void (*)(int64_t n, float* out, const float* a, const float* b);

// One instruction set's functions; a null entry has no vector version. The complex entries
// (z: double parts, c: float parts) take n elements stored as interleaved (real, imaginary)
// pairs, the layout of std::complex arrays.
struct Table {
  UnaryD unary_d[kFnCount];
  UnaryF unary_f[kFnCount];
  BinaryD binary_d[kFnCount];
  BinaryF binary_f[kFnCount];
  UnaryD unary_z[kFnCount];
  UnaryF unary_c[kFnCount];
  BinaryD binary_z[kFnCount];
  BinaryF binary_c[kFnCount];
};

// The tables of each instruction set (vector_math_avx2.cpp, vector_math_avx512.cpp), null in a
// build without SLEEF. Call only through table_for, which checks the CPU first.
const Table* avx2_table();
const Table* avx512_table();
// sinh, cosh, asinh and acosh for the lanes the vector versions cannot reach (compiled for the
// baseline instruction set, so the tables may call them).
double scalar_sinh(double x);
double scalar_cosh(double x);
double scalar_asinh(double x);
double scalar_acosh(double x);
// The scalar library's complex fn of (x + iy) (and of the second operand bx + i by for Pow),
// in double, for the lanes the complex vector versions leave alone: non-finite parts, zeros where
// the function has a pole or branch point, magnitudes beyond the vector formulas' range, and
// pow's integer exponents. Writes the real and imaginary parts to re and im.
void scalar_complex(Fn fn, double x, double y, double bx, double by, double* re, double* im);

// The table of an instruction set, or null when this build or this CPU lacks it (Scalar: null).
const Table* table_for(Isa isa);
// The instruction set apply() uses: the widest the CPU runs, capped by TFE_VECTOR_MATH
// (scalar, avx2 or avx512) when set. Chosen on first use.
Isa active_isa();
const char* isa_name(Isa isa);

// out[i] = fn(a[i]) (or fn(a[i], b[i])) for i < n with the active instruction set; false (and
// nothing written) when fn has no vector version there.
bool apply(Fn fn, int64_t n, double* out, const double* a);
bool apply(Fn fn, int64_t n, float* out, const float* a);
bool apply(Fn fn, int64_t n, double* out, const double* a, const double* b);
bool apply(Fn fn, int64_t n, float* out, const float* a, const float* b);
// The same for n complex elements given as interleaved (real, imaginary) pairs. Float parts are
// computed in double and rounded once at the end.
bool apply_complex(Fn fn, int64_t n, double* out, const double* a);
bool apply_complex(Fn fn, int64_t n, float* out, const float* a);
bool apply_complex(Fn fn, int64_t n, double* out, const double* a, const double* b);
bool apply_complex(Fn fn, int64_t n, float* out, const float* a, const float* b);

} // namespace tfe::cpu::vec
