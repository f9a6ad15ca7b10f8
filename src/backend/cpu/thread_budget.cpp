// The thread pool behind parallel_for (thread_budget.hpp). A parallel region publishes one job
// (a new generation) with a number of seats; a worker takes a seat before it touches the job, and
// chunks are claimed with an atomic counter. When the caller has run out of chunks it closes the
// job and waits only for the seated workers, so a worker that is asleep or waiting for a core
// never delays a region it did not join. Between jobs a worker watches for the next one for a
// bounded time (kSpin) before it sleeps on a condition variable, and the caller watches as long
// for the seated workers' last chunks: back-to-back regions (one elementwise op after another)
// then run without a futex wake-up, which costs about 25 us here. An idle pool sleeps.
#include "backend/cpu/thread_budget.hpp"

#include "backend/cpu/blas/blas.hpp"
#include "core/default_threads.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace tfe::cpu {
namespace {

std::atomic<int> g_budget{0};
thread_local bool t_inside_region = false;

// Long enough to cover the caller's work between two ops (a Python call is a few
// microseconds), short enough that an idle pool gives its cores back at once.
constexpr auto kSpin = std::chrono::microseconds(50);

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

// True as soon as done() is; false when kSpin passed first. After a short run of pause
// instructions it yields instead: when the other thread is waiting for this core (more runnable
// threads than cores), a pure spin would hold the core that thread needs for the whole kSpin.
template <class Done> bool spin_until(Done&& done) {
  for (int i = 0; i < 256; ++i) {
    if (done()) return true;
    cpu_relax();
  }
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    if (done()) return true;
    std::this_thread::yield();
    if (std::chrono::steady_clock::now() - start > kSpin) return done();
  }
}

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
    const int64_t seats = std::min<int64_t>(threads - 1, chunks - 1);
    bool sleepers = false;
    {
      std::lock_guard lock(mutex_);
      body_ = &body;
      chunks_ = chunks;
      next_.store(0, std::memory_order_relaxed);
      finished_.store(0, std::memory_order_relaxed);
      seats_.store(seats, std::memory_order_release);
      generation_.store(generation_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
      sleepers = sleeping_ > 0;
    }
    // A spinning worker sees the new generation without the system call.
    if (sleepers) wake_.notify_all();
    drain();
    // Close the job: a worker that has not taken a seat by now (asleep, or waiting for a core)
    // will not touch it, so only the seated ones are waited for.
    const int64_t seated = seats - seats_.exchange(0, std::memory_order_acq_rel);
    auto finished = [&] { return finished_.load(std::memory_order_acquire) == seated; };
    if (!spin_until(finished)) {
      std::unique_lock lock(mutex_);
      done_.wait(lock, finished);
    }
    body_ = nullptr;
    return true;
  }

private:
  void ensure_workers(int n) {
    std::lock_guard lock(mutex_);
    while (static_cast<int>(workers_.size()) < n) {
      workers_.emplace_back([this] { worker_loop(); });
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

  // A seat in the current job, if one is left: the job's fields are then valid until this
  // worker counts itself finished.
  bool take_seat() {
    int64_t s = seats_.load(std::memory_order_acquire);
    while (s > 0)
      if (seats_.compare_exchange_weak(s, s - 1, std::memory_order_acq_rel,
                                       std::memory_order_acquire))
        return true;
    return false;
  }

  void worker_loop() {
    uint64_t seen = 0;
    auto published = [&] { return generation_.load(std::memory_order_acquire) != seen; };
    for (;;) {
      if (!spin_until(published)) {
        std::unique_lock lock(mutex_);
        ++sleeping_;
        wake_.wait(lock, published);
        --sleeping_;
      }
      seen = generation_.load(std::memory_order_acquire);
      if (!take_seat()) continue;
      drain();
      finished_.fetch_add(1, std::memory_order_acq_rel);
      // Under the lock, so a caller between its check and its wait cannot miss the notify.
      std::lock_guard lock(mutex_);
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
  std::atomic<int64_t> seats_{0};    // workers the open job still takes
  std::atomic<int64_t> finished_{0}; // seated workers done with the job
  std::atomic<uint64_t> generation_{0};
  int sleeping_ = 0; // workers waiting on wake_ (under mutex_)
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
