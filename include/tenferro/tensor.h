/** @file
 * tenferro/tensor.h: contexts, tensors (creation from and to memory, accessors), creation
 * helpers, threads and devices. Included by tenferro.h; see the conventions block there. */
#ifndef TENFERRO_TENSOR_H
#define TENFERRO_TENSOR_H

#include "tenferro/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A library context: owns derivative caches and AD scopes; every tensor retains its context. */
typedef struct tfe_context tfe_context;
/** An immutable n-dimensional array (reference counted). */
typedef struct tfe_tensor tfe_tensor;

/**
 * Creates an eager-mode context.
 * @param[out] out new reference owned by the caller (release with tfe_context_release); NULL on
 *             failure.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT if out is NULL. @since 0.1
 */
TFE_API TFE_NODISCARD tfe_status tfe_context_create(tfe_context** out);
/* Scheduler kinds of a dataflow context. */
#define TFE_SCHEDULER_THREADS 0 /**< A worker pool; threads 0 = the thread budget. */
#define TFE_SCHEDULER_DEBUG 1   /**< Deterministic: work runs inside waits, on one thread. */
/* Context modes (tfe_context_mode). */
#define TFE_CONTEXT_EAGER 0    /**< Ops run at once (tfe_context_create). */
#define TFE_CONTEXT_DATAFLOW 1 /**< Ops schedule tasks (tfe_context_create_dataflow). */

/**
 * Creates a dataflow-mode context (the dataflow engine over tensors; guide: docs/dataflow.md).
 * Every op function of this library then schedules its forward work and, when an operand is
 * tracked, its reverse work, and returns at once.
 *
 * Eager vs dataflow context (the same functions; docs/user-guide.md has this table):
 * - op calls: eager computes, then returns; dataflow checks shapes and dtypes, schedules the
 *   work and returns at once.
 * - shape, dtype and argument errors: returned by the op in both modes.
 * - numerical and kernel errors (TFE_ERR_SINGULAR, ...): eager returns them from the op;
 *   dataflow from the first read of the value or of anything downstream (tfe_tensor_to_data,
 *   tfe_tensor_data, tfe_tensor_stride, tfe_tensor_grad, a DLPack export).
 * - tfe_tensor_to_data, tfe_tensor_data: eager reads; dataflow waits for the value.
 * - tfe_tensor_set_requires_grad: eager on leaves only; dataflow on any untracked tensor, a
 *   pending one too (a new variable sharing its value).
 * - tfe_backward(loss, seed): eager computes and accumulates into variables' grads; dataflow
 *   seeds the loss (once: a second seed is TFE_ERR_INVALID_ARGUMENT) and the reverse work runs
 *   as gradients are needed.
 * - tfe_tensor_grad(t): eager returns the stored gradient; dataflow seals t's graph and waits
 *   for dL/dt (any tracked tensor, not only variables); NULL when absent (nothing seeded
 *   depends on t, or only through ops of zero derivative).
 * - after a gradient request: a dataflow graph is sealed; its tensors feed new ops as untracked
 *   values (x - lr * g needs no wait) and seeding into it is TFE_ERR_INVALID_ARGUMENT.
 * - tfe_no_grad_enter/exit: eager records nothing; dataflow operands enter untracked.
 * - tfe_vjp, tfe_jvp, tfe_capture_trace_enter: TFE_ERR_NOT_SUPPORTED in a dataflow context.
 * - a wait that can never finish (dataflow only): TFE_ERR_INVALID_ARGUMENT naming what waits on
 *   what.
 *
 * Gradients are deterministic: the same bits under either scheduler and any thread count.
 * @param[out] out new reference (tfe_context_release); NULL on failure.
 * @param scheduler TFE_SCHEDULER_THREADS or TFE_SCHEDULER_DEBUG.
 * @param threads threads of the pool, the waiting thread included (>= 1), or 0 for the thread
 *        budget (tfe_get_num_threads); 0 or 1 for TFE_SCHEDULER_DEBUG.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (NULL out, unknown scheduler, negative threads,
 *         threads > 1 with the debug scheduler). @since 0.1
 */
