// Every scalar Var op against central finite differences in double and complex<double> (with
// Vars and plain scalars on either side of binary ops), and float / complex<float> against the
// double results (docs/design/ad-contract.md: single precision is compared with double, not with
// FD). A complex output is seeded with w, i.e. L = Re(conj(w) f): the leaf gets dL/dRe + i dL/dIm.
#include "test_dataflow_support.hpp"

#include <cmath>
#include <complex>
#include <functional>
#include <string>

using namespace tfe;
using namespace tfe::dataflow;

namespace {

using C64 = std::complex<double>;
using C32 = std::complex<float>;

template <class T> T narrow_to(const C64& v) {
  if constexpr (is_complex_v<T>)
    return T(static_cast<real_t<T>>(v.real()), static_cast<real_t<T>>(v.imag()));
  else
    return static_cast<T>(v.real());
}
template <class T> C64 widen(const T& v) { return C64(std::real(v), std::imag(v)); }

// A unary op: its Var form and its plain form (std functions, independent of scalar_rules.hpp).
struct UnaryCase {
  const char* name;
  bool real_ok, complex_ok;
  double x_real;
  C64 x_complex;
};

template <class T> auto apply_var(const std::string& op, const Var<T>& x) {
  using R = real_t<T>;
  // Ops with a real result are seeded through Var<R>; wrap into a common shape with a flag.
  struct Out {
    Var<T> same;
    Var<R> real;
    bool is_real;
  };
  Out o{Var<T>(), Var<R>(), false};
  if (op == "neg")
    o.same = -x;
  else if (op == "sin")
    o.same = sin(x);
  else if (op == "cos")
    o.same = cos(x);
  else if (op == "tan")
    o.same = tan(x);
  else if (op == "tanh")
    o.same = tanh(x);
  else if (op == "exp")
    o.same = exp(x);
  else if (op == "log")
    o.same = log(x);
  else if (op == "sqrt")
    o.same = sqrt(x);
  else if (op == "conj")
    o.same = conj(x);
  else {
    o.is_real = true;
    if (op == "abs")
      o.real = abs(x);
    else if (op == "real")
      o.real = real(x);
    else if (op == "imag")
      o.real = imag(x);
    else
      FAIL("unknown op " << op);
  }
  return o;
}

template <class T> C64 apply_plain(const std::string& op, const T& x) {
  if (op == "neg") return widen(T(-x));
  if (op == "sin") return widen(std::sin(x));
  if (op == "cos") return widen(std::cos(x));
  if (op == "tan") return widen(std::tan(x));
  if (op == "tanh") return widen(std::tanh(x));
  if (op == "exp") return widen(std::exp(x));
  if (op == "log") return widen(std::log(x));
  if (op == "sqrt") return widen(std::sqrt(x));
  if (op == "conj") return widen(conj_of(x));
  if (op == "abs") return C64(std::abs(x), 0);
  if (op == "real") return C64(std::real(x), 0);
  if (op == "imag") return C64(std::imag(x), 0);
  return C64(NAN, NAN);
}

// Seeds the output with w (its real part for a real output); returns {value, x.grad}.
template <class T> std::pair<C64, C64> run_unary(const std::string& op, T x0, C64 w) {
  DebugScheduler sched;
  ScopedScheduler scope(sched);
  Var<T> x = x0;
  auto out = apply_var<T>(op, x);
  C64 value;
  if (out.is_real) {
    out.real.grad = static_cast<real_t<T>>(w.real());
    value = C64(out.real.value.get_wait(), 0);
  } else {
    out.same.grad = narrow_to<T>(w);
    value = widen(out.same.value.get_wait());
  }
  return {value, widen(x.grad.get_wait())};
}

// dL/dRe x + i dL/dIm x of L = Re(conj(w) f(x)) by central differences.
template <class T, class F> C64 fd_gradient(F f, T x0, C64 w, double h = 1e-6) {
  auto loss = [&](T x) { return (std::conj(w) * f(x)).real(); };
  double d_re = (loss(x0 + T(h)) - loss(x0 - T(h))) / (2 * h);
  if constexpr (!is_complex_v<T>) {
    return C64(d_re, 0);
  } else {
    double d_im = (loss(x0 + T(0, h)) - loss(x0 - T(0, h))) / (2 * h);
    return C64(d_re, d_im);
  }
}

bool close(C64 got, C64 want, double rtol) {
  return std::abs(got - want) <= rtol * (1 + std::abs(want));
}

const UnaryCase kUnary[] = {
    {"neg", true, true, 0.7, {0.7, -0.4}},  {"sin", true, true, 0.7, {0.7, -0.4}},
    {"cos", true, true, 0.7, {0.7, -0.4}},  {"tan", true, true, 0.7, {0.7, -0.4}},
    {"tanh", true, true, 0.7, {0.7, -0.4}}, {"exp", true, true, 0.7, {0.7, -0.4}},
    {"log", true, true, 0.7, {0.7, -0.4}},  {"sqrt", true, true, 0.7, {0.7, -0.4}},
    {"conj", true, true, 0.7, {0.7, -0.4}}, {"abs", true, true, -0.7, {-0.7, 0.4}},
    {"real", true, true, 0.7, {0.7, -0.4}}, {"imag", true, true, 0.7, {0.7, -0.4}},
};

// Binary ops with a Var or a constant on each side.
enum class Side { Both, VarConst, ConstVar };

template <class T>
Var<T> apply_binary(const std::string& op, Side side, Var<T>& a, Var<T>& b, T ac, T bc) {
  auto pick = [&](auto f) -> Var<T> {
    switch (side) {
    case Side::Both: return f(a, b);
    case Side::VarConst: return f(a, bc);
    case Side::ConstVar: return f(ac, b);
    }
    return Var<T>();
  };
  if (op == "add") return pick([](const auto& l, const auto& r) { return l + r; });
  if (op == "sub") return pick([](const auto& l, const auto& r) { return l - r; });
  if (op == "mul") return pick([](const auto& l, const auto& r) { return l * r; });
  if (op == "div") return pick([](const auto& l, const auto& r) { return l / r; });
  if (op == "pow") return pick([](const auto& l, const auto& r) { return pow(l, r); });
  FAIL("unknown op " << op);
  return Var<T>();
}

template <class T> T apply_binary_plain(const std::string& op, T a, T b) {
  if (op == "add") return a + b;
  if (op == "sub") return a - b;
  if (op == "mul") return a * b;
  if (op == "div") return a / b;
  if (op == "pow") return std::pow(a, b);
  return T(NAN);
}

struct BinaryResult {
  C64 value, ga, gb;
  bool has_a, has_b;
};

template <class T> BinaryResult run_binary(const std::string& op, Side side, T a0, T b0, C64 w) {
  DebugScheduler sched;
  ScopedScheduler scope(sched);
  Var<T> a = a0, b = b0;
  Var<T> y = apply_binary<T>(op, side, a, b, a0, b0);
  y.grad = narrow_to<T>(w);
  BinaryResult r{widen(y.value.get_wait()), {}, {}, false, false};
  if (auto g = a.grad.maybe_wait()) r.ga = widen(*g), r.has_a = true;
  if (auto g = b.grad.maybe_wait()) r.gb = widen(*g), r.has_b = true;
  return r;
}

const char* kBinary[] = {"add", "sub", "mul", "div", "pow"};

} // namespace

