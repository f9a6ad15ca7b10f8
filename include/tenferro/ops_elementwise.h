/** @file
 * tenferro/ops_elementwise.h: elementwise ops (arithmetic, logical, complex parts, comparison
 * and selection; the analytic functions are in ops_math.h). Included by tenferro.h.
 *
 * Common to every function here:
 * - Operands broadcast left-aligned (Julia style): dim 0 pairs with dim 0, the shorter shape is
 *   padded with trailing extents of 1, extents must be equal or 1. [2,3] + [2] works (the column
 *   is added to each column); [2,3] + [3] is TFE_ERR_SHAPE_MISMATCH.
 * - Binary arithmetic, maximum/minimum, compare, select's values and clamp promote their
 *   operands to the join of their dtypes (NumPy's result_type on the seven dtypes).
 * - @param[out] out new reference owned by the caller (tfe_tensor_release), NULL on failure.
 *   Inputs are borrowed. All inputs must belong to one context (else INVALID_ARGUMENT).
 * - @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (NULL handle, two contexts);
 *   TFE_ERR_SHAPE_MISMATCH (no broadcast); TFE_ERR_DTYPE_MISMATCH (a dtype the op does not
 *   accept: Bool to arithmetic, complex to ordered ops).
 * - @since 0.1
 */
#ifndef TENFERRO_OPS_ELEMENTWISE_H
#define TENFERRO_OPS_ELEMENTWISE_H

#include "tenferro/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/** a + b; integers wrap.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param a the first operand (borrowed).
 * @param b the second operand (borrowed).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, operands of two contexts);
 *        TFE_ERR_SHAPE_MISMATCH (operands that do not broadcast); TFE_ERR_DTYPE_MISMATCH (a dtype
 *        the function does not accept). */
TFE_API TFE_NODISCARD tfe_status tfe_add(tfe_tensor** out, const tfe_tensor* a,
                                         const tfe_tensor* b);
/** a - b; integers wrap.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param a the first operand (borrowed).
 * @param b the second operand (borrowed).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, operands of two contexts);
 *        TFE_ERR_SHAPE_MISMATCH (operands that do not broadcast); TFE_ERR_DTYPE_MISMATCH (a dtype
 *        the function does not accept). */
TFE_API TFE_NODISCARD tfe_status tfe_sub(tfe_tensor** out, const tfe_tensor* a,
                                         const tfe_tensor* b);
/** a * b; integers wrap.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param a the first operand (borrowed).
 * @param b the second operand (borrowed).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, operands of two contexts);
 *        TFE_ERR_SHAPE_MISMATCH (operands that do not broadcast); TFE_ERR_DTYPE_MISMATCH (a dtype
 *        the function does not accept). */
TFE_API TFE_NODISCARD tfe_status tfe_mul(tfe_tensor** out, const tfe_tensor* a,
                                         const tfe_tensor* b);
/** True division: Bool and integer operands are converted to F64 first, so 1/0 is inf.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param a the first operand (borrowed).
 * @param b the second operand (borrowed).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, operands of two contexts);
 *        TFE_ERR_SHAPE_MISMATCH (operands that do not broadcast); TFE_ERR_DTYPE_MISMATCH (a dtype
 *        the function does not accept). */
TFE_API TFE_NODISCARD tfe_status tfe_div(tfe_tensor** out, const tfe_tensor* a,
                                         const tfe_tensor* b);
/** Integer division truncating toward zero (the IR Div); integers only; MIN / -1 wraps.
 *  Also returns TFE_ERR_NUMERICAL when a divisor is zero (nothing is written).
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param a the first operand (borrowed).
 *  @param b the second operand (borrowed).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, operands of two contexts);
 *         TFE_ERR_SHAPE_MISMATCH (operands that do not broadcast); TFE_ERR_DTYPE_MISMATCH (a dtype
 *         the function does not accept); TFE_ERR_NUMERICAL as described above. */
TFE_API TFE_NODISCARD tfe_status tfe_div_trunc(tfe_tensor** out, const tfe_tensor* a,
                                               const tfe_tensor* b);
/** Remainder with the dividend's sign (C fmod); real and integer; MIN % -1 == 0.
 *  Also returns TFE_ERR_NUMERICAL for an integer zero divisor.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param a the first operand (borrowed).
 *  @param b the second operand (borrowed).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, operands of two contexts);
 *         TFE_ERR_SHAPE_MISMATCH (operands that do not broadcast); TFE_ERR_DTYPE_MISMATCH (a dtype
 *         the function does not accept); TFE_ERR_NUMERICAL as described above. */
