// TensorVar (dataflow engine over tensors): for every differentiable op of the table and every
// float dtype, the gradients match central finite differences (F64, C64) and equal program AD's
// VJP (which the AD matrix also checks for transposition and second order), under the debug
// scheduler and with the same bits under the thread pool; composite losses through the surface (the
// complex convention of docs/design/ad-contract.md, linalg) against program AD; absent gradients,
// untracked leaves, failures.
#include <catch2/catch.hpp>

#include <bit>
#include <complex>

#include "ad/transforms.hpp"
#include "ad/vjp_kernel.hpp"
#include "dataflow/dataflow.hpp"
#include "dataflow/tensor/surface.hpp"
#include "eager/creation.hpp"
#include "op_samples/op_samples.hpp"
#include "support/ad_checks.hpp"
#include "support/tensor_testing.hpp"

using namespace tfe;
using namespace tfe::testing;
using tfe::dataflow::TensorVar;

namespace {

// The gradient of every operand of `op` for cotangent ybar, through TensorVars on the current
// scheduler (nullopt for untracked operands).
std::vector<std::optional<Tensor>> dataflow_vjp(const ops::OpDef& def, const Sample& s,
                                                const Tensor& ybar) {
  std::vector<TensorVar> xs;
  for (const Tensor& t : s.inputs) xs.emplace_back(t, is_inexact(t.dtype()));
  TensorVar y = emit(def.code, std::span<const TensorVar>(xs), s.params);
  y.seed(ybar);
  std::vector<std::optional<Tensor>> out;
  for (const TensorVar& x : xs) out.push_back(x.grad_wait());
  return out;
}

bool same_bits(const Tensor& a, const Tensor& b) { return identical(a, b); }

// Central finite differences of Re<ybar, op(x)> along random directions of the active operands
// (complex directions have imaginary parts) against Re sum_i <grad_i, dx_i>.
void check_finite_differences(const ops::OpDef& def, const Sample& s, const Tensor& ybar,
                              const std::vector<std::optional<Tensor>>& grads, uint64_t seed) {
  // An output in single precision (convert to F32/C32) needs a larger step.
  const bool single = ybar.dtype() == DType::F32 || ybar.dtype() == DType::C32;
  const double h = single ? 1e-3 : 1e-6, rtol = single ? 2e-3 : 1e-5;
  std::vector<Tensor> plus = s.inputs, minus = s.inputs;
  double lhs = 0;
  for (size_t i = 0; i < s.inputs.size(); ++i) {
    if (!grads[i]) continue;
    Tensor dx = random_tensor(s.inputs[i].dtype(), s.inputs[i].shape(), seed + i);
    plus[i] = axpy(s.inputs[i], h, dx);
    minus[i] = axpy(s.inputs[i], -h, dx);
    lhs += real_inner(*grads[i], dx);
  }
  Tensor fp = emit(def.code, std::span<const Tensor>(plus), s.params);
  Tensor fm = emit(def.code, std::span<const Tensor>(minus), s.params);
  if (!all_finite(fp) || !all_finite(fm)) return; // e.g. the max of an empty axis: no derivative
  double rhs = (real_inner(ybar, fp) - real_inner(ybar, fm)) / (2 * h);
  CAPTURE(lhs, rhs);
  CHECK(std::abs(lhs - rhs) <= rtol * (std::abs(lhs) + std::abs(rhs) + 1));
}

// Gradients of a scalar real loss of one input, by program AD (traced through the same surface).
template <class F> Tensor program_grad(F f, const Tensor& x) {
  graph::Value arg = graph::argument(x.dtype(), Shape(x.shape()));
  graph::Value loss = f(arg);
  graph::ProgramPtr p = graph::make_program({arg}, {loss});
  ad::Derivative d = ad::vjp(*p, {0});
  Tensor seed = eager::ones(loss.meta().dtype, ops::concrete_dims(loss.meta().shape));
  return run_program(*d.program, {x, seed}).at(1);
}

template <class F> Tensor dataflow_grad(F f, const Tensor& x) {
  TensorVar xv(x, true);
  TensorVar loss = f(xv);
  loss.seed(eager::ones(loss.meta().dtype, ops::concrete_dims(loss.meta().shape)));
  std::optional<Tensor> g = xv.grad_wait();
  REQUIRE(g.has_value());
  return *g;
}

template <class V> V sum_all(const V& v) { return eager::sum(v, std::span<const int64_t>()); }

template <class V> V binary(ops::OpCode code, const V& a, const V& b) {
  std::array<V, 2> in{a, b};
  return eager::call(code, std::span<const V>(in));
}
template <class V> V unary(ops::OpCode code, const V& a) {
  std::array<V, 1> in{a};
  return eager::call(code, std::span<const V>(in));
}

} // namespace

