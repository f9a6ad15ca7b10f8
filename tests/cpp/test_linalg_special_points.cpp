// Derivatives at the points where PyTorch gives NaN or wrong values (docs/linalg.md, "Degenerate
// and singular inputs"), in every engine: eigenvector derivatives when other eigenvalues are
// exactly degenerate, losses that depend on a degenerate eigenspace only through its projector,
// det at singular matrices (the adjugate), slogdet at a singular matrix, and the subgradient 0
// of norms at zero and of complex sign at 0.
#include <catch2/catch.hpp>

#include "backend/cpu/kernels/kernels.hpp"
#include "eager/creation.hpp"
#include "dataflow/debug_scheduler.hpp"
#include "dataflow/scheduler.hpp"
#include "support/eager_env.hpp"
#include "support/engine_checks.hpp"

using namespace tfe;
using namespace tfe::testing;
namespace api = tfe::linalg::api;
namespace ae = tfe::ad::recording;
using dataflow::TensorVar;

namespace {

// The gradient of a one-element function of one input in the three engines: the traced program,
// eager backward, and the dataflow engine.
struct Gradients {
  Tensor traced, eager, dataflow;
};

Gradients gradients(const EngineFunction& f, const Tensor& x) {
  Gradients g;
  graph::Value arg = graph::argument(x.dtype(), Shape(x.shape()));
  graph::ProgramPtr p = graph::make_program({arg}, f(std::vector<graph::Value>{arg}));
  Tensor one = eager::ones(p->outputs[0].meta().dtype, {});
  g.traced = run_program(*ad::vjp(*p, {0}).program, {x, one}).at(1);
  EagerEnv env;
  ae::Recorded rx{x, ae::tracked_leaf(x)};
  std::vector<ae::LeafGrad> lg =
      ae::backward(f(std::vector<ae::Recorded>{rx})[0], std::nullopt, env.caches);
  REQUIRE(lg.size() <= 1); // none: structurally zero (absent), compared as zeros
  g.eager = lg.empty() ? Tensor::zeros(x.dtype(), x.shape()) : lg[0].grad;
  dataflow::DebugScheduler debug;
  dataflow::ScopedScheduler scope(debug);
  TensorVar vx(x, true);
  f(std::vector<TensorVar>{vx})[0].seed(one);
  std::optional<Tensor> dg = vx.grad_wait();
  g.dataflow = dg ? *dg : Tensor::zeros(x.dtype(), x.shape());
  return g;
}

// Central differences of a one-element real function along direction e.
double directional_fd(const EngineFunction& f, const Tensor& x, const Tensor& e) {
  double h = 1e-6;
  auto at = [&](double t) { return value_at(f(std::vector<Tensor>{axpy(x, t, e)})[0], {}).real(); };
  return (at(h) - at(-h)) / (2 * h);
}

Tensor kron(const Tensor& a, const Tensor& b) {
  int64_t m = a.dim(0), n = b.dim(0);
  Tensor out = Tensor::zeros(DType::F64, {m * n, m * n});
  for_each_index(out.shape(), [&](const Dims& i) {
    set_value(out, i, value_at(a, {i[0] / n, i[1] / n}) * value_at(b, {i[0] % n, i[1] % n}));
  });
  return out;
}

// The operator `site` on spin `k` of a chain of `sites` spins (identity elsewhere).
Tensor on_site(const Tensor& site, int64_t k, int64_t sites) {
  Tensor id = tensor_of(DType::F64, {2, 2}, {1, 0, 0, 1});
  Tensor out = k == 0 ? site : id;
  for (int64_t j = 1; j < sites; ++j) out = kron(out, j == k ? site : id);
  return out;
}

// Column `k` of every matrix of v, as [N, 1, ...].
template <class V> V column(const V& v, int64_t k) {
  Shape s = meta_of(v).shape;
  Shape starts(s.size(), 0), limits = s;
  starts[1] = k;
  limits[1] = k + 1;
  std::array<V, 1> in{v};
  return emit(ops::OpCode::Slice, std::span<const V>(in),
              ops::SliceParams{starts, limits, Dims(s.size(), 1)});
}

// The columns of v (eigen- or singular vectors) whose value lies within 0.5 of `target`, found
// from the values at every call (LAPACK's order of eig's pairs may change under perturbation):
// V diag(mask) W with W = V^H or V^-1, the projector onto their span.
template <class V> V projector(const V& v, const V& values, double target, const V& w) {
  ops::Meta m = meta_of(v);
  DType real = real_dtype(meta_of(values).dtype);
  V off = unary(ops::OpCode::Abs,
                binary(ops::OpCode::Sub, values,
                       eager::cast(constant_of<V>(Tensor::scalar(target)), meta_of(values).dtype)));
  std::array<V, 2> cmp{off, eager::cast(constant_of<V>(Tensor::scalar(0.5)), real)};
  V near = eager::call(ops::OpCode::Compare, std::span<const V>(cmp),
                       ops::CompareParams{ops::CompareDir::Lt});
  V mask = eager::cast(near, m.dtype); // not differentiable: a constant of the derivative
  std::array<V, 1> in{mask};
  V spread = emit(ops::OpCode::BroadcastInDim, std::span<const V>(in),
                  ops::BroadcastInDimParams{m.shape, {1}});
  return eager::matmul(binary(ops::OpCode::Mul, v, spread), w);
}

// Functions of the values that are smooth although a pair is degenerate: the power sums and
// the sum over the degenerate cluster (near `target`).
template <class V> std::vector<V> symmetric_functions(const V& values) {
  std::array<int64_t, 1> first{0};
  return {eager::sum(values, first), eager::sum(binary(ops::OpCode::Mul, values, values), first)};
}

bool all_zero(const Tensor& t) { return all_finite(t) && max_abs(t) == 0; }

} // namespace

