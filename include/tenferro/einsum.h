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
 * einsum is built from tfe_dot_general, tfe_reduce_sum, tfe_extract_diag, tfe_reshape and
 * tfe_transpose, so it works and differentiates wherever they do: eagerly (tracked tensors),
 * in traced programs (symbolic operands) and in dataflow contexts. */
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

#ifdef __cplusplus
}
#endif

#endif /* TENFERRO_EINSUM_H */
