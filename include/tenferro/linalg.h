/** @file
 * tenferro/linalg.h: linear algebra. Included by tenferro.h.
 *
 * Matrices are the first two dims of a tensor and every further dim is a batch dim
 * ([M,N,B..], column-major, decision 0001). Two-operand functions promote both operands to their
 * joined float dtype and broadcast their batch dims left-aligned. Inputs must be F32, F64, C32
 * or C64 (TFE_ERR_DTYPE_MISMATCH otherwise). Outputs are new references (NULL on failure; a
 * multi-output function sets every output or none). Every function works eagerly, records for
 * eager AD when an input is tracked, and traces when an input is symbolic; every function has a
 * derivative (tenferro/ad.h, docs/linalg.md).
 *
 * Status, for all functions: TFE_ERR_INVALID_ARGUMENT (NULL handle or output), TFE_ERR_SHAPE_
 * MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do not match),
 * TFE_ERR_DTYPE_MISMATCH, and the numerical statuses documented per function; a message names
 * the function, the values and the batch index (the column-major index over the batch dims).
 * Real-valued results (eigh values, singular values, slogdet's logabs) are F32 for F32/C32 input
 * and F64 for F64/C64. @since 0.1 */
#ifndef TENFERRO_LINALG_H
#define TENFERRO_LINALG_H

#include "tenferro/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/** X with A X = B: a [N,N,B..], b [N,K,B..] (rank >= 2; one right-hand side is [N,1,..]).
 *  One LU factorisation per matrix (LAPACK getrf/getrs); tracked, it keeps the factors so that
 *  its derivative does not factor A again. TFE_ERR_SINGULAR when a matrix is exactly singular
 *  (the message names the batch index and the zero pivot); near-singular systems are solved.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param a the first operand (borrowed).
 *  @param b the second operand (borrowed).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *         TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *         not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64); TFE_ERR_SINGULAR as
 *         described above. */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_solve(tfe_tensor** out, const tfe_tensor* a,
                                                  const tfe_tensor* b);
/** L with A = L L^H, lower triangular (the upper triangle exact zeros); reads only the lower
 *  triangle of a. Derivatives treat a as Hermitian (Hermitian gradient (G + G^H)/2).
 *  TFE_ERR_NUMERICAL when a matrix is not positive definite (names the batch index and the
 *  failing leading minor).
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param a the operand (borrowed).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *         TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *         not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64); TFE_ERR_NUMERICAL as
 *         described above. */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_cholesky(tfe_tensor** out, const tfe_tensor* a);
/** Reduced QR: A = Q R, q [M,K,B..] with orthonormal columns, r [K,N,B..] upper triangular (exact
 *  zeros below), K = min(M,N). Never fails on rank deficiency. Derivatives for tall and wide
 *  inputs.
 *  @param[out] out_q new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param[out] out_r new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param a the operand (borrowed).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *         TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *         not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_qr(tfe_tensor** out_q, tfe_tensor** out_r,
                                               const tfe_tensor* a);
/** Reduced SVD: A = U diag(S) Vh, u [M,K,B..], s [K,B..] real and descending, vh [K,N,B..]
 *  (divide and conquer, gesdd). TFE_ERR_NON_CONVERGENCE when LAPACK does not converge. Singular
 *  vectors have a phase gauge: differentiate gauge-invariant functions of them.
 *  @param[out] out_u new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param[out] out_s new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param[out] out_vh new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param a the operand (borrowed).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *         TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *         not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64); TFE_ERR_NON_CONVERGENCE as
 *         described above. */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_svd(tfe_tensor** out_u, tfe_tensor** out_s,
                                                tfe_tensor** out_vh, const tfe_tensor* a);
