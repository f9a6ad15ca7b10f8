/* tenferro/ops_elementwise.h: elementwise ops (arithmetic, logical, analytic, complex parts,
 * comparison and selection). Included by tenferro.h.
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
 *   accept: Bool to arithmetic, complex to ordered ops, integers to analytic ops).
 * - @since 0.1
 */
#ifndef TENFERRO_OPS_ELEMENTWISE_H
#define TENFERRO_OPS_ELEMENTWISE_H

#include "tenferro/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/** a + b; integers wrap. */
TFE_API TFE_NODISCARD tfe_status tfe_add(tfe_tensor** out, const tfe_tensor* a,
                                         const tfe_tensor* b);
/** a - b; integers wrap. */
TFE_API TFE_NODISCARD tfe_status tfe_sub(tfe_tensor** out, const tfe_tensor* a,
                                         const tfe_tensor* b);
/** a * b; integers wrap. */
TFE_API TFE_NODISCARD tfe_status tfe_mul(tfe_tensor** out, const tfe_tensor* a,
                                         const tfe_tensor* b);
/** True division: Bool and integer operands are converted to F64 first, so 1/0 is inf. */
TFE_API TFE_NODISCARD tfe_status tfe_div(tfe_tensor** out, const tfe_tensor* a,
                                         const tfe_tensor* b);
/** Integer division truncating toward zero (the IR Div); integers only; MIN / -1 wraps.
 *  @return also TFE_ERR_NUMERICAL when a divisor is zero (nothing is written). */
TFE_API TFE_NODISCARD tfe_status tfe_div_trunc(tfe_tensor** out, const tfe_tensor* a,
                                               const tfe_tensor* b);
/** Remainder with the dividend's sign (C fmod); real and integer; MIN % -1 == 0.
 *  @return also TFE_ERR_NUMERICAL for an integer zero divisor. */
TFE_API TFE_NODISCARD tfe_status tfe_rem(tfe_tensor** out, const tfe_tensor* a,
                                         const tfe_tensor* b);
/** a raised to b; integers wrap. @return also TFE_ERR_NUMERICAL for a negative integer exponent. */
TFE_API TFE_NODISCARD tfe_status tfe_pow(tfe_tensor** out, const tfe_tensor* a,
                                         const tfe_tensor* b);
/** Elementwise maximum (NaN propagates; logical or on Bool); no complex. */
TFE_API TFE_NODISCARD tfe_status tfe_maximum(tfe_tensor** out, const tfe_tensor* a,
                                             const tfe_tensor* b);
/** Elementwise minimum (NaN propagates; logical and on Bool); no complex. */
TFE_API TFE_NODISCARD tfe_status tfe_minimum(tfe_tensor** out, const tfe_tensor* a,
                                             const tfe_tensor* b);
/** Logical and (Bool) or bitwise and (integers); both operands of one dtype. */
TFE_API TFE_NODISCARD tfe_status tfe_and(tfe_tensor** out, const tfe_tensor* a,
                                         const tfe_tensor* b);
/** Logical or (Bool) or bitwise or (integers); both operands of one dtype. */
TFE_API TFE_NODISCARD tfe_status tfe_or(tfe_tensor** out, const tfe_tensor* a, const tfe_tensor* b);
/** Logical (Bool) or bitwise (integers) exclusive or; both operands of one dtype. */
TFE_API TFE_NODISCARD tfe_status tfe_xor(tfe_tensor** out, const tfe_tensor* a,
                                         const tfe_tensor* b);
/** re + i*im from two real tensors of one dtype (F32 -> C32, F64 -> C64). */
TFE_API TFE_NODISCARD tfe_status tfe_complex(tfe_tensor** out, const tfe_tensor* re,
                                             const tfe_tensor* im);
/** Bool result of comparing a with b; direction is one of TFE_CMP_EQ..TFE_CMP_GE; complex only for
 * EQ/NE.
 *  @return also TFE_ERR_INVALID_ARGUMENT for an unknown direction. */
TFE_API TFE_NODISCARD tfe_status tfe_compare(tfe_tensor** out, const tfe_tensor* a,
                                             const tfe_tensor* b, int32_t direction);
