// Async<T>: a value channel with epoch ordering (channel.hpp), and the buffers through which tasks
// read and write it. Neighbours: task.hpp (the coroutine type), scheduler.hpp (blocking waits).
//
// - Async<T> is a shared handle (copies share the channel). read() joins the latest epoch as a
//   reader; write() opens the next epoch. get_wait() blocks (driving the current scheduler) and
//   returns the value, rethrows a failure with its original type, or throws tfe::Error
//   (InvalidArgument) for an absent value; maybe_wait() returns nullopt for an absent value.
// - ReadBuffer<T> holds one epoch as a reader until release() or destruction. In a task:
//     T v = co_await in;        // the value; an absent or failed input cancels the task
//     const T* p = co_await in.maybe(); // nullptr when absent; a failure still cancels
// - WriteBuffer<T> holds one epoch as its writer. In a task: `co_await out;` waits for its turn,
//   then `out.set(v)` publishes. Released unwritten, the epoch becomes absent at its turn. As a
//   task parameter it receives the task's failure (task.hpp).
// A task suspended on a buffer is resumed by its scheduler once the epoch is ready, on whichever
// thread that scheduler runs it.
#pragma once

#include <coroutine>
#include <optional>
#include <memory>
#include <type_traits>
#include <utility>

#include "core/error.hpp"
#include "dataflow/channel.hpp"
#include "dataflow/scheduler.hpp"

