// Every elementwise and structural op through the header, against values computed here.
#include "support.hpp"

#include <algorithm>

using cxxtest::check_close;
using cxxtest::values;

namespace {

const std::vector<double> kX = {0.3, 0.7, 1.1, 1.9};

std::vector<double> map(const std::vector<double>& x, double (*f)(double)) {
  std::vector<double> y(x.size());
  std::transform(x.begin(), x.end(), y.begin(), f);
  return y;
}

} // namespace

TFE_TEST("arithmetic operators broadcast left-aligned and keep the tensor's dtype", "[ops]") {
  tfe::Context ctx;
  const tfe::Tensor a = tfe::tensor(ctx, {1.0, 2.0, 3.0, 4.0, 5.0, 6.0}, {2, 3});
  const tfe::Tensor col = tfe::tensor(ctx, {10.0, 20.0});
  check_close(values(a + col), {11, 22, 13, 24, 15, 26});
  check_close(values(a - col), {-9, -18, -7, -16, -5, -14});
  check_close(values(a * col), {10, 40, 30, 80, 50, 120});
  check_close(values(a / col), {0.1, 0.1, 0.3, 0.2, 0.5, 0.3});
  check_close(values(-a), {-1, -2, -3, -4, -5, -6});
  check_close(values(tfe::add(a, a)), {2, 4, 6, 8, 10, 12});
  check_close(values(tfe::sub(a, a)), {0, 0, 0, 0, 0, 0});
  check_close(values(tfe::mul(a, a)), {1, 4, 9, 16, 25, 36});
  check_close(values(tfe::div(a, a)), {1, 1, 1, 1, 1, 1});
  check_close(values(2.0 * a + 1.0), {3, 5, 7, 9, 11, 13});
  check_close(values(1.0 - a / 2.0), {0.5, 0, -0.5, -1, -1.5, -2});
  check_close(values(12.0 / a - a * 1.0), {11, 4, 1, -1, -2.6, -4});

  const tfe::Tensor f = tfe::tensor(ctx, {1.5f, 2.5f});
  CHECK((f * 2.0).dtype() == tfe::DType::F32);
  CHECK((f * 2.0).to_vector<float>() == std::vector<float>{3.0f, 5.0f});
  const tfe::Tensor i = tfe::tensor(ctx, {int32_t{3}, int32_t{-4}});
  // Host scalars are weak (NumPy 2): an int keeps I32, a float next to integers is F64.
  CHECK((i + 1).dtype() == tfe::DType::I32);
  CHECK((i + 1).to_vector<int32_t>() == std::vector<int32_t>{4, -3});
  CHECK((1 - i).to_vector<int32_t>() == std::vector<int32_t>{-2, 5});
  CHECK((i + 1.0).dtype() == tfe::DType::F64);
  CHECK((i + 0.5).dtype() == tfe::DType::F64); // not truncated to 0
  check_close(values(i + 0.5), {3.5, -3.5});
  CHECK((i * true).dtype() == tfe::DType::I32);
  CHECK((f * std::complex<double>(0, 1)).dtype() == tfe::DType::C32);
  const tfe::Tensor l = tfe::tensor(ctx, {int64_t{5}});
  CHECK((l * 3).to_vector<int64_t>() == std::vector<int64_t>{15});
  bool refused = false;
  try {
    (void)(i + (int64_t{1} << 40));
  } catch (const tfe::Error&) {
    refused = true; // 2^40 does not fit I32: refused, not wrapped
  }
  CHECK(refused);
  CHECK(tfe::scalar_like(f, 3).dtype() == tfe::DType::F32);
  const tfe::Tensor z = tfe::tensor(ctx, {std::complex<float>(1, 2)});
  CHECK((z * 2.0).to_vector<std::complex<float>>()[0] == std::complex<float>(2, 4));
  const tfe::Tensor zz = tfe::tensor(ctx, {std::complex<double>(1, 2)});
  CHECK((zz - 1.0).to_vector<std::complex<double>>()[0] == std::complex<double>(0, 2));
}

