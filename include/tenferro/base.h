/** @file
 * tenferro/base.h: export macros, status codes, dtype and comparison constants, version and
 * error functions. Included by tenferro.h; see the conventions block there. */
#ifndef TENFERRO_BASE_H
#define TENFERRO_BASE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(SWIG)
#define TFE_API
#define TFE_NODISCARD
#elif defined(_WIN32)
#define TFE_API __declspec(dllexport)
#define TFE_NODISCARD
#else
#define TFE_API __attribute__((visibility("default")))
#define TFE_NODISCARD __attribute__((warn_unused_result))
#endif

/** ABI version of this header; tfe_abi_version() returns the value the library was built with. */
#define TFE_ABI_VERSION 1

/** Status of every fallible call. Codes are append-only; treat an unknown code as an error. */
typedef int32_t tfe_status;
#define TFE_OK 0                     /**< Success. */
#define TFE_ERR_INVALID_ARGUMENT 1   /**< A NULL or released handle, a bad parameter. */
#define TFE_ERR_SHAPE_MISMATCH 2     /**< Extents that do not agree or broadcast. */
#define TFE_ERR_DTYPE_MISMATCH 3     /**< A dtype the function does not accept. */
#define TFE_ERR_OUT_OF_MEMORY 4      /**< An allocation failed. */
#define TFE_ERR_NOT_SUPPORTED 5      /**< A valid request this build cannot serve. */
#define TFE_ERR_DEVICE 6             /**< A device (accelerator) failed. */
#define TFE_ERR_NOT_DIFFERENTIABLE 7 /**< No derivative exists here. */
#define TFE_ERR_SINGULAR 8           /**< A singular matrix where an invertible one is needed. */
#define TFE_ERR_NON_CONVERGENCE 9    /**< An iterative algorithm did not converge. */
#define TFE_ERR_NUMERICAL 10         /**< A domain error: integer division by zero, ... */
#define TFE_ERR_INTERNAL 100         /**< A bug of the library; please report the message. */

/** Element types (int32_t values). C32/C64 are interleaved (re, im) pairs of float/double. */
#define TFE_BOOL 1
#define TFE_I32 2 /**< int32_t. */
#define TFE_I64 3 /**< int64_t. */
#define TFE_F32 4 /**< float. */
#define TFE_F64 5 /**< double. */
#define TFE_C32 6 /**< Complex of two floats. */
#define TFE_C64 7 /**< Complex of two doubles. */

/** Device kinds (int32_t values; the numbers are DLPack's kDLCPU and kDLCUDA). A tensor lives on
 *  one device; an op runs on the device of its operands and never moves a tensor by itself. */
#define TFE_DEVICE_CPU 1
#define TFE_DEVICE_CUDA 2 /**< An NVIDIA GPU through the CUDA plugin; ordinal 0, 1, ... */

/** Directions of tfe_compare (int32_t values). */
#define TFE_CMP_EQ 0
#define TFE_CMP_NE 1 /**< a != b. */
#define TFE_CMP_LT 2 /**< a < b. */
#define TFE_CMP_LE 3 /**< a <= b. */
#define TFE_CMP_GT 4 /**< a > b. */
#define TFE_CMP_GE 5 /**< a >= b. */

/** The library version.
 *  @return the version text, e.g. "0.1.0"; static storage, never freed. @since 0.1 */
TFE_API const char* tfe_version(void);

/** The ABI version the library was built with; compare with the header's TFE_ABI_VERSION.
 *  @return the library's TFE_ABI_VERSION. @since 0.1 */
TFE_API int32_t tfe_abi_version(void);

/**
 * The message of the last failing call on this thread: one line starting with the public
 * function's name, then the offending values; "" after a successful call. The pointer is
 * borrowed: valid until the next state-changing tenferro call on the same thread. Does not
 * change the error state.
 * @return the message (borrowed; never NULL). @since 0.1
 */
TFE_API const char* tfe_last_error_message(void);

/**
 * Copies the last error message of this thread into buf.
 * @param buf receives min(capacity - 1, strlen) bytes and a NUL when capacity > 0; may be NULL
 *        iff capacity == 0.
 * @param capacity size of buf in bytes.
 * @param needed if non-NULL, receives strlen + 1.
 * @return TFE_OK (also when truncated); TFE_ERR_INVALID_ARGUMENT when buf is NULL with
 *         capacity > 0 or capacity < 0. Does not change the error state. @since 0.1
 */
TFE_API TFE_NODISCARD tfe_status tfe_last_error_copy(char* buf, int64_t capacity, int64_t* needed);

/** The name of a status constant. Does not change the error state.
 *  @param s the status.
 *  @return "TFE_OK", "TFE_ERR_SHAPE_MISMATCH", ...; "TFE_ERR_UNKNOWN" for other values (static
 *          storage). @since 0.1 */
TFE_API const char* tfe_status_name(tfe_status s);

/** Number of live handles in the process: a leak check for bindings' test suites. Does not
 *  change the error state.
 *  @return the number of handles created and not yet released. @since 0.1 */
TFE_API int64_t tfe_debug_live_objects(void);

#ifdef __cplusplus
}
#endif

#endif /* TENFERRO_BASE_H */