TEST_CASE("degenerate spectra: d<Z_0>/dtheta of a non-degenerate ground state is finite",
          "[linalg][special]") {
  // H = -sum_i X_i + theta Z_0 on 6 spins: the ground state is unique, the excited levels are
  // exactly degenerate. <Z_0> = -theta + O(theta^3) for small theta: the derivative is -1.
  const int64_t sites = 6;
  Tensor x = tensor_of(DType::F64, {2, 2}, {0, 1, 1, 0}),
         z = tensor_of(DType::F64, {2, 2}, {1, 0, 0, -1});
  Tensor h0 = Tensor::zeros(DType::F64, {64, 64});
  for (int64_t k = 0; k < sites; ++k) h0 = axpy(h0, -1.0, on_site(x, k, sites));
  Tensor z0 = on_site(z, 0, sites);
  EngineFunction f = engine_function("<Z_0>", [h0, z0](const auto& in) {
    using V = typename std::decay_t<decltype(in)>::value_type;
    V h = binary(ops::OpCode::Add, constant_of<V>(h0),
                 binary(ops::OpCode::Mul, in[0], constant_of<V>(z0)));
    V v0 = column(api::eigh(h, false, 0.0)[1], 0);
    return std::vector<V>{
        sum_all(binary(ops::OpCode::Mul, v0, eager::matmul(constant_of<V>(z0), v0)))};
  });
  Tensor theta = Tensor::scalar(0.0);
  Gradients g = gradients(f, theta);
  CAPTURE(value_at(g.traced, {}), value_at(g.eager, {}), value_at(g.dataflow, {}));
  for (const Tensor* t : {&g.traced, &g.eager, &g.dataflow})
    CHECK(std::abs(value_at(*t, {}) - (-1.0)) < 1e-9);
  CHECK(std::abs(directional_fd(f, theta, Tensor::scalar(1.0)) - (-1.0)) < 1e-6);
}

