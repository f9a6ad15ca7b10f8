// The gradient channel of a Var: GradChannel<T> (a Channel<T> whose only writer is a deterministic
// accumulator), GradSink<T> (one contribution, written by a reverse task) and ReverseValue<T> (the
// user's handle, `Var::grad`). Neighbours: graph.hpp (sealing), var.hpp, var_ops.hpp.
//
// Accumulation. Each registered contribution gets a slot, in registration order (the order in
// which the program built the ops, whatever the scheduler does later). A slot resolves to a value,
// to absent (its reverse task was pruned or released it unwritten) or to a failure. Resolved slots
// are folded into the sum in slot order as soon as every earlier slot has resolved, so the bits of
// a gradient never depend on the order in which reverse tasks ran. When the node is closed
// (graph.hpp) and every slot has resolved, the channel is written once: the failure of the lowest
// failed slot if any (a failure is never turned into absence, whatever the order), else the sum of
// the present slots, else absent (no seeded output depends on it: distinct from a real zero).
//
// Thread safety: slots are registered under the graph lock and resolved from any thread under the
// node's own spin lock; the final write happens outside both.
#pragma once

#include <optional>
#include <type_traits>
#include <variant>
#include <vector>

#include "core/error.hpp"
#include "core/small_vector.hpp"
#include "dataflow/async.hpp"
#include "dataflow/block_cache.hpp"
#include "dataflow/graph.hpp"
#include "dataflow/pairwise_sum.hpp"

#include <memory>

