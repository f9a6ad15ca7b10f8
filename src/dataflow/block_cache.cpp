// The block cache of block_cache.hpp: a per-thread free list per size class, and a shared depot
// of full batches between threads.
#include "dataflow/block_cache.hpp"

#include <memory>
#include <mutex>
#include <new>
#include <utility>

#include "dataflow/spin_lock.hpp"

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
constexpr std::size_t kBatch = 64;   // blocks moved between a thread and the depot at once
constexpr std::size_t kMaxCached = 4 * kBatch;
constexpr std::size_t kMaxDepotBatches = 256; // per class; beyond that, blocks go to the heap

struct FreeBlock {
  FreeBlock* next;
};

// Full batches of freed blocks shared by all threads. Work graphs allocate on the thread that
// builds them and free on the threads that run them: without the depot every block would cross
// threads through the heap, which is slow and grows it. Leaked on purpose (threads may still
// return blocks during static destruction).
class Depot {
public:
  static Depot& instance() {
    static Depot* const d = std::make_unique<Depot>().release(); // leaked on purpose (see above)
    return *d;
  }
  // A batch of kBatch blocks, or nullptr.
  FreeBlock* take(std::size_t c) noexcept {
    std::lock_guard lock(locks_[c]);
    if (counts_[c] == 0) return nullptr;
    FreeBlock* b = batches_[c][--counts_[c]];
    return b;
  }
  std::size_t held_bytes() noexcept {
    std::size_t n = 0;
    for (std::size_t c = 0; c < kClasses; ++c) {
      std::lock_guard lock(locks_[c]);
      n += counts_[c] * kBatch * (c + 1) * kGranule;
    }
    return n;
  }
  // False when the depot is full (the caller frees the batch).
  bool give(std::size_t c, FreeBlock* batch) noexcept {
    std::lock_guard lock(locks_[c]);
    if (counts_[c] == kMaxDepotBatches) return false;
    batches_[c][counts_[c]++] = batch;
    return true;
  }

private:
  SpinLock locks_[kClasses];
  FreeBlock* batches_[kClasses][kMaxDepotBatches] = {};
  std::size_t counts_[kClasses] = {};
};

void free_list(FreeBlock* b) noexcept {
  while (b) {
    FreeBlock* next = b->next;
    ::operator delete(b);
    b = next;
  }
}

class Cache {
public:
  ~Cache() {
    alive_ = false;
    for (FreeBlock*& head : heads_) free_list(std::exchange(head, nullptr));
  }
  // Trivially destructible state read after the destructor ran (static destruction at exit frees
  // frames after the main thread's caches are gone).
  static bool alive() noexcept { return alive_; }
  void* pop(std::size_t c) noexcept {
    if (!heads_[c]) {
      heads_[c] = Depot::instance().take(c);
      counts_[c] = heads_[c] ? kBatch : 0;
      if (!heads_[c]) return nullptr;
    }
    FreeBlock* b = heads_[c];
    heads_[c] = b->next;
    --counts_[c];
    return b;
  }
  void push(std::size_t c, void* p) noexcept {
    auto* b = static_cast<FreeBlock*>(p);
    b->next = heads_[c];
    heads_[c] = b;
    if (++counts_[c] < kMaxCached) return;
    // Full: hand the first kBatch blocks to the depot as one batch.
    FreeBlock* batch = heads_[c];
    FreeBlock* last = batch;
    for (std::size_t i = 1; i < kBatch; ++i) last = last->next;
    heads_[c] = last->next;
    last->next = nullptr;
    counts_[c] -= kBatch;
    if (!Depot::instance().give(c, batch)) free_list(batch);
  }

  std::size_t held_bytes() const noexcept {
    std::size_t n = 0;
    for (std::size_t c = 0; c < kClasses; ++c) n += counts_[c] * (c + 1) * kGranule;
    return n;
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

std::size_t cache_held_bytes() noexcept {
  return (Cache::alive() ? t_cache.held_bytes() : 0) + Depot::instance().held_bytes();
}

void cache_deallocate(void* p, std::size_t size) noexcept {
  std::size_t c = (size - 1) / kGranule;
  if (kEnabled && c < kClasses && Cache::alive()) return t_cache.push(c, p);
  ::operator delete(p);
}

} // namespace tfe::dataflow::detail