TEST_CASE("degenerate spectra: eigenspace projectors and symmetric functions of the values",
          "[linalg][special]") {
  // Each matrix has an exactly degenerate pair; the losses see its eigenspace only through the
  // projector onto it, and its eigenvalues symmetrically. Every engine must equal the traced
  // derivative, which must equal finite differences in every direction.
  struct Case {
    std::string name;
    Tensor input;
    EngineFunction f;
  };
  std::vector<Case> cases;
  for (DType d : {DType::F64, DType::C64}) {
    Tensor a = cpu::kernels::convert_to(
        tensor_of(DType::F64, {4, 4}, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 2, 0.5, 0, 0, 0.5, 3}), d);
    Tensor w = api::eigh(a, false, 0.0)[0];
    REQUIRE(value_at(w, {0}) == value_at(w, {1})); // LAPACK returns the pair exactly equal
    cases.push_back(
        {"eigh " + std::string(dtype_name(d)), a, engine_function("eigh", [](const auto& in) {
           using V = typename std::decay_t<decltype(in)>::value_type;
           std::vector<V> wv = api::eigh(hermitian_part(in[0]), false, 0.0);
           std::vector<V> out = symmetric_functions(wv[0]);
           out.push_back(projector(wv[1], wv[0], 1.0, adjoint(wv[1])));
           return out;
         })});
    Tensor b = cpu::kernels::convert_to(
        tensor_of(DType::F64, {4, 3}, {3, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0}), d);
    Tensor s = api::svdvals(b);
    REQUIRE(value_at(s, {1}) == value_at(s, {2}));
    cases.push_back(
        {"svd " + std::string(dtype_name(d)), b, engine_function("svd", [](const auto& in) {
           using V = typename std::decay_t<decltype(in)>::value_type;
           std::vector<V> usv = api::svd(in[0], linalg::SvdMode::Reduced, 0.0);
           std::vector<V> out = symmetric_functions(usv[1]);
           out.push_back(projector(usv[0], usv[1], 2.0, adjoint(usv[0])));
           out.push_back(projector(adjoint(usv[2]), usv[1], 2.0, usv[2]));
           return out;
         })});
    Tensor c =
        cpu::kernels::convert_to(tensor_of(DType::F64, {3, 3}, {1, 0, 0, 0, 1, 0, 1, 2, 3}), d);
    Tensor ew = api::eigvals(c);
    CHECK(std::abs(value_at(ew, {0}) - value_at(ew, {1})) == 0.0);
    cases.push_back(
        {"eig " + std::string(dtype_name(d)), c, engine_function("eig", [](const auto& in) {
           using V = typename std::decay_t<decltype(in)>::value_type;
           std::vector<V> wv = api::eig(in[0], 0.0);
           std::vector<V> out = symmetric_functions(wv[0]);
           out.push_back(projector(wv[1], wv[0], 1.0, api::inv(wv[1])));
           return out;
         })});
  }
  for (const Case& c : cases) {
    INFO(c.name);
    std::vector<int64_t> all{0};
    graph::Value arg = graph::argument(c.input.dtype(), Shape(c.input.shape()));
    graph::ProgramPtr p = graph::make_program({arg}, c.f(std::vector<graph::Value>{arg}));
    for (uint64_t seed : {1u, 2u, 3u}) {
      AdCheckResult fd = check_jvp_fd(*p, {c.input}, all, seed);
      INFO(fd.why);
      CHECK(fd.ok);
    }
    EngineCase e{&c.f, {c.input}, {true}, Provenance::Direct, false, true, 1e-12, 5};
    AdCheckResult r = check_engines(e);
    INFO(r.why);
    CHECK(r.ok);
  }
}

