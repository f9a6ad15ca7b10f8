// The thread pool behind parallel_for (thread_budget.hpp). Workers sleep on a condition
// variable; a parallel region publishes one job and chunks are claimed with an atomic counter.
#include "backend/cpu/thread_budget.hpp"

#include "backend/cpu/blas/blas.hpp"
#include "core/default_threads.hpp"

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace tfe::cpu {
namespace {

std::atomic<int> g_budget{0};
thread_local bool t_inside_region = false;

class Pool {
public:
  static Pool& instance() {
    // Leaked on purpose: workers must not be joined during static destruction.
    static Pool* const pool = std::make_unique<Pool>().release();
    return *pool;
  }

  // Runs the job with up to `threads` threads; false when the pool is busy (caller goes serial).
  bool run(int threads, int64_t chunks, const std::function<void(int64_t)>& body) {
    std::unique_lock region(region_mutex_, std::try_to_lock);
    if (!region.owns_lock()) return false;
    // Bounded by the work as well as the budget: a thread per chunk at most, so a large budget
    // and a small job never start threads that would only sleep.
    ensure_workers(static_cast<int>(std::min<int64_t>(threads, chunks)) - 1);
    {
      std::lock_guard lock(mutex_);
      body_ = &body;
      chunks_ = chunks;
      next_.store(0, std::memory_order_relaxed);
      active_workers_ = std::min<int64_t>(threads - 1, chunks - 1);
      pending_ = active_workers_;
      ++generation_;
    }
    wake_.notify_all();
    drain();
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return pending_ == 0; });
    body_ = nullptr;
    return true;
  }

private:
  void ensure_workers(int n) {
    std::lock_guard lock(mutex_);
    while (static_cast<int>(workers_.size()) < n) {
      int index = static_cast<int>(workers_.size());
      workers_.emplace_back([this, index] { worker_loop(index); });
      workers_.back().detach();
    }
  }

  void drain() {
    t_inside_region = true;
    for (;;) {
      int64_t c = next_.fetch_add(1, std::memory_order_relaxed);
      if (c >= chunks_) break;
      (*body_)(c);
    }
    t_inside_region = false;
  }

  void worker_loop(int index) {
    uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return generation_ != seen; });
        seen = generation_;
        if (index >= active_workers_) continue;
      }
      drain();
      {
        std::lock_guard lock(mutex_);
        --pending_;
      }
      done_.notify_one();
    }
  }

  std::mutex region_mutex_; // one parallel region at a time
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::vector<std::thread> workers_;
  const std::function<void(int64_t)>* body_ = nullptr;
  int64_t chunks_ = 0;
  std::atomic<int64_t> next_{0};
  int64_t active_workers_ = 0;
  int64_t pending_ = 0;
  uint64_t generation_ = 0;
};

} // namespace

int thread_budget() {
  int b = g_budget.load(std::memory_order_relaxed);
  if (b == 0) {
    b = default_thread_count();
    int expected = 0;
    if (!g_budget.compare_exchange_strong(expected, b)) b = expected;
  }
  return b;
}

void set_thread_budget(int threads) {
  int t = threads < 1 ? 1 : threads;
  g_budget.store(t);
  blas::set_num_threads(t); // one budget: large BLAS calls use the same count
}

void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn) {
  if (n <= 0) return;
  if (grain < 1) grain = 1;
  int threads = thread_budget();
  int64_t chunks = (n + grain - 1) / grain;
  if (chunks <= 1 || threads <= 1 || t_inside_region) {
    fn(0, n);
    return;
  }
  std::function<void(int64_t)> body = [&](int64_t c) {
    int64_t b = c * grain;
    fn(b, std::min(n, b + grain));
  };
  if (!Pool::instance().run(threads, chunks, body)) fn(0, n);
}

} // namespace tfe::cpu
