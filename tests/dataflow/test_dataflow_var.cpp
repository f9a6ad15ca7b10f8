// Var<T> on the debug scheduler: the engine's documented behaviours as tests (gradients of the
// published examples, pruning, copy linking, the stress sum), absent versus zero gradients,
// deterministic accumulation, auto-sealing, failures that keep their type and misuse as clear
// errors.
#include "test_dataflow_support.hpp"

#include <bit>
#include <cmath>
#include <complex>
#include <cstring>
#include <vector>

using namespace tfe;
using namespace tfe::dataflow;
using namespace tfe::dataflow::testing;
using C64 = std::complex<double>;

TEST_CASE("dataflow Var: sin and cos gradients", "[dataflow]") {
  DebugScheduler sched;
  ScopedScheduler scope(sched);
  for (double x0 : {-2.0, 0.1, 0.7, 3.0}) {
    Var<double> x = x0;
    Var<double> s = sin(x);
    Var<double> c = cos(x);
    s.seed();
    CHECK(x.grad.get_wait() == Approx(std::cos(x0)).epsilon(1e-15));
    Var<double> x2 = x0;
    Var<double> c2 = cos(x2);
    c2.seed();
    CHECK(x2.grad.get_wait() == Approx(-std::sin(x0)).epsilon(1e-15));
    CHECK(s.value.get_wait() == std::sin(x0));
    CHECK(c.value.get_wait() == std::cos(x0));
  }
  // The seed's first example: y = sin(x) * x.
  Var<double> x = 0.1;
  Var<double> y = sin(x) * x;
  y.grad = 1.0;
  Async<double> dx = x.backprop();
  CHECK(dx.get_wait() == Approx(std::sin(0.1) + 0.1 * std::cos(0.1)).epsilon(1e-15));
}

TEST_CASE("dataflow Var: several seeded outputs (c = a*b, d = a*3, e = 4 - a)", "[dataflow]") {
  DebugScheduler sched;
  ScopedScheduler scope(sched);
  Var<double> a = 2.0, b = -0.5;
  Var<double> c = a * b;
  Var<double> d = a * 3;
  Var<double> e = 4 - a;
  c.grad = 1;
  d.grad = 1;
  e.grad = 1;
  CHECK(a.grad.get_wait() == 1.5);
  CHECK(b.grad.get_wait() == 2.0);
  CHECK(c.value.get_wait() == -1.0);
  CHECK(d.value.get_wait() == 6.0);
  CHECK(e.value.get_wait() == 2.0);
}

TEST_CASE("dataflow Var: subtraction with Vars and scalars on either side", "[dataflow]") {
  DebugScheduler sched;
  ScopedScheduler scope(sched);
  Var<double> x = 5.0, y = -1.5;
  Var<double> p = x - y;
  Var<double> q = x - 2;
  Var<double> r = 10 - y;
  p.seed();
  q.seed();
  r.seed();
  CHECK(x.grad.get_wait() == 2.0);
  CHECK(y.grad.get_wait() == -2.0);
  CHECK(p.value.get_wait() == 6.5);
  CHECK(q.value.get_wait() == 3.0);
  CHECK(r.value.get_wait() == 11.5);
}

TEST_CASE("dataflow Var: real and imag seeds give z.grad = 2 + 3i in either order", "[dataflow]") {
  for (bool real_first : {true, false}) {
    DebugScheduler sched;
    ScopedScheduler scope(sched);
    Var<C64> z = C64(1.5, -2.5);
    Var<double> re = real(z);
    Var<double> im = imag(z);
    if (real_first) {
      re.grad = 2;
      im.grad = 3;
    } else {
      im.grad = 3;
      re.grad = 2;
    }
    CHECK(z.grad.get_wait() == C64(2, 3));
    CHECK(re.value.get_wait() == 1.5);
    CHECK(im.value.get_wait() == -2.5);
  }
}

TEST_CASE("dataflow Var: complex convention of docs/design/ad-contract.md", "[dataflow]") {
  DebugScheduler sched;
  ScopedScheduler scope(sched);
  const C64 z0(0.6, -1.1);
  auto grad_of = [&](auto loss) {
    Var<C64> z = z0;
    Var<double> l = loss(z);
    l.seed();
    return z.grad.get_wait();
  };
  auto near = [](C64 a, C64 b) { return std::abs(a - b) <= 1e-13 * (1 + std::abs(b)); };
  // |z|^2 -> 2z; Re(z^3) -> conj(3 z^2); |exp z| = exp(Re z) -> exp(Re z).
  CHECK(near(grad_of([](Var<C64>& z) { return abs(z) * abs(z); }), 2.0 * z0));
  CHECK(near(grad_of([](Var<C64>& z) { return real(z * z * z); }), std::conj(3.0 * z0 * z0)));
  CHECK(near(grad_of([](Var<C64>& z) { return abs(exp(z)); }), C64(std::exp(z0.real()), 0)));
  // sin(x) * x on a real leaf.
  Var<double> x = 0.3;
  Var<double> y = sin(x) * x;
  y.seed();
  CHECK(x.grad.get_wait() == Approx(std::sin(0.3) + 0.3 * std::cos(0.3)).epsilon(1e-15));
}

