// Definitions of matrix_rank, logdet and cholesky_solve (derived.hpp). Included only by the
// files that instantiate them (linalg/derived.cpp, dataflow/tensor/shape_extra_instances.cpp).
#pragma once

#include <algorithm>
#include <limits>

#include "linalg/derived.hpp"
#include "linalg/surface_impl.hpp"

namespace tfe::linalg::api {

template <class V> V matrix_rank(const V& a, double atol, double rtol, bool hermitian) {
  using namespace detail;
  ops::Meta m = meta_of(a);
  require_float("a", m.dtype);
  require_matrix("a", m.shape);
  V s = hermitian ? un(ops::OpCode::Abs, eigvalsh(a, false)) : svdvals(a); // [K, B..], real
  Shape shape = meta_of(s).shape;
  DType r = meta_of(s).dtype;
  if (rtol < 0) {
    int64_t big = std::max(constant_extent(m.shape[0]), constant_extent(m.shape[1]));
    rtol = atol > 0 ? 0.0 : static_cast<double>(big) * machine_eps(m.dtype);
  }
  V largest = reduce(ops::OpCode::ReduceMax, s, {0});
  V tol = bin(ops::OpCode::Maximum, largest * scalar_of<V>(r, rtol),
              scalar_of<V>(r, std::max(atol, 0.0)));
  Dims batch;
  for (int64_t i = 1; i < static_cast<int64_t>(shape.size()); ++i) batch.push_back(i);
  V cutoff = emit1(ops::OpCode::BroadcastInDim, tol, ops::BroadcastInDimParams{shape, batch});
  std::array<int64_t, 1> values{0};
  return tfe::eager::sum(compare(s, cutoff, ops::CompareDir::Gt), values); // Bool sums in I64
}

template <class V> V logdet(const V& a) {
  using namespace detail;
  DType d = require_square(a).dtype;
  std::vector<V> sl = slogdet(a); // sign, log|det|
  if (is_complex(d)) return tfe::eager::cast(sl[1], d) + un(ops::OpCode::Log, sl[0]);
  V negative = compare(sl[0], scalar_of<V>(d, 0.0), ops::CompareDir::Lt);
  return select(negative, scalar_of<V>(d, std::numeric_limits<double>::quiet_NaN()), sl[1]);
}

template <class V> V cholesky_solve(const V& l, const V& b, bool upper) {
  ops::Meta m = meta_of(l);
  detail::require_float("l", m.dtype);
  detail::require_matrix("l", m.shape);
  ops::require_eq(m.shape[0], m.shape[1], Status::ShapeMismatch, "square",
                  "the factor l of shape " + ops::format_shape(m.shape) + " must be square");
  // Lower: L Y = B, then L^H X = Y. Upper: U^H Y = B, then U X = Y.
  TriangularOptions first{upper, true, false, upper ? Trans::ConjTranspose : Trans::No};
  TriangularOptions second{upper, true, false, upper ? Trans::No : Trans::ConjTranspose};
  return solve_triangular(l, solve_triangular(l, b, first), second);
}

#define TFE_DERIVED_INSTANCES(V)                                                                   \
  template V matrix_rank<V>(const V&, double, double, bool);                                       \
  template V logdet<V>(const V&);                                                                  \
  template V cholesky_solve<V>(const V&, const V&, bool);

} // namespace tfe::linalg::api