TFE_API TFE_NODISCARD tfe_status tfe_context_create_dataflow(tfe_context** out, int32_t scheduler,
                                                             int32_t threads);
/** TFE_CONTEXT_EAGER or TFE_CONTEXT_DATAFLOW.
 * @param ctx the context (borrowed; a tensor made in it retains it).
 * @param[out] out receives the result; left untouched on failure.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output).
 * @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_context_mode(const tfe_context* ctx, int32_t* out);
/** Adds a reference. @return TFE_ERR_INVALID_ARGUMENT if ctx is NULL.
 * @param ctx the context (borrowed; a tensor made in it retains it).
 * @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_context_retain(tfe_context* ctx);
/** Drops a reference; the context goes when its last handle (tensors included) goes. NULL-safe.
 *
 *  @param ctx the context (borrowed; a tensor made in it retains it).
 *  @since 0.1 */
TFE_API void tfe_context_release(tfe_context* ctx);

/**
 * A tensor holding a copy of caller memory.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param ctx the context the tensor belongs to (retained).
 * @param dtype TFE_BOOL .. TFE_C64. Bool bytes that are non-zero are stored as 1.
 * @param ndim rank >= 0; shape and strides may be NULL when ndim == 0.
 * @param shape ndim extents >= 0.
 * @param strides ndim signed strides in elements, or NULL for compact column-major.
 * @param data element (0,..,0) of the source; may be NULL when the tensor has no elements.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (NULL pointer, unknown dtype, negative extent or
 *         ndim); TFE_ERR_NUMERICAL (element count overflows int64). @since 0.1
 */
TFE_API TFE_NODISCARD tfe_status tfe_tensor_from_data(tfe_tensor** out, tfe_context* ctx,
                                                      int32_t dtype, int32_t ndim,
                                                      const int64_t* shape, const int64_t* strides,
                                                      const void* data);

/**
 * Writes the values compact column-major into dst.
 * @param t the tensor (borrowed).
 * @param capacity_bytes size of dst in bytes; at least numel * element size.
 * @param dst caller buffer of capacity_bytes; may be NULL when the tensor has no elements.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (NULL t or dst, capacity_bytes below numel * element
 *         size). @since 0.1
 */
TFE_API TFE_NODISCARD tfe_status tfe_tensor_to_data(const tfe_tensor* t, void* dst,
                                                    int64_t capacity_bytes);

/**
 * Writes the values compact column-major into dst after checking that the caller reads them as
 * the tensor's element type: tfe_tensor_to_data with a dtype check, so reading an F64 tensor
 * into an int64_t buffer is refused instead of returning reinterpreted bytes.
 * @param t the tensor (borrowed).
 * @param dtype the element type of dst (TFE_BOOL .. TFE_C64); must equal t's dtype (convert
 *        first with tfe_cast or tfe_convert to read another type).
 * @param dst caller buffer of capacity_bytes; may be NULL when the tensor has no elements.
 * @param capacity_bytes size of dst in bytes; at least numel * element size.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (NULL or released t, NULL dst, unknown dtype,
 *         capacity_bytes below numel * element size, a symbolic tensor);
 *         TFE_ERR_DTYPE_MISMATCH (dtype differs from t's dtype; dst is not written).
 * @since 0.2
 */
TFE_API TFE_NODISCARD tfe_status tfe_tensor_copy_to(const tfe_tensor* t, int32_t dtype, void* dst,
                                                    int64_t capacity_bytes);