TEST_CASE("dataflow Var: an unused branch is pruned and its gradient is absent", "[dataflow]") {
  DebugScheduler sched;
  ScopedScheduler scope(sched);
  int dead_entered = 0, live_entered = 0;
  Var<double> x = 1.25;
  Var<double> dead = counted_identity(x, &dead_entered); // never seeded
  Var<double> dead_tail = sin(dead) * 3.0;               // a longer dead chain
  Var<double> live = counted_identity(x, &live_entered);
  Var<double> loss = live * 2.0;
  { Var<double> temporary_dead = cos(x) + x; } // a temporary: dropped at once
  loss.seed();
  CHECK(x.grad.get_wait() == 2.0);
  sched.run_all();
  CHECK(dead_entered == 0); // the pruned reverse body never ran
  CHECK(live_entered == 1);
  CHECK_FALSE(dead.grad.maybe_wait());
  CHECK_FALSE(dead_tail.grad.maybe_wait());
  // Pruned: the dead custom reverse task was cancelled unrun; the dead reverse work of the
  // built-in ops (sin, mul, cos, add) never became a task.
  CHECK(sched.stats().cancelled == 1);
  CHECK(sched.live_tasks() == 0);
}

TEST_CASE("dataflow Var: a 128-term sum of sin*cos products", "[dataflow]") {
  DebugScheduler sched;
  ScopedScheduler scope(sched);
  std::vector<Var<double>> xs;
  for (int i = 0; i < 128; ++i) xs.emplace_back(-1.5 + 0.023 * i);
  Var<double> s = 0.0;
  for (Var<double>& x : xs) s = s + sin(x) * cos(x);
  s.seed();
  double expected_value = 0;
  for (int i = 0; i < 128; ++i) {
    double x0 = -1.5 + 0.023 * i;
    expected_value += std::sin(x0) * std::cos(x0);
    CHECK(std::abs(xs[i].grad.get_wait() - std::cos(2 * x0)) <= 1e-12);
  }
  CHECK(std::abs(s.value.get_wait() - expected_value) <= 1e-12);
}

TEST_CASE("dataflow Var: copying from a non-const lvalue links gradients", "[dataflow]") {
  DebugScheduler sched;
  ScopedScheduler scope(sched);
  SECTION("copy-assignment") {
    Var<double> x = 3.0;
    Var<double> y;
    y = x; // y shares x's value; y's gradient flows on into x's
    Var<double> z = y * y;
    z.seed();
    CHECK(x.grad.get_wait() == 6.0);
    CHECK(y.grad.get_wait() == 6.0);
    CHECK(y.value.get_wait() == 3.0);
  }
  SECTION("copy-construction, and a custom op taking its Var by value") {
    Var<double> x = 3.0;
    Var<double> y(x);
    auto twice = [](Var<double> v) { return v * 2.0; }; // the seed's by-value signature
    Var<double> w = twice(y) + x;
    w.seed();
    CHECK(x.grad.get_wait() == 3.0);
  }
  SECTION("reassignment closes the old gradient of the target") {
    Var<double> x = 1.0, other = 5.0;
    Var<double> y = other * 1.0;
    Var<double> t = y * 4.0; // contributes to the old gradient of y, and on to other
    y = x;
    Var<double> u = y * 10.0;
    t.seed();
    u.seed();
    CHECK(x.grad.get_wait() == 10.0);
    CHECK(other.grad.get_wait() == 4.0);
  }
}

TEST_CASE("dataflow Var: an absent gradient is not a zero", "[dataflow]") {
  DebugScheduler sched;
  ScopedScheduler scope(sched);
  Var<double> x = 3.0, w = 4.0, unused = 5.0;
  Var<double> y = x * 0.0 + w;
  Var<double> never_seeded = unused * 2.0;
  y.seed();
  std::optional<double> gx = x.grad.maybe_wait();
  REQUIRE(gx);
  CHECK(*gx == 0.0); // a real zero
  CHECK(x.grad.get_wait() == 0.0);
  CHECK_FALSE(unused.grad.maybe_wait()); // absent
  CHECK_FALSE(never_seeded.grad.maybe_wait());
  Var<double> lonely = 1.0;
  CHECK_FALSE(lonely.grad.maybe_wait());
}

