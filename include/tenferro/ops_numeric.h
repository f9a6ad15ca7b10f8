/** @file
 * tenferro/ops_numeric.h: NumPy's numerically careful elementwise functions (logaddexp, hypot,
 * sigmoid, ...), the float predicates (isnan, isclose, ...) and the reductions any, all, var, std
 * and logsumexp. Included by tenferro.h. Conventions as in ops_shape.h: out is a new reference
 * (NULL on failure), inputs are borrowed, binary functions promote and broadcast their operands
 * left-aligned, axes are column-major dims counted from 0 (a negative axis counts from the end)
 * and n_axes == 0 means every axis. Every function works on every kind of tensor (eager,
 * requires_grad, traced, dataflow); the differentiable ones differentiate in every engine. Bool
 * and integer operands of the float functions are computed in F64, as NumPy's. @since 0.2 */
#ifndef TENFERRO_OPS_NUMERIC_H
#define TENFERRO_OPS_NUMERIC_H

#include "tenferro/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/** log(e^a + e^b) elementwise without overflow: the larger operand plus log1p(e^-|a - b|); equal
 *  infinities give that infinity. Real floats. Differentiable (at a tie each operand gets half).
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param a first operand (borrowed).
 *  @param b second operand (borrowed).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, handles of different
 *          contexts); TFE_ERR_SHAPE_MISMATCH (shapes that do not broadcast);
 *          TFE_ERR_DTYPE_MISMATCH (a complex operand).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_logaddexp(tfe_tensor** out, const tfe_tensor* a,
                                               const tfe_tensor* b);