/**
 * Writes a NumPy-like text of t into buf, for debugging: nested brackets with the last index
 * varying fastest along a line (as NumPy prints the array of the same shape), values formatted
 * as NumPy's str() does (a common width, "1." for integral floats, scientific notation for very
 * large or small magnitudes, "1.+2.j" for complex, True/False for Bool). Tensors of more than
 * 1000 elements are summarized: 3 entries at each end of every axis, "..." between; rows wrap
 * at 75 characters. A 0-d tensor prints as NumPy prints its scalar ("3.5", "(1+2j)").
 * @param t the tensor (borrowed); a symbolic tensor prints its dtype and shape only.
 * @param buf receives min(capacity - 1, length) bytes and a NUL when capacity > 0; may be NULL
 *        iff capacity == 0 (to ask for the length).
 * @param capacity size of buf in bytes.
 * @param needed if non-NULL, receives the full length + 1.
 * @return TFE_OK (also when truncated); TFE_ERR_INVALID_ARGUMENT (NULL or released t, NULL buf
 *         with capacity > 0, capacity < 0). On failure buf and needed are not written.
 * @since 0.2
 */
TFE_API TFE_NODISCARD tfe_status tfe_tensor_format(const tfe_tensor* t, char* buf, int64_t capacity,
                                                   int64_t* needed);

/** dtype of t (TFE_BOOL .. TFE_C64).
 * @param t the tensor (borrowed).
 * @param[out] out receives the result; left untouched on failure.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output).
 * @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_tensor_dtype(const tfe_tensor* t, int32_t* out);
/** Rank of t.
 * @param t the tensor (borrowed).
 * @param[out] out receives the result; left untouched on failure.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output).
 * @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_tensor_ndim(const tfe_tensor* t, int32_t* out);
/** Writes ndim extents into out_shape (may be NULL when ndim == 0).
 * @param t the tensor (borrowed).
 * @param[out] out_shape receives the result; left untouched on failure.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output).
 * @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_tensor_shape(const tfe_tensor* t, int64_t* out_shape);
/** Number of elements.
 * @param t the tensor (borrowed).
 * @param[out] out receives the result; left untouched on failure.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output).
 * @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_tensor_numel(const tfe_tensor* t, int64_t* out);
/** Stride in elements of dim `axis` (NumPy-style negative axes allowed) of t's layout; views
 *  may have negative or zero strides.
 *  @param t the tensor (borrowed).
 *  @param axis the axis (a negative axis counts from the end).
 *  @param[out] out receives the result; left untouched on failure.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output).
 *  @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_tensor_stride(const tfe_tensor* t, int64_t axis, int64_t* out);
/** Borrowed address of element (0,..,0), valid while t lives; read-only. NULL for a tensor
 * with no elements.
 * @param t the tensor (borrowed).
 * @param[out] out receives the borrowed address, valid while t lives.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output).
 * @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_tensor_data(const tfe_tensor* t, const void** out);
/** The context of t. @param[out] out new reference (tfe_context_release).
 *  @param t the tensor (borrowed).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output).
 *  @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_tensor_context(tfe_context** out, const tfe_tensor* t);
/** A compact column-major tensor with the values of t (a new handle; storage shared when t is
 *  already compact).
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param t the tensor (borrowed).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output).
 *  @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_tensor_contiguous(tfe_tensor** out, const tfe_tensor* t);
/** Adds a reference.
 * @param t the tensor (borrowed).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output).
 * @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_tensor_retain(tfe_tensor* t);
/** Drops a reference. NULL-safe. Releasing a handle that was already released is detected
 * (docs/reliability.md says how far that goes): nothing is freed twice, and the thread's last
 * error message says so.
 * @param t the tensor (borrowed).
 * @since 0.1 */
TFE_API void tfe_tensor_release(tfe_tensor* t);

/* ---- creation (each: @param[out] out new reference, NULL on failure) ---- */

