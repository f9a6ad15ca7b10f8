// Helpers shared by the dataflow tests (test_dataflow_*.cpp): catching a tfe::Error, and small
// custom ops written the seed's way (a forward and a reverse task per op) that count or fail.
#pragma once

#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>

#include "core/error.hpp"
#include "dataflow/dataflow.hpp"

namespace tfe::dataflow::testing {

// The tfe::Error that f throws (a failed check when it throws none).
template <class F> Error error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  FAIL("no tfe::Error was thrown");
  return Error(Status::Ok, "");
}

// A user exception type: failures must keep their type and message.
struct BranchFailure : std::runtime_error {
  BranchFailure(const std::string& what, int id) : std::runtime_error(what), branch(id) {}
  int branch;
};

template <class T> Task copy_task(ReadBuffer<T> in, WriteBuffer<T> out) {
  T v = co_await in;
  in.release();
  co_await out;
  out.set(v);
}

// Reverse of the identity that counts how often its body is entered (after its upstream read).
template <class T> Task counting_reverse(ReadBuffer<T> ybar, GradSink<T> xbar, int* entered) {
  T g = co_await ybar;
  ybar.release();
  ++*entered;
  xbar.put(g);
}

template <class T> Task failing_forward(ReadBuffer<T> x, WriteBuffer<T> y, int branch) {
  T v = co_await x;
  x.release();
  if (branch >= 0)
    throw BranchFailure("forward failure in branch " + std::to_string(branch), branch);
  co_await y;
  y.set(v);
}

template <class T> Task failing_reverse(ReadBuffer<T> ybar, GradSink<T> xbar, int branch) {
  T g = co_await ybar;
  ybar.release();
  if (branch >= 0)
    throw BranchFailure("reverse failure in branch " + std::to_string(branch), branch);
  xbar.put(g);
}

// The identity as a custom op whose reverse body counts its entries.
template <class T> Var<T> counted_identity(Var<T>& x, int* entered) {
  Var<T> y;
  schedule(copy_task<T>(x.value.read(), y.value.write()), "counted.forward");
  schedule(counting_reverse<T>(y.grad.input(), x.grad.output(y.grad), entered), "counted.reverse");
  return y;
}

// The identity whose forward (forward_branch >= 0) or reverse (reverse_branch >= 0) throws.
template <class T> Var<T> failing_identity(Var<T>& x, int forward_branch, int reverse_branch) {
  Var<T> y;
  schedule(failing_forward<T>(x.value.read(), y.value.write(), forward_branch), "failing.forward");
  schedule(failing_reverse<T>(y.grad.input(), x.grad.output(y.grad), reverse_branch),
           "failing.reverse");
  return y;
}

// Two labelled channels 'a' and 'b', b written by task 'a_to_b' #1 from a and a by task
// 'b_to_a' #2 from b: a deadlock on the current scheduler, which must be fresh (task ids).
struct Cycle {
  Async<double> a, b;
};
inline Cycle make_cycle() {
  Cycle c;
  c.a.set_label("a");
  c.b.set_label("b");
  WriteBuffer<double> wa = c.a.write();
  WriteBuffer<double> wb = c.b.write();
  schedule(copy_task<double>(c.a.read(), std::move(wb)), "a_to_b");
  schedule(copy_task<double>(c.b.read(), std::move(wa)), "b_to_a");
  return c;
}

// What every scheduler's report of waiting for b in make_cycle() says.
inline void check_cycle_report(const Error& e) {
  CHECK(e.status() == Status::InvalidArgument);
  const std::string& m = e.message();
  CAPTURE(m);
  CHECK_THAT(m, Catch::Contains("deadlock"));
  CHECK_THAT(m, Catch::Contains("waiting for the value of channel 'b'"));
  CHECK_THAT(m, Catch::Contains("task 'a_to_b' #1 waits to read channel 'a'"));
  CHECK_THAT(m, Catch::Contains("writer: task 'b_to_a' #2"));
  CHECK_THAT(m, Catch::Contains("task 'b_to_a' #2 waits to read channel 'b'"));
  CHECK_THAT(m, Catch::Contains("writer: task 'a_to_b' #1"));
}

} // namespace tfe::dataflow::testing