namespace tfe::dataflow {

// How two gradient contributions add up: sum += v for scalars. Another value type (a tensor)
// provides an overload found by argument-dependent lookup; it must not modify v.
template <class T> void accumulate_gradient(T& sum, const T& v) { sum += v; }

// The reverse work of the op that produced a value, kept as a small record by the value's
// gradient channel while the graph waits (no suspended coroutine frame), and started when that
// gradient is published: launch() with its value (typically scheduling a task), fail() with its
// failure; a record dropped because the gradient is absent resolves its contributions as absent.
template <class T> class ReverseLaunch {
public:
  ReverseLaunch() = default;
  ReverseLaunch(const ReverseLaunch&) = delete;
  ReverseLaunch& operator=(const ReverseLaunch&) = delete;
  virtual ~ReverseLaunch() = default;
  virtual void launch(const T& gradient) noexcept = 0;
  virtual void fail(std::exception_ptr error) noexcept = 0;
  static void* operator new(std::size_t size) { return detail::cache_allocate(size); }
  static void operator delete(void* p, std::size_t size) noexcept {
    detail::cache_deallocate(p, size);
  }
};

template <class T> class GradChannel final : public Channel<T>, public detail::GradNode {
public:
  static GradChannel* make() { return std::make_unique<GradChannel>().release(); } // 1 reference
  // Public for std::make_unique; use make().
  GradChannel() noexcept : Channel<T>(ValueState::Absent, true) {}

  // Under a GraphLock, for an open node: a new pending contribution; returns its slot.
  uint32_t add_slot() {
    std::lock_guard lock(acc_lock_);
    return add_slot_locked();
  }
  // Under a GraphLock, for an open node: the seed, a contribution with a value. Throws when seeded.
  void add_seed(const T& v) {
    uint32_t i;
    {
      std::lock_guard lock(acc_lock_);
      if (seeded_)
        fail(Status::InvalidArgument,
             "ReverseValue::seed: %s was seeded already (seed an output once)", describe().c_str());
      seeded_ = true;
      i = add_slot_locked();
    }
    resolve(i, &v, nullptr); // never publishes: the node is open
  }
  // From a GradSink: slot i resolved (v for a value, error for a failure, neither: absent).
  void resolve(uint32_t i, const T* v, std::exception_ptr error) noexcept {
    std::optional<typename Tree::Job> job;
    bool publish;
    {
      std::lock_guard lock(acc_lock_);
      auto& s = slots_[i];
      if (error) {
        s.state = SlotState::Error;
        if (i < error_slot_) {
          error_slot_ = i;
          error_ = std::move(error);
        }
      } else {
        s.state = v ? SlotState::Value : SlotState::Absent;
      }
      if constexpr (kPairwise) {
        job = tree_.resolve_locked(i, v ? std::optional<T>(*v) : std::nullopt);
        if (job) ++combining_;
      } else if (v) {
        s.value = *v;
      }
      --pending_;
      if constexpr (!kPairwise) fold_locked();
      publish = !job && take_publication_locked();
    }
    if constexpr (kPairwise) run(std::move(job));
    if (publish) publish_result();
  }
  bool seeded() const noexcept {
    std::lock_guard lock(acc_lock_);
    return seeded_;
  }
  // The reverse work to start at publication (set by the producing op, before the node can
  // publish: it is open and its producer holds it).
  void on_publish(std::unique_ptr<ReverseLaunch<T>> l) noexcept { launch_ = std::move(l); }
  void close_contributions() noexcept override {
    bool publish;
    {
      std::lock_guard lock(acc_lock_);
      closed_ = true;
      publish = take_publication_locked();
    }
    if (publish) publish_result();
  }
  void retain() noexcept override { this->add_ref(); }
  void release() noexcept override { this->release_ref(); }

  std::string describe() const override {
    if (this->label())
      return strformat("gradient '%s' (#%llu)", this->label(), (unsigned long long)this->id());
    return strformat("gradient #%llu", (unsigned long long)this->id());
  }

protected:
  std::string describe_writer(const detail::Epoch* e) const override {
    if (e != &this->first_) return detail::ChannelBase::describe_writer(e);
    if (e->writer != detail::WriterState::Pending) return "accumulated";
    std::lock_guard lock(acc_lock_);
    return strformat("accumulating: %u of %zu contributions pending, %s, %s", pending_,
                     slots_.size(), seeded_ ? "seeded" : "not seeded",
                     closed_ ? "closed" : "open: its graph is not sealed");
  }

private:
  // Cheap additions (scalars) fold in slot order under the lock; expensive ones (tensors) go
  // through the pairwise tree, added outside the lock and in parallel. Both are deterministic.
  static constexpr bool kPairwise = !std::is_trivially_copyable_v<T>;
  using Tree = detail::PairwiseSum<T>;
  enum class SlotState : uint8_t { Pending, Value, Absent, Error };
  struct Slot {
    T value;
    SlotState state;
  };
  struct TreeSlot {
    SlotState state;
  };
  // Tensors keep their values in the tree, not in the slot.
  using Slots = std::conditional_t<kPairwise, std::vector<TreeSlot>, SmallVector<Slot, 2>>;

  uint32_t add_slot_locked() {
    if constexpr (kPairwise) {
      slots_.push_back(TreeSlot{SlotState::Pending});
      tree_.grow_locked();
    } else {
      slots_.push_back(Slot{T{}, SlotState::Pending});
    }
    ++pending_;
    return static_cast<uint32_t>(slots_.size() - 1);
  }

  // Scalars: adds the resolved slots that follow the folded prefix, in slot order.
  void fold_locked() noexcept {
    if constexpr (!kPairwise) {
      while (folded_ < slots_.size() && slots_[folded_].state != SlotState::Pending) {
        const Slot& s = slots_[folded_++];
        if (s.state != SlotState::Value) continue;
        if (sum_)
          accumulate_gradient(*sum_, s.value);
        else
          sum_.emplace(s.value);
      }
    }
  }

  // Tensors: runs a chain of pair additions up the tree, outside the lock.
  void run(std::optional<typename Tree::Job> job) noexcept {
    while (job) {
      std::optional<T> sum = add(std::move(job->left), std::move(job->right));
      bool publish = false;
      {
        std::lock_guard lock(acc_lock_);
        job = tree_.finish_locked(*job, std::move(sum));
        if (!job) {
          --combining_;
          publish = take_publication_locked();
        }
      }
      if (publish) publish_result();
    }
  }
  std::optional<T> add(std::optional<T> a, std::optional<T> b) noexcept {
    if (!a) return b;
    if (!b) return a;
    try {
      accumulate_gradient(*a, *b);
    } catch (...) {
      std::lock_guard lock(acc_lock_);
      if (!error_) error_ = std::current_exception();
    }
    return a;
  }

  bool take_publication_locked() noexcept {
    if (!closed_ || pending_ != 0 || published_ || combining_ != 0) return false;
    if constexpr (!kPairwise)
      if (folded_ != slots_.size()) return false;
    published_ = true;
    return true;
  }
  // Once: closed, every slot resolved, every addition done (nothing else touches the sums now).
  // The node is the writer of its first epoch.
  void publish_result() noexcept {
    if constexpr (kPairwise) {
      std::optional<T> total;
      for (T& part : tree_.remaining())
        total = add(std::move(total), std::optional<T>(std::move(part)));
      sum_ = std::move(total);
    }
    detail::Epoch* e = &this->first_;
    std::unique_ptr<ReverseLaunch<T>> launch = std::move(launch_);
    if (error_) {
      this->finish_writer(e, ValueState::Error, error_);
      if (launch) launch->fail(error_);
    } else if (!sum_) {
      this->finish_writer(e, ValueState::Absent, nullptr); // dropping `launch` prunes it
    } else {
      this->store(*sum_);
      this->finish_writer(e, ValueState::Value, nullptr);
      if (launch) launch->launch(*sum_);
    }
  }

  mutable detail::SpinLock acc_lock_;
  Slots slots_;
  [[no_unique_address]] std::conditional_t<kPairwise, Tree, std::monostate> tree_;
  std::optional<T> sum_;
  std::exception_ptr error_;
  std::unique_ptr<ReverseLaunch<T>> launch_;
  uint32_t error_slot_ = UINT32_MAX;
  uint32_t pending_ = 0;
  uint32_t folded_ = 0;
  uint32_t combining_ = 0; // pair chains running outside the lock
  bool closed_ = false;
  bool seeded_ = false;
  bool published_ = false;
};

// One contribution to a gradient: written once by a reverse task (put), or released unwritten
// (absent), or failed with the task's failure (as a task parameter, see task.hpp). An empty sink
// stands for an inactive operand (untracked: constant, or of a sealed graph).
template <class T> class GradSink : public TaskOutput {
public:
  GradSink() noexcept : TaskOutput(&kOps) {}
  GradSink(GradChannel<T>* node, uint32_t slot) noexcept
      : TaskOutput(&kOps), node_(node), slot_(slot) {
    node->add_ref();
  }
  GradSink(GradSink&& o) noexcept
      : TaskOutput(&kOps), node_(std::exchange(o.node_, nullptr)), slot_(o.slot_) {}
  GradSink& operator=(GradSink&& o) noexcept {
    if (this != &o) {
      finish(nullptr, nullptr);
      node_ = std::exchange(o.node_, nullptr);
      slot_ = o.slot_;
    }
    return *this;
  }
  ~GradSink() { finish(nullptr, nullptr); }

  explicit operator bool() const noexcept { return node_ != nullptr; }
  void put(const T& v) noexcept { finish(&v, nullptr); }
  void set_error(std::exception_ptr e) noexcept { finish(nullptr, std::move(e)); }

private:
  void finish(const T* v, std::exception_ptr e) noexcept {
    if (GradChannel<T>* n = std::exchange(node_, nullptr)) {
      n->resolve(slot_, v, std::move(e));
      n->release_ref();
    }
  }
  static void fail_fn(TaskOutput* o, std::exception_ptr e) noexcept {
    static_cast<GradSink*>(o)->set_error(std::move(e));
  }
  static void linked_fn(TaskOutput*, TaskPromise&) noexcept {}
  static constexpr Ops kOps{&fail_fn, &linked_fn};

  GradChannel<T>* node_ = nullptr;
  uint32_t slot_ = 0;
};

// The user's handle on a gradient (Var::grad). Move-only; destroying it (or finalize()) closes
// the node. Requesting the gradient (get_wait, maybe_wait, wait, backprop) seals its graph first.
template <class T> class ReverseValue {
public:
  ReverseValue() : node_(GradChannel<T>::make()) {}
  ReverseValue(ReverseValue&& o) noexcept : node_(std::exchange(o.node_, nullptr)) {}
  ReverseValue& operator=(ReverseValue&& o) noexcept {
    if (this != &o) {
      reset();
      node_ = std::exchange(o.node_, nullptr);
    }
    return *this;
  }
  ReverseValue(const ReverseValue&) = delete;
  ReverseValue& operator=(const ReverseValue&) = delete;
  ~ReverseValue() { reset(); }

  // Seeding: `loss.grad = 1`.
  template <class U>
  requires(std::is_constructible_v<T, U&&> &&
           !std::is_same_v<std::remove_cvref_t<U>, ReverseValue>) ReverseValue&
  operator=(U&& v) {
    seed(T(std::forward<U>(v)));
    return *this;
  }
  // dL/d(this) for a loss L: a contribution with a value. Once per gradient; not into a sealed one.
  void seed(const T& v) {
    GradChannel<T>* n = checked("ReverseValue::seed");
    detail::GraphLock lock;
    if (n->seeded())
      fail(Status::InvalidArgument,
           "ReverseValue::seed: %s was seeded already (seed an output once)",
           n->describe().c_str());
    if (!lock.is_open(*n)) throw_sealed("ReverseValue::seed", "be seeded");
    n->add_seed(v);
  }

  // Seals the graph, waits (driving the current scheduler) and returns the gradient. A failure
  // upstream is rethrown with its original type; an absent gradient is tfe::Error.
  T get_wait() {
    std::optional<T> g = maybe_wait();
    if (!g)
      fail(Status::InvalidArgument,
           "ReverseValue::get_wait: %s is absent: no seeded output depends on it (never seeded, "
           "or every path to it was pruned); use maybe_wait() to tell absence from a value",
           node_->describe().c_str());
    return *g;
  }
  T final_wait() { return get_wait(); }
  // As get_wait, but nullopt for an absent gradient.
  std::optional<T> maybe_wait() {
    GradChannel<T>* n = checked("ReverseValue::maybe_wait");
    detail::seal_graph_of(*n);
    return ReadBuffer<T>(n).maybe_wait();
  }
  // Seals the graph and waits for completion without reading (no throw for absence or failure).
  void wait() {
    GradChannel<T>* n = checked("ReverseValue::wait");
    detail::seal_graph_of(*n);
    ReadBuffer<T>(n).wait();
  }
  // Seals the graph and returns the gradient channel (readable later, or by other tasks).
  Async<T> backprop() {
    GradChannel<T>* n = checked("ReverseValue::backprop");
    detail::seal_graph_of(*n);
    return Async<T>::share(n);
  }
  // No further contributions to this gradient (the explicit form of what sealing does).
  void finalize() { detail::close_node(*checked("ReverseValue::finalize")); }
  // Whether contributions may still be registered (false once finalized or sealed).
  bool is_open() const {
    GradChannel<T>* n = checked("ReverseValue::is_open");
    detail::GraphLock lock;
    return lock.is_open(*n);
  }

  // For custom ops. The upstream gradient, read by the op's reverse task (co_await it first:
  // absent prunes the task).
  ReadBuffer<T> input() const { return ReadBuffer<T>(checked("ReverseValue::input")); }
  // A new contribution to this gradient from the reverse task of an op whose result gradient is
  // `result` (both join one graph, so sealing either closes both). Throws when this gradient is
  // sealed or finalized.
  template <class R> GradSink<T> output(const ReverseValue<R>& result) {
    GradChannel<T>* n = checked("ReverseValue::output");
    GradChannel<R>* r = result.checked("ReverseValue::output");
    detail::GraphLock lock;
    if (!lock.is_open(*n)) throw_sealed("ReverseValue::output", "receive a new contribution");
    if (lock.is_open(*r)) lock.join(*n, *r);
    return GradSink<T>(n, n->add_slot());
  }
  // The seed's form, without a result: auto-sealing does not see through it.
  GradSink<T> output() {
    GradChannel<T>* n = checked("ReverseValue::output");
    detail::GraphLock lock;
    if (!lock.is_open(*n)) throw_sealed("ReverseValue::output", "receive a new contribution");
    return GradSink<T>(n, n->add_slot());
  }

  // Names the gradient in diagnostics (a string literal).
  ReverseValue& set_label(const char* label) {
    checked("ReverseValue::set_label")->set_label(label);
    return *this;
  }
  GradChannel<T>* node() const noexcept { return node_; }
  explicit operator bool() const noexcept { return node_ != nullptr; }

private:
  template <class> friend class ReverseValue;

  GradChannel<T>* checked(const char* who) const {
    if (!node_) detail::throw_empty(who);
    return node_;
  }
  [[noreturn]] void throw_sealed(const char* who, const char* action) const {
    fail(Status::InvalidArgument,
         "%s: %s is sealed (a gradient of its graph was requested, or finalize() was called) and "
         "cannot %s; build new ops on its value instead (they treat it as a constant)",
         who, node_->describe().c_str(), action);
  }
  void reset() noexcept {
    if (GradChannel<T>* n = std::exchange(node_, nullptr)) {
      detail::close_node(*n);
      n->release_ref();
    }
  }

  GradChannel<T>* node_;
};

namespace detail {

// A contribution slot in x's gradient for an op whose result gradient is y, under `lock`; empty
// when x is untracked (its graph sealed, or finalized).
template <class T, class R>
GradSink<T> track(GraphLock& lock, const ReverseValue<T>& x, const ReverseValue<R>& y) {
  GradChannel<T>* xn = x.node();
  if (!lock.is_open(*xn)) return {};
  lock.join(*xn, *y.node());
  return GradSink<T>(xn, xn->add_slot());
}

} // namespace detail

} // namespace tfe::dataflow
