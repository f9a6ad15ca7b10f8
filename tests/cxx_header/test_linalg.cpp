// Every linalg function of the header, checked through identities computed here (A X = B,
// Q R = A, U S Vh = A, A V = V W, ...), not against the library's own results.
#include "support.hpp"

#include <algorithm>

using cxxtest::at;
using cxxtest::check_close;
using cxxtest::matmul_ref;
using cxxtest::values;
using C = std::complex<double>;

namespace {

// A symmetric positive definite 3x3 matrix and a general one.
const std::vector<double> kSpd = {4, 1, 0.5, 1, 3, 0.25, 0.5, 0.25, 2};
const std::vector<double> kGen = {2, -1, 0.5, 1, 3, 1, 0, 1, 4};

std::vector<double> identity(int64_t n) {
  std::vector<double> v(static_cast<std::size_t>(n * n), 0.0);
  for (int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i + i * n)] = 1;
  return v;
}

std::vector<double> transpose_ref(const std::vector<double>& a, int64_t m, int64_t n) {
  std::vector<double> t(a.size());
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) t[static_cast<std::size_t>(j + i * n)] = at(a, m, i, j);
  return t;
}

std::vector<double> scale_columns(std::vector<double> a, int64_t m, const std::vector<double>& s) {
  for (std::size_t j = 0; j < s.size(); ++j)
    for (int64_t i = 0; i < m; ++i)
      a[static_cast<std::size_t>(i) + j * static_cast<std::size_t>(m)] *= s[j];
  return a;
}

} // namespace

TFE_TEST("solve, inv, det, slogdet", "[linalg]") {
  tfe::Context ctx;
  const tfe::Tensor a = tfe::tensor(ctx, kGen, {3, 3});
  const std::vector<double> bv = {1, 2, 3, -1, 0, 1};
  const tfe::Tensor x = tfe::solve(a, tfe::tensor(ctx, bv, {3, 2}));
  check_close(matmul_ref(kGen, values(x), 3, 3, 2), bv, 1e-12);
  check_close(matmul_ref(kGen, values(tfe::inv(a)), 3, 3, 3), identity(3), 1e-12);
  // det by cofactor expansion along the first row (row-major reading of column-major data)
  auto m = [&](int i, int j) { return at(kGen, 3, i, j); };
  const double d = m(0, 0) * (m(1, 1) * m(2, 2) - m(1, 2) * m(2, 1)) -
                   m(0, 1) * (m(1, 0) * m(2, 2) - m(1, 2) * m(2, 0)) +
                   m(0, 2) * (m(1, 0) * m(2, 1) - m(1, 1) * m(2, 0));
  check_close(values(tfe::det(a)), {d});
  const auto [sign, logabs] = tfe::slogdet(a);
  check_close({sign.item<double>() * std::exp(logabs.item<double>())}, {d});
}

TFE_TEST("cholesky and triangular solves", "[linalg]") {
  tfe::Context ctx;
  const tfe::Tensor a = tfe::tensor(ctx, kSpd, {3, 3});
  const auto l = values(tfe::cholesky(a));
  CHECK(at(l, 3, 0, 2) == 0.0);
  check_close(matmul_ref(l, transpose_ref(l, 3, 3), 3, 3, 3), kSpd);
  const auto u = values(tfe::cholesky(a, tfe::LinalgOptions().upper()));
  CHECK(at(u, 3, 2, 0) == 0.0);
  check_close(matmul_ref(transpose_ref(u, 3, 3), u, 3, 3, 3), kSpd);

  const tfe::Tensor lt = tfe::tensor(ctx, l, {3, 3});
  const std::vector<double> bv = {1, -2, 0.5};
  const tfe::Tensor b = tfe::tensor(ctx, bv, {3, 1});
  check_close(matmul_ref(l, values(tfe::solve_triangular(lt, b)), 3, 3, 1), bv);
  // L^T x = b through the transpose option
  check_close(matmul_ref(transpose_ref(l, 3, 3),
                         values(tfe::solve_triangular(
                             lt, b, tfe::LinalgOptions().transpose(tfe::Transpose::Trans))),
                         3, 3, 1),
              bv);
  // x U = b^T from the right, reading the upper triangle
  const tfe::Tensor ut = tfe::tensor(ctx, u, {3, 3});
  const tfe::Tensor bt = tfe::tensor(ctx, bv, {1, 3});
  check_close(
      matmul_ref(values(tfe::solve_triangular(ut, bt, tfe::LinalgOptions().upper().left(false))), u,
                 1, 3, 3),
      bv);
  // the unit diagonal is assumed, not read
  std::vector<double> unit = l;
  for (int i = 0; i < 3; ++i) unit[static_cast<std::size_t>(i * 4)] = 1;
  check_close(matmul_ref(unit,
                         values(tfe::solve_triangular(lt, b, tfe::LinalgOptions().unit_diagonal())),
                         3, 3, 1),
              bv);
}

