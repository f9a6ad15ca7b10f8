// Scheduler: the interface every scheduler implements (debug_scheduler.hpp: deterministic, one
// thread; thread_scheduler.hpp: a worker pool), the process-wide default and the scoped override.
//
// Contract:
// - schedule(task) takes ownership of a new task; the scheduler alone resumes and destroys it.
// - wake(task) is called by a channel (from any thread, never under a channel lock) when a task
//   suspended in it may continue, or has been cancelled (then the scheduler destroys it).
// - wait(target) blocks the calling thread until target.ready(), driving work as the scheduler
//   sees fit. A wait that can never complete is reported as tfe::Error (InvalidArgument) whose
//   message names the target and what the suspended tasks wait on; it never aborts or hangs.
// - pause() holds scheduled tasks back; run_all() runs every runnable task until none is left (it
//   works while paused: build a graph, then run it); resume() lifts the pause. A blocking wait is
//   an explicit request and drives the work it needs even while paused.
// - The default scheduler (set_default_scheduler / default_scheduler) may be set and read from
//   any thread. ScopedScheduler overrides it for the calling thread only, for a scope.
#pragma once

#include <cstdint>
#include <string>

#include "dataflow/task.hpp"

namespace tfe::dataflow {

// Something a blocking wait waits for.
class WaitTarget {
public:
  virtual bool ready() const noexcept = 0;
  // "the value of channel 'x' (#12) at epoch 1 (written by task 'sin' #4)", for deadlock reports.
  virtual std::string describe() const = 0;
  // Registers `waiter` (thread_waiter set) to be woken through its scheduler once ready; false
  // when ready already. disarm() withdraws the registration: true when withdrawn, false when the
  // wake was already under way (it will arrive).
  virtual bool arm(TaskPromise& waiter) const noexcept = 0;
  virtual bool disarm(TaskPromise& waiter) const noexcept = 0;

protected:
  ~WaitTarget() = default;
};

class Scheduler {
public:
  Scheduler() = default;
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;
  virtual ~Scheduler() = default;

  virtual void schedule(TaskPromise& task, const char* name) = 0;
  virtual void wake(TaskPromise& task) noexcept = 0;
  virtual void wait(const WaitTarget& target) = 0;
  virtual void pause() = 0;
  virtual void resume() = 0;
  virtual void run_all() = 0;
  virtual bool paused() const noexcept = 0;
};

// The process-wide default: the one set last (thread-safe), or the built-in ThreadPoolScheduler
// sized by the default thread count (TFE_NUM_THREADS, else the hardware), made on first use.
Scheduler& default_scheduler() noexcept;
// nullptr restores the built-in scheduler. The caller keeps `s` alive while it is installed
// and while tasks scheduled on it exist.
void set_default_scheduler(Scheduler* s) noexcept;
// The scheduler of the calling thread: its innermost ScopedScheduler, else the default.
Scheduler& current_scheduler() noexcept;

// Overrides the current scheduler of the calling thread for a scope (tests, temporary use).
class ScopedScheduler {
public:
  explicit ScopedScheduler(Scheduler& s) noexcept;
  ~ScopedScheduler();
  ScopedScheduler(const ScopedScheduler&) = delete;
  ScopedScheduler& operator=(const ScopedScheduler&) = delete;

private:
  Scheduler* previous_;
};

// Hands `task` to the current scheduler. `name` (a string literal: it is kept, not copied) labels
// the task in deadlock reports.
inline void schedule(Task&& task, const char* name = "task") {
  if (TaskPromise* p = task.release()) current_scheduler().schedule(*p, name);
}

} // namespace tfe::dataflow
