// The deterministic scheduler of debug_scheduler.hpp and its deadlock report.
#include "dataflow/debug_scheduler.hpp"

#include "core/error.hpp"

namespace tfe::dataflow {

DebugScheduler::~DebugScheduler() {
  std::lock_guard run(run_mu_);
  {
    std::lock_guard lock(mu_);
    shutting_down_ = true; // wakes caused by the destruction below are ignored
  }
  for (;;) {
    TaskPromise* t;
    {
      std::lock_guard lock(mu_);
      t = tasks_.take_live();
    }
    if (!t) break;
    detail::destroy_unrun(*t);
  }
}

void DebugScheduler::schedule(TaskPromise& task, const char* name) {
  std::lock_guard lock(mu_);
  tasks_.add(task, this, name);
}

void DebugScheduler::wake(TaskPromise& task) noexcept {
  if (!detail::claim_wake(task)) return; // still in its turn: run_one continues it
  std::lock_guard lock(mu_);
  if (!shutting_down_) tasks_.push_ready(task);
}

bool DebugScheduler::run_one() {
  std::lock_guard run(run_mu_);
  TaskPromise* t;
  {
    std::lock_guard lock(mu_);
    t = tasks_.pop_ready();
  }
  if (!t) return false;
  bool resumes = !t->cancelled(); // a cancelled task is destroyed without a turn
  bool finished = detail::run_turn(*t) == detail::TurnResult::Finished;
  {
    std::lock_guard lock(mu_);
    tasks_.count_turn(resumes, finished, t->cancelled());
    if (finished) tasks_.remove(*t);
  }
  if (finished) detail::destroy_task(*t);
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
    std::lock_guard lock(mu_);
    detail::throw_deadlock(target, tasks_);
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
  return tasks_.live();
}

DebugScheduler::Stats DebugScheduler::stats() const {
  std::lock_guard lock(mu_);
  return tasks_.stats();
}

std::string DebugScheduler::describe_suspended() const {
  std::lock_guard lock(mu_);
  return tasks_.describe_suspended();
}

} // namespace tfe::dataflow