TEST_CASE("dataflow tensors: every op's gradient equals program AD, same bits on the pool",
          "[dataflow][tensor]") {
  dataflow::ThreadPoolScheduler pool(2);
  int64_t checked = 0;
  for (const ops::OpDef& def : ops::kOpTable) {
    if (def.ad == ops::AdClass::NotDiff) continue;
    auto samples = samples_for(def.code);
    REQUIRE(samples.has_value());
    for (DType d : {DType::F64, DType::C64, DType::F32, DType::C32}) {
      if (!def.accepts.contains(d)) continue;
      for (const Sample& s : samples->make(d)) {
        if (!differentiable_at(s)) continue;
        INFO(def.name << " " << dtype_name(d) << " sample " << s.label);
        OneOpProgram c = one_op_program(def, s);
        const std::vector<int64_t>& active = c.active;
        const ops::Meta out = c.program->outputs[0].meta();
        if (!is_inexact(out.dtype) || active.empty()) continue;
        graph::ProgramPtr p = c.program;
        Tensor ybar = random_tensor(out.dtype, ops::concrete_dims(out.shape), 7 + checked);
        ad::Derivative v = ad::vjp(*p, active);
        std::vector<Tensor> vargs = s.inputs;
        vargs.push_back(ybar);
        std::vector<Tensor> want = run_program(*v.program, vargs);

        std::vector<std::optional<Tensor>> debug_grads, pool_grads;
        {
          dataflow::DebugScheduler debug;
          dataflow::ScopedScheduler scope(debug);
          debug_grads = dataflow_vjp(def, s, ybar);
        }
        {
          dataflow::ScopedScheduler scope(pool);
          pool_grads = dataflow_vjp(def, s, ybar);
        }
        if (d == DType::F64 || d == DType::C64)
          check_finite_differences(def, s, ybar, debug_grads, 100 + static_cast<uint64_t>(checked));
        for (size_t k = 0; k < active.size(); ++k) {
          size_t i = static_cast<size_t>(active[k]);
          CAPTURE(i);
          if (v.structurally_zero[1 + k]) { // as in eager AD: absent, not a zero tensor
            CHECK_FALSE(debug_grads[i].has_value());
            CHECK_FALSE(pool_grads[i].has_value());
            continue;
          }
          REQUIRE(debug_grads[i].has_value());
          REQUIRE(pool_grads[i].has_value());
          std::string why;
          double tol = d == DType::F32 || d == DType::C32 ? 1e-5 : 1e-12;
          CHECK(close(*debug_grads[i], want[1 + k], tol, tol, &why));
          INFO(why);
          CHECK(same_bits(*debug_grads[i], *pool_grads[i]));
        }
        ++checked;
      }
    }
  }
  CHECK(checked > 300);
}

TEST_CASE("dataflow tensors: the complex convention matches program AD", "[dataflow][tensor]") {
  dataflow::DebugScheduler debug;
  dataflow::ScopedScheduler scope(debug);
  Tensor z = random_tensor(DType::C64, {3, 2}, 5);
  Tensor x = random_tensor(DType::F64, {4}, 6);
  auto abs2 = [](const auto& v) {
    return sum_all(
        unary(ops::OpCode::Real, binary(ops::OpCode::Mul, v, unary(ops::OpCode::Conj, v))));
  };
  auto re_cube = [](const auto& v) {
    return sum_all(
        unary(ops::OpCode::Real, binary(ops::OpCode::Mul, v, binary(ops::OpCode::Mul, v, v))));
  };
  auto abs_exp = [](const auto& v) {
    return sum_all(unary(ops::OpCode::Abs, unary(ops::OpCode::Exp, v)));
  };
  auto sin_x = [](const auto& v) {
    return sum_all(binary(ops::OpCode::Mul, unary(ops::OpCode::Sin, v), v));
  };
  CHECK(close(dataflow_grad(abs2, z), program_grad(abs2, z), 1e-13, 1e-13));
  // |z|^2 has gradient 2z (PyTorch's numbers).
  CHECK(close(dataflow_grad(abs2, z), binary(ops::OpCode::Add, z, z), 1e-13, 1e-13));
  CHECK(close(dataflow_grad(re_cube, z), program_grad(re_cube, z), 1e-13, 1e-13));
  CHECK(close(dataflow_grad(abs_exp, z), program_grad(abs_exp, z), 1e-13, 1e-13));
  CHECK(close(dataflow_grad(sin_x, x), program_grad(sin_x, x), 1e-13, 1e-13));

  // A 3x3 complex eigh loss (gauge invariant: eigenvalues and |v|^2 weights).
  Tensor b = random_tensor(DType::C64, {3, 3}, 8);
  Tensor h = eager::zeros(DType::C64, {3, 3});
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 3; ++j)
      set_value(h, {i, j}, value_at(b, {i, j}) + std::conj(value_at(b, {j, i})));
  auto eigh_loss = [](const auto& a) {
    auto wv = linalg::api::eigh(a, false, 0.0);
    const auto& w = wv[0];
    const auto& v = wv[1];
    auto weights =
        unary(ops::OpCode::Real, binary(ops::OpCode::Mul, v, unary(ops::OpCode::Conj, v)));
    return binary(ops::OpCode::Add, sum_all(binary(ops::OpCode::Mul, w, w)),
                  sum_all(binary(ops::OpCode::Mul, weights, weights)));
  };
  CHECK(close(dataflow_grad(eigh_loss, h), program_grad(eigh_loss, h), 1e-10, 1e-10));
}