TFE_TEST("integer, bitwise and logical ops", "[ops]") {
  tfe::Context ctx;
  const tfe::Tensor a = tfe::tensor(ctx, {int32_t{7}, int32_t{-7}, int32_t{12}});
  const tfe::Tensor b = tfe::tensor(ctx, {int32_t{2}, int32_t{2}, int32_t{10}});
  CHECK(tfe::div_trunc(a, b).to_vector<int32_t>() == std::vector<int32_t>{3, -3, 1});
  CHECK(tfe::rem(a, b).to_vector<int32_t>() == std::vector<int32_t>{1, -1, 2});
  CHECK(tfe::pow(b, b).to_vector<int32_t>() ==
        std::vector<int32_t>{4, 4, 1410065408}); // 10^10 wraps
  CHECK(tfe::maximum(a, b).to_vector<int32_t>() == std::vector<int32_t>{7, 2, 12});
  CHECK(tfe::minimum(a, b).to_vector<int32_t>() == std::vector<int32_t>{2, -7, 10});
  CHECK((a & b).to_vector<int32_t>() == std::vector<int32_t>{7 & 2, -7 & 2, 12 & 10});
  CHECK((a | b).to_vector<int32_t>() == std::vector<int32_t>{7 | 2, -7 | 2, 12 | 10});
  CHECK((a ^ b).to_vector<int32_t>() == std::vector<int32_t>{7 ^ 2, -7 ^ 2, 12 ^ 10});
  CHECK((~a).to_vector<int32_t>() == std::vector<int32_t>{~7, ~-7, ~12});
  const tfe::Tensor p = tfe::tensor(ctx, {true, true, false});
  const tfe::Tensor q = tfe::tensor(ctx, {true, false, false});
  CHECK(tfe::and_(p, q).to_vector<bool>() == std::vector<bool>{true, false, false});
  CHECK(tfe::or_(p, q).to_vector<bool>() == std::vector<bool>{true, true, false});
  CHECK(tfe::xor_(p, q).to_vector<bool>() == std::vector<bool>{false, true, false});
  CHECK(tfe::not_(p).to_vector<bool>() == std::vector<bool>{false, false, true});
}

TFE_TEST("comparison and selection", "[ops]") {
  tfe::Context ctx;
  const tfe::Tensor a = tfe::tensor(ctx, {1.0, 2.0, 3.0});
  const tfe::Tensor b = tfe::tensor(ctx, {2.0, 2.0, 2.0});
  using B = std::vector<bool>;
  CHECK(tfe::compare(a, b, tfe::Cmp::Eq).to_vector<bool>() == B{false, true, false});
  CHECK(tfe::compare(a, b, tfe::Cmp::Ne).to_vector<bool>() == B{true, false, true});
  CHECK(tfe::compare(a, b, tfe::Cmp::Lt).to_vector<bool>() == B{true, false, false});
  CHECK(tfe::compare(a, b, tfe::Cmp::Le).to_vector<bool>() == B{true, true, false});
  CHECK(tfe::compare(a, b, tfe::Cmp::Gt).to_vector<bool>() == B{false, false, true});
  CHECK(tfe::compare(a, b, tfe::Cmp::Ge).to_vector<bool>() == B{false, true, true});
  const tfe::Tensor pred = tfe::compare(a, b, tfe::Cmp::Lt);
  check_close(values(tfe::select(pred, a, b)), {1, 2, 2});
  check_close(values(tfe::clamp(a, tfe::scalar(ctx, 1.5), tfe::scalar(ctx, 2.5))), {1.5, 2, 2.5});
}