/** Hermitian eigendecomposition A = V diag(w) V^H, reading the lower triangle of a: w [N,B..]
 *  real and ascending, v [N,N,B..] unitary (divide and conquer, syevd/heevd). Derivatives treat
 *  a as Hermitian; eigenvectors have a phase gauge (v_k^H dv_k = 0). TFE_ERR_NON_CONVERGENCE.
 *  @param[out] out_w new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param[out] out_v new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param a the operand (borrowed).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *         TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *         not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64); TFE_ERR_NON_CONVERGENCE as
 *         described above. */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_eigh(tfe_tensor** out_w, tfe_tensor** out_v,
                                                 const tfe_tensor* a);
/** General eigendecomposition A V = V diag(w): w [N,B..] and v [N,N,B..] complex (C32 for
 *  F32/C32, C64 for F64/C64, also for real input), columns of unit 2-norm, in LAPACK's order
 *  (geev). Derivatives of values and vectors (gauge v_k^H dv_k = 0); exactly repeated
 *  eigenvalues are not differentiable. TFE_ERR_NON_CONVERGENCE.
 *  @param[out] out_w new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param[out] out_v new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param a the operand (borrowed).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *         TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *         not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64); TFE_ERR_NON_CONVERGENCE as
 *         described above. */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_eig(tfe_tensor** out_w, tfe_tensor** out_v,
                                                const tfe_tensor* a);
/** The inverse, by solving A X = I. TFE_ERR_SINGULAR as tfe_linalg_solve.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param a the operand (borrowed).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *        TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *        not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64); TFE_ERR_SINGULAR as
 *        described above. */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_inv(tfe_tensor** out, const tfe_tensor* a);
/** The determinant [B..] from an LU factorisation; 0 for an exactly singular matrix. Its gradient
 *  is the adjugate, exact at every rank (cofactors at rank N-1, zero below).
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param a the operand (borrowed).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *         TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *         not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_det(tfe_tensor** out, const tfe_tensor* a);
/** sign [B..] (a's dtype: +-1, or det/|det| for complex; 0 when singular) and logabs [B..] (real;
 *  -inf when singular) with det = sign * exp(logabs). At a singular matrix logabs has no finite
 *  derivative: a derivative request through it fails with TFE_ERR_SINGULAR.
 *  @param[out] out_sign new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param[out] out_logabs new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param a the operand (borrowed).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *         TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *         not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64); TFE_ERR_SINGULAR as
 *         described above. */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_slogdet(tfe_tensor** out_sign, tfe_tensor** out_logabs,
                                                    const tfe_tensor* a);

/* ---- options ------------------------------------------------------------------------------ */

/** Options of the linalg functions that have any (an opaque object: later options do not change
 *  the ABI). Every setter applies only to the functions named; NULL options mean all defaults. */
typedef struct tfe_linalg_options tfe_linalg_options;
/** op(A) for solve_triangular and lu_solve. */
#define TFE_LINALG_NO_TRANS 0
#define TFE_LINALG_TRANS 1      /**< op(A) = A^T. */
#define TFE_LINALG_CONJ_TRANS 2 /**< op(A) = A^H. */

/** A new options object with every default.
 *  @param[out] out new reference owned by the caller (tfe_linalg_options_release); NULL on
 *         failure.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (NULL out); TFE_ERR_OUT_OF_MEMORY. @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_options_create(tfe_linalg_options** out);
/** Drops a reference; the object goes with its last one. NULL-safe; a second release of a
 *  released object is reported in tfe_last_error_message and otherwise ignored.
 *  @param o the options (the caller's reference is consumed). @since 0.1 */
TFE_API void tfe_linalg_options_release(tfe_linalg_options* o);
/**
 * Adds a reference to an options object (each reference is released once).
 * @param o the options (borrowed).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (o is NULL or released).
 * @since 0.2
 */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_options_retain(tfe_linalg_options* o);
