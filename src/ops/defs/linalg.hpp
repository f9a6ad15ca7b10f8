/* The linear algebra functions: one row per public C function tfe_linalg_<name>, and one row per
 * kernel op of the linear algebra basis (an extension op, decision 0014). From these rows come:
 * the declarations of the kernel ops (linalg/ops.hpp) and their list (linalg/registry.hpp), the
 * functions listed by tfe_op_count/tfe_op_name after the core ops, the C completeness table
 * (tests/capi/test_capi_linalg_rows.c), the Python rows and their completeness test
 * (bindings/python/tests/linalg_rows.py, written by tools/emit_ops), the sample completeness
 * check of the AD matrix (tests/cpp/test_linalg_registry.cpp) and docs/ops/linalg.md.
 * docs/contributing.md walks through adding a row.
 *
 * Plain preprocessor tokens only (no includes, no C++), so C tests can read the lists too.
 *
 * X(name, python, inputs, outputs, call, sample, accepts, ad, since, shapes, summary)
 *   name     tfe_linalg_<name> in C
 *   python   the function of tenferro.linalg that reaches it (an _ex row: the same function with
 *            keyword options)
 *   inputs   tensor operands (multi_dot: the least number of its list)
 *   outputs  tensor outputs, in the C function's order
 *   call     how the completeness tests call it: Plain (outputs, then tensors), Options (then a
 *            NULL options object: every default), Args (further scalar arguments: the C test
 *            names its own call, call_<name>)
 *   sample   the operands the completeness tests give a Plain or Options row: Square (well
 *            conditioned [3,3]), Spd (Hermitian positive definite [3,3]), Matrix (full-rank
 *            [4,3]), System (square [3,3] and a right-hand side [3,2]), Custom (an Args row)
 *   accepts  the dtype set (core/dtype.hpp dtypes::k...)
 *   ad       Smooth (every float output differentiable), Gauge (output vectors with a phase or
 *            sign gauge: differentiate gauge-invariant functions of them), Pivots (integer
 *            outputs beside differentiable ones)
 *   since    the library version that added it
 *   shapes   the shape classes its samples must cover (each word occurs in a sample label of
 *            tests/cpp/op_samples/linalg_samples.cpp): square, tall, wide, batched, broadcast,
 *            rank (rank-deficient or singular), vector, tensor
 *   summary  one sentence: the docs table and the Python rows show it
 */
#ifndef TFE_OPS_DEFS_LINALG_HPP
#define TFE_OPS_DEFS_LINALG_HPP

