// The worker pool of thread_scheduler.hpp: one FIFO under a spin lock, a per-thread "next" slot
// for tasks woken by a turn, sleeping by condition variables with Dekker-style counters (a thread
// announces it sleeps, then re-checks; a notifier publishes work, then checks for sleepers: with
// sequentially consistent atomics one of the two always sees the other).
#include "dataflow/thread_scheduler.hpp"

#include "core/error.hpp"

namespace tfe::dataflow {
namespace {

// The scheduler whose turn the calling thread is running (nested waits discount it), and the
// task a turn woke for this thread to run next.
thread_local const Scheduler* t_turn_of = nullptr;
thread_local TaskPromise* t_next = nullptr;

} // namespace

// A thread blocked in wait(), registered in a channel like a suspended task.
struct ThreadPoolScheduler::ThreadWaiter : TaskPromise {
  explicit ThreadWaiter(Scheduler* s) noexcept {
    scheduler = s;
    thread_waiter = true;
    set_identity("a thread blocked in wait()", 0);
  }
  std::atomic<bool> signalled{false}; // set under sleep_mu_ (the sleeper re-checks under it)
};

ThreadPoolScheduler::ThreadPoolScheduler(int threads) {
  if (threads < 1)
    fail(Status::InvalidArgument, "ThreadPoolScheduler: threads = %d, expected at least 1",
         threads);
  workers_.reserve(static_cast<size_t>(threads - 1));
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { worker_loop(); });
}

ThreadPoolScheduler::~ThreadPoolScheduler() {
  {
    std::lock_guard lock(sleep_mu_);
    stopping_ = true; // also: wakes caused by the destruction below are ignored
  }
  work_cv_.notify_all();
  for (std::thread& w : workers_) w.join();
  for (;;) {
    TaskPromise* t;
    {
      std::lock_guard lock(q_lock_);
      t = tasks_.take_live();
    }
    if (!t) break;
    detail::destroy_unrun(*t);
  }
}

void ThreadPoolScheduler::schedule(TaskPromise& task, const char* name) {
  {
    std::lock_guard lock(q_lock_);
    tasks_.add(task, this, name);
  }
  announce_ready();
}

void ThreadPoolScheduler::push_ready(TaskPromise& task) noexcept {
  {
    std::lock_guard lock(q_lock_);
    tasks_.push_ready(task);
  }
  announce_ready();
}

void ThreadPoolScheduler::announce_ready() noexcept {
  ready_.fetch_add(1);
  if (idle_workers_.load() > 0 && !paused_.load()) {
    std::lock_guard lock(sleep_mu_);
    work_cv_.notify_one();
  }
  if (sleeping_waiters_.load() > 0) notify_waiters(false);
}

void ThreadPoolScheduler::wake(TaskPromise& task) noexcept {
  if (task.thread_waiter) {
    std::lock_guard lock(sleep_mu_);
    static_cast<ThreadWaiter&>(task).signalled.store(true);
    wait_cv_.notify_all();
    return;
  }
  if (!detail::claim_wake(task)) return; // still in its turn: that thread continues it
  if (stopping_.load(std::memory_order_relaxed)) return;
  if (t_turn_of == this && !t_next) {
    t_next = &task; // woken by this thread's turn: runs next here
    return;
  }
  push_ready(task);
}

TaskPromise* ThreadPoolScheduler::pop_running() noexcept {
  std::lock_guard lock(q_lock_);
  TaskPromise* t = tasks_.pop_ready();
  if (t) {
    running_.fetch_add(1); // before ready_ drops: never both zero while work exists
    ready_.fetch_sub(1);
  }
  return t;
}

void ThreadPoolScheduler::run_turns(TaskPromise& first) {
  const Scheduler* outer = std::exchange(t_turn_of, this);
  TaskPromise* next = std::exchange(t_next, nullptr); // an enclosing turn's slot waits for us
  for (TaskPromise* t = &first; t;) {
    bool resumes = !t->cancelled();
    bool finished = detail::run_turn(*t) == detail::TurnResult::Finished;
    {
      std::lock_guard lock(q_lock_);
      tasks_.count_turn(resumes, finished, finished && t->cancelled());
      if (finished) tasks_.remove(*t);
    }
    if (finished) detail::destroy_task(*t); // may wake tasks (into t_next)
    t = std::exchange(t_next, nullptr);
  }
  t_next = next;
  t_turn_of = outer;
  if (running_.fetch_sub(1) == 1 && sleeping_waiters_.load() > 0) notify_waiters(true);
}