TFE_TEST("analytic functions", "[ops]") {
  tfe::Context ctx;
  const tfe::Tensor x = tfe::tensor(ctx, kX);
  check_close(values(tfe::exp(x)), map(kX, [](double v) { return std::exp(v); }));
  check_close(values(tfe::log(x)), map(kX, [](double v) { return std::log(v); }));
  check_close(values(tfe::sin(x)), map(kX, [](double v) { return std::sin(v); }));
  check_close(values(tfe::cos(x)), map(kX, [](double v) { return std::cos(v); }));
  check_close(values(tfe::tan(x)), map(kX, [](double v) { return std::tan(v); }));
  check_close(values(tfe::tanh(x)), map(kX, [](double v) { return std::tanh(v); }));
  check_close(values(tfe::sqrt(x)), map(kX, [](double v) { return std::sqrt(v); }));
  check_close(values(tfe::rsqrt(x)), map(kX, [](double v) { return 1 / std::sqrt(v); }));
  check_close(values(tfe::expm1(x)), map(kX, [](double v) { return std::expm1(v); }));
  check_close(values(tfe::log1p(x)), map(kX, [](double v) { return std::log1p(v); }));
  check_close(values(tfe::pow(x, tfe::scalar(ctx, 1.5))),
              map(kX, [](double v) { return std::pow(v, 1.5); }));
  check_close(values(tfe::sinh(x)), map(kX, [](double v) { return std::sinh(v); }));
  check_close(values(tfe::cosh(x)), map(kX, [](double v) { return std::cosh(v); }));
  check_close(values(tfe::erf(x)), map(kX, [](double v) { return std::erf(v); }));
  const tfe::Tensor q = tfe::tensor(ctx, {1.0, -1.0, -1.0, 0.0});
  check_close(
      values(tfe::atan2(q, tfe::tensor(ctx, {1.0, 1.0, -1.0, -2.0}))),
      {std::atan2(1.0, 1.0), std::atan2(-1.0, 1.0), std::atan2(-1.0, -1.0), std::atan2(0.0, -2.0)});
  const tfe::Tensor y = tfe::tensor(ctx, {-1.5, -0.5, 0.5, 2.5});
  check_close(values(tfe::floor(y)), {-2, -1, 0, 2});
  check_close(values(tfe::ceil(y)), {-1, -0, 1, 3});
  check_close(values(tfe::round(y)), {-2, -0, 0, 2}); // half to even
  check_close(values(tfe::abs(y)), {1.5, 0.5, 0.5, 2.5});
  check_close(values(tfe::sign(y)), {-1, -1, 1, 1});
  check_close(values(tfe::conj(y)), {-1.5, -0.5, 0.5, 2.5});
}

TFE_TEST("complex parts", "[ops]") {
  tfe::Context ctx;
  const tfe::Tensor re = tfe::tensor(ctx, {3.0, 0.0});
  const tfe::Tensor im = tfe::tensor(ctx, {4.0, -2.0});
  const tfe::Tensor z = tfe::complex(re, im);
  CHECK(z.dtype() == tfe::DType::C64);
  using C = std::complex<double>;
  CHECK(z.to_vector<C>() == std::vector<C>{{3, 4}, {0, -2}});
  CHECK(tfe::conj(z).to_vector<C>() == std::vector<C>{{3, -4}, {0, 2}});
  check_close(values(tfe::real(z)), {3, 0});
  check_close(values(tfe::imag(z)), {4, -2});
  check_close(values(tfe::abs(z)), {5, 2});
  const auto s = tfe::sign(z).to_vector<C>();
  CHECK(std::abs(s[0] - C(0.6, 0.8)) < 1e-15);
}

