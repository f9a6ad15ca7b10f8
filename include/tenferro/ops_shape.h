/** @file
 * tenferro/ops_shape.h: contraction, reductions, structural and indexing ops, conversion.
 * Included by tenferro.h. Common conventions as in ops_elementwise.h: out is a new reference
 * (NULL on failure), inputs are borrowed, axes count from 0 and NumPy-style negative axes count
 * from the end. Matrices are the first two dims, batch dims follow ([M,N,B..]). Extent-valued
 * parameters (the shapes of reshape and the broadcasts, slice starts/limits, dynamic_slice
 * sizes) take -k for symbol k of the context, for traced programs (tenferro/program.h).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (NULL handle or array, axis out of range, duplicate
 * axes, bad parameter); TFE_ERR_SHAPE_MISMATCH; TFE_ERR_DTYPE_MISMATCH. @since 0.1 */
#ifndef TENFERRO_OPS_SHAPE_H
#define TENFERRO_OPS_SHAPE_H

#include "tenferro/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/** [M,K,B..] x [K,N,B..] -> [M,N,B..]; batch dims broadcast left-aligned; operands promote;
 *  floats and complex run on BLAS gemm. A rank-1 operand is a vector, as in NumPy (since 0.2):
 *  [K] x [K,N,B..] -> [N,B..], [M,K,B..] x [K] -> [M,B..], [K] x [K] -> [] (rank 0 fails).
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param a the first operand (borrowed).
 *  @param b the second operand (borrowed).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a
 *         non-zero count, an axis out of range, duplicate axes, a bad parameter);
 *         TFE_ERR_SHAPE_MISMATCH (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the
 *         function does not accept). */
TFE_API TFE_NODISCARD tfe_status tfe_matmul(tfe_tensor** out, const tfe_tensor* a,
                                            const tfe_tensor* b);
/** General contraction. Output dims: lhs free dims (lhs order), rhs free dims (rhs order), then
 *  batch dims (lhs batch order). Arrays have n_contracting / n_batch entries (NULL when 0).
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param lhs the left operand (borrowed).
 *  @param rhs the right operand (borrowed).
 *  @param n_contracting number of contracting dim pairs.
 *  @param lhs_contracting n_contracting dims of lhs.
 *  @param rhs_contracting n_contracting dims of rhs, paired with lhs_contracting.
 *  @param n_batch number of batch dim pairs.
 *  @param lhs_batch n_batch dims of lhs.
 *  @param rhs_batch n_batch dims of rhs, paired with lhs_batch.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a
 *         non-zero count, an axis out of range, duplicate axes, a bad parameter);
 *         TFE_ERR_SHAPE_MISMATCH (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the
 *         function does not accept). */
TFE_API TFE_NODISCARD tfe_status tfe_dot_general(tfe_tensor** out, const tfe_tensor* lhs,
                                                 const tfe_tensor* rhs, int32_t n_contracting,
                                                 const int64_t* lhs_contracting,
                                                 const int64_t* rhs_contracting, int32_t n_batch,
                                                 const int64_t* lhs_batch,
                                                 const int64_t* rhs_batch);

/** Sum over axes (dropped); n_axes == 0 means every axis (rank-0 result). Bool and I32
 *  accumulate in I64 (NumPy); integers wrap.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed).
 *  @param n_axes number of entries of axes.
 *  @param axes n_axes distinct axes (negative axes count from the end); NULL allowed when n_axes ==
 *         0.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a
 *         non-zero count, an axis out of range, duplicate axes, a bad parameter);
 *         TFE_ERR_SHAPE_MISMATCH (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the
 *         function does not accept). */
TFE_API TFE_NODISCARD tfe_status tfe_sum(tfe_tensor** out, const tfe_tensor* x, int32_t n_axes,
                                         const int64_t* axes);
