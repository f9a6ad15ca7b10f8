// The complex functions of the vectorised elementwise math (backend/cpu/vector_math.hpp), on
// every instruction set this CPU runs, in C64 and C32:
// - accuracy against a reference computed in a wider type (long double parts for C64, double
//   for C32) over special values, tiny and huge parts, a log-uniform sweep, the unit circle, the
//   neighbourhood of the branch cuts and branch points and of pow's integer exponents. The error of
//   a result f with exact value r is the normwise relative error |f - r| / |r| in units of the
//   type's epsilon (2^-52 or 2^-23); below the smallest normal magnitude it is absolute, in units
//   of the smallest subnormal. The largest error found is printed per function, dtype and
//   instruction set.
// - special values (C99 Annex G): for arguments with a zero, infinite or NaN part, wherever the
//   C++ standard library's function (in the wider type, rounded) gives a zero, an infinity or a
//   NaN part, the vector function gives the same, signs included.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <limits>
#include <numbers>
#include <random>
#include <type_traits>
#include <vector>

#include "backend/cpu/kernel.hpp"
#include "backend/cpu/kernels/scalar_math.hpp"
#include "backend/cpu/strided_copy.hpp"
#include "backend/cpu/vector_math.hpp"
#include "core/tensor.hpp"
#include "ops/op_table.hpp"

using namespace tfe;
using cpu::vec::Fn;
using cpu::vec::Isa;

