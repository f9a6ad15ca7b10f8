/** @file
 * tenferro/ops_order.h: running sums and products, sorting, top-k and arg-reductions along one
 * axis. Included by tenferro.h. Conventions as in ops_shape.h: out is a new reference (NULL on
 * failure), inputs are borrowed, axes are column-major dims counted from 0, and a negative axis
 * counts from the end. These functions work on every kind of tensor (eager, requires_grad,
 * traced, dataflow). Ordering: ascending puts NaN after every number; descending orders numbers
 * from largest to smallest and still puts NaN last (NumPy's np.argsort(-x, kind='stable')); both
 * are stable (equal elements keep their order). Complex tensors are not ordered
 * (TFE_ERR_DTYPE_MISMATCH). @since 0.2 */
#ifndef TENFERRO_OPS_ORDER_H
#define TENFERRO_OPS_ORDER_H

#include "tenferro/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Inclusive running sum along axis, O(n) per lane. Bool and I32 accumulate in I64 (NumPy);
 *  integers wrap. Differentiable (linear).
 *  @param[out] out new reference owned by the caller (tfe_tensor_release), x's shape; NULL on
 *         failure.
 *  @param x the operand (borrowed), rank >= 1.
 *  @param axis the axis (negative counts from the end).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, an axis out of range);
 *          TFE_ERR_DTYPE_MISMATCH (a dtype the function does not accept).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_cumsum(tfe_tensor** out, const tfe_tensor* x, int64_t axis);

/** Inclusive running product along axis, O(n) per lane. Bool and I32 accumulate in I64 (NumPy);
 *  integers wrap. Differentiable; the derivative is exact when x holds zeros (any number).
 *  @param[out] out new reference owned by the caller (tfe_tensor_release), x's shape; NULL on
 *         failure.
 *  @param x the operand (borrowed), rank >= 1.
 *  @param axis the axis (negative counts from the end).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, an axis out of range);
 *          TFE_ERR_DTYPE_MISMATCH (a dtype the function does not accept).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_cumprod(tfe_tensor** out, const tfe_tensor* x, int64_t axis);

/** The stable sorting permutation along axis (I64, x's shape), O(n log n) per lane: out[..k..]
 *  is the position in x of the k-th element in order. Not differentiable.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed): Bool, I32, I64, F32 or F64; rank >= 1.
 *  @param axis the axis (negative counts from the end).
 *  @param descending nonzero: largest first (NaN still last).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, an axis out of range);
 *          TFE_ERR_DTYPE_MISMATCH (complex).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_argsort(tfe_tensor** out, const tfe_tensor* x, int64_t axis,
                                             int32_t descending);

/** x sorted along axis (stable, NaN last), O(n log n) per lane. Differentiable: the values are
 *  gathered from x with the tfe_argsort permutation, which needs concrete extents (a traced x
 *  with a symbolic extent gives TFE_ERR_NOT_SUPPORTED).
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed): Bool, I32, I64, F32 or F64; rank >= 1.
 *  @param axis the axis (negative counts from the end).
 *  @param descending nonzero: largest first (NaN still last).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, an axis out of range);
 *          TFE_ERR_DTYPE_MISMATCH (complex); TFE_ERR_NOT_SUPPORTED (a symbolic extent).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_sort(tfe_tensor** out, const tfe_tensor* x, int64_t axis,
                                          int32_t descending);

/** The k largest (or smallest) elements along axis, in order, and their positions: the first k
 *  entries of tfe_sort and tfe_argsort with descending = largest. values is differentiable,
 *  indices (I64) is not. Both have x's shape with extent k on axis.
 *  @param[out] values new reference owned by the caller; NULL on failure.
 *  @param[out] indices new reference owned by the caller (I64); NULL on failure.
 *  @param x the operand (borrowed): Bool, I32, I64, F32 or F64; rank >= 1.
 *  @param k how many, 0 <= k <= the extent of axis.
 *  @param axis the axis (negative counts from the end).
 *  @param largest nonzero: the largest, largest first; zero: the smallest, smallest first.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, an axis out of range, k
 *          out of range); TFE_ERR_DTYPE_MISMATCH (complex); TFE_ERR_NOT_SUPPORTED (a symbolic
 *          extent, as for tfe_sort).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_topk(tfe_tensor** values, tfe_tensor** indices,
                                          const tfe_tensor* x, int64_t k, int64_t axis,
                                          int32_t largest);

/** Position (I64) of the first maximum along axis, which is dropped; a NaN counts as the
 *  maximum (the first NaN wins), as in NumPy. O(n) per lane. Not differentiable.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed): Bool, I32, I64, F32 or F64; rank >= 1.
 *  @param axis the axis (negative counts from the end); its extent must not be 0.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, an axis out of range, an
 *          empty axis); TFE_ERR_DTYPE_MISMATCH (complex).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_argmax(tfe_tensor** out, const tfe_tensor* x, int64_t axis);

/** Position (I64) of the first minimum along axis, which is dropped; a NaN counts as the
 *  minimum (the first NaN wins), as in NumPy. O(n) per lane. Not differentiable.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed): Bool, I32, I64, F32 or F64; rank >= 1.
 *  @param axis the axis (negative counts from the end); its extent must not be 0.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, an axis out of range, an
 *          empty axis); TFE_ERR_DTYPE_MISMATCH (complex).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_argmin(tfe_tensor** out, const tfe_tensor* x, int64_t axis);

#ifdef __cplusplus
}
#endif

#endif /* TENFERRO_OPS_ORDER_H */