TFE_TEST("contraction and reductions", "[ops]") {
  tfe::Context ctx;
  const std::vector<double> av = {1, 2, 3, 4, 5, 6};    // [2,3]
  const std::vector<double> bv = {1, 0, -1, 2, 0.5, 3}; // [3,2]
  const tfe::Tensor a = tfe::tensor(ctx, av, {2, 3});
  const tfe::Tensor b = tfe::tensor(ctx, bv, {3, 2});
  check_close(values(tfe::matmul(a, b)), cxxtest::matmul_ref(av, bv, 2, 3, 2));
  // dot_general contracting a's dim 1 with b's dim 0 is the same product.
  check_close(values(tfe::dot_general(a, b, {1}, {0})), cxxtest::matmul_ref(av, bv, 2, 3, 2));
  // Batched: [2,1,2] x [1,2,2] contracting nothing but batching dim 2: outer products per batch.
  const tfe::Tensor u = tfe::tensor(ctx, {1.0, 2.0, 3.0, 4.0}, {2, 1, 2});
  const tfe::Tensor v = tfe::tensor(ctx, {5.0, 6.0, 7.0, 8.0}, {1, 2, 2});
  const tfe::Tensor uv = tfe::dot_general(u, v, {1}, {0}, {2}, {2});
  CHECK(uv.shape() == tfe::Shape{2, 2, 2});
  check_close(values(uv), {5, 10, 6, 12, 21, 28, 24, 32});

  check_close(values(tfe::sum(a)), {21});
  check_close(values(tfe::sum(a, {0})), {3, 7, 11});
  check_close(values(tfe::sum(a, {-1})), {9, 12});
  check_close(values(tfe::prod(a, {1})), {15, 48});
  check_close(values(tfe::mean(a, {0})), {1.5, 3.5, 5.5});
  check_close(values(tfe::reduce_sum(a, {1})), {9, 12});
  check_close(values(tfe::reduce_prod(a)), {720});
  check_close(values(tfe::reduce_max(a, {1})), {5, 6});
  check_close(values(tfe::reduce_min(a, {0})), {1, 3, 5});
  const tfe::Tensor i = tfe::tensor(ctx, {int32_t{1}, int32_t{2}});
  CHECK(tfe::sum(i).dtype() == tfe::DType::I64);        // widened, as NumPy
  CHECK(tfe::reduce_sum(i).dtype() == tfe::DType::I32); // kept
}

TFE_TEST("conversion and structure", "[ops]") {
  tfe::Context ctx;
  const tfe::Tensor a = tfe::tensor(ctx, {1.0, 2.0, 3.0, 4.0, 5.0, 6.0}, {2, 3});
  CHECK(tfe::convert(tfe::tensor(ctx, {int32_t{3}}), tfe::DType::F64).to_vector<double>() ==
        std::vector<double>{3});
  CHECK(tfe::cast(tfe::tensor(ctx, {2.7, -2.7}), tfe::DType::I32).to_vector<int32_t>() ==
        std::vector<int32_t>{2, -2});
  check_close(values(tfe::transpose(a, {1, 0})), {1, 3, 5, 2, 4, 6});
  const tfe::Tensor r = tfe::reshape(a, {3, 2});
  CHECK(r.shape() == tfe::Shape{3, 2});
  check_close(values(r), {1, 2, 3, 4, 5, 6});
  const tfe::Tensor col = tfe::tensor(ctx, {7.0, 8.0});
  check_close(values(tfe::broadcast_to(col, {2, 2})), {7, 8, 7, 8});
  check_close(values(tfe::broadcast_in_dim(col, {3, 2}, {1})), {7, 7, 7, 8, 8, 8});
  check_close(values(tfe::reverse(a, {1})), {5, 6, 3, 4, 1, 2});
  const tfe::Tensor sq = tfe::tensor(ctx, {1.0, 2.0, 3.0, 4.0}, {2, 2});
  check_close(values(tfe::extract_diag(sq)), {1, 4});
  check_close(values(tfe::embed_diag(col)), {7, 0, 0, 8});
  check_close(values(tfe::tril(sq)), {1, 2, 0, 4});
  check_close(values(tfe::triu(sq)), {1, 0, 3, 4});
  check_close(values(tfe::triu(sq, 1)), {0, 0, 3, 0});
}