/** Read (cholesky: return) the upper triangle instead of the lower: cholesky_ex, eigh_ex,
 *  eigvalsh, solve_triangular. Default 0.
 *  @param o the options object (borrowed).
 *  @param upper non-zero for the upper triangle.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *         TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *         not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_options_set_upper(tfe_linalg_options* o, int32_t upper);
/** solve_triangular: op(A) X = B (1, default) or X op(A) = B (0).
 * @param o the options object (borrowed).
 * @param left non-zero to solve A X = B, 0 for X A = B.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *        TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *        not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_options_set_left(tfe_linalg_options* o, int32_t left);
/** solve_triangular: the diagonal of A is taken as 1 and not read. Default 0.
 * @param o the options object (borrowed).
 * @param unit_diagonal non-zero: the diagonal of A is taken as 1.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *        TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *        not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_options_set_unit_diagonal(tfe_linalg_options* o,
                                                                      int32_t unit_diagonal);
/** solve_triangular and lu_solve: TFE_LINALG_NO_TRANS (default), _TRANS or _CONJ_TRANS.
 * @param o the options object (borrowed).
 * @param trans TFE_LINALG_NO_TRANS, TFE_LINALG_TRANS or TFE_LINALG_CONJ_TRANS.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *        TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *        not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_options_set_transpose(tfe_linalg_options* o,
                                                                  int32_t trans);
/** qr_ex: complete Q [M,M] and R [M,N]; svd_ex: full U [M,M] and Vh [N,N]. Default 0 (reduced).
 * @param o the options object (borrowed).
 * @param full non-zero for the complete factors.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *        TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *        not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_options_set_full_matrices(tfe_linalg_options* o,
                                                                      int32_t full);
/** qr_ex: the gauge with a real non-negative diagonal of R (Q's columns rescaled by phases; the
 *  factorisation is then unique for full-rank A). Default 0 (LAPACK's Householder signs).
 *  @param o the options object (borrowed).
 *  @param positive non-zero for the non-negative diagonal gauge.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *         TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *         not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_options_set_positive_diagonal(tfe_linalg_options* o,
                                                                          int32_t positive);
/** eigh_ex, eig_ex, svd_ex: derivative_eps >= 0. With eps > 0 the derivatives use
 *  (w_j - w_i) / ((w_j - w_i)^2 + eps) in place of 1 / (w_j - w_i) (Lorentzian broadening), so
 *  near-degenerate spectra give finite derivatives. Default 0 (exact; exactly degenerate input
 *  is then not differentiable).
 *  @param o the options object (borrowed).
 *  @param eps the broadening, >= 0 (0: exact).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *         TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *         not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_options_set_derivative_eps(tfe_linalg_options* o,
                                                                       double eps);
/** pinv and lstsq: singular values below rtol * max(s) count as zero. Negative (default):
 *  max(M, N) * machine epsilon of the dtype.
 *  @param o the options object (borrowed).
 *  @param rtol the relative cut-off (negative: the default).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *         TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *         not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_options_set_rtol(tfe_linalg_options* o, double rtol);
/** pinv: a is Hermitian (eigh instead of svd). Default 0.
 * @param o the options object (borrowed).
 * @param hermitian non-zero when a is Hermitian.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *        TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *        not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_options_set_hermitian(tfe_linalg_options* o,
                                                                  int32_t hermitian);

/* ---- the rest of the kernel basis ------------------------------------------------------------ */

