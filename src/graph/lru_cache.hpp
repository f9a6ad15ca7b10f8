// A bounded, thread-safe LRU cache of immutable shared objects, keyed by a vector of 64-bit
// words (fingerprints, dtypes, extents). Bounded by entries and by an estimate of bytes; keeps
// hit/miss/eviction counts. Used for compiled programs and for derivative programs.
#pragma once

#include <cstdint>
#include <iterator>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace tfe::graph {

struct CacheStats {
  int64_t hits = 0, misses = 0, evictions = 0, entries = 0, bytes = 0;
  int64_t max_entries = 0, max_bytes = 0;
};

using CacheKey = std::vector<uint64_t>;

struct CacheKeyHash {
  size_t operator()(const CacheKey& k) const {
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint64_t w : k) h = (h ^ w) * 0x100000001b3ull;
    return static_cast<size_t>(h);
  }
};

template <class T> class LruCache {
public:
  LruCache(int64_t max_entries, int64_t max_bytes)
      : max_entries_(max_entries), max_bytes_(max_bytes) {}

  std::shared_ptr<const T> find(const CacheKey& key) {
    return find_if(key, [](const T&) { return true; });
  }

  // An entry under key that satisfies pred (a key may hold several variants, valid under
  // different conditions: see insert_variant; any variant pred accepts is a correct answer).
  template <class Pred> std::shared_ptr<const T> find_if(const CacheKey& key, Pred pred) {
    std::lock_guard lock(mutex_);
    auto [first, last] = map_.equal_range(key);
    typename std::list<Entry>::iterator best = order_.end();
    for (auto it = first; it != last && best == order_.end(); ++it)
      if (pred(*it->second->value)) best = it->second;
    if (best == order_.end()) {
      ++stats_.misses;
      return nullptr;
    }
    ++stats_.hits;
    order_.splice(order_.begin(), order_, best);
    return best->value;
  }

  // Stores value under key, replacing whatever the key held.
  void insert(const CacheKey& key, std::shared_ptr<const T> value, int64_t bytes) {
    std::lock_guard lock(mutex_);
    auto [first, last] = map_.equal_range(key);
    for (auto it = first; it != last; ++it) {
      stats_.bytes -= it->second->bytes;
      order_.erase(it->second);
    }
    map_.erase(key);
    add_locked(key, std::move(value), bytes);
  }

  // Stores value beside the variants the key holds already (entries that are valid under
  // different conditions, told apart by find_if's predicate). Each variant is one entry.
  void insert_variant(const CacheKey& key, std::shared_ptr<const T> value, int64_t bytes) {
    std::lock_guard lock(mutex_);
    add_locked(key, std::move(value), bytes);
  }

  void clear() {
    std::lock_guard lock(mutex_);
    map_.clear();
    order_.clear();
    stats_.bytes = 0;
  }

  void set_limits(int64_t max_entries, int64_t max_bytes) {
    std::lock_guard lock(mutex_);
    max_entries_ = max_entries;
    max_bytes_ = max_bytes;
    evict_locked(); // lower limits take effect at once
  }

  CacheStats stats() const {
    std::lock_guard lock(mutex_);
    CacheStats s = stats_;
    s.entries = static_cast<int64_t>(order_.size());
    s.max_entries = max_entries_;
    s.max_bytes = max_bytes_;
    return s;
  }

private:
  void add_locked(const CacheKey& key, std::shared_ptr<const T> value, int64_t bytes) {
    order_.push_front({key, std::move(value), bytes});
    map_.emplace(key, order_.begin());
    stats_.bytes += bytes;
    evict_locked();
  }

  void evict_locked() {
    while (!order_.empty() &&
           (static_cast<int64_t>(order_.size()) > max_entries_ || stats_.bytes > max_bytes_)) {
      auto victim = std::prev(order_.end());
      auto [first, last] = map_.equal_range(victim->key);
      for (auto it = first; it != last; ++it)
        if (it->second == victim) {
          map_.erase(it);
          break;
        }
      stats_.bytes -= victim->bytes;
      order_.erase(victim);
      ++stats_.evictions;
    }
  }

  struct Entry {
    CacheKey key;
    std::shared_ptr<const T> value;
    int64_t bytes;
  };
  mutable std::mutex mutex_;
  std::list<Entry> order_; // most recent first
  std::unordered_multimap<CacheKey, typename std::list<Entry>::iterator, CacheKeyHash> map_;
  CacheStats stats_;
  int64_t max_entries_, max_bytes_;
};

} // namespace tfe::graph