/* clang-format off */
#define TFE_LINALG_OPS(X)                                                                          \
  X(solve, solve, 2, 1, Plain, System, kInexact, Smooth, 0.1, "square batched broadcast",          \
    "X with A X = B, one LU factorisation per matrix.")                                            \
  X(cholesky, cholesky, 1, 1, Plain, Spd, kInexact, Smooth, 0.1, "square batched",                 \
    "The lower Cholesky factor L with A = L L^H.")                                                 \
  X(qr, qr, 1, 2, Plain, Matrix, kInexact, Smooth, 0.1, "square tall wide batched",                \
    "Reduced QR factorisation A = Q R.")                                                           \
  X(svd, svd, 1, 3, Plain, Matrix, kInexact, Gauge, 0.1, "square tall wide batched",               \
    "Reduced singular value decomposition A = U diag(S) Vh.")                                      \
  X(eigh, eigh, 1, 2, Plain, Spd, kInexact, Gauge, 0.1, "square batched",                          \
    "Hermitian eigendecomposition A = V diag(w) V^H.")                                             \
  X(eig, eig, 1, 2, Plain, Square, kInexact, Gauge, 0.1, "square batched",                         \
    "General eigendecomposition A V = V diag(w), complex.")                                        \
  X(inv, inv, 1, 1, Plain, Square, kInexact, Smooth, 0.1, "square batched",                        \
    "The inverse matrix.")                                                                         \
  X(det, det, 1, 1, Plain, Square, kInexact, Smooth, 0.1, "square batched rank",                   \
    "The determinant; its gradient is the adjugate, exact at every rank.")                         \
  X(slogdet, slogdet, 1, 2, Plain, Square, kInexact, Smooth, 0.1, "square batched",                \
    "The sign and the log of the absolute value of the determinant.")                              \
  X(solve_triangular, solve_triangular, 2, 1, Options, System, kInexact, Smooth, 0.1,              \
    "square batched broadcast", "X with op(A) X = B or X op(A) = B for a triangular A.")           \
  X(cholesky_ex, cholesky, 1, 1, Options, Spd, kInexact, Smooth, 0.1, "square batched",            \
    "The Cholesky factor with options: the upper factor.")                                         \
  X(qr_ex, qr, 1, 2, Options, Matrix, kInexact, Smooth, 0.1, "square tall wide batched",           \
    "QR with options: complete factors, a real non-negative diagonal of R.")                       \
  X(svd_ex, svd, 1, 3, Options, Matrix, kInexact, Gauge, 0.1, "square batched",                    \
    "SVD with options: full factors, broadened derivatives.")                                      \
  X(svdvals, svdvals, 1, 1, Plain, Matrix, kInexact, Smooth, 0.1, "square tall wide batched",      \
    "The singular values alone, descending.")                                                      \
  X(eigh_ex, eigh, 1, 2, Options, Spd, kInexact, Gauge, 0.1, "square batched",                     \
    "Hermitian eigendecomposition with options: the upper triangle, broadened derivatives.")       \
  X(eigvalsh, eigvalsh, 1, 1, Options, Spd, kInexact, Smooth, 0.1, "square batched",               \
    "The eigenvalues of a Hermitian matrix alone, ascending.")                                     \
  X(eig_ex, eig, 1, 2, Options, Square, kInexact, Gauge, 0.1, "square batched",                    \
    "General eigendecomposition with broadened derivatives.")                                      \
  X(eigvals, eigvals, 1, 1, Plain, Square, kInexact, Smooth, 0.1, "square batched",                \
    "The eigenvalues of a general matrix alone (complex).")                                        \
  X(lu_factor, lu_factor, 1, 3, Plain, Matrix, kInexact, Pivots, 0.1, "square tall wide batched",  \
    "Packed LU with partial pivoting, its pivots and the index of the first zero pivot.")          \
  X(lu_solve, lu_solve, 3, 1, Args, Custom, kInexact, Pivots, 0.1, "square batched broadcast",     \
    "X with op(A) X = B from the outputs of lu_factor.")                                           \
  X(lu, lu, 1, 3, Plain, Matrix, kInexact, Smooth, 0.1, "square tall wide batched",                \
    "A = P L U with the factors unpacked.")                                                        \
  X(matrix_exp, matrix_exp, 1, 1, Plain, Square, kInexact, Smooth, 0.1, "square batched",          \
    "The matrix exponential (scaling and squaring).")                                              \
  X(pinv, pinv, 1, 1, Options, Matrix, kInexact, Smooth, 0.1, "square tall wide batched rank",     \
    "The pseudo-inverse, from the SVD (or eigh for a Hermitian matrix).")                          \
  X(lstsq, lstsq, 2, 1, Args, Custom, kInexact, Smooth, 0.1, "tall wide batched broadcast rank",   \
    "The minimum-norm least-squares solution of A X = B.")                                         \
  X(matrix_norm, matrix_norm, 1, 1, Args, Custom, kInexact, Smooth, 0.1, "tall wide batched",      \
    "A matrix norm: Frobenius, nuclear, 1, -1, 2, -2, inf or -inf.")                               \
  X(vector_norm, vector_norm, 1, 1, Args, Custom, kInexact, Smooth, 0.1, "vector",                 \
    "(sum |x|^ord)^(1/ord) over the given axes.")                                                  \
  X(cond, cond, 1, 1, Args, Custom, kInexact, Smooth, 0.1, "square tall batched",                  \
    "The condition number in a matrix norm order.")                                                \
  X(matrix_power, matrix_power, 1, 1, Args, Custom, kInexact, Smooth, 0.1, "square batched",       \
    "A^n by repeated squaring; n < 0 inverts first.")                                              \
  X(multi_dot, multi_dot, 2, 1, Args, Custom, kNumeric, Smooth, 0.1, "vector",                     \
    "The product of a chain of matrices in the cheapest order.")                                   \
  X(vecdot, vecdot, 2, 1, Args, Custom, kNumeric, Smooth, 0.1, "broadcast",                        \
    "sum(conj(a) * b) over one axis.")                                                             \
  X(vander, vander, 1, 1, Args, Custom, kNumeric, Smooth, 0.1, "vector batched",                   \
    "The Vandermonde matrix with increasing powers.")                                              \
  X(tensorinv, tensorinv, 1, 1, Args, Custom, kInexact, Smooth, 0.1, "tensor",                     \
    "The inverse of a tensor as a linear map between groups of its dims.")                         \
  X(tensorsolve, tensorsolve, 2, 1, Args, Custom, kInexact, Smooth, 0.1, "tensor",                 \
    "x with tensordot(a, x) = b.")                                                                 \
  X(svd_truncated, svd_truncated, 1, 3, Options, Matrix, kInexact, Gauge, 0.2, "square tall wide batched",   \
    "SVD keeping at most max_rank triplets above a relative and absolute cutoff.")                 \
  X(qr_pivoted, qr_pivoted, 1, 3, Options, Matrix, kInexact, Pivots, 0.2,                          \
    "square tall wide batched",                                                                    \
    "QR with column pivoting (rank-revealing): A[:, perm] = Q R.")                               \
  X(matrix_rank, matrix_rank, 1, 1, Args, Custom, kInexact, Pivots, 0.2,                           \
    "square tall wide batched rank",                                                               \
    "The number of singular values above max(atol, rtol * s_max), as I64.")                        \
  X(logdet, logdet, 1, 1, Plain, Square, kInexact, Smooth, 0.2, "square batched",                  \
    "log det(A); NaN for a negative real determinant, the principal log for complex.")             \
  X(cholesky_solve, cholesky_solve, 2, 1, Args, Custom, kInexact, Smooth, 0.2,                     \
    "square batched broadcast", "X with A X = B from the Cholesky factor of A.")                  \
  X(polar, polar, 1, 2, Plain, Matrix, kInexact, Smooth, 0.2, "square tall wide batched",          \
    "The polar decomposition A = U P: U with orthonormal columns, P positive semidefinite.")

