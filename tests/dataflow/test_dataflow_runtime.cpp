// The dataflow runtime below Var (src/dataflow/): epoch ordering of Async channels, absence as a
// flag, failures that keep their type, the debug scheduler (pause, run_all, deadlock reports,
// destruction with unfinished tasks) and the default / scoped schedulers.
#include "test_dataflow_support.hpp"

#include "dataflow/pairwise_sum.hpp"

#include <atomic>
#include <bit>
#include <optional>
#include <thread>
#include <vector>

using namespace tfe;
using namespace tfe::dataflow;
using namespace tfe::dataflow::testing;

namespace {

Task add_one(ReadBuffer<int> in, WriteBuffer<int> out, std::vector<int>* log) {
  int v = co_await in;
  in.release();
  log->push_back(v);
  co_await out;
  out.set(v + 1);
}

Task record(ReadBuffer<int> in, std::vector<int>* log) {
  int v = co_await in;
  log->push_back(v);
}

Task record_maybe(ReadBuffer<int> in, int* seen, bool* absent) {
  const int* v = co_await in.maybe();
  *absent = v == nullptr;
  if (v) *seen = *v;
}

// Writes its epoch from the previous epoch's value (read-modify-write through one buffer).
Task double_in_place(WriteBuffer<int> out) {
  co_await out;
  const int* prev = out.previous();
  int v = prev ? *prev * 2 : -1;
  out.set(v);
}

} // namespace

TEST_CASE("dataflow Async: epochs order one writer, then its readers, then the next writer",
          "[dataflow]") {
  DebugScheduler sched;
  ScopedScheduler scope(sched);
  std::vector<int> log;
  Async<int> a = 1;
  // Built in program order; run in any order the epochs allow.
  ReadBuffer<int> r1 = a.read(); // epoch 1 (value 1)
  WriteBuffer<int> w2 = a.write();
  ReadBuffer<int> r2 = a.read(); // epoch 2
  WriteBuffer<int> w3 = a.write();
  ReadBuffer<int> r3 = a.read(); // epoch 3
  // Scheduled in reverse: the epoch queue, not the scheduler, orders them.
  schedule(record(std::move(r3), &log), "r3");
  schedule(add_one(std::move(r2), std::move(w3), &log), "w3");
  schedule(add_one(std::move(r1), std::move(w2), &log), "w2");
  CHECK(a.get_wait() == 3);
  sched.run_all();
  CHECK(log == std::vector<int>{1, 2, 3});
  CHECK(sched.live_tasks() == 0);

  SECTION("a writer waits for every reader of the previous epoch") {
    Async<int> b = 5;
    ReadBuffer<int> held = b.read();
    WriteBuffer<int> w = b.write();
    schedule(double_in_place(std::move(w)), "double");
    sched.run_all();
    CHECK(sched.live_tasks() == 1); // suspended: the reader still holds epoch 1
    CHECK(held.get_wait() == 5);
    held.release();
    CHECK(b.get_wait() == 10);
  }
  SECTION("a buffer written outside tasks") {
    auto [c, w] = Async<int>::pending();
    CHECK_FALSE(c.ready());
    w.set(7);
    CHECK(c.get_wait() == 7);
    WriteBuffer<int> w2b = c.write();
    ReadBuffer<int> early = c.read(); // epoch 2
    WriteBuffer<int> w3b = c.write();
    Error e = error_of([&] { w3b.set(9); }); // epoch 2's writer has not written yet
    CHECK(e.status() == Status::InvalidArgument);
    CHECK_THAT(e.message(), Catch::Contains("not at its turn"));
    w2b.set(8);
    CHECK(early.get_wait() == 8);
    early.release();
    w3b.set(9);
    CHECK(c.get_wait() == 9);
  }
}

TEST_CASE("dataflow Async: absence flows downstream as a flag", "[dataflow]") {
  DebugScheduler sched;
  ScopedScheduler scope(sched);
  std::vector<int> log;
  auto [a, wa] = Async<int>::pending();
  Async<int> b;
  schedule(add_one(a.read(), b.write(), &log), "add_one");
  int seen = 0;
  bool absent = false;
  schedule(record_maybe(b.read(), &seen, &absent), "maybe");
  wa.set_absent(); // released unwritten
  CHECK_FALSE(a.maybe_wait());
  CHECK_FALSE(b.maybe_wait()); // add_one was cancelled before its body used the input
  Error e = error_of([&] { (void)b.get_wait(); });
  CHECK(e.status() == Status::InvalidArgument);
  CHECK_THAT(e.message(), Catch::Contains("absent"));
  sched.run_all();
  CHECK(log.empty());
  CHECK(absent);
  CHECK(sched.stats().cancelled == 1);
  CHECK(sched.live_tasks() == 0);

  SECTION("a writer released before its turn takes effect at its turn") {
    Async<int> c = 1;
    ReadBuffer<int> held = c.read();
    { WriteBuffer<int> unused = c.write(); } // epoch 2: absent, once epoch 1 is done
    CHECK(held.get_wait() == 1);
    held.release();
    CHECK_FALSE(c.maybe_wait());
  }
}

TEST_CASE("dataflow Async: a failure reaches its readers with its type and message", "[dataflow]") {
  DebugScheduler sched;
  ScopedScheduler scope(sched);
  Async<double> x = 2.0;
  Async<double> y, z;
  schedule(failing_forward<double>(x.read(), y.write(), 3), "fail");
  schedule(copy_task<double>(y.read(), z.write()), "copy");
  try {
    (void)z.get_wait();
    FAIL("no failure");
  } catch (const BranchFailure& f) {
    CHECK(f.branch == 3);
    CHECK(std::string(f.what()) == "forward failure in branch 3");
  }
  CHECK_THROWS_AS(y.maybe_wait(), BranchFailure); // a failure is not an absence

  SECTION("an unobserved failure is dropped") {
    Async<double> u;
    schedule(failing_forward<double>(x.read(), u.write(), 4), "fail");
    CHECK_NOTHROW(sched.run_all());
    CHECK(sched.live_tasks() == 0);
  }
}

