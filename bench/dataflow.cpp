// Dataflow-engine benchmarks, each against a baseline in the same process:
//   D1 a scalar Var op, forward + reverse, in a 3000-op graph (<= 1 us per op; the published
//      engine takes ~4 us and ~2.4 KB per op), on the debug scheduler and on 1- and 2-thread
//      pools; the baseline is the same chain and its chain-rule derivative in plain doubles.
//      The heap held per op while a graph waits for its seed is printed (goal 512 B).
//   D2 a pruned dead branch (one op never seeded: forward, then its reverse task cancelled)
//      (<= 1 us; the published engine throws an exception per pruned task, ~11 us).
//   D3 scheduling a task and running it through the scheduler vs creating and resuming the same
//      coroutine by hand (overhead <= 0.2 us per task).
//   D4 forward + reverse of a 20-op chain on 1e6 elements in a dataflow context vs the same with
//      eager deferred AD (<= 1.2x), both through the C ABI.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <thread>
#include <vector>

#include "dataflow/dataflow.hpp"
#include "chains.hpp"
#include "ratio_reporter.hpp"

// Heap accounting for the memory line of D1: bytes handed out and not yet returned, counted
// only on the measuring thread (a shared counter would slow every threaded case down).
namespace {
thread_local bool t_counting = false;
thread_local long long t_live_bytes = 0;
} // namespace
void* operator new(std::size_t n) {
  if (t_counting) t_live_bytes += static_cast<long long>(n);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p, std::size_t n) noexcept {
  if (t_counting) t_live_bytes -= static_cast<long long>(n);
  std::free(p);
}
void operator delete(void* p) noexcept { std::free(p); } // unsized: not counted (rare here)

namespace {

using namespace tfe::dataflow;
using tfe_bench::chain20;

constexpr int kSteps = 1000; // 3 ops per step

// y = sin(y) * 0.999 + x, kSteps times; returns dL/dx for L = y.
double var_chain(double x0) {
  Var<double> x = x0;
  Var<double> y = x0;
  for (int i = 0; i < kSteps; ++i) y = sin(y) * 0.999 + x;
  y.seed();
  return x.grad.get_wait();
}

// The same chain and its forward-mode derivative in plain doubles.
double plain_chain(double x0) {
  double y = x0, dy = 1.0;
  for (int i = 0; i < kSteps; ++i) {
    dy = std::cos(y) * 0.999 * dy + 1.0;
    y = std::sin(y) * 0.999 + x0;
  }
  return dy;
}

void d1_plain(benchmark::State& state) {
  double x = 0.3;
  for (auto _ : state) benchmark::DoNotOptimize(plain_chain(x));
}

template <class S> void d1_var(benchmark::State& state, S& scheduler) {
  ScopedScheduler scope(scheduler);
  for (auto _ : state) benchmark::DoNotOptimize(var_chain(0.3));
}

// The heap a graph of kSteps * 3 ops holds while it waits for its seed, per op, measured on a
// fresh thread (its block cache starts empty, so every frame is a fresh allocation).
double bytes_per_waiting_op() {
  double per_op = 0;
  std::thread t([&] {
    DebugScheduler debug;
    ScopedScheduler scope(debug);
    Var<double> x = 0.3;
    Var<double> y = 0.3;
    debug.run_all();
    t_counting = true;
    for (int i = 0; i < kSteps; ++i) y = sin(y) * 0.999 + x;
    debug.run_all(); // forwards done; reverse tasks wait for the seed
    t_counting = false;
    // Freed forward frames wait in the block cache for reuse: not held by the graph.
    long long held = t_live_bytes - static_cast<long long>(detail::cache_held_bytes());
    per_op = static_cast<double>(held) / (3.0 * kSteps);
    y.seed();
    benchmark::DoNotOptimize(x.grad.get_wait());
  });
  t.join();
  return per_op;
}

// D2: one live op (sin(x), seeded) vs one live op plus `dead` pruned ones.
void dead_branches(benchmark::State& state, int dead) {
  DebugScheduler debug;
  ScopedScheduler scope(debug);
  for (auto _ : state) {
    Var<double> x = 0.3;
    Var<double> y = sin(x);
    for (int i = 0; i < dead; ++i) Var<double> unused = cos(x); // never seeded: pruned
    y.seed();
    benchmark::DoNotOptimize(x.grad.get_wait());
    debug.run_all();
  }
}

// D3: a trivial coroutine task, resumed by hand or run by a scheduler.
Task tiny(int* counter) {
  ++*counter;
  co_return;
}

void d3_bare(benchmark::State& state) {
  int counter = 0;
  for (auto _ : state) {
    TaskPromise* p = tiny(&counter).release();
    p->handle().resume();
    p->handle().destroy();
  }
  benchmark::DoNotOptimize(counter);
}

template <class S> void d3_scheduled(benchmark::State& state, S& scheduler) {
  ScopedScheduler scope(scheduler);
  int counter = 0;
  for (auto _ : state) {
    schedule(tiny(&counter));
    scheduler.run_all();
  }
  benchmark::DoNotOptimize(counter);
}

// D4: the 20-op chain of bench/chains.hpp on n elements, forward + backward + the gradient.

void chain_fwd_bwd(benchmark::State& state, tfe_context* ctx, int64_t n) {
  tfe_tensor *base = nullptr, *seed = nullptr;
  CHECK_TFE(tfe_random_uniform(&base, ctx, TFE_F64, 1, &n, 3, -1, 1));
  CHECK_TFE(tfe_ones(&seed, ctx, TFE_F64, 1, &n));
  for (auto _ : state) {
    tfe_tensor *x = nullptr, *g = nullptr;
    CHECK_TFE(tfe_tensor_detach(&x, base));
    CHECK_TFE(tfe_tensor_set_requires_grad(x, 1));
    tfe_tensor* y = chain20(x);
    CHECK_TFE(tfe_backward(y, seed));
    CHECK_TFE(tfe_tensor_grad(&g, x));
    tfe_tensor_release(g);
    tfe_tensor_release(y);
    tfe_tensor_release(x);
  }
  tfe_tensor_release(seed);
  tfe_tensor_release(base);
}

} // namespace