namespace {

// x times each coefficient, each product a seeded output; the order in which the contributions
// to x's gradient resolve is set by finalizing the products in `order`.
double accumulate(const std::vector<double>& coefficients, const std::vector<size_t>& order,
                  bool pause_and_run_all) {
  DebugScheduler sched;
  ScopedScheduler scope(sched);
  if (pause_and_run_all) sched.pause();
  Var<double> x = 1.0;
  std::vector<Var<double>> terms;
  for (double c : coefficients) terms.push_back(x * c);
  if (pause_and_run_all) sched.run_all(); // every forward done, every reverse suspended
  for (size_t i : order) {
    terms[i].seed();
    terms[i].grad.finalize(); // its reverse task can now run
    if (pause_and_run_all) sched.run_all();
  }
  return x.grad.get_wait();
}

} // namespace

TEST_CASE("dataflow Var: accumulation order does not depend on scheduling", "[dataflow]") {
  const std::vector<double> c = {1e16, 1.0, -1e16, 1.0, 0.25, -7e15, 3.5, 7e15};
  std::vector<size_t> forward(c.size()), backward(c.size());
  for (size_t i = 0; i < c.size(); ++i) forward[i] = i, backward[i] = c.size() - 1 - i;
  // The sum is order-sensitive in floating point:
  double fsum = 0, bsum = 0;
  for (size_t i : forward) fsum += c[i];
  for (size_t i : backward) bsum += c[i];
  REQUIRE(std::bit_cast<uint64_t>(fsum) != std::bit_cast<uint64_t>(bsum));
  double g1 = accumulate(c, forward, false);
  double g2 = accumulate(c, backward, true);
  double g3 = accumulate(c, backward, false);
  CHECK(std::bit_cast<uint64_t>(g1) == std::bit_cast<uint64_t>(g2));
  CHECK(std::bit_cast<uint64_t>(g1) == std::bit_cast<uint64_t>(g3));
  CHECK(std::bit_cast<uint64_t>(g1) == std::bit_cast<uint64_t>(fsum)); // registration order
}

TEST_CASE("dataflow Var: requesting a gradient seals the graph", "[dataflow]") {
  DebugScheduler sched;
  ScopedScheduler scope(sched);
  SECTION("named intermediates need no finalize") {
    Var<double> x = 0.5;
    Var<double> t1 = exp(x);
    Var<double> t2 = t1 * x;
    Var<double> unrelated = 2.0;
    Var<double> loss = t2 + t1;
    loss.seed();
    CHECK(x.grad.get_wait() == Approx(std::exp(0.5) * (0.5 + 2.0)).epsilon(1e-15));
    CHECK_FALSE(t1.grad.is_open());
    CHECK_FALSE(t2.grad.is_open());
    CHECK(unrelated.grad.is_open()); // another graph: untouched
    CHECK(t1.grad.get_wait() == Approx(0.5 + 1.0));
  }
  SECTION("the explicit finalize of the seed still works") {
    Var<double> input = 2.0;
    Var<double> intermediate = input * input;
    Var<double> output = intermediate * 3.0;
    output.grad = 1.0;
    intermediate.grad.finalize();
    Async<double> g = input.grad.backprop();
    CHECK(g.get_wait() == 12.0);
  }
  SECTION("values of a sealed graph feed new ops as constants (a pipelined optimiser step)") {
    Var<double> x = 2.0;
    Var<double> loss = x * x;
    loss.seed();
    Var<double> g(x.grad.backprop()); // seals; nothing has run yet
    Var<double> x_next = x - 0.1 * g; // x enters as a constant
    CHECK(x_next.value.get_wait() == Approx(1.6));
    Var<double> loss2 = x_next * x_next;
    loss2.seed();
    CHECK(x_next.grad.get_wait() == Approx(3.2));
    CHECK(g.grad.get_wait() == Approx(-0.32));
    CHECK(x.grad.get_wait() == 4.0); // unchanged by the new graph
  }
}