bool ThreadPoolScheduler::quiescent_locked() const noexcept {
  return !tasks_.has_ready() && running_.load() == 0;
}

void ThreadPoolScheduler::notify_waiters(bool all) noexcept {
  std::lock_guard lock(sleep_mu_);
  if (all)
    wait_cv_.notify_all();
  else
    wait_cv_.notify_one();
}

void ThreadPoolScheduler::worker_loop() {
  ScopedScheduler scope(*this);
  while (!stopping_.load()) {
    if (!paused_.load()) {
      if (TaskPromise* t = pop_running()) {
        run_turns(*t);
        continue;
      }
      // Spin before sleeping: waking a sleeping thread costs the waker a system call and the
      // task microseconds of latency, much more than a typical scalar task takes.
      if (spin_for_work()) continue;
    }
    std::unique_lock lock(sleep_mu_);
    idle_workers_.fetch_add(1);
    if (!stopping_.load() && (paused_.load() || ready_.load() == 0)) work_cv_.wait(lock);
    idle_workers_.fetch_sub(1);
  }
}

bool ThreadPoolScheduler::spin_for_work() const noexcept {
  for (int spin = 0; spin < kSpins; ++spin) {
    for (int i = 0; i < 64; ++i) {
      if (ready_.load(std::memory_order_relaxed) > 0) return true;
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
    std::this_thread::yield(); // let another thread of this core run
  }
  return ready_.load() > 0;
}

template <class Done> void ThreadPoolScheduler::sleep_waiting(Done done) {
  std::unique_lock lock(sleep_mu_);
  sleeping_waiters_.fetch_add(1);
  if (!done() && ready_.load() == 0 && running_.load() > 0) wait_cv_.wait(lock);
  sleeping_waiters_.fetch_sub(1);
}

bool ThreadPoolScheduler::leave_turn() noexcept {
  if (t_turn_of != this) return false;
  if (running_.fetch_sub(1) == 1 && sleeping_waiters_.load() > 0) notify_waiters(true);
  return true;
}

void ThreadPoolScheduler::reenter_turn(bool left) noexcept {
  if (left) running_.fetch_add(1);
}

void ThreadPoolScheduler::wait(const WaitTarget& target) {
  if (target.ready()) return;
  ThreadWaiter waiter(this);
  if (!target.arm(waiter)) return; // ready meanwhile
  bool left = leave_turn();
  bool deadlocked = !help_until([&] { return waiter.signalled.load(); });
  if (deadlocked && !target.disarm(waiter)) {
    // A wake is under way (the target finished just now): let it land before `waiter` goes.
    std::unique_lock lock(sleep_mu_);
    wait_cv_.wait(lock, [&] { return waiter.signalled.load(); });
    deadlocked = false;
  }
  reenter_turn(left);
  if (deadlocked && !target.ready()) {
    std::lock_guard lock(q_lock_);
    detail::throw_deadlock(target, tasks_);
  }
}

void ThreadPoolScheduler::run_all() {
  bool left = leave_turn();
  help_until([] { return false; });
  reenter_turn(left);
}

template <class Done> bool ThreadPoolScheduler::help_until(Done done) {
  while (!done()) {
    // This thread's own "next" task first (woken by the turn that now waits), then the queue.
    TaskPromise* t = std::exchange(t_next, nullptr);
    if (t)
      running_.fetch_add(1);
    else
      t = pop_running();
    if (t) {
      run_turns(*t);
      continue;
    }
    {
      std::lock_guard lock(q_lock_);
      if (quiescent_locked()) return done();
    }
    sleep_waiting(done);
  }
  return true;
}

void ThreadPoolScheduler::pause() { paused_.store(true); }

void ThreadPoolScheduler::resume() {
  {
    std::lock_guard lock(sleep_mu_);
    paused_.store(false);
  }
  work_cv_.notify_all();
}

bool ThreadPoolScheduler::paused() const noexcept { return paused_.load(); }

size_t ThreadPoolScheduler::live_tasks() const {
  std::lock_guard lock(q_lock_);
  return tasks_.live();
}

ThreadPoolScheduler::Stats ThreadPoolScheduler::stats() const {
  std::lock_guard lock(q_lock_);
  return tasks_.stats();
}

std::string ThreadPoolScheduler::describe_suspended() const {
  std::lock_guard lock(q_lock_);
  return tasks_.describe_suspended();
}

} // namespace tfe::dataflow
