// The vectorised elementwise math (backend/cpu/vector_math.hpp): accuracy of every function in
// float and double, on every instruction set this CPU runs, against a reference computed in a
// wider type (long double for double, double for float); the largest error found is printed per
// function, dtype and instruction set. Then the kernels: a contiguous run, a strided view and a
// broadcast operand give the same bits.
#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <algorithm>
#include <array>
#include <utility>
#include <limits>
#include <random>
#include <vector>

#include "backend/cpu/kernel.hpp"
#include "backend/cpu/strided_copy.hpp"
#include "backend/cpu/vector_math.hpp"
#include "core/tensor.hpp"
#include "ops/op_table.hpp"

using namespace tfe;
using cpu::vec::Fn;
using cpu::vec::Isa;

namespace {

// The function in the wider type W (long double or double): the reference.
template <class W> W reference(Fn fn, W a, W b) {
  switch (fn) {
  case Fn::Exp: return std::exp(a);
  case Fn::Expm1: return std::expm1(a);
  case Fn::Log: return std::log(a);
  case Fn::Log1p: return std::log1p(a);
  case Fn::Sin: return std::sin(a);
  case Fn::Cos: return std::cos(a);
  case Fn::Tan: return std::tan(a);
  case Fn::Tanh: return std::tanh(a);
  case Fn::Sinh: return std::sinh(a);
  case Fn::Cosh: return std::cosh(a);
  case Fn::Erf: return std::erf(a);
  case Fn::Sqrt: return std::sqrt(a);
  case Fn::Rsqrt: return W(1) / std::sqrt(a);
  case Fn::Floor: return std::floor(a);
  case Fn::Ceil: return std::ceil(a);
  case Fn::Round: return std::nearbyint(a);
  case Fn::Trunc: return std::trunc(a);
  case Fn::Asin: return std::asin(a);
  case Fn::Acos: return std::acos(a);
  case Fn::Atan: return std::atan(a);
  case Fn::Asinh: return std::asinh(a);
  case Fn::Acosh: return std::acosh(a);
  case Fn::Atanh: return std::atanh(a);
  case Fn::Exp2: return std::exp2(a);
  case Fn::Log2: return std::log2(a);
  case Fn::Log10: return std::log10(a);
  case Fn::Atan2: return std::atan2(a, b);
  case Fn::Pow: return std::pow(a, b);
  case Fn::Count: break;
  }
  return W(0);
}

bool is_binary(Fn fn) { return fn == Fn::Atan2 || fn == Fn::Pow; }
// Correctly rounded (or exact) in hardware: compared bit for bit with the scalar library.
bool is_exact(Fn fn) {
  return fn == Fn::Sqrt || fn == Fn::Rsqrt || fn == Fn::Floor || fn == Fn::Ceil ||
         fn == Fn::Round || fn == Fn::Trunc;
}
const char* fn_name(Fn fn) {
  static const char* names[] = {"exp",   "expm1", "log",   "log1p", "sin",   "cos",   "tan",
                                "tanh",  "sinh",  "cosh",  "erf",   "sqrt",  "rsqrt", "floor",
                                "ceil",  "round", "trunc", "asin",  "acos",  "atan",  "asinh",
                                "acosh", "atanh", "exp2",  "log2",  "log10", "atan2", "pow"};
  static_assert(std::size(names) == cpu::vec::kFnCount);
  return names[static_cast<int>(fn)];
}

// Error of y in units of the last place of T at the exact value ref (in W).
template <class T, class W> double ulp_error(T y, W ref) {
  if (std::isnan(ref)) return std::isnan(y) ? 0 : INFINITY;
  T rounded = static_cast<T>(ref);
  if (std::isinf(rounded)) return y == rounded ? 0 : INFINITY; // overflow must give inf
  if (std::isnan(y) || std::isinf(y)) return INFINITY;
  int e = 0;
  std::frexp(static_cast<W>(rounded == 0 ? std::numeric_limits<T>::denorm_min() : rounded), &e);
  W ulp = std::ldexp(
      W(1), std::max(e - std::numeric_limits<T>::digits,
                     std::numeric_limits<T>::min_exponent - std::numeric_limits<T>::digits));
  return static_cast<double>(std::fabs(static_cast<W>(y) - ref) / ulp);
}

// Arguments of fn: special values, subnormals, a log-uniform sweep of both signs over the
// whole range, and huge arguments (sin, cos, tan reduce them exactly).
template <class T> std::vector<T> arguments(std::mt19937_64& rng) {
  using L = std::numeric_limits<T>;
  std::vector<T> xs{
      T(0),     -T(0),         T(1),           -T(1),          T(0.5),          -T(0.5),
      T(2),     L::infinity(), -L::infinity(), L::quiet_NaN(), L::denorm_min(), -L::denorm_min(),
      L::min(), -L::min(),     L::max(),       -L::max(),      L::epsilon(),    T(0.1),
      T(3.5),   T(-2.5)};
  // Near the ends of sinh, cosh and exp's finite range, and of log1p's.
  for (double edge : {88.5, 88.9, 89.4, 709.0, 709.9, 710.4, 1e38, 3e38, 1e307, 1.7e308})
    if (edge <= static_cast<double>(L::max())) {
      xs.push_back(static_cast<T>(edge));
      xs.push_back(static_cast<T>(-edge));
    }
  std::uniform_real_distribution<double> exponent(L::min_exponent - L::digits, L::max_exponent);
  std::uniform_real_distribution<double> mantissa(1, 2);
  for (int i = 0; i < 20000; ++i) {
    T x = static_cast<T>(std::ldexp(mantissa(rng), static_cast<int>(exponent(rng))));
    xs.push_back(i % 2 ? -x : x);
  }
  std::uniform_real_distribution<double> small(-40, 40); // where most functions are interesting
  for (int i = 0; i < 20000; ++i) xs.push_back(static_cast<T>(small(rng)));
  // The inverse functions' domain [-1, 1] and the neighbourhoods of its ends.
  std::uniform_real_distribution<double> unit(-1, 1);
  for (int i = 0; i < 10000; ++i) xs.push_back(static_cast<T>(unit(rng)));
  for (int k = 0; k < 64; ++k)
    for (T one : {T(1), T(-1)}) {
      xs.push_back(one + one * T(k) * L::epsilon());
      xs.push_back(one - one * T(k) * L::epsilon() / 2);
    }
  return xs;
}

// The table's unary and binary function of index f for element type T.
template <class T> auto entries(const cpu::vec::Table& t, int f) {
  if constexpr (std::is_same_v<T, double>)
    return std::pair{t.unary_d[f], t.binary_d[f]};
  else
    return std::pair{t.unary_f[f], t.binary_f[f]};
}

template <class T> void check_accuracy(const cpu::vec::Table& table, Isa isa) {
  using W = std::conditional_t<std::is_same_v<T, double>, long double, double>;
  std::mt19937_64 rng(2026);
  std::vector<T> xs = arguments<T>(rng);
  std::vector<T> ys = arguments<T>(rng); // second operands: the same kinds of values, shuffled
  std::shuffle(ys.begin(), ys.end(), rng);
  const char* dtype = std::is_same_v<T, double> ? "f64" : "f32";
  for (int f = 0; f < cpu::vec::kFnCount; ++f) {
    Fn fn = static_cast<Fn>(f);
    std::vector<T> out(xs.size());
    auto n = static_cast<int64_t>(xs.size());
    auto [unary, binary] = entries<T>(table, f);
    if (is_binary(fn)) {
      REQUIRE(binary != nullptr);
      binary(n, out.data(), xs.data(), ys.data());
    } else {
      REQUIRE(unary != nullptr);
      unary(n, out.data(), xs.data());
    }
    double worst = 0;
    T worst_x = 0, worst_y = 0;
    int64_t wrong_class = 0;
    for (size_t i = 0; i < xs.size(); ++i) {
      T x = xs[i], y = is_binary(fn) ? ys[i] : T(0);
      if (is_exact(fn)) {
        T scalar = static_cast<T>(reference<T>(fn, x, y)); // the scalar library in T itself
        bool same = std::isnan(scalar)
                        ? std::isnan(out[i])
                        : out[i] == scalar && std::signbit(out[i]) == std::signbit(scalar);
        if (!same) ++wrong_class;
        continue;
      }
      double e = ulp_error(out[i], reference<W>(fn, x, y));
      if (e > worst) {
        worst = e;
        worst_x = x;
        worst_y = y;
      }
    }
    std::printf("vector math %-6s %-5s %s: max error %.3f ulp over %zu arguments%s\n",
                cpu::vec::isa_name(isa), fn_name(fn), dtype, worst, xs.size(),
                is_exact(fn) ? " (exact: bit-identical to the scalar library)" : "");
    INFO(fn_name(fn) << " " << dtype << " on " << cpu::vec::isa_name(isa)
                     << ": worst at x = " << worst_x << ", y = " << worst_y);
    // The reference's own error is below 1e-6 ulp of T.
    CHECK(worst <= 1.0 + 1e-6);
    CHECK(wrong_class == 0);
  }
}

} // namespace

