// Var<T>: a differentiable value of the dataflow engine: a value channel and a gradient
// channel. Each op on Vars schedules its forward task and its reverse task at once (var_ops.hpp);
// there is no tape and no backward phase: waiting on a gradient drives the reverse work.
//
//   Var<double> x = 0.1;
//   Var<double> y = sin(x) * x;
//   y.grad = 1.0;                      // seed dL/dy (or y.seed())
//   double dx = x.grad.get_wait();     // seals the graph, runs what it needs: sin x + x cos x
//
// - Moveable. Copyable only from a non-const lvalue, which *links* gradients: the copy shares the
//   value, gets a fresh gradient, and everything that flows into the copy's gradient flows on into
//   the source's (Var(Var&), operator=(Var&)). A copy of a sealed (or finalized) Var is a new leaf
//   sharing its value, like any use of a sealed value.
// - Requesting a gradient (grad.get_wait(), maybe_wait(), wait(), backprop()) seals the graph it
//   belongs to (graph.hpp): live named intermediates need no finalize(), though grad.finalize()
//   remains. A Var of a sealed graph may still feed new ops: they read its value as a constant.
// - Absent gradient (never seeded, or every path pruned) is not zero: grad.maybe_wait() gives
//   nullopt, grad.get_wait() throws tfe::Error.
// - Complex T follows docs/design/ad-contract.md: for a real loss L,
//   z.grad = dL/dRe z + i dL/dIm z.
#pragma once

#include <type_traits>
#include <utility>

#include "dataflow/async.hpp"
#include "dataflow/reverse_value.hpp"

namespace tfe::dataflow {

template <class T> class Var;

template <class T> struct is_var : std::false_type {};
template <class T> struct is_var<Var<T>> : std::true_type {};

namespace detail {
// Forwards the gradient of a copy into its source's contribution slot.
template <class T> Task forward_gradient(ReadBuffer<T> from, GradSink<T> to) {
  T g = co_await from;
  from.release();
  to.put(g);
}
} // namespace detail

template <class T> class Var {
public:
  using value_type = T;

  Async<T> value;
  ReverseValue<T> grad;

  // An absent value and a fresh gradient (assign to it, e.g. `y = x`).
  Var() = default;
  // A leaf.
  template <class U>
  requires(std::is_constructible_v<T, U&&> && !is_var<std::remove_cvref_t<U>>::value &&
           !std::is_same_v<std::remove_cvref_t<U>, Async<T>>)
      Var(U&& v) // NOLINT: implicit, as a value
      : value(T(std::forward<U>(v))) {}
  // A leaf whose value is computed elsewhere (shares the channel).
  explicit Var(Async<T> v) : value(std::move(v)) {}

  Var(Var&&) noexcept = default;
  Var& operator=(Var&&) noexcept = default;
  // Linking copy (see the file comment).
  Var(Var& other) : value(other.value) { link_from(other); }
  Var& operator=(Var& other) {
    if (&other == this) return *this;
    Var copy(other);
    *this = std::move(copy);
    return *this;
  }
  Var(const Var&) = delete;
  Var& operator=(const Var&) = delete;

  // Seeds the gradient of this output: `v.seed()` is `v.grad = 1`.
  void seed(const T& v = T(1)) { grad.seed(v); }
  // Seals the graph and returns the gradient channel.
  Async<T> backprop() { return grad.backprop(); }
  // Names the value and the gradient in diagnostics (a string literal).
  Var& set_label(const char* label) {
    value.set_label(label);
    grad.set_label(label);
    return *this;
  }

private:
  void link_from(Var& other) {
    if (!other.grad) detail::throw_empty("Var copy");
    GradSink<T> sink;
    {
      detail::GraphLock lock;
      sink = detail::track(lock, other.grad, grad);
    }
    if (sink) schedule(detail::forward_gradient<T>(grad.input(), std::move(sink)), "copy.reverse");
  }
};

} // namespace tfe::dataflow
