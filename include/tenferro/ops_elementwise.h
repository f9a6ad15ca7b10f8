/** @file
 * tenferro/ops_elementwise.h: the elementwise functions with checks of their own (true and
 * integer division, comparison, selection, clamp) and host scalar operands. The functions that
 * run one registry op each (add, mul, neg, and, real, ...) are in ops_arith.h, which this header
 * includes; the analytic functions are in ops_math.h. Included by tenferro.h.
 *
 * Common to every function here:
 * - Operands broadcast left-aligned (Julia style): dim 0 pairs with dim 0, the shorter shape is
 *   padded with trailing extents of 1, extents must be equal or 1. [2,3] + [2] works (the column
 *   is added to each column); [2,3] + [3] is TFE_ERR_SHAPE_MISMATCH.
 * - Division, compare, select's values and clamp promote their
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

#include "tenferro/ops_arith.h" /* IWYU pragma: export */
#include "tenferro/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

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

/* ---- host scalar operands ------------------------------------------------------------------- */

/** Kinds of a host scalar operand (tfe_weak_scalar, tfe_binary_scalar): the four kinds of scalar a
 *  dynamic language passes (Python's bool, int, float and complex). */
#define TFE_SCALAR_BOOL 0    /**< a bool, given in int_value (0 or 1). */
#define TFE_SCALAR_INT 1     /**< an integer, given in int_value. */
#define TFE_SCALAR_FLOAT 2   /**< a real number, given in re. */
#define TFE_SCALAR_COMPLEX 3 /**< a complex number, given in re and im. */

/** The binary functions tfe_binary_scalar runs (int32_t values). */
#define TFE_BINOP_ADD 0       /**< tfe_add. */
#define TFE_BINOP_SUB 1       /**< tfe_sub. */
#define TFE_BINOP_MUL 2       /**< tfe_mul. */
#define TFE_BINOP_DIV 3       /**< tfe_div (true division). */
#define TFE_BINOP_DIV_TRUNC 4 /**< tfe_div_trunc. */
#define TFE_BINOP_REM 5       /**< tfe_rem. */
#define TFE_BINOP_POW 6       /**< tfe_pow. */
#define TFE_BINOP_MAXIMUM 7   /**< tfe_maximum. */
#define TFE_BINOP_MINIMUM 8   /**< tfe_minimum. */
#define TFE_BINOP_AND 9       /**< tfe_and. */
#define TFE_BINOP_OR 10       /**< tfe_or. */
#define TFE_BINOP_XOR 11      /**< tfe_xor. */
#define TFE_BINOP_EQ 12       /**< tfe_compare with TFE_CMP_EQ. */
#define TFE_BINOP_NE 13       /**< tfe_compare with TFE_CMP_NE. */
#define TFE_BINOP_LT 14       /**< tfe_compare with TFE_CMP_LT. */
#define TFE_BINOP_LE 15       /**< tfe_compare with TFE_CMP_LE. */
#define TFE_BINOP_GT 16       /**< tfe_compare with TFE_CMP_GT. */
#define TFE_BINOP_GE 17       /**< tfe_compare with TFE_CMP_GE. */

/** A rank-0 tensor holding a host scalar as a weak operand beside an operand of dtype `beside`:
 *  the dtype NumPy 2 gives a Python scalar next to an array (NEP 50). The scalar's kind decides
 *  (bool < int < float < complex) and within a kind the operand's precision wins: an int beside
 *  I32 is I32, a float beside F32 is F32, a float beside an integer dtype is F64, a complex beside
 *  F32 or C32 is C32 and beside anything else C64, a bool takes `beside`, an int beside Bool is
 *  I64. So `tfe_mul(&y, x_f32, s)` stays F32 where a strong F64 scalar would promote to F64.
 *  A float beyond F32's range becomes +-inf in F32 (as NumPy's cast).
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param ctx the context the tensor is made in (borrowed).
 * @param beside the dtype (TFE_BOOL .. TFE_C64) of the operand the scalar will be combined with.
 * @param kind TFE_SCALAR_BOOL, _INT, _FLOAT or _COMPLEX.
 * @param int_value the value of a BOOL (0 or 1) or INT scalar; ignored for the other kinds.
 * @param re the value of a FLOAT scalar, the real part of a COMPLEX one; ignored otherwise.
 * @param im the imaginary part of a COMPLEX scalar; ignored otherwise.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (NULL or released context, unknown dtype or kind, a
 *         BOOL value other than 0 or 1, an integer outside the range of an integer `beside`).
 * @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_weak_scalar(tfe_tensor** out, tfe_context* ctx, int32_t beside,
                                                 int32_t kind, int64_t int_value, double re,
                                                 double im);

/** A binary function of a tensor and a weak host scalar in one call: `op(x, s)`, or `op(s, x)`
 *  when scalar_first is nonzero, where s is the weak scalar tfe_weak_scalar makes beside x's dtype.
 * The result, its dtype, its derivative and its errors are those of the function op names with that
 *  operand; this entry point only saves building the scalar's handle, which matters to bindings
 *  whose operators take scalars (Python's `x * 2.0`).
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param op TFE_BINOP_ADD .. TFE_BINOP_GE.
 * @param x the tensor operand (borrowed).
 * @param kind the scalar's kind, as for tfe_weak_scalar.
 * @param int_value the value of a BOOL or INT scalar.
 * @param re the value of a FLOAT scalar, the real part of a COMPLEX one.
 * @param im the imaginary part of a COMPLEX scalar.
 * @param scalar_first nonzero: the scalar is the first operand (`2.0 - x`).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (NULL or released handle, unknown op or kind, a value
 *         as tfe_weak_scalar refuses); TFE_ERR_DTYPE_MISMATCH (a dtype op does not accept).
 * @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_binary_scalar(tfe_tensor** out, int32_t op,
                                                   const tfe_tensor* x, int32_t kind,
                                                   int64_t int_value, double re, double im,
                                                   int32_t scalar_first);

#ifdef __cplusplus
}
#endif

#endif /* TENFERRO_OPS_ELEMENTWISE_H */
