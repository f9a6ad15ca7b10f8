// Task: the coroutine type of all scheduled work (forward kernels, reverse kernels, user tasks).
//
// Contract (who does what):
// - A Task starts suspended. `schedule(task)` hands it to a Scheduler, which from then on is the
//   only party that resumes or destroys it (channels only *wake* it through the scheduler).
// - A task suspends only in `co_await` on a ReadBuffer or WriteBuffer (async.hpp). When an awaited
//   input turns out absent (a `co_await buffer`, not `.maybe()`) or failed, the task is cancelled:
//   it is never resumed again, and its scheduler destroys the frame. Destroying the frame releases
//   its buffers, so its unwritten outputs become absent (absence propagates downstream as a flag,
//   never as an exception), or carry the input's failure.
// - The outputs of a task are its WriteBuffer and GradSink *parameters*: the promise links them at
//   construction (C++20 passes the coroutine's parameters to the promise constructor), so that an
//   exception escaping the body, or a failed input, is stored into every unfinished output with
//   its original type and message. Keep outputs as parameters; do not move them into locals.
// - GCC 12 miscompiles complex coroutine frames: keep bodies to named locals and one `co_await`
//   per statement, with no temporary of a non-trivial type alive across a `co_await`.
// - Turns and wakes (detail::run_turn, detail::claim_wake): a task is Queued, Running, Suspended
//   or Notified. A channel may wake a task that registered as a waiter while its turn is still
//   unwinding on another thread; the wake then only marks it Notified and the thread running the
//   turn continues it. So exactly one thread owns a task at any time, and a scheduler never reads
//   a task it does not own.
// Neighbours: scheduler.hpp (who runs tasks), async.hpp (what tasks await).
#pragma once

#include <atomic>
#include <coroutine>
#include <cstdint>
#include <exception>
#include <type_traits>
#include <utility>
#include <vector>

#include "dataflow/block_cache.hpp"

namespace tfe::dataflow {

class Scheduler;
class TaskPromise;

namespace detail {
class BufferBase;
} // namespace detail

// An output parameter of a task (WriteBuffer, GradSink): linked into its task's promise. Not
// polymorphic: a pointer to a static table of two functions keeps buffers small and trivial to
// move.
class TaskOutput {
public:
  struct Ops {
    void (*fail)(TaskOutput*, std::exception_ptr) noexcept; // store a failure if not yet written
    void (*linked)(TaskOutput*, TaskPromise&) noexcept;     // now an output of this task
  };

protected:
  explicit TaskOutput(const Ops* ops) noexcept : ops_(ops) {}
  TaskOutput(const TaskOutput&) = delete;
  TaskOutput& operator=(const TaskOutput&) = delete;
  // For outputs that hold other outputs (OutputList): forwards the two calls to one of them.
  static void forward_fail(TaskOutput& o, std::exception_ptr e) noexcept { o.ops_->fail(&o, e); }
  static void forward_linked(TaskOutput& o, TaskPromise& p) noexcept { o.ops_->linked(&o, p); }

private:
  friend class TaskPromise;
  const Ops* ops_;
  TaskOutput* next_output_ = nullptr;
};

// The part of a task's promise that schedulers and channels use. Fields marked "scheduler" are
// owned by the task's scheduler; the others are written by the task's own turn or, while it is
// suspended, by the single channel that holds it as a waiter.
class TaskPromise {
public:
  std::coroutine_handle<> handle() const noexcept { return handle_; }
  const char* name() const noexcept { return name_; }
  uint64_t id() const noexcept { return id_; }
  bool cancelled() const noexcept { return cancelled_; }

  // Marks a suspended waiter as cancelled (by the channel that will wake it): its scheduler
  // destroys it instead of resuming it. `error` (may be null: plain absence) is stored into the
  // task's unfinished outputs before the frame goes.
  void cancel(std::exception_ptr error) noexcept {
    cancelled_ = true;
    cancel_error_ = std::move(error);
  }
  // The same, by the task itself during its turn (an awaited input is absent or failed already):
  // no wake follows, the thread running the turn destroys it.
  void cancel_self(std::exception_ptr error) noexcept {
    cancel(std::move(error));
    self_cancelled_ = true;
  }
  bool self_cancelled() const noexcept { return self_cancelled_; }

  // Stores `error` into every output parameter not yet written (a no-op for a null error).
  void fail_outputs(std::exception_ptr error) noexcept {
    if (!error) return;
    for (TaskOutput* o = outputs_; o; o = o->next_output_) o->ops_->fail(o, error);
  }

  // Scheduler-owned bookkeeping.
  Scheduler* scheduler = nullptr;
  TaskPromise* queue_next = nullptr; // ready queue, wake lists, or a channel's wait list
  TaskPromise *live_prev = nullptr, *live_next = nullptr; // the scheduler's live-task list
  // While suspended in a channel (under that channel's lock): the buffer and how it waits
  // (detail::Access).
  const detail::BufferBase* waiting_on = nullptr;
  uint8_t wait_mode = 0;
  enum RunState : uint8_t { Queued, Running, Suspended, Notified };
  std::atomic<uint8_t> run_state{Queued};
  // Not a coroutine: a thread blocked in Scheduler::wait, registered in a channel as a waiter.
  bool thread_waiter = false;

  void set_identity(const char* name, uint64_t id) noexcept {
    name_ = name ? name : "task";
    id_ = id;
  }
  std::exception_ptr cancel_error() const noexcept { return cancel_error_; }

protected:
  template <class A> void link_if_output(A& arg) noexcept {
    if constexpr (std::is_base_of_v<TaskOutput, std::remove_cvref_t<A>>) {
      TaskOutput& out = arg;
      out.next_output_ = outputs_;
      outputs_ = &out;
      out.ops_->linked(&out, *this);
    }
  }