int main(int argc, char** argv) {
  using tfe_bench::Goal;
  using tfe_bench::register_case;
  std::printf("D1 memory: %.0f bytes per scalar op while the graph waits for its seed (goal 512)\n",
              bytes_per_waiting_op());

  static DebugScheduler debug;
  static ThreadPoolScheduler pool1(1), pool2(2);
  const double per_chain_goal = 3.0 * kSteps * 1000; // 1 us per op
  register_case("D1", "scalar_op_x3000_debug", Goal::at_most_ns(per_chain_goal), d1_plain,
                [](benchmark::State& s) { d1_var(s, debug); });
  register_case("D1", "scalar_op_x3000_pool1", Goal::at_most_ns(per_chain_goal), d1_plain,
                [](benchmark::State& s) { d1_var(s, pool1); });
  register_case("D1", "scalar_op_x3000_pool2", Goal::at_most_ns(per_chain_goal), d1_plain,
                [](benchmark::State& s) { d1_var(s, pool2); });
  register_case(
      "D2", "dead_branch_x1000", Goal::overhead_at_most_ns(1000.0 * 1000),
      [](benchmark::State& s) { dead_branches(s, 0); },
      [](benchmark::State& s) { dead_branches(s, 1000); });
  register_case("D3", "schedule_vs_resume_debug", Goal::overhead_at_most_ns(200), d3_bare,
                [](benchmark::State& s) { d3_scheduled(s, debug); });
  register_case("D3", "schedule_vs_resume_pool1", Goal::overhead_at_most_ns(200), d3_bare,
                [](benchmark::State& s) { d3_scheduled(s, pool1); });

  static tfe_context* eager = nullptr;
  static tfe_context* flow = nullptr;
  CHECK_TFE(tfe_context_create(&eager));
  CHECK_TFE(tfe_context_create_dataflow(&flow, TFE_SCHEDULER_THREADS, 0));
  register_case(
      "D4", "fwd_bwd_chain20_n1e6", Goal::ratio(1.2),
      [](benchmark::State& s) { chain_fwd_bwd(s, eager, 1000000); },
      [](benchmark::State& s) { chain_fwd_bwd(s, flow, 1000000); });
  return tfe_bench::run(argc, argv);
}
