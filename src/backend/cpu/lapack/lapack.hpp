// Batched dense factorisations and solves on the CPU (LAPACK through LAPACKE, trsm from BLAS).
//
// Conventions shared by every function:
// - Operands are column-major strided tensors [M, N, batch...]: dims 0 and 1 are the matrix, the
//   rest are batch dims. Any strides are accepted (negative, and 0 for broadcast batch dims).
//   Inputs are never written.
// - Dtypes: F32, F64, C32, C64 (others: DtypeMismatch). Two float operands must share the dtype.
// - Outputs are fresh compact tensors [rows, cols, batch...] (vectors: [n, batch...]).
// - Everything is validated before the first LAPACK call: rank >= 2, squareness, matching dims
//   and batch dims (ShapeMismatch), extents within LAPACK's 32-bit integers (NotSupported).
// - Numerical failures name the function and the linear (column-major) batch index.
// - Empty matrices and empty batches give correctly shaped (empty or identity) outputs.
// - NaN or inf in an input propagates into the results of qr, lu_factor and the solves; the
//   other factorisations fail (cholesky: Numerical, as not positive definite; svd, eig and eigh:
//   NonConvergence) before LAPACK sees the value.
// - The batch runs serially on the calling thread; OpenBLAS may thread inside one large matrix,
//   and the library pool is never nested around it (nested pools oversubscribe the cores and
//   serialize on OpenBLAS's lock).
#pragma once

#include <cstdint>

#include "core/linalg_modes.hpp"
#include "core/tensor.hpp"

namespace tfe::cpu::lapack {

using tfe::Trans;

// L with A = L L^H (upper=false) or U with A = U^H U (upper=true); the other triangle of the
// result is exact zeros. Reads only the given triangle of A [N, N, batch...].
// Not positive definite: Status::Numerical naming the batch and the order of the leading minor.
Tensor cholesky(const Tensor& a, bool upper);

// A = Q R with K = min(M, N). Reduced (complete=false): Q [M, K], R [K, N]; complete: Q [M, M],
// R [M, N]. R is upper triangular with exact zeros below the diagonal; Q has orthonormal
// columns. Rank deficiency is not an error (geqrf + orgqr/ungqr).
struct Qr {
  Tensor q, r;
};
Qr qr(const Tensor& a, bool complete);

// The column order of QR with column pivoting (geqp3): perm I64 [N, batch...], 0-based, with
// A[:, perm] = Q R and |diag(R)| non-increasing.
Tensor column_pivots(const Tensor& a);

// A = U diag(S) Vh by divide and conquer (gesdd). S is real (F32 for F32/C32, F64 for F64/C64),
// [K, batch...], descending. Reduced: U [M, K], Vh [K, N]; Full: U [M, M], Vh [N, N];
// ValuesOnly: u and vh are left undefined. Non-convergence, and NaN or inf in A (which LAPACK
// cannot take): Status::NonConvergence naming the batch.
using tfe::SvdMode;
struct Svd {
  Tensor u, s, vh;
};
Svd svd(const Tensor& a, SvdMode mode);

// Hermitian (symmetric) eigendecomposition A V = V diag(w) by divide and conquer (syevd/heevd),
// reading only the lower (upper=false) or upper triangle of A [N, N, batch...]. w is real,
// ascending, [N, batch...]; v [N, N, batch...] is unitary (undefined when vectors=false).
// Non-convergence, and NaN or inf in the read triangle: Status::NonConvergence naming the batch.
struct Eigh {
  Tensor w, v;
};
Eigh eigh(const Tensor& a, bool upper, bool vectors);

// General eigendecomposition A v = w v (geev, right vectors). w is complex (C32 for F32/C32, C64
// for F64/C64) [N, batch...] in LAPACK's order; v [N, N, batch...] is complex with unit 2-norm
// columns (undefined when vectors=false). Real input yields conjugate pairs as LAPACK finds them.
// Non-convergence, and NaN or inf in A: Status::NonConvergence naming the batch.
struct Eig {
  Tensor w, v;
};
Eig eig(const Tensor& a, bool vectors);

// Packed LU with partial pivoting of A [M, N, batch...] (getrf): A = P L U with L unit lower
// (stored below the diagonal of lu) and U upper. pivots I32 [K, batch...] are LAPACK's 1-based
// row interchanges; info I32 [batch...] is 0 or the 1-based index of the first exactly zero
// pivot. Singular input is not an error.
struct LuFactor {
  Tensor lu, pivots, info;
};
LuFactor lu_factor(const Tensor& a);

// Solves A X = B for A [N, N, batch...] and B [N, K, batch...] with equal batch dims (the caller
// broadcasts; stride-0 batch dims of A are factored once). Returns X [N, K, batch...] and the
// packed factors as lu_factor would (lu [N, N, batch...], pivots I32 [N, batch...]).
// Exactly singular A: Status::Singular naming the batch and the zero U[i,i] (0-based).
struct LuFactorSolve {
  Tensor x, lu, pivots;
};
LuFactorSolve lu_factor_solve(const Tensor& a, const Tensor& b);

// Solves op(A) X = B from lu_factor's packed factors: lu [N, N, batch...], pivots I32
// [N, batch...], b [N, K, batch...] of lu's dtype (getrs's algorithm: row interchanges, two
// trsm). A zero on U's diagonal: Status::Singular; a pivot outside [1, N]:
// Status::InvalidArgument (both checked before the solve runs).
Tensor lu_solve(const Tensor& lu, const Tensor& pivots, const Tensor& b, Trans trans);

// Solves op(A) X = B (left=true, B [N, K, batch...]) or X op(A) = B (left=false, B [K, N,
// batch...]) with A [N, N, batch...] upper or lower triangular; only that triangle is read, and
// with unit_diagonal the diagonal is taken as 1 and not read. Like BLAS trsm, a zero on the
// diagonal is not an error: the result holds inf/nan.
Tensor triangular_solve(const Tensor& a, const Tensor& b, bool upper, bool left, bool unit_diagonal,
                        Trans trans);

} // namespace tfe::cpu::lapack
