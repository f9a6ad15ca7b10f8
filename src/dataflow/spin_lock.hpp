// SpinLock: the lock of one channel or gradient accumulator. Critical sections are a few loads and
// stores (never a call out: wake-ups are collected under the lock and delivered after it), so a
// test-and-test-and-set spin beats a futex mutex. Neighbours: channel.hpp and reverse_value.hpp.
#pragma once

#include <atomic>
#include <thread>

namespace tfe::dataflow::detail {

class SpinLock {
public:
  void lock() noexcept {
    // acquire: the holder sees every store made by the previous holder before its unlock.
    for (int spins = 0; flag_.exchange(true, std::memory_order_acquire); ++spins) {
      while (flag_.load(std::memory_order_relaxed)) {
        if (++spins > 64) std::this_thread::yield();
      }
    }
  }
  void unlock() noexcept { flag_.store(false, std::memory_order_release); }

private:
  std::atomic<bool> flag_{false};
};

} // namespace tfe::dataflow::detail
