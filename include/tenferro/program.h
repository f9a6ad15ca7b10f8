/** @file
 * tenferro/program.h: traced programs. Ops applied to symbolic tensors build a program instead
 * of running; a tfe_function made from symbolic inputs and the resulting outputs compiles once
 * per input shape and runs many times. Included by tenferro.h.
 *
 * Symbols: a symbolic extent -k (k >= 1) names symbol k of the context; inputs that declare the
 * same -k share the symbol, so the function accepts any extent there as long as those inputs
 * agree. Shape rules work on symbols: an equality that is provably false, or that relates two
 * different symbols, is a build-time error naming both extents; one between a symbol and a
 * constant is checked when the function is called. Concrete tensors used in traced ops become
 * constant inputs of the function, bound at every call. */
#ifndef TENFERRO_PROGRAM_H
#define TENFERRO_PROGRAM_H

#include "tenferro/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A traced function (reference counted; retains its context). */
typedef struct tfe_function tfe_function;
/** The outputs of one call of a tfe_function (reference counted). */
typedef struct tfe_results tfe_results;

/** tfe_tensor_shape reports a derived symbolic extent (an expression such as s1+1) as this value;
 *  a plain symbol k is reported as -k. */
#define TFE_EXTENT_DERIVED (-9223372036854775807LL - 1)

/** Caches of a context (tfe_context_cache_stats, tfe_context_cache_clear): compiled programs,
 *  derivative programs (keyed by the source program's structure and the transform), einsum
 *  contraction plans (keyed by subscripts and operand shapes; tenferro/einsum.h, @since 0.2), and
 *  the one-op derivative programs a dataflow context's reverse work runs (keyed by op, params,
 *  operand dtypes and shapes; @since 0.2). Append-only. */
#define TFE_CACHE_COMPILED 0
#define TFE_CACHE_DERIVATIVE 1 /**< Derivative programs. */
#define TFE_CACHE_EINSUM 2     /**< einsum contraction paths. */
#define TFE_CACHE_VJP_KERNEL 3 /**< One-op derivative programs of dataflow contexts. */

/** Modes of tfe_function_hvp. */
#define TFE_HVP_FORWARD_OVER_REVERSE 0
#define TFE_HVP_REVERSE_OVER_REVERSE 1 /**< The gradient of <gradient, v>. */

/**
 * A symbolic tensor: an input of a program to be traced.
 * @param[out] out new reference (tfe_tensor_release); NULL on failure.
 * @param ctx the context (retained); its symbols are shared by its symbolic tensors.
 * @param dtype TFE_BOOL .. TFE_C64.
 * @param ndim rank >= 0 (known).
 * @param shape ndim extents: >= 0 concrete, -k symbol k (k >= 1).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (NULL, unknown dtype, bad extent). @since 0.1
 */
TFE_API TFE_NODISCARD tfe_status tfe_tensor_symbolic(tfe_tensor** out, tfe_context* ctx,
                                                     int32_t dtype, int32_t ndim,
                                                     const int64_t* shape);
/** 1 when t is symbolic (an input or a traced value), else 0.
 * @param t the tensor (borrowed).
 * @param[out] out receives the result; left untouched on failure.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output).
 * @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_tensor_is_symbolic(const tfe_tensor* t, int32_t* out);
/**
 * The text of extent `axis` of t ("5", "s1", "(s1+1)"), copied like tfe_last_error_copy: buf may
 * be NULL iff capacity == 0; *needed (if non-NULL) gets strlen + 1.
 * @param t the tensor (borrowed).
 * @param axis the axis (a negative axis counts from the end).
 * @param buf receives min(capacity - 1, length) bytes and a NUL when capacity > 0; may be NULL iff
 *        capacity == 0.
 * @param capacity size of buf in bytes.
 * @param needed if non-NULL, receives the full length + 1.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output).
 * @since 0.1
 */
TFE_API TFE_NODISCARD tfe_status tfe_tensor_extent_text(const tfe_tensor* t, int64_t axis,
                                                        char* buf, int64_t capacity,
                                                        int64_t* needed);

/**
 * A function from symbolic inputs to outputs computed from them.
 * @param[out] out new reference (tfe_function_release); NULL on failure.
 * @param n_inputs number of inputs.
 * @param inputs symbolic tensors made by tfe_tensor_symbolic (borrowed), in argument order.
 * @param n_outputs number of outputs >= 1.
 * @param outputs tensors of the same context (borrowed): traced values, inputs themselves, or
 *        concrete tensors, which become constants.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (NULL, an input that is not a symbolic input, an
 *         output that depends on a symbolic tensor not listed as an input, two contexts).
 * @since 0.1
 */
TFE_API TFE_NODISCARD tfe_status tfe_function_create(tfe_function** out, int32_t n_inputs,
                                                     tfe_tensor* const* inputs, int32_t n_outputs,
                                                     tfe_tensor* const* outputs);
/** Adds a reference.
 * @param f the function (borrowed).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output).
 * @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_function_retain(tfe_function* f);
/** Drops a reference. NULL-safe.
 * @param f the function (borrowed).
 * @since 0.1 */