TEST_CASE("dataflow tensors: linalg losses match program AD", "[dataflow][tensor]") {
  dataflow::ThreadPoolScheduler pool(2);
  dataflow::ScopedScheduler scope(pool);
  for (DType d : {DType::F64, DType::C64}) {
    INFO(dtype_name(d));
    Tensor a = random_tensor(d, {4, 4}, 21);
    for (int64_t i = 0; i < 4; ++i) set_value(a, {i, i}, value_at(a, {i, i}) + 4.0);
    Tensor spd = eager::zeros(d, {4, 4});
    for (int64_t i = 0; i < 4; ++i)
      for (int64_t j = 0; j < 4; ++j) {
        std::complex<double> acc = i == j ? 4.0 : 0.0;
        for (int64_t k = 0; k < 4; ++k) acc += std::conj(value_at(a, {k, i})) * value_at(a, {k, j});
        set_value(spd, {i, j}, acc);
      }
    Tensor rhs = random_tensor(d, {4, 2}, 22);
    auto abs2_sum = [](const auto& v) {
      return sum_all(
          unary(ops::OpCode::Real, binary(ops::OpCode::Mul, v, unary(ops::OpCode::Conj, v))));
    };
    auto solve_loss = [&](const auto& m) {
      using V = std::decay_t<decltype(m)>;
      return abs2_sum(linalg::api::solve(m, literal(rhs, static_cast<const V*>(nullptr))));
    };
    auto inv_loss = [&](const auto& m) { return abs2_sum(linalg::api::inv(m)); };
    auto det_loss = [&](const auto& m) { return abs2_sum(linalg::api::det(m)); };
    auto svd_loss = [&](const auto& m) {
      return sum_all(linalg::api::svd(m, linalg::SvdMode::Reduced, 0.0)[1]);
    };
    auto qr_loss = [&](const auto& m) {
      return abs2_sum(linalg::api::qr_gauged(m, false, true)[1]);
    };
    auto chol_loss = [&](const auto& m) { return abs2_sum(linalg::api::cholesky(m, false)); };
    CHECK(close(dataflow_grad(solve_loss, a), program_grad(solve_loss, a), 1e-10, 1e-10));
    CHECK(close(dataflow_grad(inv_loss, a), program_grad(inv_loss, a), 1e-10, 1e-10));
    CHECK(close(dataflow_grad(det_loss, a), program_grad(det_loss, a), 1e-10, 1e-10));
    CHECK(close(dataflow_grad(svd_loss, a), program_grad(svd_loss, a), 1e-10, 1e-10));
    CHECK(close(dataflow_grad(qr_loss, a), program_grad(qr_loss, a), 1e-10, 1e-10));
    CHECK(close(dataflow_grad(chol_loss, spd), program_grad(chol_loss, spd), 1e-10, 1e-10));
  }
}