TEST_CASE("dataflow ops: unary ops against finite differences (f64, c64)", "[dataflow]") {
  for (const UnaryCase& c : kUnary) {
    CAPTURE(c.name);
    std::string op = c.name;
    {
      const double w = 1.3;
      auto [value, grad] = run_unary<double>(op, c.x_real, C64(w, 0));
      CHECK(close(value, apply_plain<double>(op, c.x_real), 1e-15));
      C64 fd = fd_gradient<double>([&](double x) { return apply_plain<double>(op, x); }, c.x_real,
                                   C64(w, 0));
      CAPTURE(grad, fd);
      CHECK(close(grad, fd, 1e-8));
      CHECK(grad.imag() == 0);
    }
    {
      const C64 w(0.6, 0.8);
      auto [value, grad] = run_unary<C64>(op, c.x_complex, w);
      CHECK(close(value, apply_plain<C64>(op, c.x_complex), 1e-15));
      // A real output is seeded with Re(w).
      bool real_out = op == "abs" || op == "real" || op == "imag";
      C64 wl = real_out ? C64(w.real(), 0) : w;
      C64 fd = fd_gradient<C64>([&](C64 x) { return apply_plain<C64>(op, x); }, c.x_complex, wl);
      CAPTURE(grad, fd);
      CHECK(close(grad, fd, 1e-8));
    }
  }
}