TFE_API void tfe_function_release(tfe_function* f);
/** Number of inputs of f.
 * @param f the function (borrowed).
 * @param[out] out receives the result; left untouched on failure.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output).
 * @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_function_num_inputs(const tfe_function* f, int32_t* out);
/** Number of outputs of f.
 * @param f the function (borrowed).
 * @param[out] out receives the result; left untouched on failure.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output).
 * @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_function_num_outputs(const tfe_function* f, int32_t* out);

/**
 * Calls f on n concrete tensors (compiled for their shapes on first use; cached per context).
 * @param[out] out new results handle (tfe_results_release); NULL on failure.
 * @param f the function (borrowed).
 * @param n number of arguments, equal to f's number of inputs.
 * @param args n concrete tensors of f's context (borrowed).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (wrong count, NULL, a symbolic argument, two
 *         contexts); TFE_ERR_DTYPE_MISMATCH (an argument's dtype differs from its input's);
 *         TFE_ERR_SHAPE_MISMATCH (a rank or concrete extent differs, a symbol bound to two
 *         values, a deferred shape condition fails; the message names the condition); any status
 *         an op returns (TFE_ERR_NUMERICAL for integer division by zero, ...). @since 0.1
 */
TFE_API TFE_NODISCARD tfe_status tfe_function_call(tfe_results** out, const tfe_function* f,
                                                   int32_t n, tfe_tensor* const* args);
/** tfe_function_call for a function with exactly one output, returning that output.
 *  @param[out] out new reference (tfe_tensor_release); NULL on failure.
 *  @param f the function (borrowed). @param n number of arguments. @param args the arguments.
 *
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output).
 *  @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_function_call1(tfe_tensor** out, const tfe_function* f,
                                                    int32_t n, tfe_tensor* const* args);
/** Number of tensors in r.
 * @param r the results (borrowed).
 * @param[out] out receives the result; left untouched on failure.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output).
 * @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_results_count(const tfe_results* r, int32_t* out);
/** Output i of a call. @param[out] out new reference (tfe_tensor_release).
 *  @param r the results (borrowed). @param i index in [0, count).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output).
 *  @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_results_get(tfe_tensor** out, const tfe_results* r, int32_t i);
/** Drops a reference. NULL-safe.
 * @param r the results (borrowed).
 * @since 0.1 */
TFE_API void tfe_results_release(tfe_results* r);
/**
 * Adds a reference to a results handle (each reference is released once).
 * @param r the results (borrowed).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (r is NULL or released).
 * @since 0.2
 */
TFE_API TFE_NODISCARD tfe_status tfe_results_retain(tfe_results* r);

/* ---- program AD: every transform returns a new function, which can be transformed again ----
 * Conventions (docs/design/ad-contract.md): JVP is real-linear (dy = a dz + b conj(dz)); gradients
 * are the adjoint under Re<u, v>, so a complex input receives dL/dRe + i dL/dIm (grad of sum |z|^2
 * is 2z); a real input of a complex computation receives the real part. Bool and integer inputs are
 * never active. wrt lists input indices (NumPy-style negatives allowed); n_wrt == 0 means all. */

/**
 * Forward mode. The new function takes f's inputs, then one tangent per wrt input (its dtype and
 * shape), and returns f's outputs, then one tangent per output of f.
 * @param[out] out new reference (tfe_function_release); NULL on failure.
 * @param f the function (borrowed).
 * @param n_wrt number of entries of wrt (0: every input).
 * @param wrt input indices, distinct.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (bad index, duplicate); TFE_ERR_NOT_DIFFERENTIABLE
 *         (an op without a derivative rule on the differentiated path; the message names it).
 * @since 0.1
 */
TFE_API TFE_NODISCARD tfe_status tfe_function_jvp(tfe_function** out, const tfe_function* f,
                                                  int32_t n_wrt, const int64_t* wrt);
/**
 * Reverse mode (linearize, then transpose the linear part). The new function takes f's inputs,
 * then one cotangent per output of f, and returns f's outputs, then one gradient per wrt input
 * (zeros, reported by tfe_function_output_is_zero, when the outputs do not depend on it).
 * Parameters and statuses as tfe_function_jvp.
 * @param[out] out new function owned by the caller (tfe_function_release); NULL on failure.
 * @param f the function (borrowed).
 * @param n_wrt number of entries of wrt (0: every input).
 * @param wrt input indices (negative ones count from the end); NULL allowed when n_wrt == 0.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output).
 * @since 0.1
 */
TFE_API TFE_NODISCARD tfe_status tfe_function_vjp(tfe_function** out, const tfe_function* f,
                                                  int32_t n_wrt, const int64_t* wrt);
/**
 * Gradient of a function with one output of one element (seeded with 1; for a complex output,
 * the gradient of its real part). The new function takes f's inputs and returns one gradient per
 * wrt input. Parameters as tfe_function_jvp.
 * Also returns TFE_ERR_INVALID_ARGUMENT when f has several outputs or a larger output.
 * @param[out] out new function owned by the caller (tfe_function_release); NULL on failure.
 * @param f the function (borrowed).
 * @param n_wrt number of entries of wrt (0: every input).
 * @param wrt input indices (negative ones count from the end); NULL allowed when n_wrt == 0.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output).
 * @since 0.1
 */
