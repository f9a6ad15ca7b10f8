/** @file
 * tenferro/interop.h: zero-copy exchange with other libraries: adopting a caller buffer and
 * DLPack export/import (legacy DLManagedTensor and versioned DLManagedTensorVersioned). The
 * DLPack structs are forward-declared: include dlpack.h yourself to use their fields.
 * Included by tenferro.h. */
#ifndef TENFERRO_INTEROP_H
#define TENFERRO_INTEROP_H

#include "tenferro/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

struct DLManagedTensor;
struct DLManagedTensorVersioned;

/** Called exactly once when the last reference to an adopted buffer goes, possibly from any
 *  thread. It must not call the library. */
typedef void (*tfe_deleter)(void* data, void* user_data);

/**
 * A tensor over caller memory, without copying.
 * @param[out] out new reference (tfe_tensor_release); NULL on failure.
 * @param ctx the context the tensor belongs to (retained).
 * @param dtype TFE_BOOL .. TFE_C64; Bool bytes must already be 0 or 1.
 * @param ndim rank >= 0.
 * @param shape ndim extents >= 0 (may be NULL when ndim == 0).
 * @param data element (0,..,0); aligned to the element size; must stay unmodified while any
 *        tensor references it (tensors are immutable). May be NULL when there are no elements.
 * @param strides ndim strides in elements (negative allowed), or NULL for compact column-major.
 * @param deleter called as deleter(data, user_data) when the last reference goes; may be NULL
 *        (the caller then keeps the memory alive longer than every tensor that uses it).
 * @param user_data passed to the deleter unchanged.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (NULL pointer, unknown dtype, negative extent,
 *         misaligned data, a Bool byte other than 0 or 1). On failure the deleter is not
 *         called: ownership was not taken. @since 0.1
 */
TFE_API TFE_NODISCARD tfe_status tfe_tensor_from_buffer(tfe_tensor** out, tfe_context* ctx,
                                                        int32_t dtype, int32_t ndim,
                                                        const int64_t* shape,
                                                        const int64_t* strides, void* data,
                                                        tfe_deleter deleter, void* user_data);

/**
 * Exports t as a legacy DLPack tensor sharing t's memory (CPU device, explicit strides; Bool
 * as kDLBool). The legacy form has no read-only flag: do not write through it.
 * @param[out] out new DLManagedTensor owned by the caller: call its deleter exactly once (it
 *             releases the reference to t's storage). NULL on failure.
 * @param t the tensor to share (borrowed; its storage stays alive until the deleter runs).
 *
 *  @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output).
 *  @since 0.1
 */
TFE_API TFE_NODISCARD tfe_status tfe_tensor_to_dlpack(struct DLManagedTensor** out,
                                                      const tfe_tensor* t);
/** As tfe_tensor_to_dlpack, versioned (DLPack 1.0), flagged DLPACK_FLAG_BITMASK_READ_ONLY.
 * @param[out] out new DLManagedTensorVersioned owned by the caller: call its deleter exactly once.
 *        NULL on failure.
 * @param t the tensor (borrowed).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output). */
TFE_API TFE_NODISCARD tfe_status
tfe_tensor_to_dlpack_versioned(struct DLManagedTensorVersioned** out, const tfe_tensor* t);
/**
 * Imports a legacy DLPack tensor without copying; on success the tensor owns src and calls its
 * deleter when the last reference goes. NULL strides mean compact row-major (the DLPack spec).
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (NULL, byte_offset or strides not aligned, Bool
 *         bytes other than 0/1); TFE_ERR_NOT_SUPPORTED (a device other than CPU, a dtype
 *         tenferro does not have, lanes != 1). On failure src is untouched and still owned by
 *         the caller.
 *  @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 *  @param ctx the context (borrowed; a tensor made in it retains it).
 *  @param src the DLPack tensor; owned by the new tensor on success, still the caller's on failure.
 *  @since 0.1
 */
TFE_API TFE_NODISCARD tfe_status tfe_tensor_from_dlpack(tfe_tensor** out, tfe_context* ctx,
                                                        struct DLManagedTensor* src);
/** As tfe_tensor_from_dlpack for the versioned form (major version 1).
 * @param[out] out new reference owned by the caller (tfe_tensor_release); NULL on failure.
 * @param ctx the context (borrowed; a tensor made in it retains it).
 * @param src the DLPack tensor; owned by the new tensor on success, still the caller's on failure.
 * @return TFE_OK; TFE_ERR_INVALID_ARGUMENT (a NULL or released handle, a NULL output). */
TFE_API TFE_NODISCARD tfe_status tfe_tensor_from_dlpack_versioned(
    tfe_tensor** out, tfe_context* ctx, struct DLManagedTensorVersioned* src);

#ifdef __cplusplus
}
#endif

#endif /* TENFERRO_INTEROP_H */
