// A bounded, thread-safe LRU cache of immutable shared objects, keyed by a vector of 64-bit
// words (fingerprints, dtypes, extents). Bounded by entries and by an estimate of bytes; keeps
// hit/miss/eviction counts. Used for compiled programs and for derivative programs.
#pragma once

#include <cstdint>
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
    std::lock_guard lock(mutex_);
    auto it = map_.find(key);
    if (it == map_.end()) {
      ++stats_.misses;
      return nullptr;
    }
    ++stats_.hits;
    order_.splice(order_.begin(), order_, it->second);
    return it->second->value;
  }

  void insert(const CacheKey& key, std::shared_ptr<const T> value, int64_t bytes) {
    std::lock_guard lock(mutex_);
    if (auto it = map_.find(key); it != map_.end()) {
      stats_.bytes -= it->second->bytes;
      order_.erase(it->second);
      map_.erase(it);
    }
    order_.push_front({key, std::move(value), bytes});
    map_[key] = order_.begin();
    stats_.bytes += bytes;
    while (!order_.empty() &&
           (static_cast<int64_t>(order_.size()) > max_entries_ || stats_.bytes > max_bytes_)) {
      stats_.bytes -= order_.back().bytes;
      map_.erase(order_.back().key);
      order_.pop_back();
      ++stats_.evictions;
    }
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
  void evict_locked() {
    while (!order_.empty() &&
           (static_cast<int64_t>(order_.size()) > max_entries_ || stats_.bytes > max_bytes_)) {
      stats_.bytes -= order_.back().bytes;
      map_.erase(order_.back().key);
      order_.pop_back();
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
  std::unordered_map<CacheKey, typename std::list<Entry>::iterator, CacheKeyHash> map_;
  CacheStats stats_;
  int64_t max_entries_, max_bytes_;
};

} // namespace tfe::graph
