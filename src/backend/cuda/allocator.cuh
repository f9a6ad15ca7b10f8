// A caching allocator for one device: freed blocks go to a free list of their size class and are
// handed out again without a cudaMalloc. Every use of a block is ordered on the device's single
// stream, so a block released while kernels still read it can be reused at once: the next user's
// work is queued after them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace tfe::cuda {

class CachingAllocator {
public:
  explicit CachingAllocator(int32_t device) : device_(device) {}
  // The blocks are deliberately not freed on destruction: static destructors may run after the
  // CUDA runtime has shut down, and process exit returns device memory anyway.
  CachingAllocator(const CachingAllocator&) = delete;
  CachingAllocator& operator=(const CachingAllocator&) = delete;

  // bytes == 0 gets a block of the smallest class (a valid, unique pointer).
  int32_t allocate(size_t bytes, void** out);
  void release(void* ptr, size_t bytes);
  // The size class of a request: what allocate reserves for it.
  static size_t size_class(size_t bytes);

private:
  // Frees every cached block; the caller holds mutex_. Returns the bytes given back.
  size_t empty_cache_locked();

  int32_t device_;
  std::mutex mutex_;
  std::unordered_map<size_t, std::vector<void*>> free_;
};

} // namespace tfe::cuda
