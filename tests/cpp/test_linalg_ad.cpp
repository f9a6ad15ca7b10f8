// Linalg derivatives through the program transforms (ad-contract.md "How AD is tested"): for
// every kernel-basis op and composite, JVP vs central finite differences and the dot-product
// test in F64/C64, F32/C32 JVPs against F64/C64, on gauge-invariant functions of the outputs;
// eigh and cholesky see Hermitian inputs (X + X^H)/2, so every tangent direction is valid.
#include <catch2/catch.hpp>

#include <functional>

#include "ad/builder.hpp"
#include "eager/surface.hpp"
#include "linalg/ir.hpp"
#include "linalg/surface.hpp"
#include "support/ad_checks.hpp"

using namespace tfe;
using namespace tfe::testing;
using graph::Value;
namespace api = tfe::linalg::api;
namespace ir = tfe::linalg::ir;

namespace {

using Builder = std::function<std::vector<Value>(const std::vector<Value>&)>;

graph::ProgramPtr program_of(const std::vector<Tensor>& inputs, const Builder& f) {
  std::vector<Value> args;
  for (const Tensor& t : inputs) args.push_back(graph::argument(t.dtype(), Shape(t.shape())));
  return graph::make_program(args, f(args));
}

DType doubled(DType d) { return d == DType::F32 ? DType::F64 : DType::C64; }

// A well-conditioned square matrix: random plus shift * I on every matrix of the batch.
Tensor shifted(DType d, const Dims& shape, uint64_t seed, double shift) {
  Tensor t = random_tensor(d, shape, seed);
  for_each_index(shape, [&](const Dims& i) {
    if (i[0] == i[1]) set_value(t, i, value_at(t, i) + shift);
  });
  return t;
}

Tensor converted(const Tensor& t, DType d) {
  Tensor out = Tensor::empty(d, t.shape());
  for_each_index(t.shape(), [&](const Dims& i) { set_value(out, i, value_at(t, i)); });
  return out;
}

Value hermitian(const Value& x) { return ir::hermitian_part(x); }
// |x|^2 elementwise: invariant under a phase of each column.
Value abs2(const Value& x) { return ad::real(ad::mul(ad::conj(x), x)); }

struct AdCase {
  std::string name;
  std::function<std::vector<Tensor>(DType, uint64_t)> inputs;
  Builder f;
  bool second_order = false;
};

void check_case(const AdCase& c) {
  for (DType d : {DType::F64, DType::C64}) {
    for (uint64_t seed : {1u, 2u}) {
      std::vector<Tensor> in = c.inputs(d, seed);
      INFO(c.name << " " << dtype_name(d) << " seed " << seed);
      graph::ProgramPtr p = program_of(in, c.f);
      std::vector<int64_t> active;
      for (size_t i = 0; i < in.size(); ++i) active.push_back(static_cast<int64_t>(i));
      AdCheckResult fd = check_jvp_fd(*p, in, active, seed);
      INFO(fd.why);
      CHECK(fd.ok);
      AdCheckResult tr = check_transpose(*p, in, active, seed, 1e-10);
      INFO(tr.why);
      CHECK(tr.ok);
      if (c.second_order) {
        AdCheckResult so = check_second_order(*p, in, active, seed);
        INFO(so.why);
        CHECK(so.ok);
      }
    }
  }
  for (DType d : {DType::F32, DType::C32}) {
    std::vector<Tensor> in64 = c.inputs(doubled(d), 3);
    std::vector<Tensor> in32;
    for (const Tensor& t : in64) in32.push_back(converted(t, d));
    INFO(c.name << " " << dtype_name(d) << " against " << dtype_name(doubled(d)));
    graph::ProgramPtr p32 = program_of(in32, c.f), p64 = program_of(in64, c.f);
    std::vector<int64_t> active;
    for (size_t i = 0; i < in32.size(); ++i) active.push_back(static_cast<int64_t>(i));
    AdCheckResult r = check_single_vs_double(*p32, *p64, in32, active, 3);
    INFO(r.why);
    CHECK(r.ok);
  }
}

std::vector<Tensor> square(DType d, uint64_t seed) { return {shifted(d, {3, 3, 2}, seed, 3.0)}; }

} // namespace

TEST_CASE("linalg AD: solve (A and B, batched)", "[linalg][ad]") {
  check_case(
      {"solve",
       [](DType d, uint64_t s) {
         return std::vector<Tensor>{shifted(d, {3, 3, 2}, s, 3.0),
                                    random_tensor(d, {3, 2, 2}, s + 10)};
       },
       [](const std::vector<Value>& x) { return std::vector<Value>{api::solve(x[0], x[1])}; },
       true});
}

TEST_CASE("linalg AD: inv, det, slogdet", "[linalg][ad]") {
  check_case({"inv", square,
              [](const std::vector<Value>& x) { return std::vector<Value>{api::inv(x[0])}; },
              true});
  check_case({"det", square,
              [](const std::vector<Value>& x) { return std::vector<Value>{api::det(x[0])}; },
              true});
  check_case(
      {"slogdet", square, [](const std::vector<Value>& x) { return api::slogdet(x[0]); }, true});
}