TEST_CASE("dataflow DebugScheduler: a deadlock is an error naming what waits on what",
          "[dataflow]") {
  DebugScheduler sched;
  ScopedScheduler scope(sched);
  Cycle cycle = make_cycle();
  check_cycle_report(error_of([&] { (void)cycle.b.get_wait(); }));
  CHECK(sched.live_tasks() == 2); // left suspended; destroyed with the scheduler

  SECTION("a value whose writer is held by the caller") {
    auto [c, wc] = Async<int>::pending();
    c.set_label("c");
    Error e2 = error_of([&] { (void)c.get_wait(); });
    CHECK_THAT(e2.message(), Catch::Contains("a WriteBuffer held outside any task"));
    wc.set(1);
    CHECK(c.get_wait() == 1);
  }
}

TEST_CASE("dataflow DebugScheduler: pause and run_all, destruction with unfinished tasks",
          "[dataflow]") {
  std::vector<int> log;
  Async<int> out;
  {
    DebugScheduler sched;
    ScopedScheduler scope(sched);
    sched.pause();
    CHECK(sched.paused());
    Async<int> a = 1;
    Async<int> b;
    schedule(add_one(a.read(), b.write(), &log), "add_one");
    CHECK(log.empty()); // nothing runs by itself
    sched.run_all();    // runs while paused
    CHECK(log == std::vector<int>{1});
    schedule(add_one(b.read(), out.write(), &log), "add_one");
    sched.resume();
    CHECK_FALSE(sched.paused());
    CHECK(sched.stats().scheduled == 2);
    CHECK(sched.live_tasks() == 1);
  } // destroyed unrun: its output becomes absent
  CHECK(log == std::vector<int>{1});
  DebugScheduler other;
  ScopedScheduler scope(other);
  CHECK_FALSE(out.maybe_wait());
}

TEST_CASE("dataflow schedulers: the default is thread-safe, the scoped override per thread",
          "[dataflow]") {
  Scheduler& builtin = default_scheduler();
  DebugScheduler mine;
  {
    ScopedScheduler scope(mine);
    CHECK(&current_scheduler() == &mine);
    Scheduler* seen_elsewhere = nullptr;
    std::thread t([&] { seen_elsewhere = &current_scheduler(); });
    t.join();
    CHECK(seen_elsewhere == &builtin); // the override is for this thread only
  }
  CHECK(&current_scheduler() == &builtin);

  DebugScheduler a, b;
  std::atomic<bool> bad{false};
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&, i] {
      for (int k = 0; k < 1000; ++k) {
        set_default_scheduler(i % 2 ? &a : &b);
        Scheduler* s = &default_scheduler();
        if (s != &a && s != &b) bad = true;
      }
    });
  for (auto& t : threads) t.join();
  CHECK_FALSE(bad);
  set_default_scheduler(nullptr);
  CHECK(&default_scheduler() == &builtin);

  // The built-in default runs Var work without any set-up.
  Var<double> x = 0.25;
  Var<double> y = x * x;
  y.seed();
  CHECK(x.grad.get_wait() == 0.5);
}

namespace {

// The sum PairwiseSum must give: complete power-of-two blocks summed as a tree, then the blocks
// of the binary decomposition of n left to right; absent leaves are skipped.
std::optional<double> tree_sum(const std::vector<std::optional<double>>& v, size_t lo, size_t n) {
  if (n == 1) return v[lo];
  std::optional<double> a = tree_sum(v, lo, n / 2), b = tree_sum(v, lo + n / 2, n / 2);
  if (!a) return b;
  if (!b) return a;
  return *a + *b;
}

} // namespace

TEST_CASE("dataflow PairwiseSum: the same bits in any resolution order", "[dataflow]") {
  std::vector<std::optional<double>> leaves = {
      1e16, 1.0, -1e16, 3.5, std::nullopt, 1e-3, 7.0, -2.0, 1e15, 0.25, std::nullopt, -1e15, 9.0};
  std::optional<double> want;
  size_t start = 0;
  for (size_t size = 8; size >= 1; size /= 2) {
    if (start + size > leaves.size()) continue;
    std::optional<double> part = tree_sum(leaves, start, size);
    if (part) want = want ? *want + *part : *part;
    start += size;
  }
  std::vector<uint32_t> order(leaves.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  uint64_t rng = 12345;
  for (int round = 0; round < 50; ++round) {
    for (size_t i = order.size() - 1; i > 0; --i) { // Fisher-Yates with a fixed LCG
      rng = rng * 6364136223846793005ull + 1442695040888963407ull;
      std::swap(order[i], order[(rng >> 33) % (i + 1)]);
    }
    detail::PairwiseSum<double> sum;
    for (size_t i = 0; i < leaves.size(); ++i) sum.grow_locked();
    for (uint32_t i : order) {
      auto job = sum.resolve_locked(i, leaves[i]);
      while (job) {
        std::optional<double> s = job->left;
        if (job->right) s = s ? *s + *job->right : *job->right;
        job = sum.finish_locked(*job, s);
      }
    }
    std::optional<double> got;
    for (double part : sum.remaining()) got = got ? *got + part : part;
    REQUIRE(got.has_value());
    CHECK(std::bit_cast<uint64_t>(*got) == std::bit_cast<uint64_t>(*want));
  }
}