TEST_CASE("dataflow Var: misuse is a clear tfe::Error", "[dataflow]") {
  DebugScheduler sched;
  ScopedScheduler scope(sched);
  Var<double> x = 2.0;
  Var<double> t = x * x;
  Var<double> y = t + 1.0;
  y.set_label("y");
  y.seed();

  Error twice = error_of([&] { y.grad = 1.0; });
  CHECK(twice.status() == Status::InvalidArgument);
  CHECK_THAT(twice.message(), Catch::Contains("gradient 'y'"));
  CHECK_THAT(twice.message(), Catch::Contains("seeded already"));

  CHECK(x.grad.get_wait() == 4.0); // seals the graph of x, t, y

  Error seal_seed = error_of([&] { t.seed(); });
  CHECK(seal_seed.status() == Status::InvalidArgument);
  CHECK_THAT(seal_seed.message(), Catch::Contains("is sealed"));
  Error seal_output = error_of([&] { (void)x.grad.output(); });
  CHECK_THAT(seal_output.message(), Catch::Contains("is sealed"));
  CHECK_THAT(seal_output.message(), Catch::Contains("cannot receive a new contribution"));
  {
    Var<double> copy(x); // a sealed Var: the copy is a new leaf sharing the value
    Var<double> z = copy * 3.0;
    z.seed();
    CHECK(copy.value.get_wait() == 2.0);
    CHECK(copy.grad.get_wait() == 3.0);
    CHECK(x.grad.get_wait() == 4.0); // not linked
  }

  Var<double> lonely = 1.0;
  lonely.set_label("lonely");
  Error absent = error_of([&] { (void)lonely.grad.get_wait(); });
  CHECK(absent.status() == Status::InvalidArgument);
  CHECK_THAT(absent.message(), Catch::Contains("gradient 'lonely'"));
  CHECK_THAT(absent.message(), Catch::Contains("is absent"));

  Var<double> moved = std::move(lonely);
  Error empty = error_of([&] { (void)sin(lonely); });
  CHECK_THAT(empty.message(), Catch::Contains("empty"));
  Error empty_wait = error_of([&] { (void)lonely.value.get_wait(); });
  CHECK_THAT(empty_wait.message(), Catch::Contains("empty"));

  Var<double> f = 3.0;
  f.grad.finalize();
  Error finalized = error_of([&] { f.seed(); });
  CHECK_THAT(finalized.message(), Catch::Contains("is sealed"));
  Var<double> uses_f = f * 2.0; // a constant now
  uses_f.seed();
  CHECK_FALSE(f.grad.maybe_wait());
  sched.run_all();
  CHECK(sched.live_tasks() == 0);
}

TEST_CASE("dataflow Var: a forward failure reaches downstream readers with its type",
          "[dataflow]") {
  DebugScheduler sched;
  ScopedScheduler scope(sched);
  Var<double> x = 0.5;
  Var<double> y = failing_identity(x, 7, -1);
  Var<double> z = sin(y) * 2.0 + x;
  z.seed();
  try {
    (void)z.value.get_wait();
    FAIL("no failure");
  } catch (const BranchFailure& f) {
    CHECK(f.branch == 7);
    CHECK(std::string(f.what()) == "forward failure in branch 7");
  }
  // The gradient depends on the failed value: the failure, not an absence.
  CHECK_THROWS_AS(x.grad.maybe_wait(), BranchFailure);

  SECTION("an unobserved failing branch is dropped") {
    Var<double> a = 1.0;
    Var<double> b = a * 3.0;
    { Var<double> dead = failing_identity(a, 8, -1) * 2.0; }
    b.seed();
    CHECK(a.grad.get_wait() == 3.0);
    CHECK_NOTHROW(sched.run_all());
  }
}

TEST_CASE("dataflow Var: a reverse failure is never turned into pruning", "[dataflow]") {
  for (bool pruned_first : {true, false}) {
    DebugScheduler sched;
    ScopedScheduler scope(sched);
    int entered = 0;
    Var<double> x = 1.0;
    Var<double> pruned, failing;
    if (pruned_first) {
      pruned = counted_identity(x, &entered);
      failing = failing_identity(x, -1, 9);
    } else {
      failing = failing_identity(x, -1, 9);
      pruned = counted_identity(x, &entered);
    }
    Var<double> ok = x * 4.0;
    failing.seed();
    ok.seed();
    try {
      (void)x.grad.get_wait();
      FAIL("no failure");
    } catch (const BranchFailure& f) {
      CHECK(f.branch == 9);
      CHECK(std::string(f.what()) == "reverse failure in branch 9");
    }
    CHECK(entered == 0);
  }
}

TEST_CASE("dataflow Var: a graph may outlive the scheduler it was built on", "[dataflow]") {
  Var<double> x = 0.5;
  Var<double> y;
  {
    DebugScheduler gone;
    ScopedScheduler scope(gone);
    y = sin(x) * x;
    gone.run_all();
  } // its tasks are done; the reverse work waits in y's graph
  DebugScheduler now;
  ScopedScheduler scope(now);
  y.seed();
  CHECK(x.grad.get_wait() == Approx(std::sin(0.5) + 0.5 * std::cos(0.5)).epsilon(1e-15));
}
