// svd_truncated and qr_pivoted (truncated.hpp): the definitions, instantiated per value type in
// the layer of that type (linalg/truncated.cpp; the dataflow tensor's in the dataflow layer).
#pragma once

#include "linalg/truncated.hpp"

#include <algorithm>
#include <type_traits>

#include "ad/recording/recorded.hpp"
#include "linalg/surface_impl.hpp"
#include "linalg/truncation.hpp"

namespace tfe::linalg::api {
namespace truncated_detail {

// The concrete tensor behind an eager value; none for traced and dataflow values, whose shapes
// are fixed before their values exist.
template <class V> const Tensor* concrete(const V& v) {
  if constexpr (std::is_same_v<V, Tensor>)
    return &v;
  else if constexpr (std::is_same_v<V, ad::recording::Recorded>)
    return &v.value;
  else
    return nullptr;
}

template <class T> int64_t max_kept(const Tensor& s, const Truncation& t) {
  int64_t k = s.dim(0), batch = k == 0 ? 0 : s.numel() / k, most = 0;
  const T* p = s.data<T>(); // a fresh compact output of the svd kernel
  for (int64_t b = 0; b < batch; ++b) {
    const T* sb = p + b * k;
    double bound = std::max(t.atol, t.rtol * static_cast<double>(sb[0]));
    int64_t n = 0;
    while (n < std::min(k, t.rank) && static_cast<double>(sb[n]) > bound) ++n;
    most = std::max(most, n);
  }
  return most;
}

// True where s [R, B..] is above its matrix's bound max(atol, rtol * s[0]).
template <class V> V above_bound(const V& s, const Truncation& t) {
  DType d = meta_of(s).dtype;
  V rel = detail::take(s, 0, 0, 1) * detail::scalar_of<V>(d, t.rtol);
  V abs = detail::scalar_of<V>(d, t.atol);
  V bound = detail::select(detail::compare(rel, abs, ops::CompareDir::Gt), rel,
                           tfe::eager::broadcast_to(abs, meta_of(rel).shape));
  return detail::compare(s, bound, ops::CompareDir::Gt);
}

template <class V> V zero_where_not(const V& keep, const V& x, int64_t dim) {
  ops::Meta m = meta_of(x);
  V mask = m.shape.size() == meta_of(keep).shape.size() ? keep : detail::spread(keep, m.shape, dim);
  V zero = tfe::eager::broadcast_to(detail::scalar_of<V>(m.dtype, 0.0), m.shape);
  return detail::select(mask, x, zero);
}

} // namespace truncated_detail

template <class V> std::vector<V> svd_truncated(const V& a, const SvdTruncation& opts) {
  ops::Meta m = meta_of(a);
  detail::require_float("a", m.dtype);
  detail::require_matrix("a", m.shape);
  if (std::isnan(opts.rtol) || std::isnan(opts.atol) || std::isinf(opts.rtol) ||
      std::isinf(opts.atol))
    fail(Status::InvalidArgument, "the cutoff (rtol %g, atol %g) must be finite", opts.rtol,
         opts.atol);
  int64_t rows = detail::constant_extent(m.shape[0]), cols = detail::constant_extent(m.shape[1]);
  int64_t k = std::min(rows, cols);
  Truncation t{opts.max_rank < 0 ? k : std::min(opts.max_rank, k), opts.rtol, opts.atol};
  std::array<V, 1> in{a};
  std::vector<V> usv = detail::emit_ext<V>(
      svd_op().make_params(truncated_svd_options(static_cast<int64_t>(SvdMode::Reduced), t),
                           opts.derivative_eps),
      in);
  bool cutoff = t.rtol > 0 || t.atol > 0;
  int64_t r = t.rank;
  if (const Tensor* s = truncated_detail::concrete(usv[1]); cutoff && s)
    r = s->dtype() == DType::F32 ? truncated_detail::max_kept<float>(*s, t)
                                 : truncated_detail::max_kept<double>(*s, t);
  V u = detail::take(usv[0], 1, 0, r), s = detail::take(usv[1], 0, 0, r),
    vh = detail::take(usv[2], 0, 0, r);
  if (!cutoff || r == 0) return {u, s, vh};
  using truncated_detail::zero_where_not;
  V keep = truncated_detail::above_bound(s, t);
  return {zero_where_not(keep, u, 1), zero_where_not(keep, s, 0), zero_where_not(keep, vh, 0)};
}

template <class V> std::vector<V> qr_pivoted(const V& a, bool complete) {
  ops::Meta m = meta_of(a);
  detail::require_float("a", m.dtype);
  detail::require_matrix("a", m.shape);
  std::array<V, 1> in{a};
  V perm = detail::emit_ext1<V>(column_pivots_op().make_params(), in);
  // A[:, perm] = A P with P[i, j] = (i == perm[j]): a product with a constant, so the derivative
  // is qr's at the fixed order.
  Shape pshape = matrix_shape(m.shape[1], m.shape[1], m.shape);
  V row = emit(ops::OpCode::Iota, std::span<const V>{}, ops::IotaParams{DType::I64, pshape, 0});
  V p = tfe::eager::cast(detail::compare(row, detail::spread(perm, pshape, 1), ops::CompareDir::Eq),
                         m.dtype);
  std::vector<V> qr_of = qr(tfe::eager::matmul(a, p), complete);
  return {qr_of[0], qr_of[1], perm};
}

} // namespace tfe::linalg::api
