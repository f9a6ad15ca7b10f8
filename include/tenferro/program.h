/* tenferro/program.h: traced programs. Ops applied to symbolic tensors build a program instead
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
 *  derivative programs (keyed by the source program's structure and the transform), and einsum
 *  contraction plans (keyed by subscripts and operand shapes; tenferro/einsum.h, @since 0.2).
 *  Append-only. */
#define TFE_CACHE_COMPILED 0
#define TFE_CACHE_DERIVATIVE 1
#define TFE_CACHE_EINSUM 2

/** Modes of tfe_function_hvp. */
#define TFE_HVP_FORWARD_OVER_REVERSE 0
#define TFE_HVP_REVERSE_OVER_REVERSE 1

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
/** 1 when t is symbolic (an input or a traced value), else 0. @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_tensor_is_symbolic(const tfe_tensor* t, int32_t* out);
/**
 * The text of extent `axis` of t ("5", "s1", "(s1+1)"), copied like tfe_last_error_copy: buf may
 * be NULL iff capacity == 0; *needed (if non-NULL) gets strlen + 1. @since 0.1
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
/** Adds a reference. @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_function_retain(tfe_function* f);
/** Drops a reference. NULL-safe. @since 0.1 */
TFE_API void tfe_function_release(tfe_function* f);
/** Number of inputs of f. @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_function_num_inputs(const tfe_function* f, int32_t* out);
/** Number of outputs of f. @since 0.1 */
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
 *  @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_function_call1(tfe_tensor** out, const tfe_function* f,
                                                    int32_t n, tfe_tensor* const* args);
/** Number of tensors in r. @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_results_count(const tfe_results* r, int32_t* out);
/** Output i of a call. @param[out] out new reference (tfe_tensor_release).
 *  @param r the results (borrowed). @param i index in [0, count). @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_results_get(tfe_tensor** out, const tfe_results* r, int32_t i);
/** Drops a reference. NULL-safe. @since 0.1 */
TFE_API void tfe_results_release(tfe_results* r);

/* ---- program AD: every transform returns a new function, which can be transformed again ----
 * Conventions (ad-contract.md): JVP is real-linear (dy = a dz + b conj(dz)); gradients are the
 * adjoint under Re<u, v>, so a complex input receives dL/dRe + i dL/dIm (grad of sum |z|^2 is 2z);
 * a real input of a complex computation receives the real part. Bool and integer inputs are
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
 * Parameters and statuses as tfe_function_jvp. @since 0.1
 */
TFE_API TFE_NODISCARD tfe_status tfe_function_vjp(tfe_function** out, const tfe_function* f,
                                                  int32_t n_wrt, const int64_t* wrt);
/**
 * Gradient of a function with one output of one element (seeded with 1; for a complex output,
 * the gradient of its real part). The new function takes f's inputs and returns one gradient per
 * wrt input. Parameters as tfe_function_jvp.
 * @return also TFE_ERR_INVALID_ARGUMENT when f has several outputs or a larger output. @since 0.1
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
 *  @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_function_output_is_zero(const tfe_function* f, int32_t i,
                                                             int32_t* out);

/**
 * Statistics of one of the context's caches (TFE_CACHE_COMPILED: compiled programs keyed by
 * program fingerprint and argument shapes; TFE_CACHE_DERIVATIVE: derivative programs;
 * TFE_CACHE_EINSUM: einsum contraction plans). Each
 * output may be NULL.
 * @since 0.1
 */
TFE_API TFE_NODISCARD tfe_status tfe_context_cache_stats(const tfe_context* ctx, int32_t cache,
                                                         int64_t* out_hits, int64_t* out_misses,
                                                         int64_t* out_entries, int64_t* out_bytes);
/** Empties one of the context's caches (statistics counters are kept). @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_context_cache_clear(tfe_context* ctx, int32_t cache);
/** Bounds a cache by entries and estimated bytes (least recently used entries go first). @since 0.1
 */
TFE_API TFE_NODISCARD tfe_status tfe_context_cache_limits(tfe_context* ctx, int32_t cache,
                                                          int64_t max_entries, int64_t max_bytes);

#ifdef __cplusplus
}
#endif

#endif /* TENFERRO_PROGRAM_H */