TFE_TEST("qr and svd", "[linalg]") {
  tfe::Context ctx;
  const std::vector<double> av = {1, 2, 3, 4, -1, 0.5, 2, 1}; // [4,2]
  const tfe::Tensor a = tfe::tensor(ctx, av, {4, 2});
  {
    const auto [q, r] = tfe::qr(a);
    CHECK(q.shape() == tfe::Shape{4, 2});
    const auto qv = values(q), rv = values(r);
    CHECK(at(rv, 2, 1, 0) == 0.0);
    check_close(matmul_ref(qv, rv, 4, 2, 2), av);
    check_close(matmul_ref(transpose_ref(qv, 4, 2), qv, 2, 4, 2), identity(2));
  }
  {
    const auto [q, r] = tfe::qr(a, tfe::LinalgOptions().full_matrices().positive_diagonal());
    CHECK(q.shape() == tfe::Shape{4, 4});
    CHECK(r.shape() == tfe::Shape{4, 2});
    const auto rv = values(r);
    CHECK(at(rv, 4, 0, 0) >= 0);
    CHECK(at(rv, 4, 1, 1) >= 0);
    check_close(matmul_ref(values(q), rv, 4, 4, 2), av);
  }
  {
    const auto [u, s, vh] = tfe::svd(a);
    const auto sv = values(s);
    REQUIRE(sv.size() == 2);
    CHECK(sv[0] >= sv[1]);
    check_close(matmul_ref(scale_columns(values(u), 4, sv), values(vh), 4, 2, 2), av);
    check_close(values(tfe::svdvals(a)), sv);
    const auto full = tfe::svd(a, tfe::LinalgOptions().full_matrices());
    CHECK(full.u.shape() == tfe::Shape{4, 4});
    CHECK(full.vh.shape() == tfe::Shape{2, 2});
    check_close(values(full.s), sv);
  }
}

TFE_TEST("eigendecompositions", "[linalg]") {
  tfe::Context ctx;
  const tfe::Tensor a = tfe::tensor(ctx, kSpd, {3, 3});
  const auto [w, v] = tfe::eigh(a);
  const auto wv = values(w), vv = values(v);
  CHECK(std::is_sorted(wv.begin(), wv.end()));
  check_close(matmul_ref(kSpd, vv, 3, 3, 3), scale_columns(vv, 3, wv), 1e-12);
  check_close(values(tfe::eigvalsh(a)), wv);
  // Only the named triangle is read: garbage in the other one changes nothing.
  std::vector<double> upper_only = kSpd;
  upper_only[1] = upper_only[2] = upper_only[5] = 99;
  const tfe::Tensor au = tfe::tensor(ctx, upper_only, {3, 3});
  check_close(values(tfe::eigh(au, tfe::LinalgOptions().upper().derivative_eps(0)).w), wv);
  check_close(values(tfe::eigvalsh(au, tfe::LinalgOptions().upper())), wv);

  // A rotation by 90 degrees: eigenvalues +-i.
  const tfe::Tensor rot = tfe::tensor(ctx, {0.0, 1.0, -1.0, 0.0}, {2, 2});
  auto ev = tfe::eigvals(rot).to_vector<C>();
  std::sort(ev.begin(), ev.end(), [](C x, C y) { return x.imag() < y.imag(); });
  CHECK(std::abs(ev[0] - C(0, -1)) < 1e-12);
  CHECK(std::abs(ev[1] - C(0, 1)) < 1e-12);
  for (const tfe::EigResult& e :
       {tfe::eig(rot), tfe::eig(rot, tfe::LinalgOptions().derivative_eps(1e-12))}) {
    const auto we = e.w.to_vector<C>(), ve = e.v.to_vector<C>();
    for (std::size_t k = 0; k < 2; ++k) {
      const C v0 = ve[2 * k], v1 = ve[2 * k + 1];
      // R v = (-v1, v0) must equal w v.
      CHECK(std::abs(-v1 - we[k] * v0) < 1e-12);
      CHECK(std::abs(v0 - we[k] * v1) < 1e-12);
    }
  }
}

