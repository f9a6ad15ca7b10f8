// The threaded scheduler: the same bits as the debug scheduler, graphs built from several
// threads, pruning and failures under concurrency, deadlock reports, pause / run_all, nested
// waits, one-thread pools and destruction. The CI runs this file under ThreadSanitizer.
#include "test_dataflow_support.hpp"

#include <atomic>
#include <bit>
#include <cmath>
#include <complex>
#include <thread>
#include <vector>

using namespace tfe;
using namespace tfe::dataflow;
using namespace tfe::dataflow::testing;
using C64 = std::complex<double>;

namespace {

// A graph with fan-in, fan-out, complex values and a pruned branch; returns the gradient bits of
// every leaf, read in a fixed order.
std::vector<uint64_t> fan_in_gradients(int terms) {
  std::vector<Var<C64>> xs;
  for (int i = 0; i < terms; ++i) xs.emplace_back(C64(-1.0 + 0.013 * i, 0.5 - 0.007 * i));
  Var<C64> s = 0.0;
  for (int i = 0; i < terms; ++i) {
    Var<C64>& x = xs[static_cast<size_t>(i)];
    Var<C64> term = sin(x) * exp(x * 0.25) + x * xs[static_cast<size_t>((i * 7) % terms)];
    s = s + term;
    Var<C64> unused = cos(term) * 3.0; // pruned: never seeded
  }
  Var<double> loss = abs(s) + real(s * s);
  loss.seed();
  std::vector<uint64_t> bits;
  for (Var<C64>& x : xs) {
    C64 g = x.grad.get_wait();
    bits.push_back(std::bit_cast<uint64_t>(g.real()));
    bits.push_back(std::bit_cast<uint64_t>(g.imag()));
  }
  return bits;
}

Task blocking_copy(Async<double> source, WriteBuffer<double> out) {
  double v = source.get_wait(); // a blocking wait inside a task body
  co_await out;
  out.set(v + 1.0);
}

} // namespace

TEST_CASE("dataflow ThreadPoolScheduler: gradients have the debug scheduler's bits",
          "[dataflow][threads]") {
  std::vector<uint64_t> reference;
  {
    DebugScheduler debug;
    ScopedScheduler scope(debug);
    reference = fan_in_gradients(96);
  }
  for (int threads : {1, 2, 4}) {
    ThreadPoolScheduler pool(threads);
    ScopedScheduler scope(pool);
    CHECK(pool.threads() == threads);
    for (int repeat = 0; repeat < 5; ++repeat) {
      CAPTURE(threads, repeat);
      CHECK(fan_in_gradients(96) == reference);
    }
    pool.run_all();
    CHECK(pool.live_tasks() == 0);
  }
}

TEST_CASE("dataflow ThreadPoolScheduler: graphs built concurrently from several threads",
          "[dataflow][threads]") {
  ThreadPoolScheduler pool(3);
  std::atomic<int> wrong{0};
  std::vector<std::thread> builders;
  for (int t = 0; t < 4; ++t)
    builders.emplace_back([&, t] {
      ScopedScheduler scope(pool);
      for (int k = 0; k < 50; ++k) {
        double x0 = 0.1 * t + 0.01 * k;
        Var<double> x = x0;
        Var<double> y = sin(x) * x + x * x;
        y.seed();
        double expected = std::sin(x0) + x0 * std::cos(x0) + 2 * x0;
        if (std::abs(x.grad.get_wait() - expected) > 1e-14) ++wrong;
      }
    });
  for (std::thread& b : builders) b.join();
  CHECK(wrong == 0);
  pool.run_all();
  CHECK(pool.live_tasks() == 0);
  CHECK(pool.stats().scheduled == pool.stats().completed + pool.stats().cancelled);
}

