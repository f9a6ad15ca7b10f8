// The forward and reverse tasks of scalar Var ops, generic over a row of scalar_rules.hpp, and the
// builders that schedule them (used by var_ops.hpp).
//
// The reverse work waits as a record in the output's gradient (decision 0019) and becomes a task
// only when that gradient is published with a value: when it is absent (never seeded, or pruned)
// no task ever exists and the contribution slots become absent; when it failed, they carry the
// failure. Bodies keep to named locals and one co_await per statement (GCC 12).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <type_traits>

#include "dataflow/scalar_rules.hpp"
#include "dataflow/var.hpp"

namespace tfe::dataflow::detail {

// A binary op's operand: a Var's value (buf, when the task reads it) or a plain constant.
template <class T> struct Operand {
  ReadBuffer<T> buf;
  T constant{};
};

template <class T> Operand<T> value_operand(const Var<T>* v, const T* c, bool wanted) {
  Operand<T> op;
  if (v) {
    if (wanted) op.buf = v->value.read();
  } else {
    op.constant = *c;
  }
  return op;
}

template <class Op> const char* reverse_name() {
  static const std::string name = std::string(Op::name) + ".reverse";
  return name.c_str();
}

// ---- the VJPs of the shared formulas --------------------------------------------------------

template <class Op, class T, class R> T unary_vjp(const T& x, const T& y, const R& ybar) {
  using F = typename Op::template formula<ScalarAlgebra<T>>;
  return vjp_from_jvp<T>([&](const T& dx) { return F::jvp(x, y, std::optional<T>(dx)); }, ybar);
}

// The cotangent of operand `Which` (0: a, 1: b) of a binary op.
template <class Op, class T, int Which>
T binary_vjp(const T& a, const T& b, const T& y, const T& ybar) {
  using F = typename Op::template formula<ScalarAlgebra<T>>;
  return vjp_from_jvp<T>(
      [&](const T& dx) {
        std::optional<T> d(dx), none;
        return Which == 0 ? F::jvp(a, b, y, d, none) : F::jvp(a, b, y, none, d);
      },
      ybar);
}

// ---- tasks ------------------------------------------------------------------------------------

template <class Op, class T, class R> Task unary_forward(ReadBuffer<T> x, WriteBuffer<R> y) {
  T xv = co_await x;
  x.release();
  R yv = Op::value(xv);
  co_await y;
  y.set(yv);
}

// What a reverse task keeps of an operand or output: its buffer (or constant) when its formula
// reads it, nothing otherwise.
struct Nothing {};
template <bool Keep, class B> using Kept = std::conditional_t<Keep, B, Nothing>;

// Started with the output's gradient g once it is published (ReverseLaunch): pruned reverse
// work of a built-in op never exists as a task.
template <class Op, class T, class R, class X, class Y>
Task unary_reverse(R g, X x, Y y, GradSink<T> xbar) {
  T xv{};
  R yv{};
  if constexpr ((Op::needs & rules::kX) != 0) {
    xv = co_await x;
    x.release();
  }
  if constexpr ((Op::needs & rules::kY) != 0) {
    yv = co_await y;
    y.release();
  }
  T d = unary_vjp<Op, T>(xv, T(yv), g);
  xbar.put(d);
}

template <class Op, class T> Task binary_forward(Operand<T> a, Operand<T> b, WriteBuffer<T> y) {
  T av = a.constant;
  if (a.buf) {
    av = co_await a.buf;
    a.buf.release();
  }
  T bv = b.constant;
  if (b.buf) {
    bv = co_await b.buf;
    b.buf.release();
  }
  T yv = Op::value(av, bv);
  co_await y;
  y.set(yv);
}

template <class Op, class T, class A, class B, class Y>
Task binary_reverse(T g, A a, B b, Y y, GradSink<T> abar, GradSink<T> bbar) {
  T av{}, bv{}, yv{};
  if constexpr ((Op::needs & rules::kA) != 0) {
    av = a.constant;
    if (a.buf) {
      av = co_await a.buf;
      a.buf.release();
    }
  }
  if constexpr ((Op::needs & rules::kB) != 0) {
    bv = b.constant;
    if (b.buf) {
      bv = co_await b.buf;
      b.buf.release();
    }
  }
  if constexpr ((Op::needs & rules::kY) != 0) {
    yv = co_await y;
    y.release();
  }
  if (abar) abar.put(binary_vjp<Op, T, 0>(av, bv, yv, g));
  if (bbar) bbar.put(binary_vjp<Op, T, 1>(av, bv, yv, g));
}

// ---- reverse records --------------------------------------------------------------------------

// The reverse work of a unary op while its output's gradient is unknown: the buffers its formula
// reads and its contribution; a task only once the gradient has a value, scheduled on the
// scheduler of the thread that publishes the gradient (the one driving the graph then; never a
// scheduler that may be gone).
template <class Op, class T, class R> class UnaryLaunch final : public ReverseLaunch<R> {
public:
  using X = Kept<(Op::needs & rules::kX) != 0, ReadBuffer<T>>;
  using Y = Kept<(Op::needs & rules::kY) != 0, ReadBuffer<R>>;
  UnaryLaunch(X x, Y y, GradSink<T> xbar) noexcept
      : x_(std::move(x)), y_(std::move(y)), xbar_(std::move(xbar)) {}
  void launch(const R& g) noexcept override {
    try {
      Task t = unary_reverse<Op, T, R, X, Y>(g, std::move(x_), std::move(y_), std::move(xbar_));
      schedule(std::move(t), reverse_name<Op>());
    } catch (...) { // no frame: the contribution fails instead
      xbar_.set_error(std::current_exception());
    }
  }
  void fail(std::exception_ptr e) noexcept override { xbar_.set_error(std::move(e)); }

private:
  [[no_unique_address]] X x_;
  [[no_unique_address]] Y y_;
  GradSink<T> xbar_;
};

template <class Op, class T> class BinaryLaunch final : public ReverseLaunch<T> {
public:
  using A = Kept<(Op::needs & rules::kA) != 0, Operand<T>>;
  using B = Kept<(Op::needs & rules::kB) != 0, Operand<T>>;
  using Y = Kept<(Op::needs & rules::kY) != 0, ReadBuffer<T>>;
  BinaryLaunch(A a, B b, Y y, GradSink<T> abar, GradSink<T> bbar) noexcept
      : a_(std::move(a)), b_(std::move(b)), y_(std::move(y)), abar_(std::move(abar)),
        bbar_(std::move(bbar)) {}
  void launch(const T& g) noexcept override {
    try {
      Task t = binary_reverse<Op, T, A, B, Y>(g, std::move(a_), std::move(b_), std::move(y_),
                                              std::move(abar_), std::move(bbar_));
      schedule(std::move(t), reverse_name<Op>());
    } catch (...) {
      fail(std::current_exception());
    }
  }
  void fail(std::exception_ptr e) noexcept override {
    abar_.set_error(e);
    bbar_.set_error(std::move(e));
  }

private:
  [[no_unique_address]] A a_;
  [[no_unique_address]] B b_;
  [[no_unique_address]] Y y_;
  GradSink<T> abar_, bbar_;
};

// ---- builders ---------------------------------------------------------------------------------

template <class T> void check_var(const Var<T>& v, const char* op) {
  if (!v.value || !v.grad) throw_empty(op);
}

template <class Op, class T> Var<typename Op::template result<T>> unary(const Var<T>& x) {
  using R = typename Op::template result<T>;
  check_var(x, Op::name);
  auto pending = Async<R>::pending();
  Var<R> y(std::move(pending.first));
  schedule(unary_forward<Op, T, R>(x.value.read(), std::move(pending.second)), Op::name);
  GradSink<T> xbar;
  {
    GraphLock lock;
    xbar = track(lock, x.grad, y.grad);
  }
  if (xbar) {
    using L = UnaryLaunch<Op, T, R>;
    typename L::X xv{};
    typename L::Y yv{};
    if constexpr ((Op::needs & rules::kX) != 0) xv = x.value.read();
    if constexpr ((Op::needs & rules::kY) != 0) yv = y.value.read();
    y.grad.node()->on_publish(std::make_unique<L>(std::move(xv), std::move(yv), std::move(xbar)));
  }
  return y;
}

// a and b: a Var (non-null pointer) or a constant (ac / bc).
template <class Op, class T>
Var<T> binary(const Var<T>* a, const T* ac, const Var<T>* b, const T* bc) {
  if (a) check_var(*a, Op::name);
  if (b) check_var(*b, Op::name);
  auto pending = Async<T>::pending();
  Var<T> y(std::move(pending.first));
  schedule(binary_forward<Op, T>(value_operand(a, ac, true), value_operand(b, bc, true),
                                 std::move(pending.second)),
           Op::name);
  GradSink<T> abar, bbar;
  {
    GraphLock lock;
    if (a) abar = track(lock, a->grad, y.grad);
    if (b) bbar = track(lock, b->grad, y.grad);
  }
  if (abar || bbar) {
    using L = BinaryLaunch<Op, T>;
    typename L::A av{};
    typename L::B bv{};
    typename L::Y yv{};
    if constexpr ((Op::needs & rules::kA) != 0) av = value_operand(a, ac, true);
    if constexpr ((Op::needs & rules::kB) != 0) bv = value_operand(b, bc, true);
    if constexpr ((Op::needs & rules::kY) != 0) yv = y.value.read();
    y.grad.node()->on_publish(std::make_unique<L>(std::move(av), std::move(bv), std::move(yv),
                                                  std::move(abar), std::move(bbar)));
  }
  return y;
}

} // namespace tfe::dataflow::detail