/* The kernel ops of the basis (extension ops), each defined in src/linalg/ops/ by an accessor
 * <name>_op(). K(name, inputs, outputs) */
#define TFE_LINALG_KERNELS(K)                                                                      \
  K(triangular_solve, 2, 1)                                                                        \
  K(lu_factor, 1, 3)                                                                               \
  K(lu_factor_solve, 2, 3)                                                                         \
  K(lu_solve, 3, 1)                                                                                \
  K(cholesky, 1, 1)                                                                                \
  K(qr, 1, 2)                                                                                      \
  K(svd, 1, 3)                                                                                     \
  K(eigh, 1, 2)                                                                                    \
  K(eig, 1, 2)                                                                                     \
  K(svdvals, 1, 1)                                                                                 \
  K(eigvalsh, 1, 1)                                                                                \
  K(eigvals, 1, 1)                                                                                 \
  K(pivots_to_permutation, 1, 1)                                                                   \
  K(det, 3, 1)                                                                                     \
  K(slogdet, 3, 2)                                                                                 \
  K(adjugate, 3, 1)                                                                                \
  K(pinv, 1, 1)                                                                                    \
  K(matrix_exp, 1, 1)                                                                              \
  K(matrix_exp_frechet, 2, 1)                                                                      \
  K(column_pivots, 1, 1)
/* clang-format on */

#endif
