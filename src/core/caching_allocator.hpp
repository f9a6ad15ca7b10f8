// The caching allocator behind every tensor the library creates. Freshly mapped pages cost a page
// fault each (a new 256 MiB output made `a+b` 6-8x slower, measured by bench/core.cpp), so released
// blocks are kept in per-size free lists and handed out again. Thread-safe: one mutex guards the
// lists.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace tfe {

struct AllocatorStats {
  int64_t cached_bytes = 0; // held in free lists, ready for reuse
  int64_t live_bytes = 0;   // handed out and not yet returned
  int64_t hits = 0;         // requests served from a free list
  int64_t misses = 0;       // requests that went to the system allocator
  int64_t limit_bytes = 0;  // cache bound; blocks beyond it go back to the system
};

class CachingAllocator {
public:
  static constexpr size_t kAlignment = 64;
  // Every block has at least this many bytes past the request: optimised BLAS kernels (OpenBLAS's
  // complex gemv, seen under valgrind in gesdd) load a full vector past the last element of a
  // matrix, which must stay inside the block, not touch a neighbour or an unmapped page.
  static constexpr size_t kTailSlack = 64;

  // The process-wide instance. It is never destroyed, so tensors that outlive static
  // destruction (a Python interpreter shutting down) can still return their blocks.
  static CachingAllocator& instance();

  // A block of at least nbytes + kTailSlack (the returned capacity is its size class). OutOfMemory
  // error when the system has no memory even after the cache was emptied. nbytes == 0 gives
  // nullptr.
  void* acquire(size_t nbytes, size_t* capacity);
  void release(void* ptr, size_t capacity) noexcept;

  void set_limit(size_t bytes);
  void trim() noexcept; // frees every cached block
  AllocatorStats stats() const;

  // Size class of a request: 64-byte granularity for small blocks, then four classes per power
  // of two (at most 25 % slack).
  static size_t size_class(size_t nbytes);

  CachingAllocator();

private:
  void trim_locked(size_t target) noexcept;

  mutable std::mutex mutex_;
  std::unordered_map<size_t, std::vector<void*>> free_lists_;
  size_t cached_bytes_ = 0;
  size_t live_bytes_ = 0;
  size_t limit_bytes_;
  int64_t hits_ = 0;
  int64_t misses_ = 0;
};

} // namespace tfe