namespace {

struct Case {
  Fn fn;
  const char* name;
};
constexpr Case kCases[] = {
    {Fn::Exp, "exp"},     {Fn::Exp2, "exp2"},   {Fn::Expm1, "expm1"}, {Fn::Log, "log"},
    {Fn::Log2, "log2"},   {Fn::Log10, "log10"}, {Fn::Log1p, "log1p"}, {Fn::Sqrt, "sqrt"},
    {Fn::Rsqrt, "rsqrt"}, {Fn::Sin, "sin"},     {Fn::Cos, "cos"},     {Fn::Tan, "tan"},
    {Fn::Sinh, "sinh"},   {Fn::Cosh, "cosh"},   {Fn::Tanh, "tanh"},   {Fn::Pow, "pow"},
    {Fn::Asin, "asin"},   {Fn::Acos, "acos"},   {Fn::Atan, "atan"},   {Fn::Asinh, "asinh"},
    {Fn::Acosh, "acosh"}, {Fn::Atanh, "atanh"}};

// fn in the complex type of W. Without a standard complex expm1/log1p, those two follow their
// definitions with the cancellation done in W (log1p(x(2 + x) + y^2) / 2 is log|1 + z|).
// `library`: exp2 as the scalar functor computes it, exp(z ln 2), for its special values.
template <class W>
std::complex<W> reference(Fn fn, std::complex<W> z, std::complex<W> b, bool library = false) {
  const W ln2 = std::numbers::ln2_v<W>;
  const W x = z.real(), y = z.imag();
  switch (fn) {
  case Fn::Exp: return std::exp(z);
  case Fn::Exp2: // 2^x (cos(y ln 2) + i sin(y ln 2)) with y ln 2 in W; the special values of exp
    if (library || !std::isfinite(x) || !std::isfinite(y) || std::abs(x) > 1000)
      return std::exp(z * ln2);
    return std::exp2(x) * std::complex<W>(std::cos(y * ln2), std::sin(y * ln2));
  case Fn::Expm1: {
    if (y == 0) return {std::expm1(x), y};
    W s = std::sin(y / 2);
    return {std::expm1(x) * std::cos(y) - 2 * s * s, std::exp(x) * std::sin(y)};
  }
  case Fn::Log: return std::log(z);
  case Fn::Log2: return std::log(z) / ln2;
  case Fn::Log10: return std::log10(z);
  case Fn::Log1p: {
    W m = std::abs(std::complex<W>(x + 1, y));
    W re = m > W(0.5) && m < 2 ? std::log1p(x * (2 + x) + y * y) / 2 : std::log(m);
    return {re, std::atan2(y, x + 1)};
  }
  case Fn::Sqrt: return std::sqrt(z);
  case Fn::Rsqrt: return W(1) / std::sqrt(z);
  case Fn::Sin: return std::sin(z);
  case Fn::Cos: return std::cos(z);
  case Fn::Tan: return std::tan(z);
  case Fn::Sinh: return std::sinh(z);
  case Fn::Cosh: return std::cosh(z);
  case Fn::Tanh: return std::tanh(z);
  case Fn::Pow: return cpu::complex_pow(z, b);
  case Fn::Asin: return std::asin(z);
  case Fn::Acos: return std::acos(z);
  case Fn::Atan: return std::atan(z);
  case Fn::Asinh: return std::asinh(z);
  case Fn::Acosh: return std::acosh(z);
  case Fn::Atanh: return std::atanh(z);
  default: return {};
  }
}

// The part of the error that rounding the argument of an exponential already causes, in eps:
// exp2's angle y ln 2 is rounded (|y ln 2| / 2), and pow's exponent b log a carries log a's
// rounding times |b| and its own (2 |b| |log a| bounds both). The scalar formulas have it too.
template <class W> W conditioning(Fn fn, std::complex<W> z, std::complex<W> b) {
  if (fn == Fn::Exp2) return std::abs(z.imag()) * std::numbers::ln2_v<W>;
  if (fn == Fn::Pow) return 2 * std::abs(b) * std::abs(std::log(z));
  return 0;
}

// Normwise relative error of f against r in units of T's epsilon; infinity when f's parts are
// not of r's kind (a NaN, an infinity or a finite number).
template <class T, class W> double norm_error(std::complex<T> f, std::complex<W> r) {
  using L = std::numeric_limits<T>;
  W parts[2] = {r.real(), r.imag()};
  T got[2] = {f.real(), f.imag()};
  bool exceptional = false;
  for (int k = 0; k < 2; ++k) {
    T rounded = static_cast<T>(parts[k]);
    if (std::isnan(parts[k]) || std::isinf(rounded)) {
      exceptional = true;
      bool same = std::isnan(parts[k]) ? std::isnan(got[k]) : got[k] == rounded;
      if (!same) return INFINITY;
    }
  }
  if (exceptional) return 0; // the other part beside an infinity is not measured
  if (std::isnan(got[0]) || std::isnan(got[1]) || std::isinf(got[0]) || std::isinf(got[1]))
    return INFINITY;
  std::complex<W> diff(static_cast<W>(got[0]) - parts[0], static_cast<W>(got[1]) - parts[1]);
  W scale = std::max(std::abs(r), W(L::min()));
  return static_cast<double>(std::abs(diff) / scale / W(L::epsilon()));
}

// Values for either part: special values, the edges of the formulas' ranges, and sweeps.
template <class T> std::vector<T> special_parts() {
  using L = std::numeric_limits<T>;
  std::vector<T> v{T(0),
                   T(1),
                   T(0.5),
                   T(2),
                   L::infinity(),
                   L::denorm_min(),
                   L::min(),
                   L::max(),
                   L::epsilon(),
                   std::numbers::pi_v<T> / 2,
                   std::numbers::pi_v<T>,
                   T(20),
                   T(21),
                   T(1e-5)};
  for (double edge : {88.5, 89.5, 700.0, 708.5, 709.9, 1021.0, 1e-300, 1e300, 1e-30, 1e30, 1e10})
    if (edge <= static_cast<double>(L::max()) && edge >= static_cast<double>(L::min()))
      v.push_back(static_cast<T>(edge));
  size_t n = v.size();
  for (size_t i = 0; i < n; ++i) v.push_back(-v[i]);
  v.push_back(L::quiet_NaN());
  return v;
}

template <class T> std::vector<std::complex<T>> arguments(std::mt19937_64& rng) {
  using L = std::numeric_limits<T>;
  using C = std::complex<T>;
  std::vector<C> zs;
  std::vector<T> sp = special_parts<T>();
  for (T x : sp)
    for (T y : sp) zs.emplace_back(x, y);
  std::uniform_real_distribution<double> exponent(L::min_exponent - L::digits, L::max_exponent);
  std::uniform_real_distribution<double> mantissa(1, 2), sign(-1, 1);
  auto loguniform = [&] {
    double m = std::ldexp(mantissa(rng), static_cast<int>(exponent(rng)));
    return static_cast<T>(sign(rng) < 0 ? -m : m);
  };
  for (int i = 0; i < 20000; ++i) zs.emplace_back(loguniform(), loguniform());
  std::uniform_real_distribution<double> small(-40, 40);
  for (int i = 0; i < 20000; ++i) zs.emplace_back(T(small(rng)), T(small(rng)));
  // Around the unit circle (log's real part cancels) and near 0 (expm1, log1p).
  std::uniform_real_distribution<double> angle(-4, 4), near(-1e-6, 1e-6);
  for (int i = 0; i < 5000; ++i) {
    double t = angle(rng), r = 1 + near(rng) * (i % 2 ? 1 : 1e-9);
    zs.emplace_back(T(r * std::cos(t)), T(r * std::sin(t)));
    zs.emplace_back(T(near(rng)), T(near(rng)));
    zs.emplace_back(T(-1 + near(rng)), T(near(rng))); // log1p's pole
  }
  // Along the negative real axis, both sides of the cut, and near the imaginary axis.
  std::uniform_real_distribution<double> left(-1e3, 0);
  for (int i = 0; i < 5000; ++i) {
    T tiny[] = {T(0), -T(0), L::denorm_min(), -L::denorm_min(), T(1e-20), T(-1e-20)};
    zs.emplace_back(T(left(rng)), tiny[i % 6]);
    zs.emplace_back(tiny[i % 6], T(left(rng)));
  }
  // The inverse functions' branch points +-1 and +-i at distances 1e-30 to 1; the line
  // y = eps |x - 1| where their formulas switch to the limits along the real axis; both parts
  // tiny; and one part beyond 1e150 (the asymptotic formulas) with the other of any size. A
  // generator of their own keeps the draws above (and pow's exponents) as they were.
  std::mt19937_64 more(2028);
  std::uniform_real_distribution<double> unit(-1, 1), decade(-30, 0), half(0.5, 2);
  auto pow10 = [](double e) { return std::pow(10.0, e); };
  for (int i = 0; i < 5000; ++i) {
    double d1 = unit(more) * pow10(decade(more)), d2 = unit(more) * pow10(decade(more));
    double c = i % 4 < 2 ? 1 : -1;
    zs.emplace_back(T(c + d1), T(d2));
    zs.emplace_back(T(d1), T(c + d2));
    double x = half(more), y = static_cast<double>(L::epsilon()) * std::abs(x - 1) * half(more);
    zs.emplace_back(T(i % 2 ? x : -x), T(i % 4 < 2 ? y : -y));
    zs.emplace_back(T(i % 4 < 2 ? y : -y), T(i % 2 ? x : -x));
    double lo = std::log10(static_cast<double>(L::min()));
    std::uniform_real_distribution<double> tiny_exp(lo, lo / 3), any_exp(lo, -lo);
    zs.emplace_back(T(unit(more) * pow10(tiny_exp(more))), T(unit(more) * pow10(tiny_exp(more))));
    std::uniform_real_distribution<double> big_exp(std::is_same_v<T, double> ? 140 : 30,
                                                   std::is_same_v<T, double> ? 160 : 38);
    auto big = static_cast<T>(unit(more) * pow10(big_exp(more)));
    auto other = static_cast<T>(unit(more) * pow10(any_exp(more)));
    zs.emplace_back(i % 2 ? big : other, i % 2 ? other : big);
  }
  return zs;
}

// Second operands of pow: moderate exponents, integers (the squaring path) and special values.
template <class T> std::vector<std::complex<T>> exponents(size_t n, std::mt19937_64& rng) {
  std::vector<T> sp = special_parts<T>();
  std::uniform_real_distribution<double> u(-4, 4);
  std::uniform_int_distribution<int> k(-70, 70);
  std::vector<std::complex<T>> bs;
  for (size_t i = 0; i < n; ++i) {
    switch (i % 4) {
    case 0: bs.emplace_back(T(u(rng)), T(u(rng))); break;
    case 1: bs.emplace_back(T(u(rng)), T(0)); break;
    case 2: bs.emplace_back(T(k(rng)), T(0)); break;
    default: bs.emplace_back(sp[i % sp.size()], sp[(i / sp.size()) % sp.size()]); break;
    }
  }
  return bs;
}

template <class T> auto entries(const cpu::vec::Table& t, int f) {
  if constexpr (std::is_same_v<T, double>)
    return std::pair{t.unary_z[f], t.binary_z[f]};
  else
    return std::pair{t.unary_c[f], t.binary_c[f]};
}

// The parts of the standard library's result that must match: NaN, infinities and the sign of
// zeros (a zero part may come out as a subnormal of that sign: an accuracy matter).
template <class T> bool same_exceptional_parts(std::complex<T> got, std::complex<T> want) {
  T g[2] = {got.real(), got.imag()}, w[2] = {want.real(), want.imag()};
  for (int k = 0; k < 2; ++k) {
    if (std::isnan(w[k]) != std::isnan(g[k])) return false;
    if (std::isinf(w[k]) && g[k] != w[k]) return false;
    if (w[k] == 0 && !(std::abs(g[k]) < std::numeric_limits<T>::min() &&
                       std::signbit(g[k]) == std::signbit(w[k])))
      return false;
  }
  return true;
}

// Arguments with a zero, infinite or NaN part: where C99 Annex G specifies the result's special
// parts. (Elsewhere a part that underflows to zero may take either sign, depending on the type the
// formula is evaluated in.)
template <class T> bool exceptional(std::complex<T> z) {
  return z.real() == 0 || z.imag() == 0 || !std::isfinite(z.real()) || !std::isfinite(z.imag());
}

// An angle rounded with an error above this many eps leaves nothing of the result's phase.
constexpr double kMeaningless = 1e3;
// The bound checked: float parts are computed in double and rounded once.
template <class T> constexpr double kBound = std::is_same_v<T, double> ? 3.0 : 1.0;

template <class T> void check_complex(const cpu::vec::Table& table, Isa isa) {
  using W = std::conditional_t<std::is_same_v<T, double>, long double, double>;
  using C = std::complex<T>;
  using CW = std::complex<W>;
  std::mt19937_64 rng(2027);
  std::vector<C> zs = arguments<T>(rng);
  std::vector<C> bs = exponents<T>(zs.size(), rng);
  const size_t grid = special_parts<T>().size() * special_parts<T>().size();
  const char* dtype = std::is_same_v<T, double> ? "c64" : "c32";
  for (const Case& c : kCases) {
    const int f = static_cast<int>(c.fn);
    auto [unary, binary] = entries<T>(table, f);
    std::vector<C> out(zs.size());
    auto n = static_cast<int64_t>(zs.size());
    if (c.fn == Fn::Pow) {
      REQUIRE(binary != nullptr);
      binary(n, reinterpret_cast<T*>(out.data()), reinterpret_cast<const T*>(zs.data()),
             reinterpret_cast<const T*>(bs.data()));
    } else {
      REQUIRE(unary != nullptr);
      unary(n, reinterpret_cast<T*>(out.data()), reinterpret_cast<const T*>(zs.data()));
    }
    double worst = 0;
    C worst_z, worst_b;
    int64_t wrong_special = 0;
    C bad_z, bad_b, bad_got, bad_want;
    for (size_t i = 0; i < zs.size(); ++i) {
      C b = c.fn == Fn::Pow ? bs[i] : C(0);
      CW zw(zs[i].real(), zs[i].imag()), bw(b.real(), b.imag());
      double allowed = static_cast<double>(conditioning<W>(c.fn, zw, bw));
      if (!(allowed <= kMeaningless)) continue;
      // Pow's integer exponents take the scalar library's repeated squaring in double (not
      // measured: its intermediate powers overflow where the result does not).
      bool squaring = c.fn == Fn::Pow && b.imag() == 0 && std::abs(b.real()) <= 64 &&
                      b.real() == std::nearbyint(b.real());
      CW ref = reference<W>(c.fn, zw, bw);
      // An exponential that overflows has the phase of its rounded exponent: only its
      // magnitude is meaningful.
      bool overflow =
          (c.fn == Fn::Pow || c.fn == Fn::Exp2) && std::isfinite(zw.real()) &&
          std::isfinite(zw.imag()) && std::isfinite(bw.real()) && std::isfinite(bw.imag()) &&
          (std::isinf(static_cast<T>(ref.real())) || std::isinf(static_cast<T>(ref.imag())));
      double e = squaring || overflow ? 0 : norm_error(out[i], ref) - allowed;
      if (e > worst) {
        worst = e;
        worst_z = zs[i];
        worst_b = b;
      }
      // The standard library decides the special values: in the wider type, rounded (an
      // underflow keeps the sign of the exact result), or in T itself.
      if (i < grid && !squaring && (exceptional(zs[i]) || (c.fn == Fn::Pow && exceptional(b)))) {
        C want = static_cast<C>(reference<W>(c.fn, zw, bw, true));
        C want_t = reference<T>(c.fn, zs[i], b, true);
        if (!same_exceptional_parts(out[i], want) && !same_exceptional_parts(out[i], want_t) &&
            wrong_special++ == 0) {
          bad_z = zs[i];
          bad_b = b;
          bad_got = out[i];
          bad_want = want;
        }
      }
    }
    std::printf("vector math %-6s %-5s %s: max error %.3f eps (normwise) over %zu arguments\n",
                cpu::vec::isa_name(isa), c.name, dtype, worst, zs.size());
    INFO(c.name << " " << dtype << " on " << cpu::vec::isa_name(isa) << ": worst at z = " << worst_z
                << ", b = " << worst_b << "; special value at z = " << bad_z << ", b = " << bad_b
                << ": got " << bad_got << ", want " << bad_want);
    CHECK(worst <= kBound<T>);
    CHECK(wrong_special == 0);
  }
}

} // namespace