/** pred ? on_true : on_false; pred is Bool; the values promote. */
TFE_API TFE_NODISCARD tfe_status tfe_select(tfe_tensor** out, const tfe_tensor* pred,
                                            const tfe_tensor* on_true, const tfe_tensor* on_false);
/** minimum(maximum(x, lo), hi) (so lo > hi gives hi); no complex. */
TFE_API TFE_NODISCARD tfe_status tfe_clamp(tfe_tensor** out, const tfe_tensor* x,
                                           const tfe_tensor* lo, const tfe_tensor* hi);

/** -x; integers wrap. */
TFE_API TFE_NODISCARD tfe_status tfe_neg(tfe_tensor** out, const tfe_tensor* x);
/** Complex conjugate; identity on real and integer values. */
TFE_API TFE_NODISCARD tfe_status tfe_conj(tfe_tensor** out, const tfe_tensor* x);
/** |x|; complex input gives a real result (F32/F64); abs(MIN) wraps. */
TFE_API TFE_NODISCARD tfe_status tfe_abs(tfe_tensor** out, const tfe_tensor* x);
/** -1, 0, 1 (NaN stays NaN); x/|x| for complex x != 0, else 0. */
TFE_API TFE_NODISCARD tfe_status tfe_sign(tfe_tensor** out, const tfe_tensor* x);
/** Logical not (Bool) or bitwise complement (integers). */
TFE_API TFE_NODISCARD tfe_status tfe_not(tfe_tensor** out, const tfe_tensor* x);
/** e^x; F32/F64/C32/C64 (likewise every analytic function below). */
TFE_API TFE_NODISCARD tfe_status tfe_exp(tfe_tensor** out, const tfe_tensor* x);
/** Natural logarithm (principal branch). */
TFE_API TFE_NODISCARD tfe_status tfe_log(tfe_tensor** out, const tfe_tensor* x);
/** Sine. */
TFE_API TFE_NODISCARD tfe_status tfe_sin(tfe_tensor** out, const tfe_tensor* x);
/** Cosine. */
TFE_API TFE_NODISCARD tfe_status tfe_cos(tfe_tensor** out, const tfe_tensor* x);
/** Tangent. */
TFE_API TFE_NODISCARD tfe_status tfe_tan(tfe_tensor** out, const tfe_tensor* x);
/** Hyperbolic tangent. */
TFE_API TFE_NODISCARD tfe_status tfe_tanh(tfe_tensor** out, const tfe_tensor* x);
/** Square root (principal branch). */
TFE_API TFE_NODISCARD tfe_status tfe_sqrt(tfe_tensor** out, const tfe_tensor* x);
/** 1 / sqrt(x). */
TFE_API TFE_NODISCARD tfe_status tfe_rsqrt(tfe_tensor** out, const tfe_tensor* x);
/** e^x - 1, accurate near 0. */
TFE_API TFE_NODISCARD tfe_status tfe_expm1(tfe_tensor** out, const tfe_tensor* x);
/** log(1 + x), accurate near 0. */
TFE_API TFE_NODISCARD tfe_status tfe_log1p(tfe_tensor** out, const tfe_tensor* x);
/** Floor; F32/F64 only. */
TFE_API TFE_NODISCARD tfe_status tfe_floor(tfe_tensor** out, const tfe_tensor* x);
/** Ceiling; F32/F64 only. */
TFE_API TFE_NODISCARD tfe_status tfe_ceil(tfe_tensor** out, const tfe_tensor* x);
/** Round half to even; F32/F64 only. */
TFE_API TFE_NODISCARD tfe_status tfe_round(tfe_tensor** out, const tfe_tensor* x);
/** Real part (F32/F64 result); identity on real floats. */
TFE_API TFE_NODISCARD tfe_status tfe_real(tfe_tensor** out, const tfe_tensor* x);
/** Imaginary part (F32/F64 result); zeros for real floats. */
TFE_API TFE_NODISCARD tfe_status tfe_imag(tfe_tensor** out, const tfe_tensor* x);

#ifdef __cplusplus
}
#endif

#endif /* TENFERRO_OPS_ELEMENTWISE_H */