/** Every element zero.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param ctx the context (borrowed; a tensor made in it retains it).
 * @param dtype element type, TFE_BOOL .. TFE_C64.
 * @param ndim rank, >= 0.
 * @param shape ndim extents (NULL allowed when ndim == 0).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output).
 * @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_zeros(tfe_tensor** out, tfe_context* ctx, int32_t dtype,
                                           int32_t ndim, const int64_t* shape);
/** Every element one (true for Bool).
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param ctx the context (borrowed; a tensor made in it retains it).
 * @param dtype element type, TFE_BOOL .. TFE_C64.
 * @param ndim rank, >= 0.
 * @param shape ndim extents (NULL allowed when ndim == 0).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output).
 * @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_ones(tfe_tensor** out, tfe_context* ctx, int32_t dtype,
                                          int32_t ndim, const int64_t* shape);
/** Every element equal to *value, one element of dtype (copied).
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param ctx the context (borrowed; a tensor made in it retains it).
 * @param dtype element type, TFE_BOOL .. TFE_C64.
 * @param ndim rank, >= 0.
 * @param shape ndim extents (NULL allowed when ndim == 0).
 * @param value one element of dtype (copied).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output).
 * @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_full(tfe_tensor** out, tfe_context* ctx, int32_t dtype,
                                          int32_t ndim, const int64_t* shape, const void* value);
/** An n x m matrix with ones on the diagonal.
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param ctx the context (borrowed; a tensor made in it retains it).
 * @param dtype element type, TFE_BOOL .. TFE_C64.
 * @param n number of rows.
 * @param m number of columns.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output).
 * @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_eye(tfe_tensor** out, tfe_context* ctx, int32_t dtype,
                                         int64_t n, int64_t m);
/** [start, stop) with step as a rank-1 tensor of ceil((stop-start)/step) elements; numeric
 *  dtypes; step non-zero and finite.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param ctx the context (borrowed; a tensor made in it retains it).
 *  @param dtype element type, TFE_BOOL .. TFE_C64.
 *  @param start the first value.
 *  @param stop the bound (exclusive).
 *  @param step the increment (non-zero, finite).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output).
 *  @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_arange(tfe_tensor** out, tfe_context* ctx, int32_t dtype,
                                            double start, double stop, double step);
/** Uniform in [low, high) (per part for complex), counter-based from seed: the same seed gives
 *  the same values on every machine and thread count. F32/F64/C32/C64.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param ctx the context (borrowed; a tensor made in it retains it).
 *  @param dtype element type, TFE_BOOL .. TFE_C64.
 *  @param ndim rank, >= 0.
 *  @param shape ndim extents (NULL allowed when ndim == 0).
 *  @param seed the seed of the counter-based generator.
 *  @param low the lower bound (inclusive).
 *  @param high the upper bound (exclusive).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output).
 *  @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_random_uniform(tfe_tensor** out, tfe_context* ctx,
                                                    int32_t dtype, int32_t ndim,
                                                    const int64_t* shape, uint64_t seed, double low,
                                                    double high);
/** Standard normal (complex: independent parts of variance 1/2), counter-based from seed.
 *
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param ctx the context (borrowed; a tensor made in it retains it).
 *  @param dtype element type, TFE_BOOL .. TFE_C64.
 *  @param ndim rank, >= 0.
 *  @param shape ndim extents (NULL allowed when ndim == 0).
 *  @param seed the seed of the counter-based generator.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output).
 *  @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_random_normal(tfe_tensor** out, tfe_context* ctx,
                                                   int32_t dtype, int32_t ndim,
                                                   const int64_t* shape, uint64_t seed);
/** num evenly spaced values from start to stop as a rank-1 tensor (NumPy's linspace): computed
 *  in double precision, start + i * step with step = (stop - start) / (num - 1) (num with
 *  endpoint 0), the last value exactly stop when endpoint is 1, then rounded to dtype.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param ctx the context (borrowed; a tensor made in it retains it).
 *  @param dtype TFE_F32, TFE_F64, TFE_C32 or TFE_C64.
 *  @param start the first value (its real part for a complex dtype).
 *  @param start_imag the imaginary part of the first value (ignored for a real dtype).
 *  @param stop the last value (or the bound with endpoint 0; the real part).
 *  @param stop_imag the imaginary part of stop (ignored for a real dtype).
 *  @param num the number of values, >= 0.
 *  @param endpoint 1: stop is the last value; 0: it is left out.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output, num < 0,
 *         endpoint not 0 or 1, a non-finite value); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or
 *         C64); TFE_ERR_OUT_OF_MEMORY (num above 2^48, the element limit).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_linspace(tfe_tensor** out, tfe_context* ctx, int32_t dtype,
                                              double start, double start_imag, double stop,
                                              double stop_imag, int64_t num, int32_t endpoint);
/** base ** v for the values v of tfe_linspace(start, stop, num, endpoint) (NumPy's logspace),
 *  computed in double precision and rounded to dtype.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param ctx the context (borrowed; a tensor made in it retains it).
 *  @param dtype TFE_F32, TFE_F64, TFE_C32 or TFE_C64.
 *  @param start the first exponent (its real part for a complex dtype).
 *  @param start_imag the imaginary part of the first exponent (ignored for a real dtype).
 *  @param stop the last exponent (the real part).
 *  @param stop_imag the imaginary part of stop (ignored for a real dtype).
 *  @param num the number of values, >= 0.
 *  @param endpoint 1: stop is the last exponent; 0: it is left out.
 *  @param base the base (finite).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output, num < 0,
 *         endpoint not 0 or 1, a non-finite value); TFE_ERR_DTYPE_MISMATCH (not F32, F64, C32 or
 *         C64); TFE_ERR_OUT_OF_MEMORY (num above 2^48, the element limit).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_logspace(tfe_tensor** out, tfe_context* ctx, int32_t dtype,
                                              double start, double start_imag, double stop,
                                              double stop_imag, int64_t num, int32_t endpoint,
                                              double base);
/** Zeros with x's shape (symbolic extents kept when x is traced) in x's context: a constant,
 *  not differentiable in x.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the tensor whose shape is taken (borrowed).
 *  @param dtype element type, TFE_BOOL .. TFE_C64, or -1 for x's dtype.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output, an
 *         unknown dtype).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_zeros_like(tfe_tensor** out, const tfe_tensor* x,
                                                int32_t dtype);
/** Ones (true for Bool) with x's shape in x's context, as tfe_zeros_like.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the tensor whose shape is taken (borrowed).
 *  @param dtype element type, TFE_BOOL .. TFE_C64, or -1 for x's dtype.
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output, an
 *         unknown dtype).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_ones_like(tfe_tensor** out, const tfe_tensor* x,
                                               int32_t dtype);
/** Every element *value with x's shape in x's context, as tfe_zeros_like.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param x the tensor whose shape is taken (borrowed).
 *  @param dtype element type, TFE_BOOL .. TFE_C64, or -1 for x's dtype.
 *  @param value one element of the result's dtype (copied).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output, an
 *         unknown dtype).
 *  @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_full_like(tfe_tensor** out, const tfe_tensor* x, int32_t dtype,
                                               const void* value);

/* ---- threads, devices, introspection ---- */

