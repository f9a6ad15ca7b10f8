/** @file
 * tenferro/ad.h: eager automatic differentiation with deferred semantic recording. Included by
 * tenferro.h.
 *
 * A tensor is tracked when it was made a variable (tfe_tensor_set_requires_grad, on a leaf of a
 * float or complex dtype) or computed by a recorded op from a tracked tensor. An op with a
 * tracked operand runs at once and also appends one raw node to a trace (nothing is analysed
 * then); an op with no tracked operand records nothing. Untracked operands of a recorded op
 * become constants of the trace. At the first derivative request the trace is analysed once into
 * a semantic program whose leaf extents are symbolic (equal extents share a symbol, 1 stays 1),
 * its derivative program is looked up or built (TFE_CACHE_DERIVATIVE) and compiled for the bound
 * shapes (TFE_CACHE_COMPILED), then run on the forward values the trace retained (the forward pass
 * never runs twice). Releasing any handle never breaks a trace: recorded nodes keep what they
 * need, including each recorded op's output, until the last tensor depending on them is released
 * (use no_grad for work that will not be differentiated). Guide: docs/eager-ad.md.
 *
 * Conventions (docs/design/ad-contract.md, decision 0006): a complex leaf receives dL/dRe + i
 * dL/dIm (grad of sum |z|^2 is 2z); a real leaf of a complex computation receives the real part; a
 * gradient has its leaf's dtype and shape. Scopes (no_grad, capture_trace) are per thread and
 * context and nest; no_grad wins. Gradient accumulation into a leaf is atomic with respect to
 * other backward calls. @since 0.1 for every function here. */
#ifndef TENFERRO_AD_H
#define TENFERRO_AD_H

#include "tenferro/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Makes the leaf t a variable (flag != 0) or a plain tensor again (flag == 0).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (NULL, t is the result of a recorded op, t is
 *         symbolic); TFE_ERR_DTYPE_MISMATCH (Bool or integer dtype).
 *  @param t the tensor (borrowed).
 *  @param flag non-zero to set, 0 to clear. */
TFE_API TFE_NODISCARD tfe_status tfe_tensor_set_requires_grad(tfe_tensor* t, int32_t flag);
/** 1 when t is tracked (a variable, a captured leaf, or computed by a recorded op), else 0.
 * @param t the tensor (borrowed).
 * @param[out] out receives the result; left untouched on failure.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output). */
TFE_API TFE_NODISCARD tfe_status tfe_tensor_requires_grad(const tfe_tensor* t, int32_t* out);
/**
 * Accumulates d(seed . loss)/d(leaf) into the gradient of every variable the loss depends on.
 * All contributions are computed first and committed together: a failing call changes no
 * gradient. Stored gradients are detached (untracked) tensors; accumulation replaces the stored
 * tensor, so a gradient fetched earlier keeps its value.
 * @param loss a tracked tensor (borrowed).
 * @param seed NULL for the implicit seed 1 (loss must have one element), else a tensor of the
 *        loss's shape with its dtype, or the real dtype of a complex loss (cast up).
 * @return TFE_OK; TFE_ERR_NOT_DIFFERENTIABLE (the loss reaches no variable, or an op without a
 *         derivative rule); TFE_ERR_INVALID_ARGUMENT (NULL, no seed for a larger loss, two
 *         contexts); TFE_ERR_SHAPE_MISMATCH and TFE_ERR_DTYPE_MISMATCH (the seed).
 */
TFE_API TFE_NODISCARD tfe_status tfe_backward(tfe_tensor* loss, const tfe_tensor* seed);
/** The stored gradient of variable t. @param[out] out new reference (tfe_tensor_release), or
 *  NULL when t has none (never backpropagated, cleared, or not a variable).
 *  @param t the tensor (borrowed).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output). */
TFE_API TFE_NODISCARD tfe_status tfe_tensor_grad(tfe_tensor** out, const tfe_tensor* t);
/** Makes t's gradient absent (a later tfe_tensor_grad gives NULL).
 * @param t the tensor (borrowed).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output). */
TFE_API TFE_NODISCARD tfe_status tfe_tensor_clear_grad(tfe_tensor* t);
/** An untracked tensor sharing t's value. @param[out] out new reference (tfe_tensor_release).
 *  @param t the tensor (borrowed).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output). */
TFE_API TFE_NODISCARD tfe_status tfe_tensor_detach(tfe_tensor** out, const tfe_tensor* t);