/** Product over axes, same conventions as tfe_sum.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param x the operand (borrowed).
 * @param n_axes number of entries of axes.
 * @param axes n_axes distinct axes (negative axes count from the end); NULL allowed when n_axes ==
 *        0.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a non-zero
 *        count, an axis out of range, duplicate axes, a bad parameter); TFE_ERR_SHAPE_MISMATCH
 *        (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the function does not
 *        accept). */
TFE_API TFE_NODISCARD tfe_status tfe_prod(tfe_tensor** out, const tfe_tensor* x, int32_t n_axes,
                                          const int64_t* axes);
/** Mean over axes (n_axes == 0: all); integers and Bool give F64; an empty mean is NaN.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param x the operand (borrowed).
 * @param n_axes number of entries of axes.
 * @param axes n_axes distinct axes (negative axes count from the end); NULL allowed when n_axes ==
 *        0.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a non-zero
 *        count, an axis out of range, duplicate axes, a bad parameter); TFE_ERR_SHAPE_MISMATCH
 *        (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the function does not
 *        accept). */
TFE_API TFE_NODISCARD tfe_status tfe_mean(tfe_tensor** out, const tfe_tensor* x, int32_t n_axes,
                                          const int64_t* axes);
/** The IR reductions: dtype kept (no widening); n_axes == 0 means every axis.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param x the operand (borrowed).
 * @param n_axes number of entries of axes.
 * @param axes n_axes distinct axes (negative axes count from the end); NULL allowed when n_axes ==
 *        0.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a non-zero
 *        count, an axis out of range, duplicate axes, a bad parameter); TFE_ERR_SHAPE_MISMATCH
 *        (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the function does not
 *        accept). */
TFE_API TFE_NODISCARD tfe_status tfe_reduce_sum(tfe_tensor** out, const tfe_tensor* x,
                                                int32_t n_axes, const int64_t* axes);
/** Product over axes in the operand's dtype (no widening); n_axes == 0 means every axis.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param x the operand (borrowed).
 * @param n_axes number of entries of axes.
 * @param axes n_axes distinct axes (negative axes count from the end); NULL allowed when n_axes ==
 *        0.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a non-zero
 *        count, an axis out of range, duplicate axes, a bad parameter); TFE_ERR_SHAPE_MISMATCH
 *        (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the function does not
 *        accept). */
TFE_API TFE_NODISCARD tfe_status tfe_reduce_prod(tfe_tensor** out, const tfe_tensor* x,
                                                 int32_t n_axes, const int64_t* axes);
/** Maximum over axes (NaN propagates; any() on Bool); no complex.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param x the operand (borrowed).
 * @param n_axes number of entries of axes.
 * @param axes n_axes distinct axes (negative axes count from the end); NULL allowed when n_axes ==
 *        0.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a non-zero
 *        count, an axis out of range, duplicate axes, a bad parameter); TFE_ERR_SHAPE_MISMATCH
 *        (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the function does not
 *        accept). */
TFE_API TFE_NODISCARD tfe_status tfe_reduce_max(tfe_tensor** out, const tfe_tensor* x,
                                                int32_t n_axes, const int64_t* axes);
/** Minimum over axes (NaN propagates; all() on Bool); no complex.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param x the operand (borrowed).
 * @param n_axes number of entries of axes.
 * @param axes n_axes distinct axes (negative axes count from the end); NULL allowed when n_axes ==
 *        0.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a non-zero
 *        count, an axis out of range, duplicate axes, a bad parameter); TFE_ERR_SHAPE_MISMATCH
 *        (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the function does not
 *        accept). */
TFE_API TFE_NODISCARD tfe_status tfe_reduce_min(tfe_tensor** out, const tfe_tensor* x,
                                                int32_t n_axes, const int64_t* axes);

/** Checked conversion: only lossless ones (join(from, to) == to), else TFE_ERR_DTYPE_MISMATCH.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param x the operand (borrowed).
 * @param dtype element type, TFE_BOOL .. TFE_C64.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a non-zero
 *        count, an axis out of range, duplicate axes, a bad parameter); TFE_ERR_SHAPE_MISMATCH
 *        (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the function does not
 *        accept). */