TEST_CASE("dataflow tensors: tracking, absence, sealing and failures", "[dataflow][tensor]") {
  dataflow::ThreadPoolScheduler pool(2);
  dataflow::ScopedScheduler scope(pool);
  Tensor xv = random_tensor(DType::F64, {5}, 31);
  TensorVar x(xv, true);
  TensorVar c(random_tensor(DType::F64, {5}, 32), false);
  TensorVar unused(random_tensor(DType::F64, {5}, 33), true);
  CHECK(x.tracked());
  CHECK_FALSE(c.tracked());
  TensorVar y = binary(ops::OpCode::Mul, x, c);
  TensorVar constant_only = binary(ops::OpCode::Mul, c, c);
  CHECK(y.tracked());
  CHECK_FALSE(constant_only.tracked());             // no reverse work is scheduled for it
  TensorVar dead = unary(ops::OpCode::Sin, unused); // never seeded: pruned
  TensorVar loss = sum_all(binary(ops::OpCode::Add, y, x));
  loss.seed(Tensor::scalar(1.0));
  std::optional<Tensor> g = x.grad_wait();
  REQUIRE(g.has_value());
  CHECK(close(*g, binary(ops::OpCode::Add, c.value_wait(), eager::ones(DType::F64, {5})), 1e-15,
              1e-15));
  CHECK_FALSE(c.grad_wait().has_value());      // untracked
  CHECK_FALSE(unused.grad_wait().has_value()); // absent: nothing seeded depends on it
  CHECK_FALSE(y.tracked());                    // sealed with its graph
  // Values of a sealed graph feed new ops as untracked values (an optimiser step).
  TensorVar step = binary(ops::OpCode::Sub, x, TensorVar(*g, false));
  CHECK_FALSE(step.tracked());
  CHECK(close(step.value_wait(), binary(ops::OpCode::Sub, xv, *g), 0, 0));

  SECTION("shape errors are thrown by the op at once") {
    TensorVar bad(random_tensor(DType::F64, {3}, 34), true);
    CHECK_THROWS_AS(binary(ops::OpCode::Add, x, bad), Error);
  }
  SECTION("a forward failure reaches every downstream reader with its status") {
    TensorVar singular(eager::zeros(DType::F64, {2, 2}), true);
    TensorVar rhs(random_tensor(DType::F64, {2, 1}, 35), false);
    TensorVar sol = linalg::api::solve(singular, rhs);
    TensorVar after = sum_all(sol);
    try {
      (void)after.value_wait();
      FAIL("no failure");
    } catch (const Error& e) {
      CHECK(e.status() == Status::Singular);
    }
    after.seed(Tensor::scalar(1.0));
    CHECK_THROWS_AS(singular.grad_wait(), Error);
  }
  SECTION("seeding twice or with the wrong shape is an error") {
    TensorVar z(random_tensor(DType::F64, {2}, 36), true);
    TensorVar w = unary(ops::OpCode::Exp, z);
    CHECK_THROWS_AS(w.seed(Tensor::scalar(1.0)), Error);
    w.seed(eager::ones(DType::F64, {2}));
    CHECK_THROWS_AS(w.seed(eager::ones(DType::F64, {2})), Error);
  }
}

TEST_CASE("dataflow tensors: fan-in gives the same bits under any scheduler",
          "[dataflow][tensor]") {
  auto run = [](int threads) {
    std::unique_ptr<dataflow::Scheduler> s;
    if (threads == 0)
      s = std::make_unique<dataflow::DebugScheduler>();
    else
      s = std::make_unique<dataflow::ThreadPoolScheduler>(threads);
    dataflow::ScopedScheduler scope(*s);
    TensorVar x(random_tensor(DType::C64, {64, 3}, 41), true);
    TensorVar acc = unary(ops::OpCode::Sin, x);
    for (int i = 0; i < 24; ++i)
      acc = binary(
          ops::OpCode::Add, acc,
          binary(ops::OpCode::Mul, unary(i % 2 ? ops::OpCode::Exp : ops::OpCode::Cos, x), x));
    TensorVar loss = sum_all(unary(ops::OpCode::Abs, acc));
    loss.seed(Tensor::scalar(1.0));
    return *x.grad_wait();
  };
  Tensor reference = run(0);
  for (int threads : {1, 2, 4}) {
    CAPTURE(threads);
    CHECK(identical(run(threads), reference));
  }
}