TEST_CASE("dataflow ops: binary ops against finite differences (f64, c64)", "[dataflow]") {
  const double a_r = 0.8, b_r = -1.3;
  const C64 a_c(0.8, 0.5), b_c(-1.3, 0.4);
  for (const char* name : kBinary) {
    std::string op = name;
    for (Side side : {Side::Both, Side::VarConst, Side::ConstVar}) {
      CAPTURE(op, int(side));
      bool a_var = side != Side::ConstVar, b_var = side != Side::VarConst;
      {
        const double w = 1.3;
        BinaryResult r = run_binary<double>(op, side, a_r, b_r, C64(w, 0));
        CHECK(close(r.value, C64(apply_binary_plain(op, a_r, b_r), 0), 1e-15));
        CHECK(r.has_a == a_var);
        CHECK(r.has_b == b_var);
        C64 fa = fd_gradient<double>(
            [&](double a) { return C64(apply_binary_plain(op, a, b_r), 0); }, a_r, C64(w, 0));
        C64 fb = fd_gradient<double>(
            [&](double b) { return C64(apply_binary_plain(op, a_r, b), 0); }, b_r, C64(w, 0));
        if (a_var) CHECK(close(r.ga, fa, 1e-8));
        if (b_var) CHECK(close(r.gb, fb, 1e-8));
      }
      {
        const C64 w(0.6, 0.8);
        BinaryResult r = run_binary<C64>(op, side, a_c, b_c, w);
        CHECK(close(r.value, apply_binary_plain(op, a_c, b_c), 1e-15));
        C64 fa = fd_gradient<C64>([&](C64 a) { return apply_binary_plain(op, a, b_c); }, a_c, w);
        C64 fb = fd_gradient<C64>([&](C64 b) { return apply_binary_plain(op, a_c, b); }, b_c, w);
        CAPTURE(r.ga, fa, r.gb, fb);
        if (a_var) CHECK(close(r.ga, fa, 1e-8));
        if (b_var) CHECK(close(r.gb, fb, 1e-8));
      }
    }
  }
}

TEST_CASE("dataflow ops: pow at zero follows the program-AD conventions", "[dataflow]") {
  DebugScheduler sched;
  ScopedScheduler scope(sched);
  Var<double> x = 0.0, y = 0.0;
  Var<double> p = pow(x, y); // 0^0 = 1; d/dx = 0 (not 0 * inf), d/dy = 0 (not log 0)
  p.seed();
  CHECK(p.value.get_wait() == 1.0);
  CHECK(x.grad.get_wait() == 0.0);
  CHECK(y.grad.get_wait() == 0.0);
  Var<double> x2 = 0.0, y2 = 2.0;
  Var<double> p2 = pow(x2, y2);
  p2.seed();
  CHECK(x2.grad.get_wait() == 0.0);
  CHECK(y2.grad.get_wait() == 0.0);
  Var<double> z = 0.0;
  Var<double> a = abs(z); // sign(0) = 0
  a.seed();
  CHECK(z.grad.get_wait() == 0.0);
}

TEST_CASE("dataflow ops: f32 and c32 agree with f64 and c64", "[dataflow]") {
  const double rtol = 2e-5;
  for (const UnaryCase& c : kUnary) {
    CAPTURE(c.name);
    std::string op = c.name;
    const float xr = static_cast<float>(c.x_real); // the same input in both precisions
    auto [v64, g64] = run_unary<double>(op, double(xr), C64(1.5, 0));
    auto [v32, g32] = run_unary<float>(op, xr, C64(1.5, 0));
    CHECK(close(v32, v64, rtol));
    CHECK(close(g32, g64, rtol));
    const C32 xc = narrow_to<C32>(c.x_complex);
    const C64 w(0.5, -0.75);
    auto [cv64, cg64] = run_unary<C64>(op, widen(xc), w);
    auto [cv32, cg32] = run_unary<C32>(op, xc, w);
    CHECK(close(cv32, cv64, rtol));
    CHECK(close(cg32, cg64, rtol));
  }
  for (const char* name : kBinary) {
    std::string op = name;
    CAPTURE(op);
    const float ar = 0.75f, br = -1.25f;
    BinaryResult d = run_binary<double>(op, Side::Both, ar, br, C64(1.5, 0));
    BinaryResult f = run_binary<float>(op, Side::Both, ar, br, C64(1.5, 0));
    CHECK(close(f.value, d.value, rtol));
    CHECK(close(f.ga, d.ga, rtol));
    CHECK(close(f.gb, d.gb, rtol));
    const C32 ac(0.75f, 0.5f), bc(-1.25f, 0.25f);
    const C64 w(0.5, -0.75);
    BinaryResult cd = run_binary<C64>(op, Side::Both, widen(ac), widen(bc), w);
    BinaryResult cf = run_binary<C32>(op, Side::Both, ac, bc, w);
    CHECK(close(cf.value, cd.value, rtol));
    CHECK(close(cf.ga, cd.ga, rtol));
    CHECK(close(cf.gb, cd.gb, rtol));
  }
}
