/** @file
 * tenferro/einsum.h: Einstein summation with contraction-order optimisation. Included by
 * tenferro.h. Guide: docs/einsum.md; the ellipsis rule: docs/decisions/0024.
 *
 * Grammar (NumPy's): "ij,jk->ik" (explicit output) or "ij,jk" (implicit output: the ellipsis
 * dims, then the letters used exactly once, in ASCII order, so upper case first). Indices are
 * the letters a-z and A-Z; a letter names the operand's dims in shape order (dim 0 first), as in
 * NumPy on the same logical shapes. A letter repeated within one operand takes a diagonal
 * ("ii->i") or a trace ("ii->"); a letter missing from the output is summed. Spaces are ignored.
 * "..." stands for the dims no letter names; those dims align LEFT across operands (the first
 * dim of each "..." pair up; a shorter "..." acts as if padded with trailing extents of 1), as
 * every broadcast of the library does, so "ij...,jk...->ik..." is tfe_matmul's batched product.
 * An index of extent 1 broadcasts against a larger extent of the same index. Operands promote to
 * their joined dtype (Bool computes as integers and gives Bool: any product true). Complex
 * operands are never conjugated.
 *
 * The operands are contracted pairwise in the order of the cheapest path (tfe_einsum_path):
 * exhaustive search up to 10 operands, a greedy search beyond. Paths are cached per context,
 * keyed by the subscripts and the shapes (TFE_CACHE_EINSUM in tfe_context_cache_stats).
 *
 * einsum is built from tfe_dot_general, tfe_reduce_sum, tfe_extract_diag, tfe_reshape,
 * tfe_transpose, tfe_broadcast_in_dim and tfe_mul (a batched outer product is a broadcast
 * multiply), so it works and differentiates wherever they do: eagerly (tracked tensors), in
 * traced programs (symbolic operands), in dataflow contexts and on a CUDA device. */
#ifndef TENFERRO_EINSUM_H
#define TENFERRO_EINSUM_H