TEST_CASE("det at singular matrices: the gradient is the adjugate", "[linalg][special]") {
  EngineFunction det = engine_function("det", [](const auto& in) {
    using V = typename std::decay_t<decltype(in)>::value_type;
    return std::vector<V>{unary(ops::OpCode::Real, api::det(in[0]))};
  });
  for (DType d : {DType::F64, DType::C64}) {
    std::complex<double> phase = d == DType::C64 ? std::complex<double>(1, 1) : 1.0;
    // Rank 2 of 3, with an exactly zero pivot: the cofactors of [[2,4,6],[1,2,3],[1,3,5]].
    Tensor a = Tensor::zeros(d, {3, 3});
    double rows[3][3] = {{2, 4, 6}, {1, 2, 3}, {1, 3, 5}};
    for (int64_t i = 0; i < 3; ++i)
      for (int64_t j = 0; j < 3; ++j) set_value(a, {i, j}, phase * rows[i][j]);
    Tensor want = Tensor::zeros(d, {3, 3});
    for (int64_t i = 0; i < 3; ++i)
      for (int64_t j = 0; j < 3; ++j) {
        std::vector<std::complex<double>> m;
        for (int64_t r = 0; r < 3; ++r)
          for (int64_t c = 0; c < 3; ++c)
            if (r != i && c != j) m.push_back(value_at(a, {r, c}));
        std::complex<double> cof = ((i + j) % 2 ? -1.0 : 1.0) * (m[0] * m[3] - m[1] * m[2]);
        set_value(want, {i, j}, std::conj(cof)); // d Re(det) = Re(conj(cofactor) . dA)
      }
    REQUIRE(max_abs(want) > 1);
    Gradients g = gradients(det, a);
    INFO(dtype_name(d));
    for (const Tensor* t : {&g.traced, &g.eager, &g.dataflow}) {
      std::string why;
      CHECK(close(*t, want, 1e-12, 1e-12, &why));
      INFO(why);
    }
    // Rank 2 of 4: every cofactor vanishes (up to the rounding of the two zero singular values).
    Tensor b = Tensor::zeros(d, {4, 4});
    double rows4[4][4] = {{2, 4, 6, 8}, {1, 2, 3, 4}, {1, 3, 5, 7}, {0.5, 1.5, 2.5, 3.5}};
    for (int64_t i = 0; i < 4; ++i)
      for (int64_t j = 0; j < 4; ++j) set_value(b, {i, j}, phase * rows4[i][j]);
    Gradients z = gradients(det, b);
    for (const Tensor* t : {&z.traced, &z.eager, &z.dataflow}) {
      CHECK(all_finite(*t));
      CHECK(max_abs(*t) < 1e-12);
    }
  }
}

TEST_CASE("slogdet at a singular matrix: sign 0, logabs -inf, no finite derivative",
          "[linalg][special]") {
  Tensor a = tensor_of(DType::F64, {3, 3}, {2, 1, 1, 4, 2, 3, 6, 3, 5});
  std::vector<Tensor> sl = api::slogdet(a);
  CHECK(value_at(sl[0], {}) == 0.0);
  CHECK(std::isinf(value_at(sl[1], {}).real()));
  CHECK(value_at(sl[1], {}).real() < 0);
  EagerEnv env;
  ae::Recorded x{a, ae::tracked_leaf(a)};
  ae::Recorded logabs = api::slogdet(x)[1];
  try {
    ae::backward(logabs, std::nullopt, env.caches);
    FAIL("backward through logabs at a singular matrix did not fail");
  } catch (const Error& e) {
    CHECK(e.status() == Status::Singular);
    CHECK_THAT(e.message(), Catch::Contains("singular"));
  }
}

TEST_CASE("subgradients: norms at zero and complex sign at 0 give 0, not NaN",
          "[linalg][special]") {
  using api::MatrixNorm;
  std::vector<EngineFunction> fs;
  for (double ord : {1.0, 2.0, 3.5, double(INFINITY)})
    fs.push_back(engine_function("vector_norm " + std::to_string(ord), [ord](const auto& in) {
      using V = typename std::decay_t<decltype(in)>::value_type;
      return std::vector<V>{api::vector_norm(in[0], ord, {})};
    }));
  for (MatrixNorm ord : {MatrixNorm::Fro, MatrixNorm::Nuc, MatrixNorm::Two, MatrixNorm::MinusTwo,
                         MatrixNorm::One, MatrixNorm::Inf})
    fs.push_back(engine_function("matrix_norm", [ord](const auto& in) {
      using V = typename std::decay_t<decltype(in)>::value_type;
      return std::vector<V>{api::matrix_norm(in[0], ord)};
    }));
  fs.push_back(engine_function("sum of Re sign", [](const auto& in) {
    using V = typename std::decay_t<decltype(in)>::value_type;
    return std::vector<V>{sum_all(unary(ops::OpCode::Real, unary(ops::OpCode::Sign, in[0])))};
  }));
  for (DType d : {DType::F64, DType::C64})
    for (const EngineFunction& f : fs) {
      INFO(f.name << " " << dtype_name(d));
      Gradients g = gradients(f, Tensor::zeros(d, {3, 2}));
      CHECK(all_zero(g.traced));
      CHECK(all_zero(g.eager));
      CHECK(all_zero(g.dataflow));
    }
}
