// The plugin's error reporting: every entry returns a TFE_ERR_* status and leaves a one-line
// message for last_error() in thread-local storage, so concurrent callers never see each other's
// messages.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "tenferro/base.h"

namespace tfe::cuda {

// Records the message (printf-style) and returns status, so callers can `return fail(...)`.
int32_t fail(int32_t status, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

// A CUDA runtime error as TFE_ERR_DEVICE: "cuda:<device>: <what>: <cudaGetErrorString>". An
// allocation failure maps to TFE_ERR_OUT_OF_MEMORY instead.
int32_t cuda_fail(int32_t device, cudaError_t err, const char* what);

const char* last_error_message();

} // namespace tfe::cuda

// Evaluates a CUDA runtime call and returns its mapped status from the enclosing function on error.
#define TFE_CUDA_TRY(device, call, what)                                                           \
  do {                                                                                             \
    cudaError_t tfe_cuda_err_ = (call);                                                            \
    if (tfe_cuda_err_ != cudaSuccess)                                                              \
      return ::tfe::cuda::cuda_fail((device), tfe_cuda_err_, what);                                \
  } while (0)

// Propagates a non-zero status.
#define TFE_CUDA_CHECK(expr)                                                                       \
  do {                                                                                             \
    int32_t tfe_cuda_st_ = (expr);                                                                 \
    if (tfe_cuda_st_ != 0) return tfe_cuda_st_;                                                    \
  } while (0)