/** Solves op(A) X = B (or X op(A) = B) with A triangular: only its triangle is read (and not
 *  the diagonal with unit_diagonal). A zero on the diagonal gives inf/nan, as BLAS trsm.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param a the first operand (borrowed).
 *  @param b the second operand (borrowed).
 *  @param opts options (borrowed), or NULL for every default.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *         TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *         not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_solve_triangular(tfe_tensor** out, const tfe_tensor* a,
                                                             const tfe_tensor* b,
                                                             const tfe_linalg_options* opts);
/** tfe_linalg_cholesky with options (upper: U with A = U^H U from the upper triangle).
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param a the operand (borrowed).
 * @param opts options (borrowed), or NULL for every default.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *        TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *        not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_cholesky_ex(tfe_tensor** out, const tfe_tensor* a,
                                                        const tfe_linalg_options* opts);
/** tfe_linalg_qr with options (full_matrices: complete QR; positive_diagonal gauge).
 * @param[out] out_q new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param[out] out_r new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param a the operand (borrowed).
 * @param opts options (borrowed), or NULL for every default.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *        TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *        not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_qr_ex(tfe_tensor** out_q, tfe_tensor** out_r,
                                                  const tfe_tensor* a,
                                                  const tfe_linalg_options* opts);
/** tfe_linalg_svd with options (full_matrices, derivative_eps).
 * @param[out] out_u new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param[out] out_s new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param[out] out_vh new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param a the operand (borrowed).
 * @param opts options (borrowed), or NULL for every default.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *        TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *        not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_svd_ex(tfe_tensor** out_u, tfe_tensor** out_s,
                                                   tfe_tensor** out_vh, const tfe_tensor* a,
                                                   const tfe_linalg_options* opts);
/** The singular values alone [K,B..], descending (no vectors computed).
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param a the operand (borrowed).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *        TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *        not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_svdvals(tfe_tensor** out, const tfe_tensor* a);
/** tfe_linalg_eigh with options (upper, derivative_eps).
 * @param[out] out_w new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param[out] out_v new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param a the operand (borrowed).
 * @param opts options (borrowed), or NULL for every default.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *        TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *        not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_eigh_ex(tfe_tensor** out_w, tfe_tensor** out_v,
                                                    const tfe_tensor* a,
                                                    const tfe_linalg_options* opts);
/** Hermitian eigenvalues alone, ascending (upper from opts).
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param a the operand (borrowed).
 * @param opts options (borrowed), or NULL for every default.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *        TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *        not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_eigvalsh(tfe_tensor** out, const tfe_tensor* a,
                                                     const tfe_linalg_options* opts);
/** tfe_linalg_eig with options (derivative_eps).
 * @param[out] out_w new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param[out] out_v new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param a the operand (borrowed).
 * @param opts options (borrowed), or NULL for every default.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *        TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *        not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_eig_ex(tfe_tensor** out_w, tfe_tensor** out_v,
                                                   const tfe_tensor* a,
                                                   const tfe_linalg_options* opts);
/** General eigenvalues alone (complex).
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param a the operand (borrowed).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *        TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *        not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_eigvals(tfe_tensor** out, const tfe_tensor* a);
/** Packed LU with partial pivoting (getrf): lu [M,N,B..] (L unit lower below the diagonal, U on
 *  and above), pivots I32 [K,B..] (LAPACK's 1-based row interchanges), info I32 [B..] (0, or the
 *  1-based index of the first exactly zero pivot). Singular input is not an error here.
 *  @param[out] out_lu new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param[out] out_pivots new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param[out] out_info new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param a the operand (borrowed).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *         TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *         not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_lu_factor(tfe_tensor** out_lu, tfe_tensor** out_pivots,
                                                      tfe_tensor** out_info, const tfe_tensor* a);
/** Solves op(A) X = B from lu_factor's outputs (transpose from opts). TFE_ERR_SINGULAR when U has
 *  an exactly zero pivot.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param lu the packed LU factors of tfe_linalg_lu_factor (borrowed).
 *  @param pivots the pivots of tfe_linalg_lu_factor (borrowed).
 *  @param b the second operand (borrowed).
 *  @param opts options (borrowed), or NULL for every default.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *         TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *         not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64); TFE_ERR_SINGULAR as
 *         described above. */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_lu_solve(tfe_tensor** out, const tfe_tensor* lu,
                                                     const tfe_tensor* pivots, const tfe_tensor* b,
                                                     const tfe_linalg_options* opts);
/** A = P L U unpacked: p [M,M,B..] (a's dtype), l [M,K,B..] unit lower, u [K,N,B..] upper.
 * @param[out] out_p new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param[out] out_l new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param[out] out_u new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param a the operand (borrowed).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *        TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *        not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_lu(tfe_tensor** out_p, tfe_tensor** out_l,
                                               tfe_tensor** out_u, const tfe_tensor* a);

/* ---- composites (built from the basis; differentiable through it) -------------------------- */

