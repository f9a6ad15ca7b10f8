// Per-device state, created on first use: the device's one non-blocking stream, its cuBLAS handle
// bound to that stream, its caching allocator and the launch limits kernels size their grids by.
#pragma once

#include <cublas_v2.h>
#include <cusolverDn.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <mutex>

#include "backend/cuda/allocator.cuh"

namespace tfe::cuda {

struct DeviceState {
  explicit DeviceState(int32_t d) : device(d), allocator(d) {}
  int32_t device;
  cudaStream_t stream = nullptr;
  int32_t sm_count = 1;
  CachingAllocator allocator;
  std::mutex blas_mutex; // guards the lazy creation and use of blas
  cublasHandle_t blas = nullptr;
  // The cuSOLVER handle (bound to stream) and the parameter objects of the routines that take
  // one, created on first use under solver_mutex, which also guards their use (linalg.cu).
  std::mutex solver_mutex;
  cusolverDnHandle_t solver = nullptr;
  cusolverDnParams_t solver_params = nullptr;
  syevjInfo_t syevj = nullptr;
  gesvdjInfo_t gesvdj = nullptr;
};

// The number of usable devices; 0 (and status 0) without a driver or a device.
int32_t count_devices(int32_t* out);

// Checks the ordinal, makes the device current on the calling thread and returns its state with
// the stream created. Entries call it first.
int32_t bind_device(int32_t device, DeviceState** out);

// The state without creating the stream (for synchronize on a device never used).
int32_t device_state(int32_t device, DeviceState** out);

// cuBLAS helpers of gemm.cu, shared with trsm (linalg.cu). A cuBLAS status as TFE_ERR_DEVICE
// (TFE_ERR_OUT_OF_MEMORY for an allocation failure) with the message "cuda:<device>: <what>: ...".
int32_t blas_fail(int32_t device, cublasStatus_t st, const char* what);
// The device's cuBLAS handle, created on first use and bound to its stream; the caller holds
// s.blas_mutex.
int32_t blas_handle_locked(DeviceState& s, cublasHandle_t* out);
// 'N', 'T' or 'C' (either case) as a cuBLAS operation; false for any other character.
bool to_op(char t, cublasOperation_t* op);

// The grid of a grid-stride kernel over n elements with `threads` per block.
unsigned grid_for(const DeviceState& s, int64_t n, int threads);

} // namespace tfe::cuda