TEST_CASE("vector math: complex functions within 3 eps (C64) and 1 eps (C32) normwise, with the "
          "standard library's special values, on every instruction set this CPU runs",
          "[backend][vector_math]") {
  int tested = 0;
  for (Isa isa : {Isa::Avx2, Isa::Avx512}) {
    const cpu::vec::Table* table = cpu::vec::table_for(isa);
    if (!table) {
      std::printf("SKIP complex vector math on %s: not built (no SLEEF) or not run by this CPU\n",
                  cpu::vec::isa_name(isa));
      continue;
    }
    check_complex<double>(*table, isa);
    check_complex<float>(*table, isa);
    ++tested;
  }
  if (tested == 0)
    std::printf("SKIP complex vector math accuracy: no vector instruction set available\n");
}

TEST_CASE("vector math: complex kernels run the vector functions, with the same bits for "
          "contiguous, strided and broadcast operands",
          "[backend][vector_math]") {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-3, 3);
  const bool vectorised = cpu::vec::active_isa() != Isa::Scalar;
  for (DType dtype : {DType::C64, DType::C32}) {
    // 37 x 29: runs that are not multiples of any vector width.
    Tensor a = Tensor::empty(dtype, {37, 29});
    Tensor b = Tensor::empty(dtype, {37, 29});
    for (int64_t i = 0; i < a.numel(); ++i) {
      if (dtype == DType::C64) {
        a.data<c64>()[i] = {u(rng), u(rng)};
        b.data<c64>()[i] = {u(rng), u(rng)};
      } else {
        a.data<c32>()[i] = {static_cast<float>(u(rng)), static_cast<float>(u(rng))};
        b.data<c32>()[i] = {static_cast<float>(u(rng)), static_cast<float>(u(rng))};
      }
    }
    // Element (i, j) of t as a c64.
    auto at = [dtype](const Tensor& t, int64_t i, int64_t j) {
      int64_t k = i * t.stride(0) + j * t.stride(1);
      return dtype == DType::C64 ? t.data<c64>()[k] : c64(t.data<c32>()[k]);
    };
    auto same = [](c64 x, c64 y) {
      auto bits_equal = [](double p, double q) { return p == q || (p != p && q != q); };
      return bits_equal(x.real(), y.real()) && bits_equal(x.imag(), y.imag());
    };
    Tensor view = cpu::execute(ops::OpCode::Transpose, std::array{a}, ops::TransposeParams{{1, 0}});
    REQUIRE_FALSE(view.is_compact());
    Tensor compact = Tensor::empty(dtype, {29, 37});
    cpu::strided_copy(compact, view);
    for (ops::OpCode op :
         {ops::OpCode::Exp, ops::OpCode::Log, ops::OpCode::Sin, ops::OpCode::Tanh,
          ops::OpCode::Sqrt, ops::OpCode::Expm1, ops::OpCode::Asin, ops::OpCode::Atanh}) {
      Tensor strided = cpu::execute(op, std::array{view}, {});
      Tensor contiguous = cpu::execute(op, std::array{compact}, {});
      // The vector function applied directly to the compact operand.
      Tensor direct = Tensor::empty(dtype, {29, 37});
      int64_t differ = 0, not_vector = 0;
      Fn fn = op == ops::OpCode::Exp     ? Fn::Exp
              : op == ops::OpCode::Log   ? Fn::Log
              : op == ops::OpCode::Sin   ? Fn::Sin
              : op == ops::OpCode::Tanh  ? Fn::Tanh
              : op == ops::OpCode::Sqrt  ? Fn::Sqrt
              : op == ops::OpCode::Asin  ? Fn::Asin
              : op == ops::OpCode::Atanh ? Fn::Atanh
                                         : Fn::Expm1;
      bool applied =
          dtype == DType::C64
              ? cpu::vec::apply_complex(fn, compact.numel(),
                                        reinterpret_cast<double*>(direct.data<c64>()),
                                        reinterpret_cast<const double*>(compact.data<c64>()))
              : cpu::vec::apply_complex(fn, compact.numel(),
                                        reinterpret_cast<float*>(direct.data<c32>()),
                                        reinterpret_cast<const float*>(compact.data<c32>()));
      CHECK(applied == vectorised);
      for (int64_t i = 0; i < 29; ++i)
        for (int64_t j = 0; j < 37; ++j) {
          differ += !same(at(strided, i, j), at(contiguous, i, j));
          if (applied) not_vector += !same(at(direct, i, j), at(contiguous, i, j));
        }
      INFO(ops::op_def(op).name << " " << dtype_name(dtype));
      CHECK(differ == 0);
      CHECK(not_vector == 0);
    }
    // pow with a broadcast exponent (stride 0) equals pow with the exponent materialised.
    Tensor row =
        cpu::execute(ops::OpCode::Slice, std::array{b}, ops::SliceParams{{0, 0}, {1, 29}, {1, 1}});
    Tensor row_b = cpu::execute(ops::OpCode::BroadcastInDim, std::array{row},
                                ops::BroadcastInDimParams{{37, 29}, {0, 1}});
    Tensor row_m = Tensor::empty(dtype, {37, 29});
    cpu::strided_copy(row_m, row_b);
    Tensor x = cpu::execute(ops::OpCode::Pow, std::array{a, row_b}, {});
    Tensor y = cpu::execute(ops::OpCode::Pow, std::array{a, row_m}, {});
    int64_t differ = 0;
    for (int64_t i = 0; i < 37; ++i)
      for (int64_t j = 0; j < 29; ++j) differ += !same(at(x, i, j), at(y, i, j));
    CHECK(differ == 0);
  }
  if (!vectorised) std::printf("SKIP complex vector kernels: vector math is not in use\n");
}