/**
 * Functional reverse mode: d(seed . y)/d(xs[i]) for each i, leaving stored gradients alone.
 * xs may be variables, captured leaves or tracked intermediates. The results are recorded again
 * unless no_grad is active, so tfe_jvp(tfe_vjp(...)) gives a Hessian-vector product.
 * @param[out] out_grads n entries: a new reference per gradient (tfe_tensor_release), NULL for an
 *             inactive x or one y does not depend on; all NULL on failure.
 * @param y the output (borrowed). @param n number of xs. @param xs the inputs (borrowed).
 * @param seed NULL: the implicit 1 (y with one element); else as tfe_backward's seed.
 * @return TFE_OK; TFE_ERR_NOT_SUPPORTED in a dataflow context; otherwise as tfe_backward.
 */
TFE_API TFE_NODISCARD tfe_status tfe_vjp(tfe_tensor** out_grads, const tfe_tensor* y, int32_t n,
                                         tfe_tensor* const* xs, const tfe_tensor* seed);
/**
 * Functional forward mode: the directional derivative of y along tangents[i] for xs[i].
 * @param[out] out new reference, or NULL when y depends on none of the active xs.
 * @param y the output (borrowed). @param n number of xs. @param xs the inputs (borrowed).
 * @param tangents n entries; tangents[i] may be NULL (zero). A tangent has its x's shape and
 *        dtype (a real tangent for a complex x is cast up).
 * @return TFE_OK; TFE_ERR_SHAPE_MISMATCH, TFE_ERR_DTYPE_MISMATCH (a tangent); as tfe_vjp.
 */
TFE_API TFE_NODISCARD tfe_status tfe_jvp(tfe_tensor** out, const tfe_tensor* y, int32_t n,
                                         tfe_tensor* const* xs, tfe_tensor* const* tangents);

/** Stops recording on this thread for ctx until the matching exit (nestable).
 * @param ctx the context (borrowed; a tensor made in it retains it).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output). */
TFE_API TFE_NODISCARD tfe_status tfe_no_grad_enter(tfe_context* ctx);
/** @return TFE_ERR_INVALID_ARGUMENT without a matching enter.
 * @param ctx the context (borrowed; a tensor made in it retains it). */
TFE_API TFE_NODISCARD tfe_status tfe_no_grad_exit(tfe_context* ctx);
/** Records every op on this thread for ctx, untracked ones too; an untracked operand of an op
 *  becomes an active captured leaf (its handle now reports requires_grad 1) that tfe_vjp and
 *  tfe_jvp can differentiate with respect to; backward never stores gradients into it (nestable).
 *  @param ctx the context (borrowed; a tensor made in it retains it).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output). */
TFE_API TFE_NODISCARD tfe_status tfe_capture_trace_enter(tfe_context* ctx);
/** @return TFE_ERR_INVALID_ARGUMENT without a matching enter.
 * @param ctx the context (borrowed; a tensor made in it retains it). */
TFE_API TFE_NODISCARD tfe_status tfe_capture_trace_exit(tfe_context* ctx);

/**
 * Graphviz DOT text of the eager trace below a tracked tensor: what tfe_backward(t, ...) would
 * analyse. Variables are filled boxes, captured leaves green, untracked constants dashed; each
 * recorded op shows its name and the dtype and shape of the value it produced, including the
 * conversions that promotion inserted. Shared nodes appear once. Render with `dot -Tsvg`. Copied
 * like tfe_last_error_copy.
 * @param t a tracked tensor (borrowed).
 * @param buf receives min(capacity - 1, length) bytes and a NUL when capacity > 0; may be NULL
 *        iff capacity == 0 (to ask for the length).
 * @param capacity size of buf in bytes.
 * @param needed if non-NULL, receives the full length + 1.
 * @return TFE_OK (also when truncated); TFE_ERR_INVALID_ARGUMENT (NULL or released t, t not
 *         tracked, symbolic or of a dataflow context, NULL buf with capacity > 0, capacity < 0;
 *         nothing is written then).
 * @since 0.2
 */
TFE_API TFE_NODISCARD tfe_status tfe_autograd_to_dot(const tfe_tensor* t, char* buf,
                                                     int64_t capacity, int64_t* needed);

#ifdef __cplusplus
}
#endif

#endif /* TENFERRO_AD_H */