TEST_CASE("linalg AD: solve_triangular, every variant", "[linalg][ad]") {
  for (bool upper : {false, true})
    for (bool left : {true, false})
      for (bool unit : {false, true})
        for (linalg::Trans t :
             {linalg::Trans::No, linalg::Trans::Transpose, linalg::Trans::ConjTranspose}) {
          linalg::TriangularOptions o{upper, left, unit, t};
          check_case({"solve_triangular",
                      [left](DType d, uint64_t s) {
                        return std::vector<Tensor>{
                            shifted(d, {3, 3}, s, 3.0),
                            random_tensor(d, left ? Dims{3, 2} : Dims{2, 3}, s + 10)};
                      },
                      [o](const std::vector<Value>& x) {
                        return std::vector<Value>{api::solve_triangular(x[0], x[1], o)};
                      },
                      upper && left && !unit && t == linalg::Trans::No});
        }
}

TEST_CASE("linalg AD: lu_solve with saved factors, every transpose", "[linalg][ad]") {
  for (linalg::Trans t :
       {linalg::Trans::No, linalg::Trans::Transpose, linalg::Trans::ConjTranspose})
    check_case({"lu_solve",
                [](DType d, uint64_t s) {
                  return std::vector<Tensor>{shifted(d, {3, 3, 2}, s, 3.0),
                                             random_tensor(d, {3, 2, 2}, s + 10)};
                },
                [t](const std::vector<Value>& x) {
                  std::vector<Value> f = api::lu_factor(x[0]);
                  return std::vector<Value>{api::lu_solve(f[0], f[1], x[1], t)};
                }});
}

TEST_CASE("linalg AD: cholesky of a Hermitian positive definite input", "[linalg][ad]") {
  for (bool upper : {false, true})
    check_case({"cholesky", square, [upper](const std::vector<Value>& x) {
                  Value spd = ir::matmul(x[0], ir::mH(x[0]));
                  return std::vector<Value>{api::cholesky(hermitian(spd), upper)};
                }});
}

TEST_CASE("linalg AD: eigh values and gauge-invariant vector functions", "[linalg][ad]") {
  check_case({"eigh", square,
              [](const std::vector<Value>& x) {
                std::vector<Value> wv = api::eigh(hermitian(x[0]), false, 0.0);
                return std::vector<Value>{wv[0], abs2(wv[1])};
              },
              true});
}

TEST_CASE("linalg AD: eig values and unit-norm vectors", "[linalg][ad]") {
  check_case({"eig", square, [](const std::vector<Value>& x) {
                std::vector<Value> wv = api::eig(x[0], 0.0);
                return std::vector<Value>{wv[0], abs2(wv[1])};
              }});
}

TEST_CASE("linalg AD: qr of square, tall and wide inputs", "[linalg][ad]") {
  for (Dims shape : {Dims{3, 3, 2}, Dims{5, 3}, Dims{3, 5, 2}})
    check_case(
        {"qr " + format_dims(shape),
         [shape](DType d, uint64_t s) { return std::vector<Tensor>{shifted(d, shape, s, 2.0)}; },
         [](const std::vector<Value>& x) { return api::qr(x[0], false); }});
}

TEST_CASE("linalg AD: svd values and gauge-invariant vector functions", "[linalg][ad]") {
  for (Dims shape : {Dims{3, 3, 2}, Dims{5, 3}, Dims{3, 5}})
    check_case(
        {"svd " + format_dims(shape),
         [shape](DType d, uint64_t s) { return std::vector<Tensor>{random_tensor(d, shape, s)}; },
         [](const std::vector<Value>& x) {
           std::vector<Value> usv = api::svd(x[0], linalg::SvdMode::Reduced, 0.0);
           return std::vector<Value>{usv[1], abs2(usv[0]), abs2(usv[2]),
                                     ir::matmul(usv[0], usv[2])};
         }});
}

TEST_CASE("linalg AD: values-only decompositions", "[linalg][ad]") {
  check_case({"svdvals",
              [](DType d, uint64_t s) {
                return std::vector<Tensor>{random_tensor(d, {4, 3, 2}, s)};
              },
              [](const std::vector<Value>& x) { return std::vector<Value>{api::svdvals(x[0])}; }});
  for (bool upper : {false, true})
    check_case({"eigvalsh", square,
                [upper](const std::vector<Value>& x) {
                  return std::vector<Value>{api::eigvalsh(hermitian(x[0]), upper)};
                },
                true});
  check_case({"eigvals", square,
              [](const std::vector<Value>& x) { return std::vector<Value>{api::eigvals(x[0])}; }});
}

TEST_CASE("linalg AD: matrix_exp (Frechet derivative, every order)", "[linalg][ad]") {
  for (double scale : {0.3, 4.0}) // 4: a few squarings
    check_case(
        {"matrix_exp",
         [scale](DType d, uint64_t s) {
           Tensor t = random_tensor(d, {3, 3, 2}, s);
           return std::vector<Tensor>{axpy(Tensor::zeros(d, {3, 3, 2}), scale, t)};
         },
         [](const std::vector<Value>& x) { return std::vector<Value>{api::matrix_exp(x[0])}; },
         true});
}

