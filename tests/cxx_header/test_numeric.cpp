// The numeric functions (tenferro/ops_numeric.h) and the gamma family through the C++ header:
// values at extreme arguments against closed forms computed here, Bool results, and an error.
#include "support.hpp"

#include <limits>

using cxxtest::check_close;
using cxxtest::values;

namespace {
std::vector<double> bools(const tfe::Tensor& t) { return values(tfe::cast(t, tfe::DType::F64)); }
} // namespace

TFE_TEST("numeric: careful elementwise functions and predicates", "[numeric]") {
  tfe::Context ctx;
  const double inf = std::numeric_limits<double>::infinity();
  const tfe::Tensor a = tfe::tensor(ctx, {1000.0, 0.0, 3.0});
  const tfe::Tensor b = tfe::tensor(ctx, {1000.0, -40.0, -4.0});
  check_close(values(tfe::logaddexp(a, b)),
              {1000 + std::log(2.0), std::log1p(std::exp(-40.0)), 3 + std::log1p(std::exp(-7.0))});
  check_close(values(tfe::hypot(a, b)), {1000 * std::sqrt(2.0), 40, 5});
  check_close(values(tfe::sigmoid(tfe::tensor(ctx, {-700.0, 0.0}))),
              {std::exp(-700.0) / (1 + std::exp(-700.0)), 0.5});
  check_close(values(tfe::square(b)), {1e6, 1600, 16});
  check_close(values(tfe::copysign(a, b)), {1000, -0.0, -3});
  check_close(values(tfe::angle(b, true)), {0, 180, 180});
  const tfe::Tensor s = tfe::tensor(ctx, {1.0, std::nan(""), inf});
  check_close(bools(tfe::isnan(s)), {0, 1, 0});
  check_close(bools(tfe::isinf(s)), {0, 0, 1});
  check_close(bools(tfe::isfinite(s)), {1, 0, 0});
  check_close(values(tfe::nan_to_num(s, 5.0, 7.0)), {1, 5, 7});
  check_close(bools(tfe::isclose(s, s, 1e-5, 1e-8, true)), {1, 1, 1});
  CHECK(tfe::allclose(a, a).shape().empty());
  check_close(bools(tfe::allclose(a, b)), {0});
  cxxtest::require_status([&] { (void)tfe::logaddexp(tfe::cast(a, tfe::DType::C64), b); },
                          TFE_ERR_DTYPE_MISMATCH, "tfe_logaddexp");
}

TFE_TEST("numeric: reductions and the gamma family", "[numeric]") {
  tfe::Context ctx;
  // Column-major [2, 3]: rows (1, 2, 3) and (4, 8, 9).
  const tfe::Tensor x = tfe::tensor(ctx, {1.0, 4.0, 2.0, 8.0, 3.0, 9.0}, {2, 3});
  const tfe::Tensor v = tfe::var(x, {1}, 1.0, true);
  CHECK(v.shape() == tfe::Shape{2, 1});
  check_close(values(v), {1, 7});
  check_close(values(tfe::stddev(x, {1}, 1.0)), {1, std::sqrt(7.0)});
  check_close(values(tfe::logsumexp(tfe::tensor(ctx, {1000.0, 1000.0}))), {1000 + std::log(2.0)});
  check_close(bools(tfe::any(x, {0})), {1, 1, 1});
  check_close(bools(tfe::all(tfe::tensor(ctx, {1.0, 0.0}))), {0});
  const double pi = std::acos(-1.0), euler = 0.57721566490153286061;
  const tfe::Tensor p = tfe::tensor(ctx, {1.0, 0.5});
  check_close(values(tfe::lgamma(p)), {0, 0.5 * std::log(pi)});
  check_close(values(tfe::digamma(p)), {-euler, -euler - 2 * std::log(2.0)});
  check_close(values(tfe::polygamma(tfe::tensor(ctx, {1.0, 1.0}), p)), {pi * pi / 6, pi * pi / 2});
}
