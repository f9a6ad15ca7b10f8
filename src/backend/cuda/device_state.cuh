// Per-device state, created on first use: the device's one non-blocking stream, its cuBLAS handle
// bound to that stream, its caching allocator and the launch limits kernels size their grids by.
#pragma once

#include <cublas_v2.h>
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
};

// The number of usable devices; 0 (and status 0) without a driver or a device.
int32_t count_devices(int32_t* out);

// Checks the ordinal, makes the device current on the calling thread and returns its state with
// the stream created. Entries call it first.
int32_t bind_device(int32_t device, DeviceState** out);

// The state without creating the stream (for synchronize on a device never used).
int32_t device_state(int32_t device, DeviceState** out);

// The grid of a grid-stride kernel over n elements with `threads` per block.
unsigned grid_for(const DeviceState& s, int64_t n, int threads);

} // namespace tfe::cuda