TFE_API TFE_NODISCARD tfe_status tfe_rem(tfe_tensor** out, const tfe_tensor* a,
                                         const tfe_tensor* b);
/** a raised to b; integers wrap. Also returns TFE_ERR_NUMERICAL for a negative integer exponent.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param a the first operand (borrowed).
 * @param b the second operand (borrowed).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, operands of two contexts);
 *        TFE_ERR_SHAPE_MISMATCH (operands that do not broadcast); TFE_ERR_DTYPE_MISMATCH (a dtype
 *        the function does not accept); TFE_ERR_NUMERICAL as described above. */
TFE_API TFE_NODISCARD tfe_status tfe_pow(tfe_tensor** out, const tfe_tensor* a,
                                         const tfe_tensor* b);
/** Elementwise maximum (NaN propagates; logical or on Bool); no complex.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param a the first operand (borrowed).
 * @param b the second operand (borrowed).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, operands of two contexts);
 *        TFE_ERR_SHAPE_MISMATCH (operands that do not broadcast); TFE_ERR_DTYPE_MISMATCH (a dtype
 *        the function does not accept). */
TFE_API TFE_NODISCARD tfe_status tfe_maximum(tfe_tensor** out, const tfe_tensor* a,
                                             const tfe_tensor* b);
/** Elementwise minimum (NaN propagates; logical and on Bool); no complex.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param a the first operand (borrowed).
 * @param b the second operand (borrowed).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, operands of two contexts);
 *        TFE_ERR_SHAPE_MISMATCH (operands that do not broadcast); TFE_ERR_DTYPE_MISMATCH (a dtype
 *        the function does not accept). */
TFE_API TFE_NODISCARD tfe_status tfe_minimum(tfe_tensor** out, const tfe_tensor* a,
                                             const tfe_tensor* b);
/** Logical and (Bool) or bitwise and (integers); both operands of one dtype.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param a the first operand (borrowed).
 * @param b the second operand (borrowed).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, operands of two contexts);
 *        TFE_ERR_SHAPE_MISMATCH (operands that do not broadcast); TFE_ERR_DTYPE_MISMATCH (a dtype
 *        the function does not accept). */
TFE_API TFE_NODISCARD tfe_status tfe_and(tfe_tensor** out, const tfe_tensor* a,
                                         const tfe_tensor* b);
/** Logical or (Bool) or bitwise or (integers); both operands of one dtype.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param a the first operand (borrowed).
 * @param b the second operand (borrowed).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, operands of two contexts);
 *        TFE_ERR_SHAPE_MISMATCH (operands that do not broadcast); TFE_ERR_DTYPE_MISMATCH (a dtype
 *        the function does not accept). */
TFE_API TFE_NODISCARD tfe_status tfe_or(tfe_tensor** out, const tfe_tensor* a, const tfe_tensor* b);
/** Logical (Bool) or bitwise (integers) exclusive or; both operands of one dtype.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param a the first operand (borrowed).
 * @param b the second operand (borrowed).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, operands of two contexts);
 *        TFE_ERR_SHAPE_MISMATCH (operands that do not broadcast); TFE_ERR_DTYPE_MISMATCH (a dtype
 *        the function does not accept). */
TFE_API TFE_NODISCARD tfe_status tfe_xor(tfe_tensor** out, const tfe_tensor* a,
                                         const tfe_tensor* b);
/** re + i*im from two real tensors of one dtype (F32 -> C32, F64 -> C64).
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param re the real parts (borrowed; F32 or F64).
 * @param im the imaginary parts (borrowed; the dtype of re).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, operands of two contexts);
 *        TFE_ERR_SHAPE_MISMATCH (operands that do not broadcast); TFE_ERR_DTYPE_MISMATCH (a dtype
 *        the function does not accept). */
TFE_API TFE_NODISCARD tfe_status tfe_complex(tfe_tensor** out, const tfe_tensor* re,
                                             const tfe_tensor* im);
/** Bool result of comparing a with b; direction is one of TFE_CMP_EQ..TFE_CMP_GE; complex only for
 * EQ/NE.
 *  Also returns TFE_ERR_INVALID_ARGUMENT for an unknown direction.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param a the first operand (borrowed).
 *  @param b the second operand (borrowed).
 *  @param direction TFE_CMP_EQ, _NE, _LT, _LE, _GT or _GE (complex: EQ and NE only).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, operands of two contexts);
 *         TFE_ERR_SHAPE_MISMATCH (operands that do not broadcast); TFE_ERR_DTYPE_MISMATCH (a dtype
 *         the function does not accept). */
