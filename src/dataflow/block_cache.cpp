// The per-thread block cache of block_cache.hpp.
#include "dataflow/block_cache.hpp"

#include <new>

namespace tfe::dataflow::detail {
namespace {

// Off under sanitizers: they must see every allocation (ASan) and its reuse (TSan).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kEnabled = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool kEnabled = false;
#else
constexpr bool kEnabled = true;
#endif
#else
constexpr bool kEnabled = true;
#endif

constexpr std::size_t kGranule = 16;
constexpr std::size_t kClasses = 64; // up to 1 KiB
constexpr std::size_t kMaxCached = 4096;

struct FreeBlock {
  FreeBlock* next;
};

class Cache {
public:
  ~Cache() {
    alive_ = false;
    for (FreeBlock*& head : heads_)
      while (FreeBlock* b = head) {
        head = b->next;
        ::operator delete(b);
      }
  }
  // Trivially destructible state read after the destructor ran (static destruction at exit frees
  // frames after the main thread's caches are gone).
  static bool alive() noexcept { return alive_; }
  void* pop(std::size_t c) noexcept {
    FreeBlock* b = heads_[c];
    if (!b) return nullptr;
    heads_[c] = b->next;
    --counts_[c];
    return b;
  }
  bool push(std::size_t c, void* p) noexcept {
    if (counts_[c] >= kMaxCached) return false;
    auto* b = static_cast<FreeBlock*>(p);
    b->next = heads_[c];
    heads_[c] = b;
    ++counts_[c];
    return true;
  }

private:
  static thread_local bool alive_;
  FreeBlock* heads_[kClasses] = {};
  std::size_t counts_[kClasses] = {};
};

thread_local bool Cache::alive_ = true;
thread_local Cache t_cache;

} // namespace

void* cache_allocate(std::size_t size) {
  std::size_t c = (size - 1) / kGranule;
  if (kEnabled && c < kClasses && Cache::alive()) {
    if (void* p = t_cache.pop(c)) return p;
    return ::operator new((c + 1) * kGranule);
  }
  return ::operator new(size);
}

void cache_deallocate(void* p, std::size_t size) noexcept {
  std::size_t c = (size - 1) / kGranule;
  if (kEnabled && c < kClasses && Cache::alive() && t_cache.push(c, p)) return;
  ::operator delete(p);
}

} // namespace tfe::dataflow::detail
