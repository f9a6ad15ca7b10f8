// Implementation of the caching allocator (caching_allocator.hpp).
#include "core/caching_allocator.hpp"

#include <bit>
#include <cstdlib>
#include <memory>

#include "core/error.hpp"

namespace tfe {

CachingAllocator::CachingAllocator() : limit_bytes_(size_t{2} << 30) {}

CachingAllocator& CachingAllocator::instance() {
  // Intentionally leaked (see the header): no destructor runs at exit.
  static CachingAllocator* const inst = std::make_unique<CachingAllocator>().release();
  return *inst;
}

size_t CachingAllocator::size_class(size_t nbytes) {
  if (nbytes <= 4096) return (nbytes + 63) & ~size_t{63};
  size_t p = std::bit_width(nbytes - 1); // 2^(p-1) < nbytes <= 2^p
  size_t step = size_t{1} << (p - 3);    // four classes per octave
  return (nbytes + step - 1) & ~(step - 1);
}

void* CachingAllocator::acquire(size_t nbytes, size_t* capacity) {
  *capacity = 0;
  if (nbytes == 0) return nullptr;
  size_t cls = size_class(nbytes + kTailSlack);
  {
    std::lock_guard lock(mutex_);
    auto it = free_lists_.find(cls);
    if (it != free_lists_.end() && !it->second.empty()) {
      void* p = it->second.back();
      it->second.pop_back();
      cached_bytes_ -= cls;
      live_bytes_ += cls;
      ++hits_;
      *capacity = cls;
      return p;
    }
    ++misses_;
  }
  void* p = std::aligned_alloc(kAlignment, cls);
  if (!p) {
    trim();
    p = std::aligned_alloc(kAlignment, cls);
    if (!p) fail(Status::OutOfMemory, "cannot allocate %zu bytes", nbytes);
  }
  {
    std::lock_guard lock(mutex_);
    live_bytes_ += cls;
  }
  *capacity = cls;
  return p;
}

void CachingAllocator::release(void* ptr, size_t capacity) noexcept {
  if (!ptr) return;
  std::lock_guard lock(mutex_);
  live_bytes_ -= capacity;
  if (capacity > limit_bytes_) {
    std::free(ptr);
    return;
  }
  if (cached_bytes_ + capacity > limit_bytes_) trim_locked(limit_bytes_ - capacity);
  try {
    free_lists_[capacity].push_back(ptr);
  } catch (...) {
    std::free(ptr);
    return;
  }
  cached_bytes_ += capacity;
}

void CachingAllocator::trim_locked(size_t target) noexcept {
  for (auto& [cls, list] : free_lists_) {
    while (!list.empty() && cached_bytes_ > target) {
      std::free(list.back());
      list.pop_back();
      cached_bytes_ -= cls;
    }
    if (cached_bytes_ <= target) break;
  }
}

void CachingAllocator::trim() noexcept {
  std::lock_guard lock(mutex_);
  trim_locked(0);
}

void CachingAllocator::set_limit(size_t bytes) {
  std::lock_guard lock(mutex_);
  limit_bytes_ = bytes;
  trim_locked(bytes);
}

AllocatorStats CachingAllocator::stats() const {
  std::lock_guard lock(mutex_);
  return {static_cast<int64_t>(cached_bytes_), static_cast<int64_t>(live_bytes_), hits_, misses_,
          static_cast<int64_t>(limit_bytes_)};
}

} // namespace tfe