TFE_API TFE_NODISCARD tfe_status tfe_compare(tfe_tensor** out, const tfe_tensor* a,
                                             const tfe_tensor* b, int32_t direction);
/** pred ? on_true : on_false; pred is Bool; the values promote.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param pred the Bool predicate (borrowed).
 * @param on_true values where pred is true (borrowed).
 * @param on_false values where pred is false (borrowed).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, operands of two contexts);
 *        TFE_ERR_SHAPE_MISMATCH (operands that do not broadcast); TFE_ERR_DTYPE_MISMATCH (a dtype
 *        the function does not accept). */
TFE_API TFE_NODISCARD tfe_status tfe_select(tfe_tensor** out, const tfe_tensor* pred,
                                            const tfe_tensor* on_true, const tfe_tensor* on_false);
/** minimum(maximum(x, lo), hi) (so lo > hi gives hi); no complex.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param x the operand (borrowed).
 * @param lo the lower bound (borrowed).
 * @param hi the upper bound (borrowed).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, operands of two contexts);
 *        TFE_ERR_SHAPE_MISMATCH (operands that do not broadcast); TFE_ERR_DTYPE_MISMATCH (a dtype
 *        the function does not accept). */
TFE_API TFE_NODISCARD tfe_status tfe_clamp(tfe_tensor** out, const tfe_tensor* x,
                                           const tfe_tensor* lo, const tfe_tensor* hi);

/** -x; integers wrap.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param x the operand (borrowed).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, operands of two contexts);
 *        TFE_ERR_SHAPE_MISMATCH (operands that do not broadcast); TFE_ERR_DTYPE_MISMATCH (a dtype
 *        the function does not accept). */
TFE_API TFE_NODISCARD tfe_status tfe_neg(tfe_tensor** out, const tfe_tensor* x);
/** Complex conjugate; identity on real and integer values.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param x the operand (borrowed).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, operands of two contexts);
 *        TFE_ERR_SHAPE_MISMATCH (operands that do not broadcast); TFE_ERR_DTYPE_MISMATCH (a dtype
 *        the function does not accept). */
TFE_API TFE_NODISCARD tfe_status tfe_conj(tfe_tensor** out, const tfe_tensor* x);
/** |x|; complex input gives a real result (F32/F64); abs(MIN) wraps.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param x the operand (borrowed).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, operands of two contexts);
 *        TFE_ERR_SHAPE_MISMATCH (operands that do not broadcast); TFE_ERR_DTYPE_MISMATCH (a dtype
 *        the function does not accept). */
TFE_API TFE_NODISCARD tfe_status tfe_abs(tfe_tensor** out, const tfe_tensor* x);
/** -1, 0, 1 (NaN stays NaN); x/|x| for complex x != 0, else 0.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param x the operand (borrowed).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, operands of two contexts);
 *        TFE_ERR_SHAPE_MISMATCH (operands that do not broadcast); TFE_ERR_DTYPE_MISMATCH (a dtype
 *        the function does not accept). */
TFE_API TFE_NODISCARD tfe_status tfe_sign(tfe_tensor** out, const tfe_tensor* x);
/** Logical not (Bool) or bitwise complement (integers).
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param x the operand (borrowed).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, operands of two contexts);
 *        TFE_ERR_SHAPE_MISMATCH (operands that do not broadcast); TFE_ERR_DTYPE_MISMATCH (a dtype
 *        the function does not accept). */
TFE_API TFE_NODISCARD tfe_status tfe_not(tfe_tensor** out, const tfe_tensor* x);
/** Real part (F32/F64 result); identity on real floats.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param x the operand (borrowed).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, operands of two contexts);
 *        TFE_ERR_SHAPE_MISMATCH (operands that do not broadcast); TFE_ERR_DTYPE_MISMATCH (a dtype
 *        the function does not accept). */
TFE_API TFE_NODISCARD tfe_status tfe_real(tfe_tensor** out, const tfe_tensor* x);
/** Imaginary part (F32/F64 result); zeros for real floats.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param x the operand (borrowed).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, operands of two contexts);
 *        TFE_ERR_SHAPE_MISMATCH (operands that do not broadcast); TFE_ERR_DTYPE_MISMATCH (a dtype
 *        the function does not accept). */
TFE_API TFE_NODISCARD tfe_status tfe_imag(tfe_tensor** out, const tfe_tensor* x);

#ifdef __cplusplus
}
#endif

#endif /* TENFERRO_OPS_ELEMENTWISE_H */
