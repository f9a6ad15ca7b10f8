// The task bookkeeping of task_registry.hpp.
#include "dataflow/task_registry.hpp"

#include "core/error.hpp"
#include "dataflow/channel.hpp"

namespace tfe::dataflow::detail {

void TaskRegistry::add(TaskPromise& task, Scheduler* s, const char* name) noexcept {
  task.scheduler = s;
  task.set_identity(name, next_id_++);
  task.live_prev = nullptr;
  task.live_next = live_head_;
  if (live_head_) live_head_->live_prev = &task;
  live_head_ = &task;
  ++live_;
  ++stats_.scheduled;
  task.run_state.store(TaskPromise::Queued, std::memory_order_relaxed);
  push_ready(task);
}

void TaskRegistry::push_ready(TaskPromise& task) noexcept {
  task.queue_next = nullptr;
  (ready_tail_ ? ready_tail_->queue_next : ready_head_) = &task;
  ready_tail_ = &task;
}

TaskPromise* TaskRegistry::pop_ready() noexcept {
  TaskPromise* t = ready_head_;
  if (t) {
    ready_head_ = t->queue_next;
    if (!ready_head_) ready_tail_ = nullptr;
    t->queue_next = nullptr;
  }
  return t;
}

void TaskRegistry::count_turn(bool resumed, bool finished, bool cancelled) noexcept {
  if (resumed) ++stats_.turns;
  if (finished) ++(cancelled ? stats_.cancelled : stats_.completed);
}

void TaskRegistry::remove(TaskPromise& t) noexcept {
  (t.live_prev ? t.live_prev->live_next : live_head_) = t.live_next;
  if (t.live_next) t.live_next->live_prev = t.live_prev;
  t.live_prev = t.live_next = nullptr;
  --live_;
}

std::string TaskRegistry::describe_suspended() const {
  std::string out;
  for (const TaskPromise* t = live_head_; t; t = t->live_next) {
    if (!t->waiting_on) continue;
    if (!out.empty()) out += "; ";
    out += strformat("task '%s' #%llu waits to %s", t->name(), (unsigned long long)t->id(),
                     t->waiting_on->describe_wait(*t).c_str());
  }
  return out;
}

TaskPromise* TaskRegistry::take_live() noexcept {
  ready_head_ = ready_tail_ = nullptr;
  TaskPromise* t = live_head_;
  if (t) remove(*t);
  return t;
}

void throw_deadlock(const WaitTarget& target, const TaskRegistry& tasks) {
  std::string suspended = tasks.describe_suspended();
  fail(Status::InvalidArgument,
       "dataflow deadlock: waiting for %s, but no task can run (%zu suspended%s%s)",
       target.describe().c_str(), tasks.live(), suspended.empty() ? "" : ": ", suspended.c_str());
}

void destroy_unrun(TaskPromise& task) noexcept {
  if (task.waiting_on) task.waiting_on->abandon_wait(task);
  task.handle().destroy();
}

} // namespace tfe::dataflow::detail