namespace {

template <class T> Tensor scalar_tensor(const T& v) {
  DType d = std::is_same_v<T, double> ? DType::F64 : DType::C64;
  Tensor t = eager::zeros(d, {});
  set_value(t, {}, std::complex<double>(v));
  return t;
}

// dL/dx of y = op(x) seeded with ybar, by the scalar engine and by the op's direct VJP kernel.
template <class Row, class T> void check_unary(ops::OpCode code, const T& x0, double ybar0) {
  using R = typename Row::template result<T>;
  dataflow::Var<T> x = x0;
  dataflow::Var<R> y = dataflow::detail::unary<Row, T>(x);
  y.seed(R(ybar0));
  T scalar = x.grad.get_wait();
  Tensor xt = scalar_tensor(x0);
  Tensor yt = emit(code, std::span<const Tensor>(&xt, 1), ops::NoParams{});
  Tensor ybar = eager::zeros(yt.dtype(), {});
  set_value(ybar, {}, ybar0);
  auto k = ad::vjp_kernel(ad::VjpKernelScope::current(), code, ops::NoParams{},
                          std::span<const Tensor>(&xt, 1), ybar);
  // No kernel output: structurally zero (Im of a real).
  std::complex<double> want = k[0] ? value_at(*k[0], {}) : 0.0;
  // Outside a real function's domain (asin(2.3), acosh(0.6)) both engines must give NaN.
  if (std::isnan(std::abs(want))) {
    CHECK(std::isnan(std::abs(std::complex<double>(scalar))));
    return;
  }
  CHECK(std::abs(std::complex<double>(scalar) - want) <= 1e-13 * (1 + std::abs(want)));
}

template <class Row, class T>
void check_binary(ops::OpCode code, const T& a0, const T& b0, double ybar0) {
  dataflow::Var<T> a = a0, b = b0;
  dataflow::Var<T> y = dataflow::detail::binary<Row, T>(&a, nullptr, &b, nullptr);
  y.seed(T(ybar0));
  std::array<Tensor, 2> in{scalar_tensor(a0), scalar_tensor(b0)};
  Tensor ybar = scalar_tensor(T(ybar0));
  auto k = ad::vjp_kernel(ad::VjpKernelScope::current(), code, ops::NoParams{}, in, ybar);
  for (int i = 0; i < 2; ++i) {
    REQUIRE(k[static_cast<size_t>(i)].has_value());
    std::complex<double> got(i == 0 ? a.grad.get_wait() : b.grad.get_wait());
    std::complex<double> want = value_at(*k[static_cast<size_t>(i)], {});
    CHECK(std::abs(got - want) <= 1e-13 * (1 + std::abs(want)));
  }
}

template <class Rule, ops::OpCode Op, int Arity, class T>
void check_analytic(const T& x, const T& y) {
  if constexpr (ops::kOpTable[static_cast<size_t>(Op)].accepts.contains(dtype_of_v<T>)) {
    if constexpr (Arity == 1)
      check_unary<Rule>(Op, x, 0.7);
    else
      check_binary<Rule>(Op, x, y, -1.3);
  }
}

template <class T> void check_all_scalar_ops(const T& x, const T& y) {
  namespace r = dataflow::rules;
  using ops::OpCode;
  check_unary<r::Neg>(OpCode::Neg, x, 0.7);
  // Every Smooth analytic row (ops/defs/analytic.hpp) that accepts T.
#define TFE_CHECK_ANALYTIC_Smooth(Code, arity) check_analytic<r::Code, OpCode::Code, arity>(x, y);
#define TFE_CHECK_ANALYTIC_ZeroDerivative(Code, arity)
#define TFE_CHECK_ANALYTIC(Code, name, arity, accepts, ad, ...) TFE_CHECK_ANALYTIC_##ad(Code, arity)
  TFE_ANALYTIC_OPS(TFE_CHECK_ANALYTIC)
#undef TFE_CHECK_ANALYTIC
#undef TFE_CHECK_ANALYTIC_ZeroDerivative
#undef TFE_CHECK_ANALYTIC_Smooth
  check_unary<r::Conj>(OpCode::Conj, x, 0.7);
  check_unary<r::Abs>(OpCode::Abs, x, 0.7);
  check_unary<r::Real>(OpCode::Real, x, 0.7);
  check_unary<r::Imag>(OpCode::Imag, x, 0.7);
  check_binary<r::Add>(OpCode::Add, x, y, -1.3);
  check_binary<r::Sub>(OpCode::Sub, x, y, -1.3);
  check_binary<r::Mul>(OpCode::Mul, x, y, -1.3);
  check_binary<r::Div>(OpCode::Div, x, y, -1.3);
  check_binary<r::Pow>(OpCode::Pow, x, y, -1.3);
}

} // namespace

TEST_CASE("dataflow: scalar Var and the ops' VJP kernels agree (one formula source)",
          "[dataflow][tensor]") {
  dataflow::DebugScheduler debug;
  dataflow::ScopedScheduler scope(debug);
  check_all_scalar_ops(0.6, 1.7);
  check_all_scalar_ops(2.3, -0.4);
  check_all_scalar_ops(std::complex<double>(0.6, -0.8), std::complex<double>(1.2, 0.5));
  check_all_scalar_ops(std::complex<double>(-1.1, 0.3), std::complex<double>(0.4, -2.0));
}