TFE_API TFE_NODISCARD tfe_status tfe_function_grad(tfe_function** out, const tfe_function* f,
                                                   int32_t n_wrt, const int64_t* wrt);
/**
 * Hessian-vector products of a one-element output: the new function takes f's inputs, then one
 * direction per wrt input, and returns (H v) per wrt input.
 * @param[out] out new reference (tfe_function_release); NULL on failure.
 * @param f the function (borrowed), one output of one element.
 * @param n_wrt number of entries of wrt (0: every input).
 * @param wrt input indices, distinct.
 * @param mode TFE_HVP_FORWARD_OVER_REVERSE (jvp of the gradient) or
 *        TFE_HVP_REVERSE_OVER_REVERSE (gradient of <gradient, v>); both give the same values.
 * @return as tfe_function_grad. @since 0.1
 */
TFE_API TFE_NODISCARD tfe_status tfe_function_hvp(tfe_function** out, const tfe_function* f,
                                                  int32_t n_wrt, const int64_t* wrt, int32_t mode);
/** 1 when output i of f is structurally zero (a gradient or tangent nothing flows into), else 0.
 *
 *  @param f the function (borrowed).
 *  @param i the output's index, in [0, tfe_function_num_outputs).
 *  @param[out] out receives 1 or 0; left untouched on failure.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output, i out of
 *          range).
 *  @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_function_output_is_zero(const tfe_function* f, int32_t i,
                                                             int32_t* out);

/**
 * Graphviz DOT text of a function's program, for looking at what was traced: each op as a box
 * with its name ("mul", "reduce_sum", "linalg_eigh") and the dtype and shape of each output
 * (symbolic extents as s1, s2, ...), inputs as filled boxes, captured constants dashed, outputs
 * as labels. The functions tfe_function_jvp, _vjp, _grad and _hvp return are programs too, so
 * their text shows the derivative program. Render with `dot -Tsvg`. Copied like
 * tfe_last_error_copy.
 * @param f the function (borrowed).
 * @param buf receives min(capacity - 1, length) bytes and a NUL when capacity > 0; may be NULL
 *        iff capacity == 0 (to ask for the length).
 * @param capacity size of buf in bytes.
 * @param needed if non-NULL, receives the full length + 1.
 * @return TFE_OK (also when truncated); TFE_ERR_INVALID_ARGUMENT (NULL or released f, NULL buf
 *         with capacity > 0, capacity < 0; nothing is written then).
 * @since 0.2
 */
TFE_API TFE_NODISCARD tfe_status tfe_function_to_dot(const tfe_function* f, char* buf,
                                                     int64_t capacity, int64_t* needed);

/**
 * Statistics of one of the context's caches (TFE_CACHE_COMPILED: compiled programs keyed by
 * program fingerprint and argument shapes; TFE_CACHE_DERIVATIVE: derivative programs;
 * TFE_CACHE_EINSUM: einsum contraction plans; TFE_CACHE_VJP_KERNEL: the one-op derivative
 * programs of dataflow contexts). Each output may be NULL.
 *
 * @param ctx the context (borrowed; a tensor made in it retains it).
 * @param cache TFE_CACHE_COMPILED, TFE_CACHE_DERIVATIVE, TFE_CACHE_EINSUM or TFE_CACHE_VJP_KERNEL.
 * @param[out] out_hits receives the result; left untouched on failure.
 * @param[out] out_misses receives the result; left untouched on failure.
 * @param[out] out_entries receives the result; left untouched on failure.
 * @param[out] out_bytes receives the result; left untouched on failure.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output).
 * @since 0.1
 */
TFE_API TFE_NODISCARD tfe_status tfe_context_cache_stats(const tfe_context* ctx, int32_t cache,
                                                         int64_t* out_hits, int64_t* out_misses,
                                                         int64_t* out_entries, int64_t* out_bytes);
/** Empties one of the context's caches (statistics counters are kept).
 * @param ctx the context (borrowed; a tensor made in it retains it).
 * @param cache TFE_CACHE_COMPILED, TFE_CACHE_DERIVATIVE, TFE_CACHE_EINSUM or TFE_CACHE_VJP_KERNEL.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output).
 * @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_context_cache_clear(tfe_context* ctx, int32_t cache);
/** Bounds a cache by entries and estimated bytes (least recently used entries go first).
 * @param ctx the context (borrowed; a tensor made in it retains it).
 * @param cache TFE_CACHE_COMPILED, TFE_CACHE_DERIVATIVE, TFE_CACHE_EINSUM or TFE_CACHE_VJP_KERNEL.
 * @param max_entries the most entries kept (>= 0).
 * @param max_bytes the most estimated bytes kept (>= 0).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output).
 * @since 0.1
 */
TFE_API TFE_NODISCARD tfe_status tfe_context_cache_limits(tfe_context* ctx, int32_t cache,
                                                          int64_t max_entries, int64_t max_bytes);

#ifdef __cplusplus
}
#endif

#endif /* TENFERRO_PROGRAM_H */