/** sqrt(a^2 + b^2) elementwise, scaled by the larger magnitude so that it neither overflows nor
 *  underflows; an infinite operand gives +inf even with a NaN (as C's hypot). Real floats.
 *  Differentiable; the derivative at a = b = 0 is 0.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param a first operand (borrowed).
 *  @param b second operand (borrowed).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, handles of different
 *          contexts); TFE_ERR_SHAPE_MISMATCH (shapes that do not broadcast);
 *          TFE_ERR_DTYPE_MISMATCH (a complex operand).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_hypot(tfe_tensor** out, const tfe_tensor* a,
                                           const tfe_tensor* b);

/** The logistic function 1 / (1 + e^-x) elementwise, as 1/(1 + e^-|x|) or e^-|x|/(1 + e^-|x|) by
 *  the sign of x, so both tails keep full relative accuracy and nothing overflows; complex x
 *  through 1/2 + tanh(x/2)/2. Differentiable.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_sigmoid(tfe_tensor** out, const tfe_tensor* x);

/** x * x elementwise; the dtype is kept (integers wrap). Differentiable.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_square(tfe_tensor** out, const tfe_tensor* x);

/** 1 / x elementwise; Bool and integers give F64 (unlike NumPy's integer reciprocal).
 *  Differentiable.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_reciprocal(tfe_tensor** out, const tfe_tensor* x);

/** The argument of z in (-pi, pi]: atan2(imag, real) for complex z; 0 or pi for real z (pi for
 *  negative numbers and -0, NaN for NaN). The result is real. Differentiable for complex z away
 *  from 0; for real z the derivative is 0 (NaN at 0, where the value jumps).
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param z the operand (borrowed).
 *  @param deg nonzero: the angle in degrees.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_angle(tfe_tensor** out, const tfe_tensor* z, int32_t deg);

/** |a| with the sign of b elementwise (b = -0 counts as negative, as NumPy; a NaN b counts as
 *  positive). Real floats. Differentiable in a (not in b: the result is piecewise constant in b).
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param a the magnitude (borrowed).
 *  @param b the sign (borrowed).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, handles of different
 *          contexts); TFE_ERR_SHAPE_MISMATCH (shapes that do not broadcast);
 *          TFE_ERR_DTYPE_MISMATCH (a complex operand).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_copysign(tfe_tensor** out, const tfe_tensor* a,
                                              const tfe_tensor* b);

/** Bool: true where x is NaN (either part for complex; never for Bool and integers). Not
 *  differentiable.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_isnan(tfe_tensor** out, const tfe_tensor* x);

/** Bool: true where x is +inf or -inf (either part for complex; never for Bool and integers).
 *  Not differentiable.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_isinf(tfe_tensor** out, const tfe_tensor* x);

/** Bool: true where x is neither NaN nor infinite (both parts for complex; always for Bool and
 *  integers). Not differentiable.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_isfinite(tfe_tensor** out, const tfe_tensor* x);

/** x with NaN replaced by nan, +inf by posinf and -inf by neginf, per part for complex; a NaN
 *  posinf or neginf selects the default, the dtype's largest finite value (its negative for
 *  neginf). Bool and integers are returned unchanged. Differentiable (the derivative is 0 where a
 *  value was replaced).
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed).
 *  @param nan the value for NaN.
 *  @param posinf the value for +inf, or NaN for the default.
 *  @param neginf the value for -inf, or NaN for the default.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_nan_to_num(tfe_tensor** out, const tfe_tensor* x, double nan,
                                                double posinf, double neginf);

/** Bool: NumPy's asymmetric closeness |a - b| <= atol + rtol |b| elementwise, or a == b (so an
 *  infinity is close only to itself); NaN is close to NaN only when equal_nan. Bool and integers
 *  compare in F64. Not differentiable.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param a first operand (borrowed).
 *  @param b second operand, the reference (borrowed).
 *  @param rtol relative tolerance, >= 0.
 *  @param atol absolute tolerance, >= 0.
 *  @param equal_nan nonzero: NaN is close to NaN.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, handles of different
 *          contexts, a negative or NaN tolerance); TFE_ERR_SHAPE_MISMATCH (shapes that do not
 *          broadcast).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_isclose(tfe_tensor** out, const tfe_tensor* a,
                                             const tfe_tensor* b, double rtol, double atol,
                                             int32_t equal_nan);

/** Whether every element is close (tfe_isclose), as a rank-0 Bool tensor, so that it works in
 *  traced and dataflow contexts too (read it with tfe_tensor_copy_to).
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param a first operand (borrowed).
 *  @param b second operand, the reference (borrowed).
 *  @param rtol relative tolerance, >= 0.
 *  @param atol absolute tolerance, >= 0.
 *  @param equal_nan nonzero: NaN is close to NaN.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, handles of different
 *          contexts, a negative or NaN tolerance); TFE_ERR_SHAPE_MISMATCH (shapes that do not
 *          broadcast).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_allclose(tfe_tensor** out, const tfe_tensor* a,
                                              const tfe_tensor* b, double rtol, double atol,
                                              int32_t equal_nan);

/** Bool: whether some element along the axes is nonzero (false when empty). Not differentiable.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed).
 *  @param n_axes number of entries of axes; 0 means every axis.
 *  @param axes n_axes distinct axes (negative axes count from the end); NULL allowed when
 *         n_axes == 0.
 *  @param keepdims nonzero: the reduced axes stay, with extent 1.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a
 *          non-zero count, an axis out of range, duplicate axes).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_any(tfe_tensor** out, const tfe_tensor* x, int32_t n_axes,
                                         const int64_t* axes, int32_t keepdims);

/** Bool: whether every element along the axes is nonzero (true when empty). Not differentiable.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed).
 *  @param n_axes number of entries of axes; 0 means every axis.
 *  @param axes n_axes distinct axes (negative axes count from the end); NULL allowed when
 *         n_axes == 0.
 *  @param keepdims nonzero: the reduced axes stay, with extent 1.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a
 *          non-zero count, an axis out of range, duplicate axes).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_all(tfe_tensor** out, const tfe_tensor* x, int32_t n_axes,
                                         const int64_t* axes, int32_t keepdims);

/** Variance over the axes: mean(|x - mean(x)|^2) times n / (n - ddof), n the number of reduced
 *  elements (+inf, or NaN for a zero sum, when n <= ddof, as NumPy's division by zero). Real
 *  result for complex x; Bool and integers in F64. Differentiable.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed).
 *  @param n_axes number of entries of axes; 0 means every axis.
 *  @param axes n_axes distinct axes (negative axes count from the end); NULL allowed when
 *         n_axes == 0.
 *  @param ddof the delta degrees of freedom, finite (nonzero needs concrete extents).
 *  @param keepdims nonzero: the reduced axes stay, with extent 1.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a
 *          non-zero count, an axis out of range, duplicate axes, a non-finite ddof,
 *          a nonzero ddof over a symbolic extent).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_var(tfe_tensor** out, const tfe_tensor* x, int32_t n_axes,
                                         const int64_t* axes, double ddof, int32_t keepdims);

/** Standard deviation: the square root of tfe_var with the same arguments. Differentiable (not
 *  where the deviation is zero).
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed).
 *  @param n_axes number of entries of axes; 0 means every axis.
 *  @param axes n_axes distinct axes (negative axes count from the end); NULL allowed when
 *         n_axes == 0.
 *  @param ddof the delta degrees of freedom, finite (nonzero needs concrete extents).
 *  @param keepdims nonzero: the reduced axes stay, with extent 1.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a
 *          non-zero count, an axis out of range, duplicate axes, a non-finite ddof,
 *          a nonzero ddof over a symbolic extent).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_std(tfe_tensor** out, const tfe_tensor* x, int32_t n_axes,
                                         const int64_t* axes, double ddof, int32_t keepdims);

/** log(sum(e^x)) over the axes without overflow: the maximum is taken out first (a non-finite
 *  maximum gives that value: +inf, or -inf when every element is -inf). Real floats; Bool and
 *  integers in F64. Differentiable: the gradient is the softmax.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the operand (borrowed).
 *  @param n_axes number of entries of axes; 0 means every axis.
 *  @param axes n_axes distinct axes (negative axes count from the end); NULL allowed when
 *         n_axes == 0.
 *  @param keepdims nonzero: the reduced axes stay, with extent 1.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL array with a
 *          non-zero count, an axis out of range, duplicate axes); TFE_ERR_DTYPE_MISMATCH
 *          (complex x).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_logsumexp(tfe_tensor** out, const tfe_tensor* x,
                                               int32_t n_axes, const int64_t* axes,
                                               int32_t keepdims);

#ifdef __cplusplus
}
#endif

#endif