TEST_CASE("vector math: every function within 1 ulp on every instruction set this CPU runs",
          "[backend][vector_math]") {
  int tested = 0;
  for (Isa isa : {Isa::Avx2, Isa::Avx512}) {
    const cpu::vec::Table* table = cpu::vec::table_for(isa);
    if (!table) {
      std::printf("SKIP vector math on %s: not built (no SLEEF) or not run by this CPU\n",
                  cpu::vec::isa_name(isa));
      continue;
    }
    check_accuracy<double>(*table, isa);
    check_accuracy<float>(*table, isa);
    ++tested;
  }
  if (tested == 0) std::printf("SKIP vector math accuracy: no vector instruction set available\n");
}

TEST_CASE("vector math: contiguous, strided and broadcast operands give the same bits",
          "[backend][vector_math]") {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-3, 3);
  // 37 x 29: runs that are not multiples of any vector width.
  Tensor a = Tensor::empty(DType::F64, {37, 29});
  Tensor b = Tensor::empty(DType::F64, {37, 29});
  for (int64_t i = 0; i < a.numel(); ++i) {
    a.data<double>()[i] = u(rng);
    b.data<double>()[i] = u(rng);
  }
  auto at = [](const Tensor& t, int64_t i, int64_t j) {
    return t.data<double>()[i * t.stride(0) + j * t.stride(1)];
  };
  Tensor view = cpu::execute(ops::OpCode::Transpose, std::array{a}, ops::TransposeParams{{1, 0}});
  REQUIRE_FALSE(view.is_compact());
  Tensor compact = Tensor::empty(DType::F64, {29, 37});
  cpu::strided_copy(compact, view);
  for (ops::OpCode op : {ops::OpCode::Exp, ops::OpCode::Sin, ops::OpCode::Tanh, ops::OpCode::Erf,
                         ops::OpCode::Floor}) {
    Tensor strided = cpu::execute(op, std::array{view}, {});
    Tensor contiguous = cpu::execute(op, std::array{compact}, {});
    int64_t differ = 0;
    for (int64_t i = 0; i < 29; ++i)
      for (int64_t j = 0; j < 37; ++j) differ += at(strided, i, j) != at(contiguous, i, j);
    INFO(ops::op_def(op).name);
    CHECK(differ == 0);
  }
  // atan2 with a broadcast operand (stride 0) equals atan2 with that operand materialised.
  Tensor row =
      cpu::execute(ops::OpCode::Slice, std::array{b}, ops::SliceParams{{0, 0}, {1, 29}, {1, 1}});
  Tensor row_b = cpu::execute(ops::OpCode::BroadcastInDim, std::array{row},
                              ops::BroadcastInDimParams{{37, 29}, {0, 1}});
  Tensor row_m = Tensor::empty(DType::F64, {37, 29});
  cpu::strided_copy(row_m, row_b);
  Tensor x = cpu::execute(ops::OpCode::Atan2, std::array{a, row_b}, {});
  Tensor y = cpu::execute(ops::OpCode::Atan2, std::array{a, row_m}, {});
  int64_t differ = 0;
  for (int64_t i = 0; i < x.numel(); ++i) differ += x.data<double>()[i] != y.data<double>()[i];
  CHECK(differ == 0);
  std::printf("vector math in use: %s\n", cpu::vec::isa_name(cpu::vec::active_isa()));
}
