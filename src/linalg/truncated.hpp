// The truncated SVD and QR with column pivoting, over the value types of the linalg surface
// (linalg/surface.hpp).
#pragma once

#include <vector>

#include "linalg/surface.hpp"

namespace tfe::linalg::api {

// Which singular triplets svd_truncated keeps: at most max_rank (negative: no limit) and, when
// rtol or atol is positive, those with s > max(atol, rtol * s_max) of their own matrix.
struct SvdTruncation {
  int64_t max_rank = -1;
  double rtol = 0;
  double atol = 0;
  double derivative_eps = 0; // the broadening of tfe_linalg_svd_ex
};

// u [M,R,B..], s [R,B..], vh [R,N,B..]. R is min(max_rank, K) where the values are not known when
// the shape is fixed (traced programs, dataflow) and, where they are (eager), the largest kept
// count over the batch; either way the triplets a matrix does not keep are zero.
template <class V> std::vector<V> svd_truncated(const V& a, const SvdTruncation& t);

// A[:, perm] = Q R with geqp3's column order: q, r as qr(a[:, perm], complete), perm I64 [N, B..].
template <class V> std::vector<V> qr_pivoted(const V& a, bool complete);

} // namespace tfe::linalg::api

#define TFE_LINALG_TRUNCATED_INSTANCES(V, EXTERN)                                                  \
  EXTERN template std::vector<V> svd_truncated<V>(const V&, const SvdTruncation&);                 \
  EXTERN template std::vector<V> qr_pivoted<V>(const V&, bool);