TFE_TEST("slicing, indexing, padding and joining", "[ops]") {
  tfe::Context ctx;
  const tfe::Tensor a = tfe::tensor(ctx, {1.0, 2.0, 3.0, 4.0, 5.0, 6.0}, {2, 3});
  check_close(values(tfe::slice(a, {0, 1}, {2, 3})), {3, 4, 5, 6});
  check_close(values(tfe::slice(a, {1, 0}, {2, 3}, {1, 2})), {2, 6});
  const tfe::Tensor starts = tfe::tensor(ctx, {int64_t{1}, int64_t{1}});
  check_close(values(tfe::dynamic_slice(a, starts, {1, 2})), {4, 6});
  const tfe::Tensor upd = tfe::tensor(ctx, {-1.0, -2.0}, {1, 2});
  check_close(values(tfe::dynamic_update_slice(a, upd, starts)), {1, 2, 3, -1, 5, -2});
  const tfe::Tensor idx = tfe::tensor(ctx, {int64_t{2}, int64_t{0}});
  check_close(values(tfe::gather(a, idx, 1)), {5, 6, 1, 2});
  const tfe::Tensor v = tfe::tensor(ctx, {1.0, 1.0, 1.0});
  const tfe::Tensor dup = tfe::tensor(ctx, {int64_t{0}, int64_t{0}});
  check_close(values(tfe::scatter(v, dup, tfe::tensor(ctx, {2.0, 3.0}), 0)), {6, 1, 1});
  check_close(values(tfe::pad(tfe::tensor(ctx, {1.0, 2.0}), {1}, {2})), {0, 1, 2, 0, 0});
  check_close(values(tfe::pad(tfe::tensor(ctx, {1.0, 2.0}), {0}, {0}, {1})), {1, 0, 2});
  const tfe::Tensor b = tfe::tensor(ctx, {7.0, 8.0}, {2, 1});
  const tfe::Tensor c = tfe::concatenate({a, b}, 1);
  CHECK(c.shape() == tfe::Shape{2, 4});
  check_close(values(c), {1, 2, 3, 4, 5, 6, 7, 8});
  const tfe::Tensor s = tfe::stack({b, b}, -1);
  CHECK(s.shape() == tfe::Shape{2, 1, 2});
  check_close(values(s), {7, 8, 7, 8});
}

TFE_TEST("einsum contracts in the order einsum_path reports", "[ops][einsum]") {
  tfe::Context ctx;
  const tfe::Tensor a = tfe::tensor(ctx, {1.0, 2.0, 3.0, 4.0, 5.0, 6.0}, {2, 3});
  const tfe::Tensor b = tfe::tensor(ctx, {1.0, 0.0, -1.0, 2.0, 1.0, 0.0}, {3, 2});
  // (a b)[i,k] = sum_j a[i,j] b[j,k]; column-major a = [[1,3,5],[2,4,6]], b = [[1,2],[0,1],[-1,0]].
  check_close(values(tfe::einsum("ij,jk->ik", {a, b})), {-4, -4, 5, 8});
  check_close(values(tfe::einsum("ij->", {a})), {21});
  const tfe::Tensor c = tfe::tensor(ctx, {1.0, 1.0}, {2, 1});
  const tfe::EinsumPath p = tfe::einsum_path("ij,jk,kl->il", {a, b, c});
  REQUIRE(p.steps.size() == 2);
  CHECK(p.optimal);
  CHECK(p.flops > 0);
  CHECK(ctx.cache_stats(tfe::Cache::Einsum).entries >= 1);
  CHECK_THROWS_AS(tfe::einsum("ij,jk->ik", {a, a}), tfe::Error); // j: 3 against 2
}

TFE_TEST("tensordot, outer, kron and trace", "[ops]") {
  tfe::Context ctx;
  // a = [[1, 3], [2, 4]] (column-major), b = [[0, 1], [1, 0]].
  const tfe::Tensor a = tfe::tensor(ctx, {1.0, 2.0, 3.0, 4.0}, {2, 2});
  const tfe::Tensor b = tfe::tensor(ctx, {0.0, 1.0, 1.0, 0.0}, {2, 2});
  // sum_j a[i,j] b[j,k]: the matrix product [[3, 1], [4, 2]].
  check_close(values(tfe::tensordot(a, b, {1}, {0})), {3, 4, 1, 2});
  check_close(values(tfe::outer(tfe::tensor(ctx, {1.0, 2.0}), tfe::tensor(ctx, {3.0, 4.0, 5.0}))),
              {3, 6, 4, 8, 5, 10});
  // kron(a, b) = [[0,1,0,3],[1,0,3,0],[0,2,0,4],[2,0,4,0]], column-major.
  check_close(values(tfe::kron(a, b)), {0, 1, 0, 2, 1, 0, 2, 0, 0, 3, 0, 4, 3, 0, 4, 0});
  check_close(values(tfe::trace(a)), {5});
  check_close(values(tfe::trace(a, 1)), {3});
  check_close(values(tfe::trace(a, -1)), {2});
  CHECK_THROWS_AS(tfe::tensordot(a, b, {0, 1}, {0}), tfe::Error);
}
