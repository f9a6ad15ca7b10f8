// ThreadPoolScheduler: runs tasks on worker threads as soon as they are ready.
//
// - `threads` is the number of threads it may use, the waiting thread included (the library's
//   thread budget semantics): threads - 1 workers run ready tasks, and a thread blocked in wait()
//   or run_all() runs ready tasks too instead of idling. With threads = 1 there are no workers:
//   tasks run inside waits, as with the DebugScheduler, but on whichever thread waits.
// - Order: ready tasks run in FIFO order of readiness, except that a task woken by the turn of
//   another task runs next on the same thread (its input is hot in that core's cache, and a chain
//   of dependent tasks then costs no queue traffic).
// - A blocking wait registers the waiting thread in the target's channel and sleeps until the
//   channel wakes it (helping with ready tasks meanwhile). It reports a deadlock (tfe::Error,
//   InvalidArgument, naming every suspended task and what it waits on) when the target is not
//   ready and none of this scheduler's tasks is ready or running: only a task could make progress.
//   A value written from outside any task by another thread must therefore be written before a
//   wait that needs it.
// - A task waiting inside its body (a nested get_wait) does not count as running while it waits,
//   so tasks that wait on each other are reported, not hung.
// - pause() holds tasks back from the workers; run_all() (caller's thread) and blocking waits still
//   run them. run_all() returns once no task is ready or running.
// - Tasks scheduled from inside a task (on a worker) go to this scheduler.
// - Destroying it stops the workers after their current turn and destroys unfinished tasks unrun
//   (their outputs become absent). It must not be destroyed while a thread waits in it.
#pragma once

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "dataflow/scheduler.hpp"
#include "dataflow/spin_lock.hpp"
#include "dataflow/task_registry.hpp"

namespace tfe::dataflow {

class ThreadPoolScheduler final : public Scheduler {
public:
  using Stats = SchedulerStats;

  // threads >= 1 (tfe::Error, InvalidArgument, otherwise).
  explicit ThreadPoolScheduler(int threads);
  ~ThreadPoolScheduler() override;

  void schedule(TaskPromise& task, const char* name) override;
  void wake(TaskPromise& task) noexcept override;
  void wait(const WaitTarget& target) override;
  void pause() override;
  void resume() override;
  void run_all() override;
  bool paused() const noexcept override;

  int threads() const noexcept { return static_cast<int>(workers_.size()) + 1; }
  size_t live_tasks() const;
  Stats stats() const;
  std::string describe_suspended() const;

private:
  struct ThreadWaiter;
  void worker_loop();
  // Queues a ready task and wakes a sleeping thread for it.
  void push_ready(TaskPromise& task) noexcept;
  // A task was queued: counts it and wakes a sleeping worker or waiting thread.
  void announce_ready() noexcept;
  // Pops a ready task and counts it as running; nullptr when none.
  TaskPromise* pop_running() noexcept;
  // Runs the popped task's turn on the calling thread, then the tasks it woke for this thread.
  void run_turns(TaskPromise& task);
  // No task ready or running (under q_lock_).
  bool quiescent_locked() const noexcept;
  // Sleeps on wait_cv_ unless `done()`, a task is ready, or nothing is running.
  template <class Done> void sleep_waiting(Done done);
  // For a thread in wait() or run_all(): runs ready tasks (its own "next" task first) until
  // done(), or until no task is ready or running; returns done().
  template <class Done> bool help_until(Done done);
  void notify_waiters(bool all) noexcept;
  // A worker out of work: true when a task became ready within the spin (about 0.1-1 ms).
  bool spin_for_work() const noexcept;
  // For a thread in wait() or run_all(): stops counting its own enclosing turn, if any.
  bool leave_turn() noexcept;
  void reenter_turn(bool left) noexcept;

  mutable detail::SpinLock q_lock_; // the registry: ready FIFO, live list, counters
  detail::TaskRegistry tasks_;
  std::atomic<int> ready_{0};   // tasks in the ready FIFO
  std::atomic<int> running_{0}; // turns in progress (not counting turns blocked in a wait)
  std::atomic<int> idle_workers_{0};
  std::atomic<int> sleeping_waiters_{0};
  std::atomic<bool> paused_{false};
  std::atomic<bool> stopping_{false};
  static constexpr int kSpins = 64;

  std::mutex sleep_mu_;             // sleeping and waking only
  std::condition_variable work_cv_; // workers: a task is ready, resume, stop
  std::condition_variable wait_cv_; // waiting threads: a task is ready, a target, quiescence
  std::vector<std::thread> workers_;
};

} // namespace tfe::dataflow