  std::coroutine_handle<> handle_;

private:
  TaskOutput* outputs_ = nullptr;
  std::exception_ptr cancel_error_;
  const char* name_ = "task";
  uint64_t id_ = 0;
  bool cancelled_ = false;
  bool self_cancelled_ = false;
};

// A variable number of outputs of one kind (WriteBuffer, GradSink) as one task parameter: a
// failure reaches each of them.
template <class B> class OutputList : public TaskOutput {
public:
  OutputList() noexcept : TaskOutput(&kOps) {}
  OutputList(OutputList&& o) noexcept : TaskOutput(&kOps), items_(std::move(o.items_)) {}
  OutputList& operator=(OutputList&& o) noexcept {
    items_ = std::move(o.items_);
    return *this;
  }
  void push_back(B b) { items_.push_back(std::move(b)); }
  size_t size() const noexcept { return items_.size(); }
  B& operator[](size_t i) noexcept { return items_[i]; }

private:
  static void fail_fn(TaskOutput* o, std::exception_ptr e) noexcept {
    for (B& b : static_cast<OutputList*>(o)->items_) forward_fail(b, e);
  }
  static void linked_fn(TaskOutput* o, TaskPromise& p) noexcept {
    for (B& b : static_cast<OutputList*>(o)->items_) forward_linked(b, p);
  }
  static constexpr Ops kOps{&fail_fn, &linked_fn};
  std::vector<B> items_;
};

class [[nodiscard]] Task {
public:
  struct promise_type : TaskPromise {
    // Frames come from the per-thread block cache.
    static void* operator new(std::size_t size) { return detail::cache_allocate(size); }
    static void operator delete(void* p, std::size_t size) noexcept {
      detail::cache_deallocate(p, size);
    }
    promise_type() noexcept = default;
    // Sees the coroutine's parameters (the copies in the frame) and links the outputs among them.
    template <class... Args> explicit promise_type(Args&... args) noexcept {
      (link_if_output(args), ...);
    }
    Task get_return_object() noexcept {
      handle_ = std::coroutine_handle<promise_type>::from_promise(*this);
      return Task(this);
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    // The frame stays until its scheduler sees done() and destroys it.
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { fail_outputs(std::current_exception()); }
  };

  Task(Task&& other) noexcept : promise_(std::exchange(other.promise_, nullptr)) {}
  Task& operator=(Task&& other) noexcept {
    if (this != &other) {
      reset();
      promise_ = std::exchange(other.promise_, nullptr);
    }
    return *this;
  }
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;
  // A task never scheduled is destroyed unrun: its outputs become absent.
  ~Task() { reset(); }

  // Gives up ownership (to a scheduler).
  TaskPromise* release() noexcept { return std::exchange(promise_, nullptr); }

private:
  explicit Task(TaskPromise* p) noexcept : promise_(p) {}
  void reset() noexcept {
    if (promise_) std::exchange(promise_, nullptr)->handle().destroy();
  }
  TaskPromise* promise_;
};

namespace detail {

enum class TurnResult : uint8_t { Finished, Suspended };

// One turn of a task the calling scheduler owns (popped from its queue): resumes it until it
// finishes (completes, fails, is cancelled) or suspends in a channel. A task woken while its turn
// was still unwinding is continued here. Finished: destroy it with destroy_task. Suspended: the
// task is no longer ours; its channel will wake it through claim_wake.
inline TurnResult run_turn(TaskPromise& task) noexcept {
  task.run_state.store(TaskPromise::Running, std::memory_order_relaxed);
  std::coroutine_handle<> h = task.handle();
  for (;;) {
    if (task.cancelled()) return TurnResult::Finished;
    h.resume();
    if (h.done() || task.self_cancelled()) return TurnResult::Finished;
    // acq_rel: publishes the turn's writes to the next owner; acquire on failure: sees the
    // waker's writes (the channel state it published).
    uint8_t expected = TaskPromise::Running;
    if (task.run_state.compare_exchange_strong(expected, TaskPromise::Suspended,
                                               std::memory_order_acq_rel))
      return TurnResult::Suspended;
    task.run_state.store(TaskPromise::Running, std::memory_order_relaxed); // woken meanwhile
  }
}

// For Scheduler::wake: true when the caller must queue the task (it was suspended), false when
// the thread running its turn continues it (it was still running).
inline bool claim_wake(TaskPromise& task) noexcept {
  uint8_t s = task.run_state.load(std::memory_order_acquire);
  for (;;) {
    if (s == TaskPromise::Running) {
      if (task.run_state.compare_exchange_weak(s, TaskPromise::Notified, std::memory_order_acq_rel))
        return false;
    } else if (s == TaskPromise::Suspended) {
      if (task.run_state.compare_exchange_weak(s, TaskPromise::Queued, std::memory_order_acq_rel))
        return true;
    } else {
      return false; // queued or notified already: one wake per suspension
    }
  }
}

// Destroys a finished or cancelled task (not one suspended in a channel: see
// BufferBase::abandon_wait). A cancellation's error goes to the unfinished outputs first.
inline void destroy_task(TaskPromise& task) noexcept {
  if (task.cancelled()) task.fail_outputs(task.cancel_error());
  task.handle().destroy();
}

} // namespace detail
} // namespace tfe::dataflow