TFE_TEST("LU", "[linalg]") {
  tfe::Context ctx;
  const tfe::Tensor a = tfe::tensor(ctx, kGen, {3, 3});
  const std::vector<double> bv = {1, 0, -1};
  const tfe::Tensor b = tfe::tensor(ctx, bv, {3, 1});
  const auto [lu, pivots, info] = tfe::lu_factor(a);
  CHECK(pivots.dtype() == tfe::DType::I32);
  CHECK(info.to_vector<int32_t>() == std::vector<int32_t>{0});
  check_close(matmul_ref(kGen, values(tfe::lu_solve(lu, pivots, b)), 3, 3, 1), bv);
  check_close(matmul_ref(transpose_ref(kGen, 3, 3),
                         values(tfe::lu_solve(
                             lu, pivots, b, tfe::LinalgOptions().transpose(tfe::Transpose::Trans))),
                         3, 3, 1),
              bv);
  const auto [p, l, u] = tfe::lu(a);
  check_close(matmul_ref(values(p), matmul_ref(values(l), values(u), 3, 3, 3), 3, 3, 3), kGen);
}

TFE_TEST("composites: matrix_exp, pinv, lstsq, norms, powers, products", "[linalg]") {
  tfe::Context ctx;
  // exp of a nilpotent matrix is I + N.
  check_close(values(tfe::matrix_exp(tfe::tensor(ctx, {0.0, 0.0, 2.0, 0.0}, {2, 2}))),
              {1, 0, 2, 1});
  check_close(values(tfe::matrix_exp(tfe::tensor(ctx, {1.0, 0.0, 0.0, -1.0}, {2, 2}))),
              {std::exp(1.0), 0, 0, std::exp(-1.0)});

  // A rank-1 matrix: A pinv(A) A = A.
  const std::vector<double> r1 = {1, 2, 3, 2, 4, 6}; // [3,2]
  const tfe::Tensor a = tfe::tensor(ctx, r1, {3, 2});
  const auto pa = values(tfe::pinv(a));
  check_close(matmul_ref(matmul_ref(r1, pa, 3, 2, 3), r1, 3, 3, 2), r1, 1e-12);
  const tfe::Tensor spd = tfe::tensor(ctx, kSpd, {3, 3});
  check_close(matmul_ref(kSpd, values(tfe::pinv(spd, tfe::LinalgOptions().hermitian().rtol(1e-10))),
                         3, 3, 3),
              identity(3), 1e-12);

  // Least squares: the residual is orthogonal to the columns.
  const std::vector<double> m = {1, 1, 1, 1, 0, 1, 2, 3}; // [4,2]: fit of a line
  const std::vector<double> y = {1, 2, 2, 4};
  const auto coef = values(tfe::lstsq(tfe::tensor(ctx, m, {4, 2}), tfe::tensor(ctx, y, {4, 1})));
  auto fit = matmul_ref(m, coef, 4, 2, 1);
  for (std::size_t i = 0; i < 4; ++i) fit[i] -= y[i];
  check_close(matmul_ref(transpose_ref(m, 4, 2), fit, 2, 4, 1), {0, 0}, 1e-12);
  check_close(values(tfe::lstsq(tfe::tensor(ctx, m, {4, 2}), tfe::tensor(ctx, y, {4, 1}),
                                tfe::LinalgOptions().rtol(1e-12))),
              coef);

  const tfe::Tensor b = tfe::tensor(ctx, {1.0, -3.0, 2.0, 4.0}, {2, 2}); // [[1,2],[-3,4]]
  check_close(values(tfe::matrix_norm(b)), {std::sqrt(30.0)});
  check_close(values(tfe::matrix_norm(b, tfe::Norm::One)), {6});
  check_close(values(tfe::matrix_norm(b, tfe::Norm::NegOne)), {4});
  check_close(values(tfe::matrix_norm(b, tfe::Norm::Inf)), {7});
  check_close(values(tfe::matrix_norm(b, tfe::Norm::NegInf)), {3});
  const auto s = values(tfe::svdvals(b));
  check_close(values(tfe::matrix_norm(b, tfe::Norm::Two)), {s[0]});
  check_close(values(tfe::matrix_norm(b, tfe::Norm::NegTwo)), {s[1]});
  check_close(values(tfe::matrix_norm(b, tfe::Norm::Nuc)), {s[0] + s[1]});
  check_close(values(tfe::cond(b)), {s[0] / s[1]});
  check_close(values(tfe::cond(b, tfe::Norm::One)), {6 * (7.0 / 10)}); // |inv| = [[4,-2],[3,1]]/10

  const tfe::Tensor v = tfe::tensor(ctx, {3.0, -4.0, 0.0});
  check_close(values(tfe::vector_norm(v)), {5});
  check_close(values(tfe::vector_norm(v, 1)), {7});
  check_close(values(tfe::vector_norm(v, INFINITY)), {4});
  check_close(values(tfe::vector_norm(v, 0)), {2});
  check_close(values(tfe::vector_norm(b, 2, {0})), {std::sqrt(10.0), std::sqrt(20.0)});

  const std::vector<double> bv = values(b);
  check_close(values(tfe::matrix_power(b, 3)),
              matmul_ref(matmul_ref(bv, bv, 2, 2, 2), bv, 2, 2, 2));
  check_close(values(tfe::matrix_power(b, 0)), identity(2));
  check_close(values(tfe::matrix_power(b, -1)), {0.4, 0.3, -0.2, 0.1});
  const tfe::Tensor c = tfe::tensor(ctx, {1.0, 2.0, 3.0}, {1, 3});
  const tfe::Tensor d = tfe::tensor(ctx, {1.0, 0.0, -1.0, 1.0, 2.0, 0.0}, {3, 2});
  check_close(values(tfe::multi_dot({c, d, b})),
              matmul_ref(matmul_ref({1, 2, 3}, values(d), 1, 3, 2), bv, 1, 2, 2));

  const tfe::Tensor z = tfe::tensor(ctx, {C(1, 1), C(2, -1)});
  const tfe::Tensor w = tfe::tensor(ctx, {C(0, 1), C(1, 0)});
  // conj(1+i) i + conj(2-i) 1 = (1-i) i + (2+i) = 3 + 2i
  CHECK(std::abs(tfe::vecdot(z, w).item<C>() - C(3, 2)) < 1e-15);
  check_close(values(tfe::vecdot(b, b, 0)), {10, 20});

  check_close(values(tfe::vander(tfe::tensor(ctx, {1.0, 2.0, 3.0}), 3)),
              {1, 1, 1, 1, 2, 3, 1, 4, 9});

  // tensorinv and tensorsolve of a [2,2] map are the matrix inverse and solve.
  check_close(values(tfe::tensorinv(b, 1)), {0.4, 0.3, -0.2, 0.1});
  check_close(values(tfe::tensorsolve(b, tfe::tensor(ctx, {5.0, 5.0}))),
              values(tfe::solve(b, tfe::tensor(ctx, {5.0, 5.0}, {2, 1}))));
}

TFE_TEST("polar: the generated front, U P = A with orthonormal U", "[linalg]") {
  tfe::Context ctx;
  const std::vector<double> tall = {2, -1, 0.5, 1, 1, 3, 1, 0, 0, 1, 4, 2}; // [4, 3]
  const auto [u, p] = tfe::polar(tfe::tensor(ctx, tall, {4, 3}));
  check_close(matmul_ref(values(u), values(p), 4, 3, 3), tall, 1e-12);
  check_close(matmul_ref(transpose_ref(values(u), 4, 3), values(u), 3, 4, 3), identity(3), 1e-12);
  check_close(values(p), transpose_ref(values(p), 3, 3), 1e-12);
}