TFE_API TFE_NODISCARD tfe_status tfe_convert(tfe_tensor** out, const tfe_tensor* x, int32_t dtype);
/** Lossy conversion (the IR Convert): float -> int truncates toward zero and saturates, NaN -> 0;
 *  complex -> real keeps the real part; -> Bool is x != 0.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed).
 *  @param dtype element type, TFE_BOOL .. TFE_C64.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a
 *         non-zero count, an axis out of range, duplicate axes, a bad parameter);
 *         TFE_ERR_SHAPE_MISMATCH (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the
 *         function does not accept). */
TFE_API TFE_NODISCARD tfe_status tfe_cast(tfe_tensor** out, const tfe_tensor* x, int32_t dtype);
/** Output dim i is input dim perm[i]; ndim == rank of x. A view (no copy).
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param x the operand (borrowed).
 * @param ndim rank, >= 0.
 * @param perm ndim entries: output dim i is input dim perm[i].
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a non-zero
 *        count, an axis out of range, duplicate axes, a bad parameter); TFE_ERR_SHAPE_MISMATCH
 *        (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the function does not
 *        accept). */
TFE_API TFE_NODISCARD tfe_status tfe_transpose(tfe_tensor** out, const tfe_tensor* x, int32_t ndim,
                                               const int64_t* perm);
/** Same elements in column-major order with a new shape (a view when the layout allows).
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param x the operand (borrowed).
 * @param ndim rank, >= 0.
 * @param shape ndim extents (NULL allowed when ndim == 0).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a non-zero
 *        count, an axis out of range, duplicate axes, a bad parameter); TFE_ERR_SHAPE_MISMATCH
 *        (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the function does not
 *        accept). */
TFE_API TFE_NODISCARD tfe_status tfe_reshape(tfe_tensor** out, const tfe_tensor* x, int32_t ndim,
                                             const int64_t* shape);
/** Operand dim i becomes output dim dims[i] (n_dims == rank of x); extents 1 repeat. A view.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param x the operand (borrowed).
 * @param ndim rank, >= 0.
 * @param shape ndim extents (NULL allowed when ndim == 0).
 * @param n_dims number of entries of dims (the rank of x).
 * @param dims n_dims distinct output dims, one per operand dim.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a non-zero
 *        count, an axis out of range, duplicate axes, a bad parameter); TFE_ERR_SHAPE_MISMATCH
 *        (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the function does not
 *        accept). */
TFE_API TFE_NODISCARD tfe_status tfe_broadcast_in_dim(tfe_tensor** out, const tfe_tensor* x,
                                                      int32_t ndim, const int64_t* shape,
                                                      int32_t n_dims, const int64_t* dims);
/** Left-aligned broadcast of x to shape (the rule of the elementwise ops). A view.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param x the operand (borrowed).
 * @param ndim rank, >= 0.
 * @param shape ndim extents (NULL allowed when ndim == 0).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a non-zero
 *        count, an axis out of range, duplicate axes, a bad parameter); TFE_ERR_SHAPE_MISMATCH
 *        (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the function does not
 *        accept). */
TFE_API TFE_NODISCARD tfe_status tfe_broadcast_to(tfe_tensor** out, const tfe_tensor* x,
                                                  int32_t ndim, const int64_t* shape);
/** Reverses the order of elements along axes. A view.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param x the operand (borrowed).
 * @param n_axes number of entries of axes.
 * @param axes n_axes distinct axes (negative axes count from the end); NULL allowed when n_axes ==
 *        0.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a non-zero
 *        count, an axis out of range, duplicate axes, a bad parameter); TFE_ERR_SHAPE_MISMATCH
 *        (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the function does not
 *        accept). */
TFE_API TFE_NODISCARD tfe_status tfe_reverse(tfe_tensor** out, const tfe_tensor* x, int32_t n_axes,
                                             const int64_t* axes);
