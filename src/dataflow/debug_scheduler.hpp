// DebugScheduler: a deterministic single-threaded scheduler. Nothing runs on its own: a blocking
// wait (get_wait, wait) or run_all() runs ready tasks one at a time, in FIFO order of readiness,
// on the calling thread, so one program gives one interleaving. When a wait's target is not ready
// and no task is ready, it throws tfe::Error (InvalidArgument) naming the target and, for every
// suspended task, the channel and epoch it waits on and that epoch's writer.
//
// Thread safety: its queue is locked, and only one thread runs tasks at a time, so calls from
// several threads are memory-safe; determinism (and meaningful deadlock reports) assume one
// thread builds and waits. Destroying it destroys its unfinished tasks unrun (their outputs become
// absent). The built-in default scheduler is a DebugScheduler.
#pragma once

#include <mutex>
#include <string>

#include "dataflow/scheduler.hpp"
#include "dataflow/task_registry.hpp"

namespace tfe::dataflow {

class DebugScheduler final : public Scheduler {
public:
  using Stats = SchedulerStats;

  DebugScheduler() = default;
  ~DebugScheduler() override;

  void schedule(TaskPromise& task, const char* name) override;
  void wake(TaskPromise& task) noexcept override;
  void wait(const WaitTarget& target) override;
  void pause() override;
  void resume() override;
  void run_all() override;
  bool paused() const noexcept override;

  // Runs one ready task for one turn; false when none is ready.
  bool run_one();
  // Tasks scheduled and not yet destroyed (running, ready or suspended).
  size_t live_tasks() const;
  Stats stats() const;
  // One clause per suspended task: what it waits on.
  std::string describe_suspended() const;

private:
  mutable std::mutex mu_;       // the registry and the flags
  std::recursive_mutex run_mu_; // one task turn at a time (recursive: a task may block)
  detail::TaskRegistry tasks_;
  bool paused_ = false;
  bool shutting_down_ = false;
};

} // namespace tfe::dataflow
