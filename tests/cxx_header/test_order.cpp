// Sorting, top-k, arg-reductions and running sums/products (tenferro/ops_order.h) through the
// C++ header: values against loops written here, cumprod's gradient at a zero, and an error.
#include "support.hpp"

using cxxtest::check_close;
using cxxtest::values;

namespace {
std::vector<double> as_doubles(const tfe::Tensor& t) {
  return values(tfe::cast(t, tfe::DType::F64));
}
} // namespace

TFE_TEST("order: sort, argsort, topk, argmax, argmin", "[order]") {
  tfe::Context ctx;
  const tfe::Tensor x = tfe::tensor(ctx, {2.0, -1.0, 2.0, 5.0, 0.5});
  check_close(as_doubles(tfe::argsort(x, 0)), {1, 4, 0, 2, 3});
  check_close(as_doubles(tfe::argsort(x, -1, true)), {3, 0, 2, 4, 1}); // ties keep their order
  check_close(values(tfe::sort(x, 0)), {-1, 0.5, 2, 2, 5});
  const tfe::TopkResult r = tfe::topk(x, 2, 0);
  check_close(values(r.values), {5, 2});
  check_close(as_doubles(r.indices), {3, 0});
  check_close(as_doubles(tfe::argmax(x, 0)), {3});
  check_close(as_doubles(tfe::argmin(x, 0)), {1});
}

TFE_TEST("order: cumsum and cumprod, with the gradient at a zero", "[order]") {
  tfe::Context ctx;
  const std::vector<double> v = {1.5, 0.0, -2.0, 3.0};
  check_close(values(tfe::cumsum(tfe::tensor(ctx, v), 0)), {1.5, 1.5, -0.5, 2.5});
  tfe::Tensor x = tfe::tensor(ctx, v);
  x.set_requires_grad();
  tfe::sum(tfe::cumprod(x, 0)).backward();
  // d/dx_j sum_i prod_{k<=i} x_k = sum_{i>=j} prod_{k<=i, k!=j} x_k
  std::vector<double> want(v.size(), 0.0);
  for (std::size_t j = 0; j < v.size(); ++j)
    for (std::size_t i = j; i < v.size(); ++i) {
      double p = 1;
      for (std::size_t k = 0; k <= i; ++k)
        if (k != j) p *= v[k];
      want[j] += p;
    }
  check_close(values(x.grad()), want);
}

TFE_TEST("order: k out of range names tfe_topk", "[order]") {
  tfe::Context ctx;
  const tfe::Tensor x = tfe::tensor(ctx, {1.0, 2.0});
  cxxtest::require_status([&] { (void)tfe::topk(x, 3, 0); }, TFE_ERR_INVALID_ARGUMENT, "tfe_topk");
}