/** The matrix exponential (scaling and squaring, Pade 13). Its derivative is the Frechet
 *  derivative (block-matrix method), differentiable again.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param a the operand (borrowed).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *         TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *         not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_matrix_exp(tfe_tensor** out, const tfe_tensor* a);
/** The pseudo-inverse [N,M,B..] from the SVD (rtol, hermitian from opts). Its derivative is the
 *  constant-rank formula, so rank-deficient matrices differentiate (first order exactly; second
 *  order exactly at full rank). With hermitian, a function of Hermitian matrices (as eigh).
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param a the operand (borrowed).
 *  @param opts options (borrowed), or NULL for every default.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *         TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *         not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_pinv(tfe_tensor** out, const tfe_tensor* a,
                                                 const tfe_linalg_options* opts);
/** The minimum-norm least-squares solution of A X = B (pinv(A) B; rtol from opts).
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param a the first operand (borrowed).
 * @param b the second operand (borrowed).
 * @param opts options (borrowed), or NULL for every default.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *        TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *        not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_lstsq(tfe_tensor** out, const tfe_tensor* a,
                                                  const tfe_tensor* b,
                                                  const tfe_linalg_options* opts);
/** Matrix norm orders. */
#define TFE_NORM_FRO 0
#define TFE_NORM_NUC 1     /**< Nuclear: the sum of singular values. */
#define TFE_NORM_1 2       /**< Largest column sum of |a|. */
#define TFE_NORM_NEG_1 3   /**< Smallest column sum of |a|. */
#define TFE_NORM_2 4       /**< Largest singular value. */
#define TFE_NORM_NEG_2 5   /**< Smallest singular value. */
#define TFE_NORM_INF 6     /**< Largest row sum of |a|. */
#define TFE_NORM_NEG_INF 7 /**< Smallest row sum of |a|. */
/** A matrix norm over the first two dims, real [B..]: Frobenius, nuclear (sum of singular
 *  values), 1 (largest column sum of |a|), 2 (largest singular value), inf (largest row sum), and
 *  the negative orders (smallest).
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param a the operand (borrowed).
 *  @param ord TFE_NORM_FRO, TFE_NORM_NUC, TFE_NORM_1, ... TFE_NORM_NEG_INF.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *         TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *         not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_matrix_norm(tfe_tensor** out, const tfe_tensor* a,
                                                        int32_t ord);
/** (sum |x|^ord)^(1/ord) over axes (n_axes == 0: all), real; ord = INFINITY: max |x|,
 *  -INFINITY: min |x|, 0: the count of nonzeros.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed).
 *  @param ord the order (INFINITY, -INFINITY and 0 allowed).
 *  @param n_axes number of entries of axes.
 *  @param axes n_axes distinct axes (negative axes count from the end); NULL allowed when n_axes ==
 *         0.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *         TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *         not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_vector_norm(tfe_tensor** out, const tfe_tensor* x,
                                                        double ord, int32_t n_axes,
                                                        const int64_t* axes);
/** The condition number in a matrix norm order (2: s_max / s_min; -2: its inverse; others:
 *  norm(a) * norm(inv(a))).
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param a the operand (borrowed).
 *  @param ord TFE_NORM_FRO, TFE_NORM_NUC, TFE_NORM_1, ... TFE_NORM_NEG_INF.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *         TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *         not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_cond(tfe_tensor** out, const tfe_tensor* a,
                                                 int32_t ord);
/** a^n by repeated squaring; n < 0 inverts first; n == 0 gives the identity.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param a the operand (borrowed).
 * @param n the power (negative: of the inverse).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *        TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *        not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_matrix_power(tfe_tensor** out, const tfe_tensor* a,
                                                         int64_t n);
/** The product of n >= 2 matrices in the cheapest order (matrix-chain dynamic programming); the
 *  first and last may be vectors ([N]), as in NumPy. No batch dims.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param n number of entries of the array that follows.
 *  @param xs the n tensors (borrowed).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *         TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *         not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_multi_dot(tfe_tensor** out, int32_t n,
                                                      tfe_tensor* const* xs);
/** sum(conj(a) * b) over axis (operands broadcast and promote).
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param a the first operand (borrowed).
 * @param b the second operand (borrowed).
 * @param axis the axis (a negative axis counts from the end).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *        TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *        not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_vecdot(tfe_tensor** out, const tfe_tensor* a,
                                                   const tfe_tensor* b, int64_t axis);
/** The Vandermonde matrix [N,n,B..] of x [N,B..]: column k is x^k, k = 0..n-1 (increasing, as
 *  torch.linalg.vander).
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed).
 *  @param n number of columns (the powers 0 .. n - 1).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *         TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *         not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_vander(tfe_tensor** out, const tfe_tensor* x,
                                                   int64_t n);
/** The inverse of a as a linear map from its last ndim - ind dims to its first ind dims: shape
 *  a.shape[ind:] + a.shape[:ind] (column-major flattening of each group).
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param a the operand (borrowed).
 *  @param ind the number of leading dims of the output space.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *         TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *         not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_tensorinv(tfe_tensor** out, const tfe_tensor* a,
                                                      int64_t ind);
/** x with tensordot(a, x) = b: a has b's dims followed by x's (column-major flattening).
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param a the first operand (borrowed).
 * @param b the second operand (borrowed).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *        TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *        not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64). */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_tensorsolve(tfe_tensor** out, const tfe_tensor* a,
                                                        const tfe_tensor* b);

