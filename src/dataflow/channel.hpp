// ChannelBase: the type-independent core of an async value channel (Async<T> in async.hpp): a
// reference count, the epoch queue and the wait lists.
//
// Epoch ordering. Every writer opens an epoch at the end of the queue; every reader joins the
// latest epoch at the time it is created. Epoch e's writer may write once every reader of epoch
// e-1 has released; epoch e's readers may read once e's writer has finished. A writer finishes by
// writing (Value), by being released unwritten (Absent: absence flows downstream as a flag), or by
// failing (Error, carrying an exception_ptr). A writer released before its turn takes effect at
// its turn. One storage slot serves all epochs: it holds the head epoch's value.
//
// Thread safety: every member function may be called from any thread; each takes the channel's
// spin lock for a few loads and stores. Waiting tasks are collected under the lock and woken
// through their scheduler after it is released, so no lock is ever held across a call out.
// A ready reader reads the storage without the lock: the lock acquisition that found it ready
// orders the writer's store before the read, and the next writer cannot start before the reader
// releases (release_reader takes the lock, ordering the read before the next write).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <exception>
#include <string>

#include "dataflow/block_cache.hpp"
#include "dataflow/spin_lock.hpp"
#include "dataflow/task.hpp"

namespace tfe::dataflow {

// What a ready reader finds.
enum class ValueState : uint8_t { Absent, Value, Error };

namespace detail {

class ChannelBase;
class BufferBase;

// Read: a value is needed (absent or failed cancels the waiter); ReadMaybe: absent is usable;
// Ready: any finished state is usable (a thread blocked in Scheduler::wait).
enum class Access : uint8_t { Read, ReadMaybe, Ready, Write };
enum class WriterState : uint8_t { Pending, Done, ReleasedEarly };

struct Epoch {
  Epoch* next = nullptr;
  // Suspended tasks (linked through TaskPromise::queue_next, free while a task waits).
  TaskPromise* reader_waiters = nullptr;    // most recent first
  TaskPromise* writer_waiter = nullptr;     // this epoch's writer, waiting for its turn
  const TaskPromise* writer_task = nullptr; // diagnostics: the task whose output the writer is
  std::exception_ptr early_error;           // a writer failed before its turn
  uint32_t index = 1;
  uint32_t readers = 0; // readers created and not yet released
  WriterState writer = WriterState::Pending;
};

// Tasks to wake once the channel lock is released, in FIFO order.
class WakeList {
public:
  void push(TaskPromise* t) noexcept {
    t->queue_next = nullptr;
    (tail_ ? tail_->queue_next : head_) = t;
    tail_ = t;
  }
  void deliver() noexcept;

private:
  TaskPromise* head_ = nullptr;
  TaskPromise* tail_ = nullptr;
};

// What ReadBuffer<T> and WriteBuffer<T> share: the channel and the epoch they hold. A task
// suspended on a buffer waits in that epoch's lists; the links live in the task (a task waits on
// one buffer at a time), which keeps buffers, and the coroutine frames holding them, small.
class BufferBase {
public:
  ChannelBase* channel() const noexcept { return ch_; }
  // "read channel 'x' (#3) at epoch 1 (writer: task 'sin' #7, pending)", for a waiter in `mode`.
  std::string describe_wait(const TaskPromise& waiter) const;
  // Unlinks `waiter`, suspended on this buffer (its frame is being destroyed unrun, or a thread
  // stops waiting). False when it no longer waits here (it was woken already).
  bool abandon_wait(TaskPromise& waiter) const noexcept;
  // For a thread blocked in Scheduler::wait (a TaskPromise with thread_waiter set): registers it
  // to be woken once this reader's epoch is finished; false when it is finished already.
  bool arm_ready(TaskPromise& waiter) const noexcept;

protected:
  BufferBase() = default;
  ~BufferBase() = default;
  ChannelBase* ch_ = nullptr;
  Epoch* ep_ = nullptr;

private:
  friend class ChannelBase;
};

class ChannelBase {
public:
  ChannelBase(const ChannelBase&) = delete;
  ChannelBase& operator=(const ChannelBase&) = delete;

  // Channels come from the per-thread block cache (sized delete: the dynamic type's size).
  static void* operator new(std::size_t size) { return cache_allocate(size); }
  static void operator delete(void* p, std::size_t size) noexcept { cache_deallocate(p, size); }

  void add_ref() noexcept { refs_.fetch_add(1, std::memory_order_relaxed); }
  void release_ref() noexcept {
    // acq_rel: the last owner sees every other owner's writes before deleting.
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1)
      std::unique_ptr<ChannelBase> last(this); // the last reference owns and frees it
  }

  uint64_t id() const noexcept { return id_; }
  const char* label() const noexcept { return label_; }
  void set_label(const char* label) noexcept { label_ = label; }
  // "channel 'x' (#3)"; a gradient channel says "gradient 'x' (#4)".
  virtual std::string describe() const;

  // The first epoch: its writer is the creator of a channel made with a pending writer.
  Epoch* first_epoch() noexcept { return &first_; }
  Epoch* add_reader() noexcept; // joins the latest epoch
  Epoch* add_writer();          // opens a new epoch

  bool read_ready(const Epoch* e) const noexcept;
  // Ready, and the state is Value.
  bool ready_with_value(const Epoch* e) const noexcept;
  bool write_ready(const Epoch* e) const noexcept;
  // Valid for a reader whose epoch is ready (it keeps the state from changing).
  ValueState state() const noexcept { return state_; }
  const std::exception_ptr& error() const noexcept { return error_; }

  // For a task about to suspend on buffer b. Returns false when it may continue at once (ready,
  // with a usable value); true when it is suspended in the wait list, or cancelled itself because
  // the epoch is absent (Access::Read only) or failed.
  bool suspend_reader(Epoch* e, const BufferBase* b, TaskPromise* t, Access mode) noexcept;
  bool suspend_writer(Epoch* e, const BufferBase* b, TaskPromise* t) noexcept;

  void release_reader(Epoch* e) noexcept;
  // The writer of e finishes. Value: at its turn, after storing the value. Absent or Error: at any
  // time; the state takes effect at its turn.
  void finish_writer(Epoch* e, ValueState s, std::exception_ptr error) noexcept;
  bool abandon_wait(const BufferBase* b, TaskPromise* t) noexcept;
  void set_writer_task(Epoch* e, const TaskPromise* t) noexcept;
  std::string describe_epoch(const Epoch* e) const;

protected:
  // initial: the state of a first epoch that is already written; writer_pending: the first
  // epoch's writer is still to come (its creator holds it).
  ChannelBase(ValueState initial, bool writer_pending) noexcept;
  virtual ~ChannelBase();
  friend struct std::default_delete<ChannelBase>; // release_ref: the last reference frees it
  virtual void clear_value() noexcept = 0;
  // The pending writer of e, in words. A gradient channel describes its accumulation.
  virtual std::string describe_writer(const Epoch* e) const;

  mutable SpinLock lock_;
  Epoch first_;

private:
  // Reverses a wait list (stored most recent first) into registration order.
  static TaskPromise* reversed(TaskPromise* list) noexcept;
  void advance_locked(WakeList& wakes) noexcept;
  void publish_locked(Epoch* e, ValueState s, std::exception_ptr error, WakeList& wakes) noexcept;

  std::atomic<uint32_t> refs_{1};
  ValueState state_;
  Epoch* head_;
  Epoch* tail_;
  std::exception_ptr error_;
  uint64_t id_;
  const char* label_ = nullptr;
};

} // namespace detail
} // namespace tfe::dataflow
