// The deterministic scheduler of debug_scheduler.hpp and its deadlock report.
#include "dataflow/debug_scheduler.hpp"

#include "core/error.hpp"
#include "dataflow/channel.hpp"

namespace tfe::dataflow {

DebugScheduler::~DebugScheduler() {
  std::lock_guard run(run_mu_);
  {
    std::lock_guard lock(mu_);
    shutting_down_ = true; // wakes caused by the destruction below are ignored
    ready_head_ = ready_tail_ = nullptr;
  }
  for (;;) {
    TaskPromise* t;
    {
      std::lock_guard lock(mu_);
      t = live_head_;
      if (!t) break;
      unlink_live(*t);
    }
    if (t->waiting_on) t->waiting_on->abandon_wait();
    t->handle().destroy(); // unrun: its outputs become absent
  }
}

void DebugScheduler::schedule(TaskPromise& task, const char* name) {
  std::lock_guard lock(mu_);
  task.scheduler = this;
  task.set_identity(name, next_id_++);
  task.live_prev = nullptr;
  task.live_next = live_head_;
  if (live_head_) live_head_->live_prev = &task;
  live_head_ = &task;
  ++live_;
  ++stats_.scheduled;
  task.queue_next = nullptr;
  (ready_tail_ ? ready_tail_->queue_next : ready_head_) = &task;
  ready_tail_ = &task;
}

void DebugScheduler::wake(TaskPromise& task) noexcept {
  std::lock_guard lock(mu_);
  if (shutting_down_) return;
  task.queue_next = nullptr;
  (ready_tail_ ? ready_tail_->queue_next : ready_head_) = &task;
  ready_tail_ = &task;
}

TaskPromise* DebugScheduler::pop_ready() {
  std::lock_guard lock(mu_);
  TaskPromise* t = ready_head_;
  if (t) {
    ready_head_ = t->queue_next;
    if (!ready_head_) ready_tail_ = nullptr;
    t->queue_next = nullptr;
    if (!t->cancelled()) ++stats_.turns;
  }
  return t;
}

void DebugScheduler::unlink_live(TaskPromise& t) noexcept {
  (t.live_prev ? t.live_prev->live_next : live_head_) = t.live_next;
  if (t.live_next) t.live_next->live_prev = t.live_prev;
  t.live_prev = t.live_next = nullptr;
  --live_;
}

bool DebugScheduler::run_one() {
  std::lock_guard run(run_mu_);
  TaskPromise* t = pop_ready();
  if (!t) return false;
  if (detail::resume_task(*t)) {
    {
      std::lock_guard lock(mu_);
      ++(t->cancelled() ? stats_.cancelled : stats_.completed);
      unlink_live(*t);
    }
    detail::destroy_task(*t);
  }
  return true;
}

void DebugScheduler::run_all() {
  while (run_one()) {
  }
}

void DebugScheduler::wait(const WaitTarget& target) {
  while (!target.ready()) {
    if (run_one()) continue;
    if (target.ready()) break;
    std::string suspended = describe_suspended();
    fail(Status::InvalidArgument,
         "dataflow deadlock: waiting for %s, but no task can run (%zu suspended%s%s)",
         target.describe().c_str(), live_tasks(), suspended.empty() ? "" : ": ", suspended.c_str());
  }
}

void DebugScheduler::pause() {
  std::lock_guard lock(mu_);
  paused_ = true;
}

void DebugScheduler::resume() {
  std::lock_guard lock(mu_);
  paused_ = false;
}

bool DebugScheduler::paused() const noexcept {
  std::lock_guard lock(mu_);
  return paused_;
}

size_t DebugScheduler::live_tasks() const {
  std::lock_guard lock(mu_);
  return live_;
}

DebugScheduler::Stats DebugScheduler::stats() const {
  std::lock_guard lock(mu_);
  return stats_;
}

std::string DebugScheduler::describe_suspended() const {
  std::lock_guard lock(mu_);
  std::string out;
  for (const TaskPromise* t = live_head_; t; t = t->live_next) {
    if (!t->waiting_on) continue;
    if (!out.empty()) out += "; ";
    out += strformat("task '%s' #%llu waits to %s", t->name(), (unsigned long long)t->id(),
                     t->waiting_on->describe_wait().c_str());
  }
  return out;
}

} // namespace tfe::dataflow