/** Sets the library's thread budget, shared by its kernels and OpenBLAS, which is
 *  process-wide (NumPy or PyTorch in the same process see the same OpenBLAS setting).
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT for threads < 1 or above the hardware concurrency
 *  (more threads only wait for cores); the budget is then unchanged. TFE_NUM_THREADS is capped
 *  the same way.
 *  @param threads the number of threads, >= 1.
 *  @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_set_num_threads(int32_t threads);
/** The thread budget (defaults to the hardware concurrency or TFE_NUM_THREADS).
 * @param[out] out receives the result; left untouched on failure.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output).
 * @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_get_num_threads(int32_t* out);
/** Number of usable CUDA devices: 0 when the CUDA plugin (libtenferro_cuda.so, loaded on first
 *  use from the library's directory or TFE_CUDA_PLUGIN) is absent, or the machine has no driver
 *  or no GPU. Never an error for those reasons.
 * @param[out] out receives the result; left untouched on failure.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL output).
 * @since 0.1 */
TFE_API TFE_NODISCARD tfe_status tfe_device_count(int32_t* out);
/** Where a tensor's elements live.
 * @param t the tensor (a traced tensor reports the host).
 * @param[out] kind receives TFE_DEVICE_CPU or TFE_DEVICE_CUDA; left untouched on failure.
 * @param[out] ordinal receives the device number (0 for the CPU); may be NULL.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL kind).
 * @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_tensor_device(const tfe_tensor* t, int32_t* kind,
                                                   int32_t* ordinal);
/** The one transfer between devices: a compact copy of t on device (kind, ordinal), or a new
 *  reference to t when it is already there. Ops never transfer: operands on two devices are
 *  TFE_ERR_DEVICE. Host-to-device and back move the bytes once; between two GPUs through the host.
 *  The transfer is an op like the others: a tracked t gives a tracked copy whose derivative is
 *  the transfer back (so gradients reach t on t's device), a dataflow tensor gives a dataflow
 *  tensor (the copy is scheduled; a failure of t's own op reaches whoever reads the copy).
 * @param[out] out receives the new handle; NULL on failure.
 * @param t the tensor (borrowed): plain, tracked or of a dataflow context.
 * @param kind TFE_DEVICE_CPU or TFE_DEVICE_CUDA.
 * @param ordinal the device number, 0 for the CPU.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, an unknown kind, a
 *         negative or non-zero CPU ordinal); TFE_ERR_DEVICE (no such device: no plugin, no driver,
 *         no GPU, or an ordinal beyond tfe_device_count); TFE_ERR_NOT_SUPPORTED (t is traced: a
 *         program runs on the device of the arguments it is called with); TFE_ERR_OUT_OF_MEMORY.
 * @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_tensor_to_device(tfe_tensor** out, const tfe_tensor* t,
                                                      int32_t kind, int32_t ordinal);
/** Creates on a device: until the matching tfe_device_scope_exit, the creation functions called
 *  with ctx on this thread make their tensors on device (kind, ordinal): tfe_zeros, tfe_ones,
 *  tfe_full and tfe_eye are written by the device itself; tfe_arange, tfe_linspace,
 *  tfe_logspace, tfe_iota, tfe_random_uniform, tfe_random_normal and tfe_tensor_from_data are
 *  computed on the host and copied once (random numbers are the host's for the same seed).
 *  Scopes nest; other threads and other contexts are unaffected. Ops are unaffected too: they
 *  run where their operands are. tfe_tensor_from_buffer and DLPack imports keep their memory's
 *  device.
 * @param ctx the context (borrowed).
 * @param kind TFE_DEVICE_CPU or TFE_DEVICE_CUDA.
 * @param ordinal the device number, 0 for the CPU.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, an unknown kind, a
 *         negative or non-zero CPU ordinal); TFE_ERR_DEVICE (no such device).
 * @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_device_scope_enter(tfe_context* ctx, int32_t kind,
                                                        int32_t ordinal);
/** Closes the innermost device scope of ctx on this thread.
 * @param ctx the context (borrowed).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, no open scope).
 * @since 0.2 */
TFE_API TFE_NODISCARD tfe_status tfe_device_scope_exit(tfe_context* ctx);

/** Number of listed ops: the core IR ops of the op table, then (since 0.2) the linear algebra
 *  functions of linalg.h, one per C function (docs/ops/table.md, docs/ops/linalg.md).
 *  @return the number of ops, >= 1. @since 0.1 */
TFE_API int32_t tfe_op_count(void);
/** The name of an op: its IR name for a core op, "linalg.<name>" for a linear algebra function.
 *  @param i the op's index, in [0, tfe_op_count()).
 *  @return "add", "dot_general", ..., "linalg.solve", ... (static storage), or NULL when i is
 *          out of range.
 *  @since 0.1 */
TFE_API const char* tfe_op_name(int32_t i);
/** The name of the C function that runs an op.
 *  @param i the op's index, in [0, tfe_op_count()).
 *  @return "tfe_add", "tfe_div_trunc", ..., "tfe_linalg_solve", ... (static storage), or NULL
 *          when i is out of range.
 *  @since 0.1 */
TFE_API const char* tfe_op_c_name(int32_t i);

#ifdef __cplusplus
}
#endif

#endif /* TENFERRO_TENSOR_H */
