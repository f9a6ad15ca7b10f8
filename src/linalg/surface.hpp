// The user-facing linalg functions, written once over the value type V like the core surface
// (eager/surface.hpp): V = Tensor runs at once, graph::Value traces, ad::recording::Recorded runs
// and records. They validate, promote the operands to one float dtype (recorded Converts),
// broadcast batch dims left-aligned, then emit the kernel-basis ops; the composites (inv, det,
// slogdet) are built from the basis and core ops, so they are differentiable through their rules.
#pragma once

#include <span>
#include <vector>

#include "linalg/ops.hpp"

namespace tfe::linalg::api {

template <class V> V solve(const V& a, const V& b); // A X = B, b of rank >= 2
template <class V> V solve_triangular(const V& a, const V& b, const TriangularOptions& o);
template <class V> V cholesky(const V& a, bool upper);
template <class V> std::vector<V> qr(const V& a, bool complete);             // q, r
template <class V> std::vector<V> svd(const V& a, SvdMode mode, double eps); // u, s, vh
template <class V> std::vector<V> eigh(const V& a, bool upper, double eps);  // w, v
template <class V> std::vector<V> eig(const V& a, double eps);               // w, v
template <class V> std::vector<V> lu_factor(const V& a);                     // lu, pivots, info
template <class V> V lu_solve(const V& lu, const V& pivots, const V& b, Trans trans);
template <class V> V inv(const V& a);
template <class V> V det(const V& a);
template <class V> std::vector<V> slogdet(const V& a); // sign, logabs
template <class V> V svdvals(const V& a);
template <class V> V eigvalsh(const V& a, bool upper);
template <class V> V eigvals(const V& a);
template <class V> std::vector<V> lu(const V& a); // p, l, u with A = P L U
template <class V> V matrix_exp(const V& a);
// rtol < 0: max(M, N) * eps of the dtype (PyTorch's default); hermitian: a is Hermitian (eigh).
template <class V> V pinv(const V& a, double rtol, bool hermitian);
// ord: "fro", "nuc", or a number (1, -1, 2, -2, inf, -inf); over the first two dims.
enum class MatrixNorm { Fro, Nuc, One, MinusOne, Two, MinusTwo, Inf, MinusInf };
template <class V> V matrix_norm(const V& a, MatrixNorm ord);
// ord p (inf, -inf, 0 and any real) over the given axes (all when empty).
template <class V> V vector_norm(const V& x, double ord, std::span<const int64_t> axes);
template <class V> V cond(const V& a, MatrixNorm ord);
template <class V> V matrix_power(const V& a, int64_t n);
template <class V> V multi_dot(std::span<const V> xs);
template <class V> V vecdot(const V& a, const V& b, int64_t axis); // sum(conj(a) b, axis)
template <class V> V vander(const V& x, int64_t n);                // [N, n, B..]: x^0 .. x^(n-1)
template <class V> V tensorinv(const V& a, int64_t ind);
template <class V> V tensorsolve(const V& a, const V& b);
// Least squares min ||A X - B||: the minimum-norm solution from the SVD (rcond < 0: the pinv
// default).
template <class V> V lstsq(const V& a, const V& b, double rcond);
// QR with the options of the C layer: complete Q, and the gauge that makes diag(R) real >= 0.
template <class V> std::vector<V> qr_gauged(const V& a, bool complete, bool positive_diagonal);

} // namespace tfe::linalg::api

#define TFE_LINALG_SURFACE_INSTANCES(V, EXTERN)                                                    \
  EXTERN template V solve<V>(const V&, const V&);                                                  \
  EXTERN template V solve_triangular<V>(const V&, const V&, const TriangularOptions&);             \
  EXTERN template V cholesky<V>(const V&, bool);                                                   \
  EXTERN template std::vector<V> qr<V>(const V&, bool);                                            \
  EXTERN template std::vector<V> svd<V>(const V&, SvdMode, double);                                \
  EXTERN template std::vector<V> eigh<V>(const V&, bool, double);                                  \
  EXTERN template std::vector<V> eig<V>(const V&, double);                                         \
  EXTERN template std::vector<V> lu_factor<V>(const V&);                                           \
  EXTERN template V lu_solve<V>(const V&, const V&, const V&, Trans);                              \
  EXTERN template V inv<V>(const V&);                                                              \
  EXTERN template V det<V>(const V&);                                                              \
  EXTERN template std::vector<V> slogdet<V>(const V&);                                             \
  EXTERN template V svdvals<V>(const V&);                                                          \
  EXTERN template V eigvalsh<V>(const V&, bool);                                                   \
  EXTERN template V eigvals<V>(const V&);                                                          \
  EXTERN template std::vector<V> lu<V>(const V&);                                                  \
  EXTERN template V matrix_exp<V>(const V&);                                                       \
  EXTERN template V pinv<V>(const V&, double, bool);                                               \
  EXTERN template V matrix_norm<V>(const V&, MatrixNorm);                                          \
  EXTERN template V vector_norm<V>(const V&, double, std::span<const int64_t>);                    \
  EXTERN template V cond<V>(const V&, MatrixNorm);                                                 \
  EXTERN template V matrix_power<V>(const V&, int64_t);                                            \
  EXTERN template V multi_dot<V>(std::span<const V>);                                              \
  EXTERN template V vecdot<V>(const V&, const V&, int64_t);                                        \
  EXTERN template V vander<V>(const V&, int64_t);                                                  \
  EXTERN template V tensorinv<V>(const V&, int64_t);                                               \
  EXTERN template V tensorsolve<V>(const V&, const V&);                                            \
  EXTERN template V lstsq<V>(const V&, const V&, double);                                          \
  EXTERN template std::vector<V> qr_gauged<V>(const V&, bool, bool);

namespace tfe::linalg::api {
TFE_LINALG_SURFACE_INSTANCES(Tensor, extern)
TFE_LINALG_SURFACE_INSTANCES(graph::Value, extern)
} // namespace tfe::linalg::api
