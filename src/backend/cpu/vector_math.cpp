// Chooses the instruction set of the vectorised math (vector_math.hpp) once per process.
#include "backend/cpu/vector_math.hpp"

#include <cmath>
#include <complex>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <limits>

#include "backend/cpu/kernels/scalar_math.hpp"

namespace tfe::cpu::vec {
namespace {

bool cpu_runs([[maybe_unused]] Isa isa) {
#if defined(__x86_64__)
  switch (isa) {
  case Isa::Avx512: return __builtin_cpu_supports("avx512f");
  case Isa::Avx2: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  case Isa::Scalar: return true;
  }
#endif
  return isa == Isa::Scalar;
}

// The widest instruction set the CPU runs, capped by TFE_VECTOR_MATH (for comparisons and for
// reproducing results across machines).
Isa choose() {
  Isa cap = Isa::Avx512;
  if (const char* env = std::getenv("TFE_VECTOR_MATH")) {
    if (std::strcmp(env, "scalar") == 0) cap = Isa::Scalar;
    if (std::strcmp(env, "avx2") == 0) cap = Isa::Avx2;
  }
  for (Isa isa : {Isa::Avx512, Isa::Avx2})
    if (isa <= cap && table_for(isa)) return isa;
  return Isa::Scalar;
}

const Table* active_table() {
  static const Table* const table = table_for(active_isa());
  return table;
}

// fn of the active table's list Member, when there is one.
template <auto Member, class... P> bool run(Fn fn, int64_t n, P... p) {
  const Table* t = active_table();
  auto f = t ? (t->*Member)[static_cast<int>(fn)] : nullptr;
  if (f) f(n, p...);
  return f != nullptr;
}

} // namespace

// In long double: glibc's double sinh is off by 1.03 ulp near 710.
double scalar_sinh(double x) { return static_cast<double>(std::sinh(static_cast<long double>(x))); }
double scalar_cosh(double x) { return static_cast<double>(std::cosh(static_cast<long double>(x))); }
double scalar_asinh(double x) { return std::asinh(x); }
double scalar_acosh(double x) { return std::acosh(x); }

// The scalar functors' complex formulas (kernels/analytic.hpp, kernels/arithmetic.hpp),
// in double.
void scalar_complex(Fn fn, double x, double y, double bx, double by, double* re, double* im) {
  using C = std::complex<double>;
  const C z(x, y);
  C r(std::numeric_limits<double>::quiet_NaN(), 0);
  switch (fn) {
  case Fn::Exp: r = std::exp(z); break;
  case Fn::Exp2: r = std::exp(z * 0.69314718055994530942); break;
  case Fn::Expm1:
    if (x > 700 && std::isfinite(x) && std::isfinite(y)) { // e^x alone may overflow; cexp scales
      r = std::exp(z) - 1.0;
    } else if (y == 0) {
      r = C(std::expm1(x), y);
    } else {
      double s = std::sin(y / 2);
      r = C(std::expm1(x) * std::cos(y) - 2 * s * s, std::exp(x) * std::sin(y));
    }
    break;
  case Fn::Log: r = std::log(z); break;
  case Fn::Log2: r = std::log(z) * 1.44269504088896340736; break;
  case Fn::Log10: r = std::log10(z); break;
  case Fn::Log1p: {
    double m = std::abs(C(x + 1, y));
    r = C(m > 0.5 && m < 2 ? std::log1p(x * (2 + x) + y * y) / 2 : std::log(m),
          std::atan2(y, x + 1));
    break;
  }
  case Fn::Sqrt: r = std::sqrt(z); break;
  case Fn::Rsqrt: r = 1.0 / std::sqrt(z); break;
  case Fn::Sin: r = std::sin(z); break;
  case Fn::Cos: r = std::cos(z); break;
  case Fn::Tan: r = std::tan(z); break;
  case Fn::Sinh: r = std::sinh(z); break;
  case Fn::Cosh: r = std::cosh(z); break;
  case Fn::Tanh: r = std::tanh(z); break;
  case Fn::Asin: r = std::asin(z); break;
  case Fn::Acos: r = std::acos(z); break;
  case Fn::Atan: r = std::atan(z); break;
  case Fn::Asinh: r = std::asinh(z); break;
  case Fn::Acosh: r = std::acosh(z); break;
  case Fn::Atanh: r = std::atanh(z); break;
  case Fn::Pow: r = complex_pow(z, C(bx, by)); break;
  default: break;
  }
  *re = r.real();
  *im = r.imag();
}

const Table* table_for(Isa isa) {
  if (!cpu_runs(isa)) return nullptr;
  switch (isa) {
  case Isa::Avx512: return avx512_table();
  case Isa::Avx2: return avx2_table();
  case Isa::Scalar: return nullptr;
  }
  return nullptr;
}

Isa active_isa() {
  static const Isa isa = choose();
  return isa;
}

const char* isa_name(Isa isa) {
  switch (isa) {
  case Isa::Avx512: return "avx512";
  case Isa::Avx2: return "avx2";
  case Isa::Scalar: return "scalar";
  }
  return "?";
}

bool apply(Fn fn, int64_t n, double* out, const double* a) {
  return run<&Table::unary_d>(fn, n, out, a);
}
bool apply(Fn fn, int64_t n, float* out, const float* a) {
  return run<&Table::unary_f>(fn, n, out, a);
}
bool apply(Fn fn, int64_t n, double* out, const double* a, const double* b) {
  return run<&Table::binary_d>(fn, n, out, a, b);
}
bool apply(Fn fn, int64_t n, float* out, const float* a, const float* b) {
  return run<&Table::binary_f>(fn, n, out, a, b);
}
bool apply_complex(Fn fn, int64_t n, double* out, const double* a) {
  return run<&Table::unary_z>(fn, n, out, a);
}
bool apply_complex(Fn fn, int64_t n, float* out, const float* a) {
  return run<&Table::unary_c>(fn, n, out, a);
}
bool apply_complex(Fn fn, int64_t n, double* out, const double* a, const double* b) {
  return run<&Table::binary_z>(fn, n, out, a, b);
}
bool apply_complex(Fn fn, int64_t n, float* out, const float* a, const float* b) {
  return run<&Table::binary_c>(fn, n, out, a, b);
}

} // namespace tfe::cpu::vec
