// The epoch queue of channel.hpp: readiness, publication, wait lists and their diagnostics.
#include "dataflow/channel.hpp"

#include <memory>

#include <mutex>

#include "core/error.hpp"
#include "dataflow/scheduler.hpp"

namespace tfe::dataflow::detail {
namespace {

std::atomic<uint64_t> g_next_channel_id{1};

// Whether a waiter in `mode` may continue on an epoch finished in state s.
bool usable(ValueState s, Access mode) noexcept {
  return s == ValueState::Value || mode == Access::Ready ||
         (s == ValueState::Absent && mode == Access::ReadMaybe);
}

const char* writer_state_name(WriterState s) {
  switch (s) {
  case WriterState::Pending: return "pending";
  case WriterState::Done: return "done";
  case WriterState::ReleasedEarly: return "released before its turn";
  }
  return "?";
}

} // namespace

void WakeList::deliver() noexcept {
  for (TaskPromise* t = head_; t;) {
    TaskPromise* next = t->queue_next; // read before waking: the task may run at once
    t->queue_next = nullptr;
    t->scheduler->wake(*t);
    t = next;
  }
  head_ = tail_ = nullptr;
}

std::string BufferBase::describe_wait(const TaskPromise& waiter) const {
  if (!ch_) return "an empty buffer";
  const char* verb = waiter.wait_mode == static_cast<uint8_t>(Access::Write) ? "write " : "read ";
  return verb + ch_->describe_epoch(ep_);
}

bool BufferBase::abandon_wait(TaskPromise& waiter) const noexcept {
  return ch_ && ch_->abandon_wait(this, &waiter);
}

bool BufferBase::arm_ready(TaskPromise& waiter) const noexcept {
  return ch_->suspend_reader(ep_, this, &waiter, Access::Ready);
}

ChannelBase::ChannelBase(ValueState initial, bool writer_pending) noexcept
    : state_(writer_pending ? ValueState::Absent : initial), head_(&first_), tail_(&first_),
      id_(g_next_channel_id.fetch_add(1, std::memory_order_relaxed)) {
  first_.writer = writer_pending ? WriterState::Pending : WriterState::Done;
}

ChannelBase::~ChannelBase() {
  for (Epoch* e = head_; e;) {
    Epoch* next = e->next;
    if (e != &first_) std::unique_ptr<Epoch> owned(e); // epochs after the first are allocated
    e = next;
  }
}

std::string ChannelBase::describe() const {
  if (label_) return strformat("channel '%s' (#%llu)", label_, (unsigned long long)id_);
  return strformat("channel #%llu", (unsigned long long)id_);
}

std::string ChannelBase::describe_writer(const Epoch* e) const {
  if (e->writer != WriterState::Pending) return writer_state_name(e->writer);
  if (e->writer_task)
    return strformat("writer: task '%s' #%llu, pending", e->writer_task->name(),
                     (unsigned long long)e->writer_task->id());
  return "writer: a WriteBuffer held outside any task, pending";
}

std::string ChannelBase::describe_epoch(const Epoch* e) const {
  std::string who, turn;
  uint32_t index;
  {
    std::lock_guard lock(lock_);
    index = e->index;
    who = describe_writer(e);
    if (e != head_) turn = strformat(", behind epoch %u", head_->index);
  }
  return strformat("%s at epoch %u (%s%s)", describe().c_str(), index, who.c_str(), turn.c_str());
}

Epoch* ChannelBase::add_reader() noexcept {
  std::lock_guard lock(lock_);
  ++tail_->readers;
  return tail_;
}

Epoch* ChannelBase::add_writer() {
  Epoch* e = std::make_unique<Epoch>().release(); // owned by the list (freed when retired)
  WakeList wakes;
  {
    std::lock_guard lock(lock_);
    e->index = tail_->index + 1;
    tail_->next = e;
    tail_ = e;
    advance_locked(wakes);
  }
  wakes.deliver();
  return e;
}

bool ChannelBase::read_ready(const Epoch* e) const noexcept {
  std::lock_guard lock(lock_);
  return e == head_ && e->writer == WriterState::Done;
}

bool ChannelBase::ready_with_value(const Epoch* e) const noexcept {
  std::lock_guard lock(lock_);
  return e == head_ && e->writer == WriterState::Done && state_ == ValueState::Value;
}

bool ChannelBase::write_ready(const Epoch* e) const noexcept {
  std::lock_guard lock(lock_);
  return e == head_ && e->writer == WriterState::Pending;
}

bool ChannelBase::suspend_reader(Epoch* e, const BufferBase* b, TaskPromise* t,
                                 Access mode) noexcept {
  std::lock_guard lock(lock_);
  if (e == head_ && e->writer == WriterState::Done) {
    if (usable(state_, mode)) return false;
    t->cancel_self(state_ == ValueState::Error ? error_ : nullptr);
    return true;
  }
  t->wait_mode = static_cast<uint8_t>(mode);
  t->queue_next = e->reader_waiters;
  e->reader_waiters = t;
  t->waiting_on = b;
  return true;
}

bool ChannelBase::suspend_writer(Epoch* e, const BufferBase* b, TaskPromise* t) noexcept {
  std::lock_guard lock(lock_);
  if (e == head_) return false;
  t->wait_mode = static_cast<uint8_t>(Access::Write);
  t->queue_next = nullptr;
  e->writer_waiter = t;
  t->waiting_on = b;
  return true;
}

void ChannelBase::release_reader(Epoch* e) noexcept {
  WakeList wakes;
  {
    std::lock_guard lock(lock_);
    --e->readers;
    if (e == head_) advance_locked(wakes);
  }
  wakes.deliver();
}

void ChannelBase::finish_writer(Epoch* e, ValueState s, std::exception_ptr error) noexcept {
  WakeList wakes;
  {
    std::lock_guard lock(lock_);
    if (e == head_) {
      publish_locked(e, s, std::move(error), wakes);
      advance_locked(wakes);
    } else {
      // Before its turn (only an unwritten writer can get here): applied by advance_locked.
      e->writer = WriterState::ReleasedEarly;
      e->early_error = std::move(error);
    }
  }
  wakes.deliver();
}

TaskPromise* ChannelBase::reversed(TaskPromise* list) noexcept {
  TaskPromise* out = nullptr;
  while (list) {
    TaskPromise* n = list->queue_next;
    list->queue_next = out;
    out = list;
    list = n;
  }
  return out;
}

void ChannelBase::publish_locked(Epoch* e, ValueState s, std::exception_ptr error,
                                 WakeList& wakes) noexcept {
  if (s != ValueState::Value) clear_value();
  state_ = s;
  error_ = std::move(error);
  e->writer = WriterState::Done;
  TaskPromise* list = reversed(std::exchange(e->reader_waiters, nullptr));
  while (list) {
    TaskPromise* t = list;
    list = t->queue_next; // read before wakes.push reuses the link
    t->waiting_on = nullptr;
    if (!usable(s, static_cast<Access>(t->wait_mode)))
      t->cancel(s == ValueState::Error ? error_ : nullptr);
    wakes.push(t);
  }
}

// Retires finished head epochs: a head whose writer is done, whose readers have all released and
// which has a successor. The successor becomes the head: its writer's turn has come.
void ChannelBase::advance_locked(WakeList& wakes) noexcept {
  while (head_->writer == WriterState::Done && head_->readers == 0 && head_->next) {
    Epoch* old = head_;
    head_ = old->next;
    if (old != &first_) std::unique_ptr<Epoch> retired(old);
    Epoch* e = head_;
    if (e->writer == WriterState::ReleasedEarly) {
      std::exception_ptr error = std::move(e->early_error);
      publish_locked(e, error ? ValueState::Error : ValueState::Absent, std::move(error), wakes);
      continue;
    }
    if (TaskPromise* t = std::exchange(e->writer_waiter, nullptr)) {
      t->waiting_on = nullptr;
      wakes.push(t);
    }
    break;
  }
}

bool ChannelBase::abandon_wait(const BufferBase* b, TaskPromise* t) noexcept {
  std::lock_guard lock(lock_);
  if (t->waiting_on != b) return false; // woken already (the waker cleared the link)
  Epoch* e = b->ep_;
  if (e->writer_waiter == t) e->writer_waiter = nullptr;
  for (TaskPromise** p = &e->reader_waiters; *p; p = &(*p)->queue_next) {
    if (*p == t) {
      *p = t->queue_next;
      break;
    }
  }
  t->waiting_on = nullptr;
  t->queue_next = nullptr;
  return true;
}

void ChannelBase::set_writer_task(Epoch* e, const TaskPromise* t) noexcept {
  std::lock_guard lock(lock_);
  e->writer_task = t;
}

} // namespace tfe::dataflow::detail

namespace tfe::dataflow::detail {

void throw_empty(const char* what) {
  fail(Status::InvalidArgument, "%s: the handle is empty (moved from or released)", what);
}

void throw_absent(const char* what, const ChannelBase& ch) {
  fail(Status::InvalidArgument,
       "%s: the value of %s is absent (its writer finished without writing: an input upstream was "
       "absent); use maybe_wait() to test for absence",
       what, ch.describe().c_str());
}

} // namespace tfe::dataflow::detail
