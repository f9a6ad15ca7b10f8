// Linalg under eager AD: multi-output ops record one raw node (their outputs share one history),
// promoted operands record their Convert (the eigh end-to-end case), and
// gradients through the recorded decompositions match finite differences.
#include <catch2/catch.hpp>

#include <functional>

#include "ad/recording/engine.hpp"
#include "support/lapack_spy.hpp"
#include "support/eager_env.hpp"
#include "backend/cpu/lapack/lapack.hpp"
#include "linalg/surface.hpp"
#include "support/ad_checks.hpp"

using namespace tfe;
using namespace tfe::testing;
namespace ae = tfe::ad::recording;
namespace api = tfe::linalg::api;
using ops::OpCode;

namespace {

using Env = EagerEnv;

template <class V> V op(OpCode code, std::initializer_list<V> in) {
  std::vector<V> v(in);
  return eager::call<V>(code, std::span<const V>(v));
}
template <class V> V sum_all(const V& x) { return eager::sum(x, std::span<const int64_t>{}); }

Tensor hermitian(DType d, int64_t n, uint64_t seed) {
  Tensor b = random_tensor(d, {n, n}, seed);
  Tensor h = Tensor::empty(d, {n, n});
  for_each_index({n, n}, [&](const Dims& i) {
    set_value(h, i, 0.5 * (value_at(b, i) + std::conj(value_at(b, {i[1], i[0]}))));
  });
  return h;
}

// A gauge-invariant loss of eigh: weighted eigenvalues plus weighted |V|^2.
template <class V> V eigh_loss(const V& a) {
  std::vector<V> wv = api::eigh(a, false, 0.0);
  int64_t n = meta_of(wv[0]).shape[0].value();
  std::vector<double> w1(static_cast<size_t>(n)), w2(static_cast<size_t>(n * n));
  for (size_t i = 0; i < w1.size(); ++i) w1[i] = 1.0 + 0.5 * static_cast<double>(i);
  for (size_t i = 0; i < w2.size(); ++i) w2[i] = std::sin(1.0 + static_cast<double>(i));
  DType real = meta_of(wv[0]).dtype;
  V c1 = literal(eager::cast(tensor_of(DType::F64, {n}, w1), real), static_cast<const V*>(nullptr));
  V c2 =
      literal(eager::cast(tensor_of(DType::F64, {n, n}, w2), real), static_cast<const V*>(nullptr));
  V vv = op<V>(OpCode::Real, {op<V>(OpCode::Mul, {op<V>(OpCode::Conj, {wv[1]}), wv[1]})});
  return op<V>(OpCode::Add,
               {sum_all(op<V>(OpCode::Mul, {wv[0], c1})), sum_all(op<V>(OpCode::Mul, {vv, c2}))});
}

double scalar_of(const Tensor& t) { return value_at(t, {}).real(); }

// Re<grad, E> against central differences of f along E.
void check_directional(const Tensor& grad, const std::function<double(const Tensor&)>& f,
                       const Tensor& x, const Tensor& e) {
  double h = 1e-6;
  double fd = (f(axpy(x, h, e)) - f(axpy(x, -h, e))) / (2 * h);
  double an = real_inner(grad, e);
  INFO("analytic " << an << " finite differences " << fd);
  CHECK(std::abs(an - fd) <= 1e-6 * (1 + std::abs(fd)));
}

} // namespace

TEST_CASE("trace lifetime: the outputs of a multi-output op share one history", "[linalg][eager]") {
  Env env;
  Tensor a0 = hermitian(DType::F64, 3, 5);
  ae::Recorded a{a0, ae::tracked_leaf(a0)};
  std::vector<ae::Recorded> wv = api::eigh(a, false, 0.0);
  REQUIRE(wv[0].ref);
  CHECK(wv[0].ref.node == wv[1].ref.node); // one raw node, two outputs
  CHECK(wv[0].ref.index == 0);
  CHECK(wv[1].ref.index == 1);
  CHECK(identical(wv[1].ref.node->output(1), wv[1].value));
  ae::Recorded loss = eigh_loss(a);
  ae::commit(ae::backward(loss, std::nullopt, env.caches));
  std::lock_guard lock(a.ref.node->leaf->mutex);
  REQUIRE(a.ref.node->leaf->grad);
  Tensor g = *a.ref.node->leaf->grad;
  auto f = [](const Tensor& x) { return scalar_of(eigh_loss<Tensor>(x)); };
  for (uint64_t s : {21u, 22u, 23u}) check_directional(g, f, a0, hermitian(DType::F64, 3, s));
}

