// The forward and reverse tasks of scalar Var ops, generic over a row of scalar_rules.hpp, and the
// builders that schedule them (used by var_ops.hpp).
//
// A reverse task awaits its upstream gradient first: when that gradient is absent (never seeded,
// or pruned) the task is cancelled before its body reads anything, and its contribution slots
// become absent. Bodies keep to named locals and one co_await per statement (GCC 12).
#pragma once

#include <optional>
#include <string>

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

template <class Op, class T, class R>
Task unary_reverse(ReadBuffer<R> ybar, ReadBuffer<T> x, ReadBuffer<R> y, GradSink<T> xbar) {
  R g = co_await ybar;
  ybar.release();
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

template <class Op, class T>
Task binary_reverse(ReadBuffer<T> ybar, Operand<T> a, Operand<T> b, ReadBuffer<T> y,
                    GradSink<T> abar, GradSink<T> bbar) {
  T g = co_await ybar;
  ybar.release();
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
  T yv{};
  if constexpr ((Op::needs & rules::kY) != 0) {
    yv = co_await y;
    y.release();
  }
  if (abar) abar.put(binary_vjp<Op, T, 0>(av, bv, yv, g));
  if (bbar) bbar.put(binary_vjp<Op, T, 1>(av, bv, yv, g));
}

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
    ReadBuffer<T> xv;
    ReadBuffer<R> yv;
    if constexpr ((Op::needs & rules::kX) != 0) xv = x.value.read();
    if constexpr ((Op::needs & rules::kY) != 0) yv = y.value.read();
    schedule(unary_reverse<Op, T, R>(y.grad.input(), std::move(xv), std::move(yv), std::move(xbar)),
             reverse_name<Op>());
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
    ReadBuffer<T> yv;
    if constexpr ((Op::needs & rules::kY) != 0) yv = y.value.read();
    schedule(binary_reverse<Op, T>(y.grad.input(),
                                   value_operand(a, ac, (Op::needs & rules::kA) != 0),
                                   value_operand(b, bc, (Op::needs & rules::kB) != 0),
                                   std::move(yv), std::move(abar), std::move(bbar)),
             reverse_name<Op>());
  }
  return y;
}

} // namespace tfe::dataflow::detail
