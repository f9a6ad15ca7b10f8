// svd_truncated and qr_pivoted on plain tensors: the kept rank (max_rank, cutoff, one rank per
// batch with zero padding) and the pivoted factorisation's defining properties. Their
// derivatives are checked by the linalg AD matrix through their samples (op_samples).
#include <catch2/catch.hpp>

#include <cmath>

#include "linalg/truncated.hpp"
#include "support/tensor_testing.hpp"

using namespace tfe;
using namespace tfe::testing;
namespace api = tfe::linalg::api;

namespace {

// diag(values) as an [n, n] F64 matrix: its singular values are the values.
Tensor with_singular_values(const std::vector<double>& values) {
  int64_t n = static_cast<int64_t>(values.size());
  Tensor a = Tensor::zeros(DType::F64, {n, n});
  for (int64_t i = 0; i < n; ++i) set_value(a, {i, i}, values[static_cast<size_t>(i)]);
  return a;
}

} // namespace

TEST_CASE("svd_truncated: max_rank keeps the largest triplets", "[linalg][truncated]") {
  Tensor a = random_tensor(DType::F64, {6, 4}, 3);
  std::vector<Tensor> full = api::svd(a, SvdMode::Reduced, 0.0);
  std::vector<Tensor> t = api::svd_truncated(a, api::SvdTruncation{2});
  REQUIRE(t[0].shape() == Dims{6, 2});
  REQUIRE(t[1].shape() == Dims{2});
  REQUIRE(t[2].shape() == Dims{2, 4});
  for (int64_t j = 0; j < 2; ++j) {
    CHECK(std::abs(value_at(t[1], {j}) - value_at(full[1], {j})) < 1e-13);
    for (int64_t i = 0; i < 6; ++i) // the same vectors as the full SVD (same kernel, same gauge)
      CHECK(std::abs(value_at(t[0], {i, j}) - value_at(full[0], {i, j})) < 1e-13);
  }
  // max_rank beyond K keeps everything.
  CHECK(api::svd_truncated(a, api::SvdTruncation{9})[1].shape() == Dims{4});
}

TEST_CASE("svd_truncated: the cutoff, relative and absolute", "[linalg][truncated]") {
  Tensor a = with_singular_values({8, 4, 2, 1});
  CHECK(api::svd_truncated(a, api::SvdTruncation{-1, 0.3, 0})[1].shape() == Dims{2}); // > 2.4
  CHECK(api::svd_truncated(a, api::SvdTruncation{-1, 0, 1.5})[1].shape() == Dims{3}); // > 1.5
  CHECK(api::svd_truncated(a, api::SvdTruncation{-1, 0.3, 5})[1].shape() == Dims{1}); // > 5
  CHECK(api::svd_truncated(a, api::SvdTruncation{1, 0, 0.5})[1].shape() == Dims{1});
  CHECK(api::svd_truncated(a, api::SvdTruncation{-1, 0, 10})[1].shape() == Dims{0});
}

TEST_CASE("svd_truncated: a batch keeps its largest count, the rest zero padded",
          "[linalg][truncated]") {
  Tensor a = Tensor::zeros(DType::F64, {3, 3, 2});
  std::vector<double> first{5, 3, 1}, second{5, 0.5, 0.25};
  for (int64_t i = 0; i < 3; ++i) {
    set_value(a, {i, i, 0}, first[static_cast<size_t>(i)]);
    set_value(a, {i, i, 1}, second[static_cast<size_t>(i)]);
  }
  std::vector<Tensor> t = api::svd_truncated(a, api::SvdTruncation{-1, 0.5, 0}); // s > 2.5
  REQUIRE(t[1].shape() == Dims{2, 2});
  CHECK(value_at(t[1], {1, 0}).real() == 3.0);
  CHECK(value_at(t[1], {1, 1}).real() == 0.0);
  for (int64_t i = 0; i < 3; ++i) {
    CHECK(value_at(t[0], {i, 1, 1}) == 0.0);
    CHECK(value_at(t[2], {1, i, 1}) == 0.0);
  }
}

TEST_CASE("qr_pivoted: A[:, perm] = Q R with |diag R| non-increasing", "[linalg][truncated]") {
  for (DType d : {DType::F64, DType::C64})
    for (Dims shape : {Dims{5, 3}, Dims{3, 5}, Dims{4, 4, 2}}) {
      CAPTURE(dtype_name(d), describe(Tensor::zeros(d, shape)));
      Tensor a = random_tensor(d, shape, 7);
      std::vector<Tensor> f = api::qr_pivoted(a, false);
      REQUIRE(f[2].dtype() == DType::I64);
      int64_t m = shape[0], n = shape[1], k = std::min(m, n);
      int64_t batch = shape.size() > 2 ? shape[2] : 1;
      for (int64_t b = 0; b < batch; ++b) {
        auto at = [&](const Tensor& t, int64_t i, int64_t j) {
          return shape.size() > 2 ? value_at(t, {i, j, b}) : value_at(t, {i, j});
        };
        auto perm = [&](int64_t j) {
          return shape.size() > 2 ? int_at(f[2], {j, b}) : int_at(f[2], {j});
        };
        for (int64_t j = 0; j < n; ++j)
          for (int64_t i = 0; i < m; ++i) {
            std::complex<double> qr = 0;
            for (int64_t l = 0; l < k; ++l) qr += at(f[0], i, l) * at(f[1], l, j);
            CHECK(std::abs(qr - at(a, i, perm(j))) < 1e-12);
          }
        for (int64_t l = 1; l < k; ++l)
          CHECK(std::abs(at(f[1], l, l)) <= std::abs(at(f[1], l - 1, l - 1)) + 1e-12);
      }
    }
}
