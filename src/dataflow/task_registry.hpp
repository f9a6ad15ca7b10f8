// TaskRegistry: the bookkeeping every scheduler keeps of its tasks: the ready FIFO, the list of
// live tasks (scheduled, not yet destroyed: for deadlock reports and for destroying unfinished
// tasks with their scheduler) and the counters. Not locked: its scheduler holds its own mutex
// around every call. Neighbours: debug_scheduler.hpp, thread_scheduler.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "dataflow/scheduler.hpp"
#include "dataflow/task.hpp"

namespace tfe::dataflow {

// What a scheduler has done so far.
struct SchedulerStats {
  uint64_t scheduled = 0; // tasks handed to schedule()
  uint64_t turns = 0;     // turns that resumed a task
  uint64_t completed = 0; // tasks that ran to their end (or failed)
  uint64_t cancelled = 0; // tasks destroyed because an input was absent or failed
};

namespace detail {

class TaskRegistry {
public:
  // A new task of scheduler s: live, identified (name and id) and ready.
  void add(TaskPromise& task, Scheduler* s, const char* name) noexcept;
  void push_ready(TaskPromise& task) noexcept;
  TaskPromise* pop_ready() noexcept;
  bool has_ready() const noexcept { return ready_head_ != nullptr; }
  // After a turn (resumed: it was not cancelled before the turn).
  void count_turn(bool resumed, bool finished, bool cancelled) noexcept;
  // Unlinks a finished task from the live list (before its frame is destroyed).
  void remove(TaskPromise& task) noexcept;
  size_t live() const noexcept { return live_; }
  const SchedulerStats& stats() const noexcept { return stats_; }
  // One clause per suspended task: "task 'sin' #4 waits to read channel ... at epoch 1 (...)".
  std::string describe_suspended() const;
  // For a scheduler's destructor: empties the ready queue and unlinks and returns the live tasks
  // one by one (nullptr when none is left), to be destroyed with destroy_unrun.
  TaskPromise* take_live() noexcept;

private:
  TaskPromise* ready_head_ = nullptr;
  TaskPromise* ready_tail_ = nullptr;
  TaskPromise* live_head_ = nullptr;
  size_t live_ = 0;
  uint64_t next_id_ = 1;
  SchedulerStats stats_;
};

// The deadlock report of a blocking wait: tfe::Error (InvalidArgument) naming the target and
// every suspended task with what it waits on.
[[noreturn]] void throw_deadlock(const WaitTarget& target, const TaskRegistry& tasks);

// Destroys a task that will never run again (its scheduler is going): unlinks it from the
// channel it waits on; its unwritten outputs become absent.
void destroy_unrun(TaskPromise& task) noexcept;

} // namespace detail
} // namespace tfe::dataflow
