// The shape helpers, linspace/logspace, the *_like constructors and linalg matrix_rank, logdet
// and cholesky_solve through the C++ header, against index arithmetic done here.
#include "support.hpp"

using cxxtest::check_close;
using cxxtest::values;

TFE_TEST("shape helpers: views, pieces, repetitions and diagonals", "[shape]") {
  tfe::Context ctx;
  const std::vector<double> v{1, 2, 3, 4, 5, 6};
  const tfe::Tensor x = tfe::tensor(ctx, {1.0, 2.0, 3.0, 4.0, 5.0, 6.0}, {2, 1, 3});
  CHECK(tfe::squeeze(x).shape() == tfe::Shape{2, 3});
  CHECK(tfe::expand_dims(x, {0}).shape() == tfe::Shape{1, 2, 1, 3});
  CHECK(tfe::moveaxis(x, {0}, {-1}).shape() == tfe::Shape{1, 3, 2});
  CHECK(tfe::swapaxes(x, 0, 2).shape() == tfe::Shape{3, 1, 2});
  check_close(values(tfe::flatten(x)), v);
  const tfe::Tensor m = tfe::squeeze(x, {1});
  const std::vector<tfe::Tensor> parts = tfe::split(m, 0, {1}, 1);
  REQUIRE(parts.size() == 2);
  check_close(values(parts[1]), {3, 4, 5, 6});
  std::vector<double> want;
  for (int k = 0; k < 2; ++k)
    for (int i = 0; i < 6; ++i) want.push_back(v[static_cast<std::size_t>(i)]);
  check_close(values(tfe::tile(m, {1, 1, 2})), want);
  check_close(values(tfe::repeat(m, {0, 2, 1}, 1)), {3, 4, 3, 4, 5, 6});
  check_close(values(tfe::roll(m, {1}, {1})), {5, 6, 1, 2, 3, 4});
  check_close(values(tfe::diagonal(m, 1)), {3, 6});
  check_close(values(tfe::diag(tfe::tensor(ctx, {1.0, 2.0}), 1)), {0, 0, 0, 1, 0, 0, 0, 2, 0});
  cxxtest::require_status([&] { (void)tfe::squeeze(m, {0}); }, TFE_ERR_INVALID_ARGUMENT,
                          "tfe_squeeze");
}

TFE_TEST("linspace, logspace and the *_like constructors", "[creation]") {
  tfe::Context ctx;
  check_close(values(tfe::linspace(ctx, tfe::DType::F64, 0.0, 1.0, 5)), {0, 0.25, 0.5, 0.75, 1});
  check_close(values(tfe::logspace(ctx, tfe::DType::F64, 0.0, 3.0, 4, true, 2.0)), {1, 2, 4, 8});
  const tfe::Tensor x = tfe::tensor(ctx, {1.0, 2.0, 3.0});
  check_close(values(tfe::zeros_like(x)), {0, 0, 0});
  check_close(values(tfe::ones_like(x)), {1, 1, 1});
  check_close(values(tfe::full_like(x, 2.5)), {2.5, 2.5, 2.5});
}

TFE_TEST("linalg: matrix_rank, logdet, cholesky_solve", "[linalg]") {
  tfe::Context ctx;
  const tfe::Tensor l = tfe::tensor(ctx, {2.0, 1.0, 0.0, 3.0}, {2, 2}); // [[2,0],[1,3]]
  const tfe::Tensor a = tfe::matmul(l, tfe::transpose(l, {1, 0}));
  const tfe::Tensor b = tfe::tensor(ctx, {1.0, -1.0}, {2, 1});
  check_close(values(tfe::cholesky_solve(l, b)), values(tfe::solve(a, b)));
  check_close(values(tfe::logdet(a)), {std::log(36.0)});
  const tfe::Tensor r = tfe::matrix_rank(tfe::tensor(ctx, {1.0, 2.0, 2.0, 4.0}, {2, 2}));
  CHECK(r.to_vector<int64_t>() == std::vector<int64_t>{1});
}