/** Diagonal of dims (axis_a, axis_b): axis_b is removed, the diagonal (length min of the two)
 *  stays at axis_a's position. A view.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed).
 *  @param axis_a the first dim of the diagonal.
 *  @param axis_b the second dim of the diagonal.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a
 *         non-zero count, an axis out of range, duplicate axes, a bad parameter);
 *         TFE_ERR_SHAPE_MISMATCH (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the
 *         function does not accept). */
TFE_API TFE_NODISCARD tfe_status tfe_extract_diag(tfe_tensor** out, const tfe_tensor* x,
                                                  int64_t axis_a, int64_t axis_b);
/** Inverse of extract_diag: axes name output dims; inserts axis_b and puts x on the diagonal.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param x the operand (borrowed).
 * @param axis_a the first dim of the diagonal.
 * @param axis_b the second dim of the diagonal.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a non-zero
 *        count, an axis out of range, duplicate axes, a bad parameter); TFE_ERR_SHAPE_MISMATCH
 *        (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the function does not
 *        accept). */
TFE_API TFE_NODISCARD tfe_status tfe_embed_diag(tfe_tensor** out, const tfe_tensor* x,
                                                int64_t axis_a, int64_t axis_b);
/** Lower triangle of each matrix: keeps (i, j) with j - i <= k.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param x the operand (borrowed).
 * @param k the diagonal offset (0: the main diagonal, > 0 above, < 0 below).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a non-zero
 *        count, an axis out of range, duplicate axes, a bad parameter); TFE_ERR_SHAPE_MISMATCH
 *        (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the function does not
 *        accept). */
TFE_API TFE_NODISCARD tfe_status tfe_tril(tfe_tensor** out, const tfe_tensor* x, int64_t k);
/** Upper triangle of each matrix: keeps (i, j) with j - i >= k.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param x the operand (borrowed).
 * @param k the diagonal offset (0: the main diagonal, > 0 above, < 0 below).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a non-zero
 *        count, an axis out of range, duplicate axes, a bad parameter); TFE_ERR_SHAPE_MISMATCH
 *        (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the function does not
 *        accept). */
TFE_API TFE_NODISCARD tfe_status tfe_triu(tfe_tensor** out, const tfe_tensor* x, int64_t k);
/** The index along axis for every position of shape, as a numeric dtype.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param ctx the context (borrowed; a tensor made in it retains it).
 * @param dtype element type, TFE_BOOL .. TFE_C64.
 * @param ndim rank, >= 0.
 * @param shape ndim extents (NULL allowed when ndim == 0).
 * @param axis the axis (a negative axis counts from the end).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a non-zero
 *        count, an axis out of range, duplicate axes, a bad parameter); TFE_ERR_SHAPE_MISMATCH
 *        (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the function does not
 *        accept). */
TFE_API TFE_NODISCARD tfe_status tfe_iota(tfe_tensor** out, tfe_context* ctx, int32_t dtype,
                                          int32_t ndim, const int64_t* shape, int64_t axis);

/** Elements starts[d] <= i < limits[d] with step strides[d] (strides NULL: all 1). A view.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param x the operand (borrowed).
 * @param ndim rank, >= 0.
 * @param starts ndim start indices.
 * @param limits ndim limits (exclusive).
 * @param strides ndim steps >= 1, or NULL for all 1.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a non-zero
 *        count, an axis out of range, duplicate axes, a bad parameter); TFE_ERR_SHAPE_MISMATCH
 *        (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the function does not
 *        accept). */
TFE_API TFE_NODISCARD tfe_status tfe_slice(tfe_tensor** out, const tfe_tensor* x, int32_t ndim,
                                           const int64_t* starts, const int64_t* limits,
                                           const int64_t* strides);