TEST_CASE("promotion: untracked real identity + tracked complex Hermitian -> eigh -> backward",
          "[linalg][eager][promotion]") {
  Env env;
  Tensor eye = Tensor::zeros(DType::F64, {3, 3});
  for (int64_t i = 0; i < 3; ++i) set_value(eye, {i, i}, 1.0);
  Tensor h0 = hermitian(DType::C64, 3, 7);
  ae::Recorded h{h0, ae::tracked_leaf(h0)};
  // The plan converts the real identity (untracked: the constant leaf holds its C64 value).
  ae::Recorded m = op<ae::Recorded>(OpCode::Add, {ae::Recorded{eye, {}}, h});
  REQUIRE(m.ref);
  CHECK(m.ref.node->inputs[0].node->kind == ae::RawKind::ConstantLeaf);
  CHECK(m.ref.node->inputs[0].node->value.dtype() == DType::C64);
  ae::Recorded loss = eigh_loss(m);
  ae::commit(ae::backward(loss, std::nullopt, env.caches));
  std::lock_guard lock(h.ref.node->leaf->mutex);
  REQUIRE(h.ref.node->leaf->grad);
  Tensor g = *h.ref.node->leaf->grad;
  CHECK(g.dtype() == DType::C64);
  auto f = [&](const Tensor& x) {
    std::array<Tensor, 2> in{eye, x};
    return scalar_of(eigh_loss<Tensor>(eager::call<Tensor>(OpCode::Add, in)));
  };
  for (uint64_t s : {31u, 32u, 33u}) check_directional(g, f, h0, hermitian(DType::C64, 3, s));
}

TEST_CASE("factor once: a tracked solve and its reverse mode factor A exactly once",
          "[linalg][eager][factor-once]") {
  Env env;
  // 10 x 10: above the size the library factors itself, so every factorisation is a getrf.
  Tensor a0 = random_tensor(DType::F64, {10, 10, 3}, 41);
  for_each_index({10, 10, 3}, [&](const Dims& i) {
    if (i[0] == i[1]) set_value(a0, i, value_at(a0, i) + 4.0);
  });
  Tensor b0 = random_tensor(DType::F64, {10, 2, 3}, 42);
  ae::Recorded a{a0, ae::tracked_leaf(a0)}, b{b0, ae::tracked_leaf(b0)};
  auto& count = lapack_dgetrf_calls();
  int64_t before = count.load();
  ae::Recorded x = api::solve(a, b);
  CHECK(count.load() - before == 3); // one per matrix of the batch
  REQUIRE(x.ref);
  CHECK(x.ref.node->more_values.size() == 2); // the packed LU and the pivots are kept
  ae::Recorded loss = sum_all(op<ae::Recorded>(OpCode::Mul, {x, x}));
  ae::commit(ae::backward(loss, std::nullopt, env.caches));
  CHECK(count.load() - before == 3); // the adjoint solve reuses the factors
  // and the gradients are right: dL/db = 2 A^-T x, dL/dA = -(dL/db) x^T
  Tensor gb, ga;
  {
    std::lock_guard lock(b.ref.node->leaf->mutex);
    gb = *b.ref.node->leaf->grad;
  }
  {
    std::lock_guard lock(a.ref.node->leaf->mutex);
    ga = *a.ref.node->leaf->grad;
  }
  auto f = [&](const Tensor& av, const Tensor& bv) {
    Tensor xv = api::solve(av, bv);
    return scalar_of(sum_all(op<Tensor>(OpCode::Mul, {xv, xv})));
  };
  check_directional(
      gb, [&](const Tensor& bv) { return f(a0, bv); }, b0,
      random_tensor(DType::F64, {10, 2, 3}, 43));
  check_directional(
      ga, [&](const Tensor& av) { return f(av, b0); }, a0,
      random_tensor(DType::F64, {10, 10, 3}, 44));
}