TEST_CASE("dataflow ThreadPoolScheduler: pruning and failures under concurrency",
          "[dataflow][threads]") {
  ThreadPoolScheduler pool(4);
  ScopedScheduler scope(pool);
  for (int round = 0; round < 20; ++round) {
    int entered = 0; // written only by pruned reverse bodies: must stay untouched
    Var<double> x = 0.5 + 0.01 * round;
    std::vector<Var<double>> dead;
    for (int i = 0; i < 8; ++i) dead.push_back(counted_identity(x, &entered));
    { Var<double> failing_unobserved = failing_identity(x, round, -1) * 2.0; }
    Var<double> y = x * x;
    y.seed();
    CHECK(x.grad.get_wait() == 2 * x.value.get_wait());
    dead.clear();
    pool.run_all();
    CHECK(entered == 0);
  }
  SECTION("an observed forward failure keeps its type") {
    Var<double> x = 1.0;
    Var<double> z = sin(failing_identity(x, 5, -1)) + x;
    try {
      (void)z.value.get_wait();
      FAIL("no failure");
    } catch (const BranchFailure& f) {
      CHECK(f.branch == 5);
    }
  }
  SECTION("a reverse failure fails the gradient in either registration order") {
    for (bool pruned_first : {true, false}) {
      int entered = 0;
      Var<double> x = 1.0;
      Var<double> pruned, failing;
      if (pruned_first) pruned = counted_identity(x, &entered);
      failing = failing_identity(x, -1, 3);
      if (!pruned_first) pruned = counted_identity(x, &entered);
      failing.seed();
      CHECK_THROWS_AS(x.grad.maybe_wait(), BranchFailure);
      CHECK(entered == 0);
    }
  }
}

TEST_CASE("dataflow ThreadPoolScheduler: a deadlock is an error naming what waits on what",
          "[dataflow][threads]") {
  ThreadPoolScheduler pool(2);
  ScopedScheduler scope(pool);
  Cycle cycle = make_cycle();
  check_cycle_report(error_of([&] { (void)cycle.b.get_wait(); }));

  SECTION("tasks blocked inside their bodies are reported, not hung") {
    auto [c, wc] = Async<double>::pending();
    c.set_label("c");
    Async<double> d;
    schedule(blocking_copy(c, d.write()), "blocking_copy");
    Error e2 = error_of([&] { (void)d.get_wait(); });
    CHECK_THAT(e2.message(), Catch::Contains("deadlock"));
    wc.set(1.0); // the blocked task failed with the deadlock; its output carries it
    CHECK_THROWS_AS(d.get_wait(), Error);
  }
}

TEST_CASE("dataflow ThreadPoolScheduler: pause, run_all, nested waits, destruction",
          "[dataflow][threads]") {
  SECTION("paused: workers hold back, run_all runs everything on the caller") {
    ThreadPoolScheduler pool(3);
    ScopedScheduler scope(pool);
    pool.pause();
    CHECK(pool.paused());
    Var<double> x = 2.0;
    Var<double> y = exp(x) * x;
    y.seed();
    Async<double> g = x.backprop();
    CHECK(pool.stats().turns == 0);
    pool.run_all();
    CHECK(g.ready());
    CHECK(g.get_wait() == Approx(std::exp(2.0) * 3.0).epsilon(1e-15));
    pool.resume();
    CHECK_FALSE(pool.paused());
  }
  SECTION("a task may block on a value inside its body") {
    ThreadPoolScheduler pool(2);
    ScopedScheduler scope(pool);
    Var<double> x = 0.3;
    Var<double> y = sin(x);
    Async<double> out;
    schedule(blocking_copy(y.value, out.write()), "blocking_copy");
    CHECK(out.get_wait() == std::sin(0.3) + 1.0);
  }
  SECTION("destroyed with suspended tasks: their outputs become absent") {
    auto [never, w] = Async<double>::pending(); // outlives the pool: never written in time
    Async<double> out;
    {
      ThreadPoolScheduler pool(2);
      ScopedScheduler scope(pool);
      schedule(copy_task<double>(never.read(), out.write()), "stuck");
      pool.run_all();
      CHECK(pool.live_tasks() == 1);
    } // the pool goes with its suspended task
    w.set(1.0);
    DebugScheduler debug;
    ScopedScheduler scope(debug);
    CHECK_FALSE(out.maybe_wait());
  }
  SECTION("at least one thread") {
    Error e = error_of([] { ThreadPoolScheduler pool(0); });
    CHECK_THAT(e.message(), Catch::Contains("threads = 0"));
  }
}