/** Block of extents sizes at start indices from a rank-1 integer tensor of `ndim` entries,
 *  clamped so the block fits.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed).
 *  @param starts ndim start indices.
 *  @param ndim rank, >= 0.
 *  @param sizes ndim block extents.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a
 *         non-zero count, an axis out of range, duplicate axes, a bad parameter);
 *         TFE_ERR_SHAPE_MISMATCH (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the
 *         function does not accept). */
TFE_API TFE_NODISCARD tfe_status tfe_dynamic_slice(tfe_tensor** out, const tfe_tensor* x,
                                                   const tfe_tensor* starts, int32_t ndim,
                                                   const int64_t* sizes);
/** x with the block at (clamped) starts replaced by update; x and update promote.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param x the operand (borrowed).
 * @param update the block written into x (borrowed).
 * @param starts ndim start indices.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a non-zero
 *        count, an axis out of range, duplicate axes, a bad parameter); TFE_ERR_SHAPE_MISMATCH
 *        (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the function does not
 *        accept). */
TFE_API TFE_NODISCARD tfe_status tfe_dynamic_update_slice(tfe_tensor** out, const tfe_tensor* x,
                                                          const tfe_tensor* update,
                                                          const tfe_tensor* starts);
/** Take along axis: out = x[..., indices, ...] with indices' shape replacing dim axis.
 *  Also returns TFE_ERR_INVALID_ARGUMENT for an index outside [0, extent).
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed).
 *  @param indices integer indices (borrowed).
 *  @param axis the axis (a negative axis counts from the end).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a
 *         non-zero count, an axis out of range, duplicate axes, a bad parameter);
 *         TFE_ERR_SHAPE_MISMATCH (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the
 *         function does not accept). */
TFE_API TFE_NODISCARD tfe_status tfe_gather(tfe_tensor** out, const tfe_tensor* x,
                                            const tfe_tensor* indices, int64_t axis);
/** Scatter-add along axis: x plus updates added at indices (duplicates accumulate); updates
 *  have the shape tfe_gather would give; x and updates promote.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed).
 *  @param indices integer indices (borrowed).
 *  @param updates the values added (borrowed).
 *  @param axis the axis (a negative axis counts from the end).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a
 *         non-zero count, an axis out of range, duplicate axes, a bad parameter);
 *         TFE_ERR_SHAPE_MISMATCH (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the
 *         function does not accept). */
TFE_API TFE_NODISCARD tfe_status tfe_scatter(tfe_tensor** out, const tfe_tensor* x,
                                             const tfe_tensor* indices, const tfe_tensor* updates,
                                             int64_t axis);
/** Zero padding: low/high per dim (negative crops) and interior zeros between elements
 *  (interior NULL: none).
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed).
 *  @param ndim rank, >= 0.
 *  @param low ndim paddings before each dim (negative crops).
 *  @param high ndim paddings after each dim (negative crops).
 *  @param interior ndim zeros inserted between elements, or NULL for none.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a
 *         non-zero count, an axis out of range, duplicate axes, a bad parameter);
 *         TFE_ERR_SHAPE_MISMATCH (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the
 *         function does not accept). */
TFE_API TFE_NODISCARD tfe_status tfe_pad(tfe_tensor** out, const tfe_tensor* x, int32_t ndim,
                                         const int64_t* low, const int64_t* high,
                                         const int64_t* interior);
/** Joins n >= 1 tensors along axis; the others extents must agree; dtypes promote.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param n number of entries of the array that follows.
 * @param xs the n tensors (borrowed).
 * @param axis the axis (a negative axis counts from the end).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a non-zero
 *        count, an axis out of range, duplicate axes, a bad parameter); TFE_ERR_SHAPE_MISMATCH
 *        (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the function does not
 *        accept). */
TFE_API TFE_NODISCARD tfe_status tfe_concatenate(tfe_tensor** out, int32_t n, tfe_tensor* const* xs,
                                                 int64_t axis);
