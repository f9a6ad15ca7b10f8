// Chooses the instruction set of the vectorised math (vector_math.hpp) once per process.
#include "backend/cpu/vector_math.hpp"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

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

} // namespace tfe::cpu::vec
