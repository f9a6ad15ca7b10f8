// The process-wide default scheduler and the per-thread scoped override of scheduler.hpp.
#include "dataflow/scheduler.hpp"

#include <atomic>

#include <memory>

#include "core/default_threads.hpp"
#include "dataflow/thread_scheduler.hpp"

namespace tfe::dataflow {
namespace {

std::atomic<Scheduler*> g_default{nullptr};
thread_local Scheduler* t_override = nullptr;

// A pool sized by the default thread count, made on first use. Leaked on purpose: its workers
// must not be joined during static destruction, and tasks may still hold it at exit.
Scheduler& builtin_scheduler() noexcept {
  static ThreadPoolScheduler* const instance =
      std::make_unique<ThreadPoolScheduler>(default_thread_count()).release();
  return *instance;
}

} // namespace

// acquire/release: a thread that reads the pointer sees the installed scheduler fully built.
Scheduler& default_scheduler() noexcept {
  Scheduler* s = g_default.load(std::memory_order_acquire);
  return s ? *s : builtin_scheduler();
}

void set_default_scheduler(Scheduler* s) noexcept { g_default.store(s, std::memory_order_release); }

Scheduler& current_scheduler() noexcept { return t_override ? *t_override : default_scheduler(); }

ScopedScheduler::ScopedScheduler(Scheduler& s) noexcept : previous_(t_override) { t_override = &s; }

ScopedScheduler::~ScopedScheduler() { t_override = previous_; }

} // namespace tfe::dataflow
