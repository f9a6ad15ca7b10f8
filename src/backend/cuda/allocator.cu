#include "backend/cuda/allocator.cuh"

#include <cuda_runtime.h>

#include "backend/cuda/status.cuh"

namespace tfe::cuda {
namespace {
constexpr size_t kSmallStep = 512;           // classes up to 4 KiB are multiples of 512 bytes
constexpr size_t kSmallLimit = 4096;         // above: four classes per power of two (<= 25% slack)
constexpr size_t kLargest = size_t{1} << 60; // beyond any device; avoids overflow in rounding
} // namespace

size_t CachingAllocator::size_class(size_t bytes) {
  if (bytes <= kSmallLimit)
    return bytes == 0 ? kSmallStep : (bytes + kSmallStep - 1) / kSmallStep * kSmallStep;
  int top = 63 - __builtin_clzll(static_cast<unsigned long long>(bytes));
  size_t step = size_t{1} << (top - 2);
  return (bytes + step - 1) / step * step;
}

int32_t CachingAllocator::allocate(size_t bytes, void** out) {
  *out = nullptr;
  if (bytes > kLargest)
    return fail(TFE_ERR_OUT_OF_MEMORY, "cuda:%d: cannot allocate %zu bytes",
                static_cast<int>(device_), bytes);
  const size_t cls = size_class(bytes);
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = free_.find(cls);
  if (it != free_.end() && !it->second.empty()) {
    *out = it->second.back();
    it->second.pop_back();
    return 0;
  }
  void* p = nullptr;
  cudaError_t err = cudaMalloc(&p, cls);
  if (err == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError(); // an allocation failure is not sticky: clear it before retrying
    size_t released = empty_cache_locked();
    if (released > 0) err = cudaMalloc(&p, cls);
    if (err == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      size_t free_bytes = 0, total_bytes = 0;
      (void)cudaMemGetInfo(&free_bytes, &total_bytes);
      return fail(TFE_ERR_OUT_OF_MEMORY,
                  "cuda:%d: out of memory allocating %zu bytes (%zu of %zu bytes free)",
                  static_cast<int>(device_), bytes, free_bytes, total_bytes);
    }
  }
  if (err != cudaSuccess) return cuda_fail(device_, err, "cudaMalloc");
  *out = p;
  return 0;
}

void CachingAllocator::release(void* ptr, size_t bytes) {
  if (ptr == nullptr) return;
  const size_t cls = size_class(bytes);
  std::lock_guard<std::mutex> lock(mutex_);
  free_[cls].push_back(ptr);
}

size_t CachingAllocator::empty_cache_locked() {
  size_t released = 0;
  // cudaFree waits for the device, so blocks still read by queued kernels are not pulled away.
  for (auto& [cls, blocks] : free_) {
    for (void* p : blocks)
      if (cudaFree(p) == cudaSuccess) released += cls;
    blocks.clear();
  }
  return released;
}

} // namespace tfe::cuda
