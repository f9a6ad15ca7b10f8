// tfe::svd_truncated and tfe::qr_pivoted with their LinalgOptions (max_rank, cutoff,
// full_matrices), checked through identities computed here.
#include "support.hpp"

using cxxtest::check_close;
using cxxtest::matmul_ref;
using cxxtest::values;

TFE_TEST("svd_truncated: max_rank and cutoff", "[linalg]") {
  tfe::Context ctx;
  const std::vector<double> d = {8, 0, 0, 0, 4, 0, 0, 0, 1}; // diag(8, 4, 1)
  const tfe::Tensor a = tfe::tensor(ctx, d, {3, 3});
  const auto [u, s, vh] = tfe::svd_truncated(a, tfe::LinalgOptions().max_rank(2));
  CHECK(u.shape() == tfe::Shape{3, 2});
  CHECK(vh.shape() == tfe::Shape{2, 3});
  check_close(values(s), {8, 4});
  CHECK(tfe::svd_truncated(a, tfe::LinalgOptions().cutoff(0.6)).s.shape() == tfe::Shape{1});
  CHECK(tfe::svd_truncated(a, tfe::LinalgOptions().cutoff(0, 0.5)).s.shape() == tfe::Shape{3});
  cxxtest::require_status([&] { (void)tfe::svd_truncated(a, tfe::LinalgOptions().cutoff(-1)); },
                          TFE_ERR_INVALID_ARGUMENT, "tfe_linalg_options_set_cutoff");
}

TFE_TEST("qr_pivoted: a[:, perm] = q r", "[linalg]") {
  tfe::Context ctx;
  const std::vector<double> av = {1, 0, 0, 0, 2, 0, 0, 0, 6, 8, 0, 0}; // [4,3], norms 1, 2, 10
  const tfe::Tensor a = tfe::tensor(ctx, av, {4, 3});
  const auto [q, r, perm] = tfe::qr_pivoted(a);
  const std::vector<int64_t> p = perm.to_vector<int64_t>();
  REQUIRE(p == std::vector<int64_t>{2, 1, 0});
  std::vector<double> permuted;
  for (int64_t j : p) permuted.insert(permuted.end(), av.begin() + 4 * j, av.begin() + 4 * j + 4);
  check_close(matmul_ref(values(q), values(r), 4, 3, 3), permuted);
  CHECK(tfe::qr_pivoted(a, tfe::LinalgOptions().full_matrices()).q.shape() == tfe::Shape{4, 4});
}