/** tfe_linalg_svd_truncated: keep at most max_rank singular triplets (the largest). Default -1:
 *  no limit.
 *  @param o the options object (borrowed).
 *  @param max_rank the most triplets kept, >= 0, or -1 for no limit.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle; max_rank < -1).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_options_set_max_rank(tfe_linalg_options* o,
                                                                 int64_t max_rank);
/** tfe_linalg_svd_truncated: drop the singular triplets with s <= max(atol, rtol * s_max) of
 *  their matrix. Default 0, 0: no cutoff.
 *  @param o the options object (borrowed).
 *  @param rtol the relative cutoff, finite and >= 0 (0: none).
 *  @param atol the absolute cutoff, finite and >= 0 (0: none).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle; a negative, NaN or
 *          infinite cutoff).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_options_set_cutoff(tfe_linalg_options* o, double rtol,
                                                               double atol);
/** Truncated SVD: the reduced SVD A = U diag(S) Vh keeping the R largest singular triplets that
 *  pass the options' max_rank and cutoff (tfe_linalg_options_set_max_rank,
 *  tfe_linalg_options_set_cutoff). U [M,R,B..], S [R,B..] descending, Vh [R,N,B..]. A batch
 *  keeps one R: for eager tensors the largest count kept by any of its matrices; inside traced
 *  functions and dataflow contexts (values unknown when the shape is fixed) min(max_rank, K).
 *  The triplets a matrix does not keep are exact zeros. The derivative is exact for functions of
 *  the kept factors wherever the kept singular values are distinct, nonzero and separated from
 *  the discarded ones (the discarded subspace's term included); derivative_eps broadens it as
 *  for tfe_linalg_svd_ex.
 * @param[out] out_u new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param[out] out_s new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param[out] out_vh new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param a the operand [M,N,B..] (borrowed).
 * @param opts options (borrowed), or NULL for every default (no truncation).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *        TFE_ERR_SHAPE_MISMATCH (rank < 2); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64);
 *        TFE_ERR_NOT_SUPPORTED (symbolic matrix dims); TFE_ERR_NON_CONVERGENCE (NaN or inf in a).
 * @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_svd_truncated(tfe_tensor** out_u, tfe_tensor** out_s,
                                                          tfe_tensor** out_vh, const tfe_tensor* a,
                                                          const tfe_linalg_options* opts);
/** QR with column pivoting (rank-revealing, LAPACK geqp3): A[:, perm] = Q R with |diag(R)|
 *  non-increasing, SciPy's qr(pivoting=True). Reduced (Q [M,K], R [K,N]) or, with
 *  full_matrices, complete (Q [M,M], R [M,N]); perm I64 [N,B..], 0-based. The derivative is that
 *  of Q and R at the fixed column order (the order is piecewise constant in A).
 * @param[out] out_q new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param[out] out_r new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param[out] out_perm new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param a the operand [M,N,B..] (borrowed).
 * @param opts options (borrowed), or NULL for every default.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *        TFE_ERR_SHAPE_MISMATCH (rank < 2); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64).
 * @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_qr_pivoted(tfe_tensor** out_q, tfe_tensor** out_r,
                                                       tfe_tensor** out_perm, const tfe_tensor* a,
                                                       const tfe_linalg_options* opts);

/** The rank of each matrix [B..] (I64): the number of singular values (|eigenvalues| with the
 *  hermitian option) above max(atol, rtol * the largest). rtol and hermitian come from opts; a
 *  negative rtol (the default) means max(M, N) * machine epsilon of the dtype when atol <= 0 and 0
 *  when atol > 0 (NumPy's and PyTorch's rule). Integer-valued: not differentiable.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param a the operand [M,N,B..] (borrowed).
 *  @param atol the absolute cut-off; <= 0 for none.
 *  @param opts options (borrowed: rtol, hermitian), or NULL for every default.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *         TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *         not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_matrix_rank(tfe_tensor** out, const tfe_tensor* a,
                                                        double atol,
                                                        const tfe_linalg_options* opts);
/** log det(A) per matrix, from the LU factorisation (slogdet). Real input: NaN where the
 *  determinant is negative and -inf where it is zero (as torch.logdet); complex input: the
 *  principal logarithm of the complex determinant. Differentiable: tr(A^-1 dA).
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param a the square operand [N,N,B..] (borrowed).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *         TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *         not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_logdet(tfe_tensor** out, const tfe_tensor* a);
/** X with A X = B from the Cholesky factor of A: A = L L^H (default) or A = U^H U (the upper
 *  option of opts). Only the factor's triangle is read. Two triangular solves, differentiable in
 *  both the factor and B; batch dims broadcast.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param l the triangular factor [N,N,B..] (borrowed).
 *  @param b the right-hand side [N,K,B..] (borrowed).
 *  @param opts options (borrowed: upper), or NULL for every default.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *         TFE_ERR_SHAPE_MISMATCH (rank < 2, a non-square matrix where one is needed, dims that do
 *         not match); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_cholesky_solve(tfe_tensor** out, const tfe_tensor* l,
                                                           const tfe_tensor* b,
                                                           const tfe_linalg_options* opts);
/** The polar decomposition A = U P: U [M,N,B..] with orthonormal columns (orthonormal rows when
 *  M < N) and P [N,N,B..] Hermitian positive semidefinite (positive definite when A has full
 *  column rank), from the reduced SVD A = W diag(S) Vh as U = W Vh and P = Vh^H diag(S) Vh. Both
 *  are free of the SVD's phase gauge; their derivatives (every engine, any order) are exact
 *  where the singular values are distinct and nonzero. TFE_ERR_NON_CONVERGENCE as
 *  tfe_linalg_svd.
 *  @param[out] out_u new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param[out] out_p new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param a the operand [M,N,B..] (borrowed).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle or output);
 *         TFE_ERR_SHAPE_MISMATCH (rank < 2); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or C64);
 *         TFE_ERR_NON_CONVERGENCE as described above.
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_linalg_polar(tfe_tensor** out_u, tfe_tensor** out_p,
                                                  const tfe_tensor* a);

#ifdef __cplusplus
}
#endif

#endif /* TENFERRO_LINALG_H */