/** Stacks n >= 1 tensors of one shape along a new axis (counted in the output rank).
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param n number of entries of the array that follows.
 * @param xs the n tensors (borrowed).
 * @param axis the axis (a negative axis counts from the end).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a non-zero
 *        count, an axis out of range, duplicate axes, a bad parameter); TFE_ERR_SHAPE_MISMATCH
 *        (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the function does not
 *        accept). */
TFE_API TFE_NODISCARD tfe_status tfe_stack(tfe_tensor** out, int32_t n, tfe_tensor* const* xs,
                                           int64_t axis);

/* ---- shape helpers (NumPy's names; axes are tensor dims, dim 0 fastest) ---- */

/** x without the listed axes, each of extent 1; n_axes == 0 drops every extent-1 axis. A view.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed).
 *  @param n_axes number of entries of axes (0: every extent-1 axis).
 *  @param axes n_axes distinct axes of extent 1 (negative axes count from the end).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a
 *         non-zero count, an axis out of range, duplicate axes, a bad parameter);
 *         TFE_ERR_SHAPE_MISMATCH (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the
 *         function does not accept).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_squeeze(tfe_tensor** out, const tfe_tensor* x, int32_t n_axes,
                                             const int64_t* axes);
/** x with new extent-1 axes at the listed positions, counted in the result's rank. A view.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed).
 *  @param n_axes number of entries of axes.
 *  @param axes n_axes distinct positions in the result (negative count from its end).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a
 *         non-zero count, an axis out of range, duplicate axes, a bad parameter);
 *         TFE_ERR_SHAPE_MISMATCH (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the
 *         function does not accept).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_expand_dims(tfe_tensor** out, const tfe_tensor* x,
                                                 int32_t n_axes, const int64_t* axes);
/** x with axis source[i] moved to position destination[i]; the other axes keep their order.
 *  A view (a transpose).
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed).
 *  @param n_axes number of entries of source and of destination.
 *  @param source n_axes distinct axes of x.
 *  @param destination n_axes distinct positions in the result.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a
 *         non-zero count, an axis out of range, duplicate axes, a bad parameter);
 *         TFE_ERR_SHAPE_MISMATCH (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the
 *         function does not accept).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_moveaxis(tfe_tensor** out, const tfe_tensor* x, int32_t n_axes,
                                              const int64_t* source, const int64_t* destination);
/** x with two axes exchanged. A view.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed).
 *  @param axis1 one axis (a negative axis counts from the end).
 *  @param axis2 the other axis.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a
 *         non-zero count, an axis out of range, duplicate axes, a bad parameter);
 *         TFE_ERR_SHAPE_MISMATCH (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the
 *         function does not accept).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_swapaxes(tfe_tensor** out, const tfe_tensor* x, int64_t axis1,
                                              int64_t axis2);
/** The elements as a rank-1 tensor in column-major order (dim 0 fastest; the storage order, so a
 *  view when x is compact). NumPy's row-major ravel is tfe_flatten of the reversed transpose.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a
 *         non-zero count, an axis out of range, duplicate axes, a bad parameter);
 *         TFE_ERR_SHAPE_MISMATCH (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the
 *         function does not accept).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_flatten(tfe_tensor** out, const tfe_tensor* x);
/** Pieces of x along axis (views): n_outs equal sections (n == 0; n_outs must divide the
 *  extent) or the n + 1 pieces between the split points indices (NumPy's rule: a negative
 *  point counts from the end, points are clamped into [0, extent], a piece between decreasing
 *  points is empty). All or none: on failure every slot of outs is NULL.
 *  @param[out] outs n_outs slots, each a new reference owned by the caller; NULL on failure.
 *  @param n_outs number of pieces, >= 1 (n + 1 when indices are given).
 *  @param x the operand (borrowed).
 *  @param n number of split points (0: equal sections).
 *  @param indices n split points along axis.
 *  @param axis the axis (a negative axis counts from the end); its extent must be concrete.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a
 *         non-zero count, an axis out of range, duplicate axes, a bad parameter);
 *         TFE_ERR_SHAPE_MISMATCH (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the
 *         function does not accept).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_split(tfe_tensor** outs, int32_t n_outs, const tfe_tensor* x,
                                           int32_t n, const int64_t* indices, int64_t axis);
/** x repeated reps[d] times along dim d. Left-aligned like broadcasting: more reps than dims add
 *  trailing dims, fewer leave the last dims alone (NumPy aligns reps on the right: pass them
 *  padded). One broadcast and one reshape.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed).
 *  @param ndim number of entries of reps.
 *  @param reps ndim counts >= 0.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a
 *         non-zero count, an axis out of range, duplicate axes, a bad parameter);
 *         TFE_ERR_SHAPE_MISMATCH (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the
 *         function does not accept).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_tile(tfe_tensor** out, const tfe_tensor* x, int32_t ndim,
                                          const int64_t* reps);
/** Each element along axis repeated: repeats[0] times for every element (n == 1) or
 *  repeats[i] times for element i (n == the extent), as np.repeat with an axis.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed).
 *  @param n 1, or the extent along axis.
 *  @param repeats n counts >= 0.
 *  @param axis the axis (a negative axis counts from the end).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a
 *         non-zero count, an axis out of range, duplicate axes, a bad parameter);
 *         TFE_ERR_SHAPE_MISMATCH (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the
 *         function does not accept); TFE_ERR_OUT_OF_MEMORY (counts adding up to more than 2^48).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_repeat(tfe_tensor** out, const tfe_tensor* x, int32_t n,
                                            const int64_t* repeats, int64_t axis);
/** Elements shifted by shifts[i] along axes[i], wrapping around (element j goes to j + shift).
 *  n_axes == 0: one shift over the column-major flattening, shape kept.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed).
 *  @param n number of shifts (n_axes, or 1 when n_axes == 0).
 *  @param shifts the shifts (any sign).
 *  @param n_axes number of axes (0: the flattening).
 *  @param axes n_axes axes (negative axes count from the end; an axis may repeat, as NumPy).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a
 *         non-zero count, an axis out of range, duplicate axes, a bad parameter);
 *         TFE_ERR_SHAPE_MISMATCH (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the
 *         function does not accept).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_roll(tfe_tensor** out, const tfe_tensor* x, int32_t n,
                                          const int64_t* shifts, int32_t n_axes,
                                          const int64_t* axes);
/** The diagonal of dims (axis1, axis2) at offset (above the main one for offset > 0, below for
 *  < 0) as dim 0 of the result; the other dims follow in their order (with the defaults 0, 1 a
 *  batch [M,N,B..] gives [K,B..]; NumPy puts the diagonal last). A view.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed).
 *  @param offset the diagonal (0 the main one); beyond the matrix: an empty diagonal.
 *  @param axis1 the row dim.
 *  @param axis2 the column dim (another dim than axis1).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a
 *         non-zero count, an axis out of range, duplicate axes, a bad parameter);
 *         TFE_ERR_SHAPE_MISMATCH (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the
 *         function does not accept).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_diagonal(tfe_tensor** out, const tfe_tensor* x, int64_t offset,
                                              int64_t axis1, int64_t axis2);
/** A vector [N] gives the square matrix [N+|k|, N+|k|] with it on diagonal k; a matrix gives its
 *  diagonal k (tfe_diagonal). Other ranks fail.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed).
 *  @param k the diagonal (0 the main one, > 0 above, < 0 below).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a
 *         non-zero count, an axis out of range, duplicate axes, a bad parameter);
 *         TFE_ERR_SHAPE_MISMATCH (extents that do not agree); TFE_ERR_DTYPE_MISMATCH (a dtype the
 *         function does not accept); TFE_ERR_OUT_OF_MEMORY (|k| above 2^48).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_diag(tfe_tensor** out, const tfe_tensor* x, int64_t k);

#ifdef __cplusplus
}
#endif

#endif /* TENFERRO_OPS_SHAPE_H */