namespace tfe::dataflow {

template <class T> class Channel : public detail::ChannelBase {
public:
  // Channels are reference counted by hand (add_ref/release_ref): the factories hand the first
  // reference to the caller.
  static Channel* make_value(T v) {
    auto c = std::make_unique<Channel>(ValueState::Value, false);
    c->value_.emplace(std::move(v));
    return c.release();
  }
  static Channel* make_absent() {
    return std::make_unique<Channel>(ValueState::Absent, false).release();
  }
  // The first epoch's writer is pending: its creator opens it with WriteBuffer::first_of.
  static Channel* make_pending() {
    return std::make_unique<Channel>(ValueState::Absent, true).release();
  }

  // For a ready reader in state Value, or a writer at its turn (the previous value).
  const T& value() const noexcept { return *value_; }
  bool has_value() const noexcept { return value_.has_value(); }
  // For the writer at its turn, before finish_writer(Value).
  template <class U> void store(U&& v) { value_.emplace(std::forward<U>(v)); }

  // Public for std::make_unique; make channels with the factories above (reference counted).
  Channel(ValueState s, bool writer_pending) noexcept : ChannelBase(s, writer_pending) {}

protected:
  void clear_value() noexcept override { value_.reset(); }

private:
  std::optional<T> value_;
};

namespace detail {

// Blocking waits: what the current scheduler waits for.
class ReadTarget final : public WaitTarget {
public:
  explicit ReadTarget(const BufferBase& b, const Epoch* e) noexcept : b_(b), e_(e) {}
  bool ready() const noexcept override { return b_.channel()->read_ready(e_); }
  std::string describe() const override {
    return "the value of " + b_.channel()->describe_epoch(e_);
  }
  bool arm(TaskPromise& waiter) const noexcept override { return b_.arm_ready(waiter); }
  bool disarm(TaskPromise& waiter) const noexcept override { return b_.abandon_wait(waiter); }

private:
  const BufferBase& b_;
  const Epoch* e_;
};

[[noreturn]] void throw_empty(const char* what);
[[noreturn]] void throw_absent(const char* what, const ChannelBase& ch);

} // namespace detail

template <class T> class ReadBuffer : public detail::BufferBase {
public:
  ReadBuffer() noexcept = default;
  // Joins the latest epoch of `ch` as a reader.
  explicit ReadBuffer(Channel<T>* ch) noexcept {
    ch->add_ref();
    ch_ = ch;
    ep_ = ch->add_reader();
  }
  ReadBuffer(ReadBuffer&& o) noexcept {
    ch_ = std::exchange(o.ch_, nullptr);
    ep_ = o.ep_;
  }
  ReadBuffer& operator=(ReadBuffer&& o) noexcept {
    if (this != &o) {
      release();
      ch_ = std::exchange(o.ch_, nullptr);
      ep_ = o.ep_;
    }
    return *this;
  }
  ReadBuffer(const ReadBuffer&) = delete;
  ReadBuffer& operator=(const ReadBuffer&) = delete;
  ~ReadBuffer() { release(); }

  explicit operator bool() const noexcept { return ch_ != nullptr; }
  // Lets the next writer proceed. The value read must not be used after this.
  void release() noexcept {
    if (detail::ChannelBase* c = std::exchange(ch_, nullptr)) {
      c->release_reader(ep_);
      c->release_ref();
    }
  }
  bool ready() const noexcept { return ch_ && ch_->read_ready(ep_); }

  // co_await in: the value; absent or failed cancels the task.
  bool await_ready() const noexcept { return ch_ && ch_->ready_with_value(ep_); }
  template <class P> bool await_suspend(std::coroutine_handle<P> h) noexcept {
    return suspend(h.promise(), detail::Access::Read);
  }
  const T& await_resume() const noexcept { return typed()->value(); }

  struct MaybeAwaiter {
    ReadBuffer* self;
    bool await_ready() const noexcept { return false; }
    template <class P> bool await_suspend(std::coroutine_handle<P> h) noexcept {
      return self->suspend(h.promise(), detail::Access::ReadMaybe);
    }
    const T* await_resume() const noexcept {
      return self->ch_->state() == ValueState::Value ? &self->typed()->value() : nullptr;
    }
  };
  // co_await in.maybe(): a pointer to the value, nullptr when absent; a failure cancels the task.
  MaybeAwaiter maybe() noexcept { return MaybeAwaiter{this}; }

  // Outside tasks: blocks (driving the current scheduler) until the epoch is ready.
  void wait() const {
    if (!ch_) detail::throw_empty("ReadBuffer::wait");
    if (!ch_->read_ready(ep_)) current_scheduler().wait(detail::ReadTarget(*this, ep_));
  }
  // After wait(): the state, and the value when it is Value.
  ValueState state() const noexcept { return ch_->state(); }
  const T& value() const noexcept { return typed()->value(); }
  const std::exception_ptr& error() const noexcept { return ch_->error(); }

  // Blocking read: the value, the original failure rethrown, or tfe::Error when absent.
  T get_wait(const char* who = "ReadBuffer::get_wait") const {
    wait();
    if (state() == ValueState::Error) std::rethrow_exception(error());
    if (state() == ValueState::Absent) detail::throw_absent(who, *ch_);
    return value();
  }
  std::optional<T> maybe_wait() const {
    wait();
    if (state() == ValueState::Error) std::rethrow_exception(error());
    if (state() == ValueState::Absent) return std::nullopt;
    return value();
  }

private:
  Channel<T>* typed() const noexcept { return static_cast<Channel<T>*>(ch_); }
  bool suspend(TaskPromise& p, detail::Access mode) noexcept {
    if (!ch_) {
      p.cancel_self(std::make_exception_ptr(Error(
          Status::InvalidArgument, "co_await on an empty ReadBuffer (moved from or released)")));
      return true;
    }
    return ch_->suspend_reader(ep_, this, &p, mode);
  }
};

template <class T> class WriteBuffer : public detail::BufferBase, public TaskOutput {
public:
  WriteBuffer() noexcept : TaskOutput(&kOps) {}
  // Opens a new epoch of `ch` as its writer.
  static WriteBuffer open(Channel<T>* ch) { return WriteBuffer(ch, ch->add_writer()); }
  // The pending first epoch of a Channel::make_pending channel.
  static WriteBuffer first_of(Channel<T>* ch) noexcept { return WriteBuffer(ch, nullptr); }

  WriteBuffer(WriteBuffer&& o) noexcept : TaskOutput(&kOps) {
    ch_ = std::exchange(o.ch_, nullptr);
    ep_ = o.ep_;
  }
  WriteBuffer& operator=(WriteBuffer&& o) noexcept {
    if (this != &o) {
      finish(ValueState::Absent, nullptr);
      ch_ = std::exchange(o.ch_, nullptr);
      ep_ = o.ep_;
    }
    return *this;
  }
  WriteBuffer(const WriteBuffer&) = delete;
  WriteBuffer& operator=(const WriteBuffer&) = delete;
  // Unwritten: the epoch becomes absent at its turn.
  ~WriteBuffer() { finish(ValueState::Absent, nullptr); }

  explicit operator bool() const noexcept { return ch_ != nullptr; }
  // Its turn has come: every reader of the previous epoch has released.
  bool ready() const noexcept { return ch_ && ch_->write_ready(ep_); }

  // co_await out: waits for its turn.
  bool await_ready() const noexcept { return ready(); }
  template <class P> bool await_suspend(std::coroutine_handle<P> h) noexcept {
    if (!ch_) {
      h.promise().cancel_self(std::make_exception_ptr(Error(
          Status::InvalidArgument, "co_await on an empty WriteBuffer (moved from or written)")));
      return true;
    }
    return ch_->suspend_writer(ep_, this, &h.promise());
  }
  void await_resume() const noexcept {}

  // At its turn: the previous epoch's value (nullptr when it was absent or failed).
  const T* previous() const noexcept {
    auto* c = static_cast<Channel<T>*>(ch_);
    return c && c->state() == ValueState::Value ? &c->value() : nullptr;
  }
  // Publishes v; the buffer is then spent. Throws tfe::Error before its turn.
  template <class U> void set(U&& v) {
    if (!ready()) {
      if (!ch_) detail::throw_empty("WriteBuffer::set");
      fail(Status::InvalidArgument, "WriteBuffer::set: %s is not at its turn (co_await it first)",
           ch_->describe_epoch(ep_).c_str());
    }
    static_cast<Channel<T>*>(ch_)->store(std::forward<U>(v));
    finish(ValueState::Value, nullptr);
  }
  void set_absent() noexcept { finish(ValueState::Absent, nullptr); }
  void set_error(std::exception_ptr e) noexcept { finish(ValueState::Error, std::move(e)); }

private:
  WriteBuffer(Channel<T>* ch, detail::Epoch* e) noexcept : TaskOutput(&kOps) {
    ch->add_ref();
    ch_ = ch;
    ep_ = e ? e : ch->first_epoch();
  }
  void finish(ValueState s, std::exception_ptr e) noexcept {
    if (detail::ChannelBase* c = std::exchange(ch_, nullptr)) {
      c->finish_writer(ep_, s, std::move(e));
      c->release_ref();
    }
  }
  static void fail_fn(TaskOutput* o, std::exception_ptr e) noexcept {
    static_cast<WriteBuffer*>(o)->set_error(std::move(e));
  }
  static void linked_fn(TaskOutput* o, TaskPromise& p) noexcept {
    auto* w = static_cast<WriteBuffer*>(o);
    if (w->ch_) w->ch_->set_writer_task(w->ep_, &p);
  }
  static constexpr Ops kOps{&fail_fn, &linked_fn};
};

template <class T> class Async {
public:
  using value_type = T;

  // An absent value (a first epoch released unwritten).
  Async() : ch_(Channel<T>::make_absent()) {}
  template <class U>
  requires(std::is_constructible_v<T, U&&> && !std::is_same_v<std::remove_cvref_t<U>, Async>)
      Async(U&& v) // NOLINT: implicit, as a value
      : ch_(Channel<T>::make_value(T(std::forward<U>(v)))) {}
  // A channel whose first value the returned buffer writes.
  static std::pair<Async, WriteBuffer<T>> pending() {
    Channel<T>* ch = Channel<T>::make_pending();
    WriteBuffer<T> w = WriteBuffer<T>::first_of(ch);
    return {Async(ch), std::move(w)};
  }
  // Shares an existing channel (takes a new reference).
  static Async share(Channel<T>* ch) noexcept {
    ch->add_ref();
    return Async(ch);
  }

  Async(const Async& o) noexcept : ch_(o.ch_) {
    if (ch_) ch_->add_ref();
  }
  Async(Async&& o) noexcept : ch_(std::exchange(o.ch_, nullptr)) {}
  Async& operator=(const Async& o) noexcept {
    if (o.ch_) o.ch_->add_ref();
    reset();
    ch_ = o.ch_;
    return *this;
  }
  Async& operator=(Async&& o) noexcept {
    if (this != &o) {
      reset();
      ch_ = std::exchange(o.ch_, nullptr);
    }
    return *this;
  }
  ~Async() { reset(); }

  ReadBuffer<T> read() const { return ReadBuffer<T>(checked("Async::read")); }
  WriteBuffer<T> write() { return WriteBuffer<T>::open(checked("Async::write")); }

  T get_wait() const { return read().get_wait("Async::get_wait"); }
  std::optional<T> maybe_wait() const { return read().maybe_wait(); }
  void wait() const { read().wait(); }
  // The latest epoch is readable now (non-blocking).
  bool ready() const { return read().ready(); }

  // Names the channel in diagnostics; `label` must outlive the channel (a string literal).
  Async& set_label(const char* label) {
    checked("Async::set_label")->set_label(label);
    return *this;
  }
  Channel<T>* channel() const noexcept { return ch_; }
  explicit operator bool() const noexcept { return ch_ != nullptr; }

private:
  explicit Async(Channel<T>* adopted) noexcept : ch_(adopted) {}
  Channel<T>* checked(const char* who) const {
    if (!ch_) detail::throw_empty(who);
    return ch_;
  }
  void reset() noexcept {
    if (Channel<T>* c = std::exchange(ch_, nullptr)) c->release_ref();
  }
  Channel<T>* ch_;
};

} // namespace tfe::dataflow