TEST_CASE("linalg AD: lu (P L U) and the positive-diagonal QR gauge", "[linalg][ad]") {
  for (Dims shape : {Dims{3, 3, 2}, Dims{5, 3}, Dims{3, 5, 2}})
    check_case(
        {"lu " + format_dims(shape),
         [shape](DType d, uint64_t s) { return std::vector<Tensor>{shifted(d, shape, s, 2.0)}; },
         [](const std::vector<Value>& x) {
           std::vector<Value> plu = api::lu(x[0]);
           return std::vector<Value>{plu[1], plu[2]};
         }});
  for (Dims shape : {Dims{4, 3}, Dims{3, 3, 2}})
    check_case(
        {"qr positive " + format_dims(shape),
         [shape](DType d, uint64_t s) { return std::vector<Tensor>{shifted(d, shape, s, 2.0)}; },
         [](const std::vector<Value>& x) { return api::qr_gauged(x[0], false, true); }});
}

TEST_CASE("linalg AD: composites through the basis", "[linalg][ad]") {
  auto tall = [](DType d, uint64_t s) { return std::vector<Tensor>{random_tensor(d, {4, 3}, s)}; };
  check_case({"pinv", tall, [](const std::vector<Value>& x) {
                return std::vector<Value>{api::pinv(x[0], -1.0, false)};
              }});
  check_case({"pinv hermitian", square, [](const std::vector<Value>& x) {
                return std::vector<Value>{api::pinv(hermitian(x[0]), -1.0, true)};
              }});
  check_case(
      {"lstsq",
       [](DType d, uint64_t s) {
         return std::vector<Tensor>{random_tensor(d, {4, 3}, s), random_tensor(d, {4, 2}, s + 5)};
       },
       [](const std::vector<Value>& x) {
         return std::vector<Value>{api::lstsq(x[0], x[1], -1.0)};
       }});
  using api::MatrixNorm;
  for (MatrixNorm ord : {MatrixNorm::Fro, MatrixNorm::Nuc, MatrixNorm::One, MatrixNorm::Two,
                         MatrixNorm::MinusTwo, MatrixNorm::Inf})
    check_case({"matrix_norm", tall, [ord](const std::vector<Value>& x) {
                  return std::vector<Value>{api::matrix_norm(x[0], ord)};
                }});
  for (double ord : {1.0, 2.0, 3.5})
    check_case({"vector_norm", tall, [ord](const std::vector<Value>& x) {
                  std::array<int64_t, 1> axis{0};
                  return std::vector<Value>{api::vector_norm(x[0], ord, axis)};
                }});
  check_case({"cond", square, [](const std::vector<Value>& x) {
                return std::vector<Value>{api::cond(x[0], MatrixNorm::Two),
                                          api::cond(x[0], MatrixNorm::Fro)};
              }});
  for (int64_t n : {0, 1, 3, -2})
    check_case({"matrix_power", square, [n](const std::vector<Value>& x) {
                  return std::vector<Value>{api::matrix_power(x[0], n)};
                }});
  check_case(
      {"multi_dot",
       [](DType d, uint64_t s) {
         return std::vector<Tensor>{random_tensor(d, {2, 5}, s), random_tensor(d, {5, 3}, s + 1),
                                    random_tensor(d, {3}, s + 2)};
       },
       [](const std::vector<Value>& x) { return std::vector<Value>{api::multi_dot<Value>(x)}; }});
  check_case(
      {"vecdot, vander",
       [](DType d, uint64_t s) {
         return std::vector<Tensor>{random_tensor(d, {4, 2}, s), random_tensor(d, {4, 2}, s + 1)};
       },
       [](const std::vector<Value>& x) {
         return std::vector<Value>{api::vecdot(x[0], x[1], 0), api::vander(x[0], 4)};
       }});
  check_case({"tensorinv, tensorsolve",
              [](DType d, uint64_t s) {
                return std::vector<Tensor>{shifted(d, {6, 6}, s, 3.0), random_tensor(d, {2, 3}, s)};
              },
              [](const std::vector<Value>& x) {
                Value a = ad::reshape(x[0], Shape{2, 3, 6});
                return std::vector<Value>{api::tensorinv(a, 2), api::tensorsolve(a, x[1])};
              }});
}

TEST_CASE("linalg AD: full SVD and complete QR where they are differentiable (square)",
          "[linalg][ad]") {
  check_case({"svd full", square, [](const std::vector<Value>& x) {
                std::vector<Value> usv = api::svd(x[0], linalg::SvdMode::Full, 0.0);
                return std::vector<Value>{usv[1], abs2(usv[0]), ir::matmul(usv[0], usv[2])};
              }});
  check_case(
      {"qr complete", square, [](const std::vector<Value>& x) { return api::qr(x[0], true); }});
  check_case({"eigh upper with derivative_eps", square, [](const std::vector<Value>& x) {
                std::vector<Value> wv = api::eigh(hermitian(x[0]), true, 1e-30);
                return std::vector<Value>{wv[0], abs2(wv[1])};
              }});
}