#include "tenferro/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Einstein summation of n operands, equal to numpy.einsum on the same logical shapes.
 * @param[out] out new reference (tfe_tensor_release); NULL on failure.
 * @param subscripts NUL-terminated string of the grammar above, one input term per operand.
 * @param n number of operands, 1 to 64.
 * @param operands n tensors of one context (concrete, tracked or symbolic); borrowed.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (NULL argument, n outside 1..64, malformed
 *   subscripts, a term that does not fit its operand's rank, two contexts);
 *   TFE_ERR_SHAPE_MISMATCH (extents of one index differ and neither is 1);
 *   TFE_ERR_DTYPE_MISMATCH (cannot happen for the library's dtypes; reserved). The message
 *   names tfe_einsum, the subscripts, the operand (index, term, shape) and the extents.
 * @since 0.2
 */
TFE_API TFE_NODISCARD tfe_status tfe_einsum(tfe_tensor** out, const char* subscripts, int32_t n,
                                            tfe_tensor* const* operands);

/**
 * The contraction path tfe_einsum uses for these operands, in numpy.einsum_path's convention:
 * step s contracts the operands at positions dst[2s] < dst[2s+1] of the current list, removes
 * both and appends the result at the end (the list starts as the operands after their own
 * diagonals and sums). Cost model: per step, the product of the extents of every index of the
 * two operands, doubled when the step sums an index; a symbolic extent counts as 100.
 * @param subscripts, n, operands as for tfe_einsum (only shapes are read; 1 <= n <= 64).
 * @param dst caller buffer of capacity_bytes receiving 2 * steps int64_t values; may be NULL when
 *   capacity_bytes is 0 (a query of the step count).
 * @param capacity_bytes size of dst in bytes: 0, or at least 2 * steps * sizeof(int64_t) (steps is
 *   n - 1, so 16 * (n - 1) always suffices).
 * @param[out] out_steps number of pairwise steps (n - 1).
 * @param[out] out_flops estimated flops of the whole path.
 * @param[out] out_largest number of elements of the largest intermediate (0 without steps).
 * @param[out] out_optimal 1 when the path is the proven optimum of the cost model (exhaustive
 *   search), 0 when it is greedy.
 * @return as tfe_einsum; also TFE_ERR_INVALID_ARGUMENT for capacity_bytes > 0 that is too small
 *   or NULL dst with capacity_bytes > 0 (nothing is written then).
 * @since 0.2
 */
TFE_API TFE_NODISCARD tfe_status tfe_einsum_path(const char* subscripts, int32_t n,
                                                 tfe_tensor* const* operands, void* dst,
                                                 int64_t capacity_bytes, int32_t* out_steps,
                                                 double* out_flops, double* out_largest,
                                                 int32_t* out_optimal);

/* ---- Companions: tensordot, outer, kron, trace ------------------------------------------- */
/* Each is an einsum (or a diagonal and a sum) underneath, so each works and differentiates
 * wherever einsum does: eagerly, in traced programs and in dataflow contexts. Operands promote
 * to their joined dtype. */

/**
 * numpy.tensordot: sums the products over the dim pairs (axes_a[k] of a, axes_b[k] of b); the
 * result has a's remaining dims, then b's, each in order. n_axes = 0 is the outer product.
 * @param[out] out new reference (tfe_tensor_release); NULL on failure.
 * @param a, b the operands (borrowed), of one context.
 * @param n_axes number of dim pairs, 0 to min(rank a, rank b).
 * @param axes_a n_axes dims of a (negative counts from the end); NULL when n_axes is 0.
 * @param axes_b n_axes dims of b, paired with axes_a.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (NULL or released handle, negative n_axes, an axis
 *   out of range or listed twice, two contexts, more than 52 dims in all);
 *   TFE_ERR_SHAPE_MISMATCH (a pair of dims with different extents; the message names both).
 * @since 0.2
 */
TFE_API TFE_NODISCARD tfe_status tfe_tensordot(tfe_tensor** out, const tfe_tensor* a,
                                               const tfe_tensor* b, int32_t n_axes,
                                               const int64_t* axes_a, const int64_t* axes_b);

/**
 * The outer (tensor) product: out[i.., j..] = a[i..] * b[j..], shape a's dims then b's. For two
 * vectors this is numpy.outer; higher ranks keep their dims (numpy.multiply.outer), nothing is
 * flattened. Complex operands are not conjugated.
 * @param[out] out new reference (tfe_tensor_release); NULL on failure.
 * @param a, b the operands (borrowed), of one context.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (NULL or released handle, two contexts, more than 52
 *   dims in all).
 * @since 0.2
 */
TFE_API TFE_NODISCARD tfe_status tfe_outer(tfe_tensor** out, const tfe_tensor* a,
                                           const tfe_tensor* b);

/**
 * The Kronecker product: along each dim d the extent is a_d * b_d and element
 * (i * b_d + k) is a[i] * b[k] (for matrices the usual A (x) B). An operand of lower rank is
 * padded with TRAILING extents of 1 (the library's left-aligned convention: a vector is a column;
 * numpy.kron pads in front, so there a vector is a row).
 * @param[out] out new reference (tfe_tensor_release); NULL on failure.
 * @param a, b the operands (borrowed), of one context.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (NULL or released handle, two contexts, rank above 26).
 * @since 0.2
 */
TFE_API TFE_NODISCARD tfe_status tfe_kron(tfe_tensor** out, const tfe_tensor* a,
                                          const tfe_tensor* b);

/**
 * The matrix trace: the sum of the diagonal of dims 0 and 1, `offset` above it (offset > 0) or
 * below (offset < 0), for every batch index; the result has the batch dims (rank - 2).
 * Non-square matrices sum their min(m, n)-long diagonal; an offset beyond the matrix gives 0.
 * Bool and I32 sum in I64 (as numpy.trace).
 * @param[out] out new reference (tfe_tensor_release); NULL on failure.
 * @param x the operand (borrowed), rank >= 2.
 * @param offset the diagonal: 0 the main one.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (NULL or released handle, rank below 2).
 * @since 0.2
 */
TFE_API TFE_NODISCARD tfe_status tfe_trace(tfe_tensor** out, const tfe_tensor* x, int64_t offset);

#ifdef __cplusplus
}
#endif

#endif /* TENFERRO_EINSUM_H */
