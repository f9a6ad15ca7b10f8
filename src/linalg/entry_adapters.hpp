// The C linalg functions whose computation lives in the linalg surface (surface.hpp, derived.hpp,
// truncated.hpp): each entry maps the C function's arguments (tensors, plain scalars, the options)
// onto the surface function that computes it. A function written for the entry layer defines its
// entry directly in linalg/functions/<name>.hpp instead (docs/contributing.md).
#pragma once

#include <algorithm>
#include <cmath>

#include "linalg/derived.hpp"
#include "linalg/entries.hpp"
#include "linalg/truncated.hpp"

namespace tfe::linalg::entry {
namespace detail {

// TFE_NORM_FRO .. TFE_NORM_NEG_INF are the MatrixNorm values in order (checked in capi/linalg.cpp).
inline api::MatrixNorm norm_order(int32_t ord) {
  if (ord < 0 || ord > static_cast<int32_t>(api::MatrixNorm::MinusInf))
    fail(Status::InvalidArgument, "unknown norm order %d (TFE_NORM_*)", ord);
  return static_cast<api::MatrixNorm>(ord);
}

} // namespace detail

template <class V> V solve(const V& a, const V& b) { return api::solve(a, b); }
template <class V> V cholesky(const V& a) { return api::cholesky(a, false); }
template <class V> std::vector<V> qr(const V& a) { return api::qr(a, false); }
template <class V> std::vector<V> svd(const V& a) { return api::svd(a, SvdMode::Reduced, 0.0); }
template <class V> std::vector<V> eigh(const V& a) { return api::eigh(a, false, 0.0); }
template <class V> std::vector<V> eig(const V& a) { return api::eig(a, 0.0); }
template <class V> V inv(const V& a) { return api::inv(a); }
template <class V> V det(const V& a) { return api::det(a); }
template <class V> std::vector<V> slogdet(const V& a) { return api::slogdet(a); }

template <class V> V solve_triangular(const V& a, const V& b, const Options& o) {
  return api::solve_triangular(a, b, TriangularOptions{o.upper, o.left, o.unit_diagonal, o.trans});
}
template <class V> V cholesky_ex(const V& a, const Options& o) { return api::cholesky(a, o.upper); }
template <class V> std::vector<V> qr_ex(const V& a, const Options& o) {
  return api::qr_gauged(a, o.full_matrices, o.positive_diagonal);
}
template <class V> std::vector<V> svd_ex(const V& a, const Options& o) {
  return api::svd(a, o.full_matrices ? SvdMode::Full : SvdMode::Reduced, o.derivative_eps);
}
template <class V> V svdvals(const V& a) { return api::svdvals(a); }
template <class V> std::vector<V> eigh_ex(const V& a, const Options& o) {
  return api::eigh(a, o.upper, o.derivative_eps);
}
template <class V> V eigvalsh(const V& a, const Options& o) { return api::eigvalsh(a, o.upper); }
template <class V> std::vector<V> eig_ex(const V& a, const Options& o) {
  return api::eig(a, o.derivative_eps);
}
template <class V> V eigvals(const V& a) { return api::eigvals(a); }
template <class V> std::vector<V> lu_factor(const V& a) { return api::lu_factor(a); }
template <class V> V lu_solve(const V& lu, const V& pivots, const V& b, const Options& o) {
  return api::lu_solve(lu, pivots, b, o.trans);
}
template <class V> std::vector<V> lu(const V& a) { return api::lu(a); }
template <class V> V matrix_exp(const V& a) { return api::matrix_exp(a); }
template <class V> V pinv(const V& a, const Options& o) {
  return api::pinv(a, o.rtol, o.hermitian);
}
template <class V> V lstsq(const V& a, const V& b, const Options& o) {
  return api::lstsq(a, b, o.rtol);
}
template <class V> V matrix_norm(const V& a, int32_t ord) {
  return api::matrix_norm(a, detail::norm_order(ord));
}
template <class V> V cond(const V& a, int32_t ord) { return api::cond(a, detail::norm_order(ord)); }
template <class V> V matrix_power(const V& a, int64_t n) { return api::matrix_power(a, n); }
template <class V> V vecdot(const V& a, const V& b, int64_t axis) {
  // NumPy's negative axis counts from the broadcast rank of the two operands.
  size_t rank = std::max(meta_of(a).shape.size(), meta_of(b).shape.size());
  return api::vecdot(a, b, normalize_axis(axis, static_cast<int64_t>(rank)));
}
template <class V> V vander(const V& x, int64_t n) { return api::vander(x, n); }
template <class V> V tensorinv(const V& a, int64_t ind) { return api::tensorinv(a, ind); }
template <class V> V tensorsolve(const V& a, const V& b) { return api::tensorsolve(a, b); }
template <class V> std::vector<V> svd_truncated(const V& a, const Options& o) {
  return api::svd_truncated(
      a, api::SvdTruncation{o.max_rank, o.cutoff_rtol, o.cutoff_atol, o.derivative_eps});
}
template <class V> std::vector<V> qr_pivoted(const V& a, const Options& o) {
  return api::qr_pivoted(a, o.full_matrices);
}
template <class V> V matrix_rank(const V& a, double atol, const Options& o) {
  if (std::isnan(atol)) fail(Status::InvalidArgument, "atol is NaN");
  return api::matrix_rank(a, atol, o.rtol, o.hermitian);
}
template <class V> V logdet(const V& a) { return api::logdet(a); }
template <class V> V cholesky_solve(const V& l, const V& b, const Options& o) {
  return api::cholesky_solve(l, b, o.upper);
}

} // namespace tfe::linalg::entry
