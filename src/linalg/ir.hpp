// Matrix-level IR builders for the linalg derivative rules and composites: operands are
// [rows, cols, batch...] values with equal batch dims (the rules see the batch dims their op
// produced, so nothing broadcasts here).
#pragma once

#include "ad/builder.hpp"

namespace tfe::linalg {
// a + b, a - b, a * b, a / b and -a on values (eager/operators.hpp), for the rules and composites.
using namespace tfe::eager::operators;
} // namespace tfe::linalg

namespace tfe::linalg::ir {

using graph::Value;

Value matmul(const Value& a, const Value& b); // [M,K,B..] x [K,N,B..] -> [M,N,B..]
Value mT(const Value& a);                     // swaps the two matrix dims
Value mH(const Value& a);                     // conjugate transpose
Value tril(const Value& a, int64_t k = 0);
Value triu(const Value& a, int64_t k = 0);
Value diagonal(const Value& a);   // [N,N,B..] -> [N,B..]
Value diag_embed(const Value& d); // [N,B..] -> [N,N,B..]
// The identity of dtype with n rows and the batch dims of `batch_of` (a [.,.,B..] value).
Value eye(DType dtype, Extent n, const Value& batch_of);
// Bool [N,N,B..]: true on the diagonal.
Value diagonal_mask(Extent n, const Value& batch_of);
// a [M,K,B..] times d [K,B..] on the columns (a diag(d)), or on the rows (diag(d) a, d [M,B..]).
Value scale_columns(const Value& a, const Value& d);
Value scale_rows(const Value& a, const Value& d);
// Rows (dim 0) or columns (dim 1) [begin, end) of a matrix; parts joined along a dim.
Value take(const Value& a, int64_t dim, Extent begin, Extent end);
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
