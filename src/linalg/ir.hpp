// Matrix-level builders for the linalg derivative rules and composites: operands are
// [rows, cols, batch...] values with equal batch dims (the rules see the batch dims their op
// produced, so nothing broadcasts here). The views and parts are templates over every value type;
// the rest builds graph values for the rules.
#pragma once

#include <array>
#include <span>

#include "ad/builder.hpp"

namespace tfe::linalg {
// a + b, a - b, a * b, a / b and -a on values (eager/operators.hpp), for the rules and composites.
using namespace tfe::eager::operators;
} // namespace tfe::linalg

namespace tfe::linalg::ir {

using graph::Value;

namespace detail {
template <class V> V emit_one(ops::OpCode code, const V& x, const ops::Params& p) {
  std::array<V, 1> in{x};
  return emit(code, std::span<const V>(in), p); // the value type's hook, found by ADL
}
} // namespace detail

// Views and parts of matrices over every value type of the op surface (the composites run them
// on tensors, traced, recorded and dataflow values; the rules on graph values).
template <class V> V mT(const V& a) { // swaps the two matrix dims
  Dims perm{1, 0};
  for (int64_t i = 2; i < static_cast<int64_t>(meta_of(a).shape.size()); ++i) perm.push_back(i);
  return detail::emit_one(ops::OpCode::Transpose, a, ops::TransposeParams{perm});
}
template <class V> V mH(const V& a) { // conjugate transpose
  V t = mT(a);
  return is_complex(meta_of(t).dtype) ? detail::emit_one(ops::OpCode::Conj, t, ops::NoParams{}) : t;
}
template <class V> V tril(const V& a, int64_t k = 0) {
  return detail::emit_one(ops::OpCode::Tril, a, ops::TriangleParams{k});
}
template <class V> V triu(const V& a, int64_t k = 0) {
  return detail::emit_one(ops::OpCode::Triu, a, ops::TriangleParams{k});
}
template <class V> V diagonal(const V& a) { // [N,N,B..] -> [N,B..]
  return detail::emit_one(ops::OpCode::ExtractDiag, a, ops::DiagParams{0, 1});
}
template <class V> V diag_embed(const V& d) { // [N,B..] -> [N,N,B..]
  return detail::emit_one(ops::OpCode::EmbedDiag, d, ops::DiagParams{0, 1});
}
// Rows (dim 0) or columns (dim 1) [begin, end) of a matrix.
template <class V> V take(const V& a, int64_t dim, Extent begin, Extent end) {
  Shape s = meta_of(a).shape;
  Shape starts(s.size(), 0), limits = s;
  starts[static_cast<size_t>(dim)] = begin;
  limits[static_cast<size_t>(dim)] = end;
  return detail::emit_one(ops::OpCode::Slice, a,
                          ops::SliceParams{starts, limits, Dims(s.size(), 1)});
}

Value matmul(const Value& a, const Value& b); // [M,K,B..] x [K,N,B..] -> [M,N,B..]
// The identity of dtype with n rows and the batch dims of `batch_of` (a [.,.,B..] value).
Value eye(DType dtype, Extent n, const Value& batch_of);
// Bool [N,N,B..]: true on the diagonal.
Value diagonal_mask(Extent n, const Value& batch_of);
// a [M,K,B..] times d [K,B..] on the columns (a diag(d)), or on the rows (diag(d) a, d [M,B..]).
Value scale_columns(const Value& a, const Value& d);
Value scale_rows(const Value& a, const Value& d);
// Parts joined along a dim.
Value join(std::initializer_list<Value> parts, int64_t dim);
// The trace of every matrix: [N, N, B..] -> [B..].
Value trace(const Value& a);
// The Hermitian part (a + a^H) / 2.
Value hermitian_part(const Value& a);
// F[i,j] = 1 / (w[j] - w[i]) for w [N,B..] (real or complex), 0 where w[i] == w[j] exactly (the
// diagonal and exactly degenerate pairs); with eps > 0 the Lorentzian
// (w[j]-w[i]) / ((w[j]-w[i])^2 + eps) instead (derivative_eps).
Value inverse_gaps(const Value& w, double eps);

} // namespace tfe::linalg::ir
