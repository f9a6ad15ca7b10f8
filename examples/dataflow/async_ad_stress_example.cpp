// The stress program of the dataflow engine (src/dataflow/): per iteration, a random
// chain of scalar Var ops from a leaf x, plus discarded branches that succeed, discarded branches
// that fail, and one observed failing branch. Checked invariants:
// - the value and dL/dx agree with a forward-mode chain rule in plain doubles to within
//   256 * eps * depth (relative), and have exactly the bits of the same iteration run on the
//   deterministic DebugScheduler;
// - every discarded forward ran: exactly iterations * dead-branches successes and
//   iterations * failing-branches failures;
// - no discarded reverse body was entered (pruning happens before the body);
// - the observed failing branch rethrows its original exception type, message and branch id.
//
//   async_ad_stress_example --threads=4 --iterations=10 --depth=16 --dead-branches=32
//                           --failing-branches=8 --seed=20
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "dataflow/dataflow.hpp"

using namespace tfe::dataflow;

namespace {

struct Options {
  int threads = 4;
  int iterations = 10;
  int depth = 16;
  int dead_branches = 32;
  int failing_branches = 8;
  uint64_t seed = 20;
};

struct Counters {
  std::atomic<long> forward_ok{0};     // discarded forwards that completed
  std::atomic<long> forward_failed{0}; // discarded forwards that threw
  std::atomic<long> reverse_entered{0};
};

struct BranchError : std::runtime_error {
  BranchError(int id) : std::runtime_error("branch " + std::to_string(id) + " failed"), id(id) {}
  int id;
};

Task branch_forward(ReadBuffer<double> x, WriteBuffer<double> y, int fail_id, Counters* c) {
  double v = co_await x;
  x.release();
  if (fail_id >= 0) {
    c->forward_failed.fetch_add(1, std::memory_order_relaxed);
    throw BranchError(fail_id);
  }
  double out = 0.5 * v + 1.0;
  co_await y;
  y.set(out);
  c->forward_ok.fetch_add(1, std::memory_order_relaxed);
}

Task branch_reverse(ReadBuffer<double> ybar, GradSink<double> xbar, Counters* c) {
  double g = co_await ybar;
  ybar.release();
  c->reverse_entered.fetch_add(1, std::memory_order_relaxed);
  xbar.put(0.5 * g);
}

// y = 0.5 x + 1 as a custom op (the seed's way) whose forward fails when fail_id >= 0.
Var<double> branch(Var<double>& x, int fail_id, Counters* c) {
  Var<double> y;
  schedule(branch_forward(x.value.read(), y.value.write(), fail_id, c), "branch.forward");
  schedule(branch_reverse(y.grad.input(), x.grad.output(y.grad), c), "branch.reverse");
  return y;
}

struct Result {
  double value = 0, grad = 0;         // from the engine
  double ref_value = 0, ref_grad = 0; // forward-mode chain rule in plain doubles
  bool observed_failure_ok = false;
  std::string observed_failure;
};

// One iteration; everything random comes from `rng` (so both schedulers build the same graph).
Result run_iteration(const Options& o, uint64_t iteration_seed, int observed_id, Counters* c) {
  std::mt19937_64 rng(iteration_seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const double x0 = 0.2 + unit(rng);
  Var<double> x = x0;
  x.set_label("x");
  std::vector<Var<double>> chain; // every intermediate stays named: sealing closes them
  chain.emplace_back(x);          // a linking copy: its gradient flows on into x
  double v = x0, d = 1.0;
  for (int k = 0; k < o.depth; ++k) {
    Var<double>& y = chain.back();
    const int op = static_cast<int>(rng() % 5);
    const double a = 0.5 + unit(rng);
    Var<double> next;
    switch (op) {
    case 0: // sin
      next = sin(y);
      d *= std::cos(v);
      v = std::sin(v);
      break;
    case 1: { // a * tanh(y)
      next = tanh(y) * a;
      double t = std::tanh(v);
      d *= a * (1 - t * t);
      v = a * t;
      break;
    }
    case 2: // y * x (fan-in on x)
      next = y * x;
      d = d * x0 + v;
      v = v * x0;
      break;
    case 3: { // sqrt(y * y + a)
      next = sqrt(y * y + a);
      double s = std::sqrt(v * v + a);
      d *= v / s;
      v = s;
      break;
    }
    default: // y / (1 + x)
      next = y / (1.0 + x);
      d = d / (1 + x0) - v / ((1 + x0) * (1 + x0));
      v = v / (1 + x0);
      break;
    }
    chain.push_back(std::move(next));
  }
  for (int b = 0; b < o.dead_branches; ++b) {
    Var<double>& from = chain[static_cast<size_t>(rng() % chain.size())];
    Var<double> dead = sin(branch(from, -1, c)) * 2.0; // discarded unseeded
  }
  for (int b = 0; b < o.failing_branches; ++b) {
    Var<double>& from = chain[static_cast<size_t>(rng() % chain.size())];
    Var<double> dead = exp(branch(from, b, c)); // discarded: its failure is never observed
  }
  Result r;
  {
    Counters observed_counters; // not part of the discarded counts
    Var<double> observed = branch(chain[chain.size() / 2], observed_id, &observed_counters) + x;
    try {
      (void)observed.value.get_wait();
      r.observed_failure = "no exception";
    } catch (const BranchError& e) {
      r.observed_failure_ok =
          e.id == observed_id &&
          std::string(e.what()) == "branch " + std::to_string(observed_id) + " failed";
      r.observed_failure = e.what();
    }
  }
  Var<double>& loss = chain.back();
  loss.seed();
  r.grad = x.grad.get_wait();
  r.value = loss.value.get_wait();
  r.ref_value = v;
  r.ref_grad = d;
  return r;
}

bool parse(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    size_t eq = arg.find('=');
    if (eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
    } else if (i + 1 < argc) {
      value = argv[++i];
    }
    char* end = nullptr;
    long long n = std::strtoll(value.c_str(), &end, 10);
    if (value.empty() || *end != '\0' || n < 0) {
      std::fprintf(stderr, "async_ad_stress_example: bad value '%s' for %s\n", value.c_str(),
                   arg.c_str());
      return false;
    }
    if (arg == "--threads" && n >= 1)
      o.threads = static_cast<int>(n);
    else if (arg == "--iterations")
      o.iterations = static_cast<int>(n);
    else if (arg == "--depth" && n >= 1)
      o.depth = static_cast<int>(n);
    else if (arg == "--dead-branches")
      o.dead_branches = static_cast<int>(n);
    else if (arg == "--failing-branches")
      o.failing_branches = static_cast<int>(n);
    else if (arg == "--seed")
      o.seed = static_cast<uint64_t>(n);
    else {
      std::fprintf(stderr,
                   "async_ad_stress_example: unknown option %s=%s (options: --threads>=1 "
                   "--iterations --depth>=1 --dead-branches --failing-branches --seed)\n",
                   arg.c_str(), value.c_str());
      return false;
    }
  }
  return true;
}

} // namespace

int main(int argc, char** argv) {
  Options o;
  if (!parse(argc, argv, o)) return 2;
  Counters counters;
  Counters debug_counters;
  ThreadPoolScheduler pool(o.threads);
  int failures = 0;
  double worst = 0;
  const double tolerance = 256 * std::numeric_limits<double>::epsilon() * o.depth;
  for (int it = 0; it < o.iterations; ++it) {
    const uint64_t iteration_seed = o.seed * 1000003u + static_cast<uint64_t>(it);
    const int observed_id = 1000 + it;
    Result threaded, debug;
    {
      ScopedScheduler scope(pool);
      threaded = run_iteration(o, iteration_seed, observed_id, &counters);
      pool.run_all(); // every discarded forward has finished
    }
    {
      DebugScheduler deterministic;
      ScopedScheduler scope(deterministic);
      debug = run_iteration(o, iteration_seed, observed_id, &debug_counters);
      deterministic.run_all();
    }
    auto rel = [](double got, double want) {
      return std::abs(got - want) / std::max(1.0, std::abs(want));
    };
    double ev = rel(threaded.value, threaded.ref_value);
    double eg = rel(threaded.grad, threaded.ref_grad);
    worst = std::max({worst, ev, eg});
    bool same_bits =
        std::bit_cast<uint64_t>(threaded.value) == std::bit_cast<uint64_t>(debug.value) &&
        std::bit_cast<uint64_t>(threaded.grad) == std::bit_cast<uint64_t>(debug.grad);
    if (ev > tolerance || eg > tolerance || !same_bits || !threaded.observed_failure_ok) {
      ++failures;
      std::printf("iteration %d FAILED: value %.17g (chain rule %.17g), grad %.17g (chain rule "
                  "%.17g), debug scheduler bits %s, observed failure '%s'\n",
                  it, threaded.value, threaded.ref_value, threaded.grad, threaded.ref_grad,
                  same_bits ? "equal" : "DIFFER", threaded.observed_failure.c_str());
    }
  }
  const long want_ok = static_cast<long>(o.iterations) * o.dead_branches;
  const long want_failed = static_cast<long>(o.iterations) * o.failing_branches;
  auto check_count = [&](const char* what, long got, long want) {
    if (got == want) return;
    ++failures;
    std::printf("FAILED: %s = %ld, expected %ld\n", what, got, want);
  };
  check_count("discarded forwards completed", counters.forward_ok, want_ok);
  check_count("discarded forwards failed", counters.forward_failed, want_failed);
  check_count("discarded reverse bodies entered", counters.reverse_entered, 0);
  SchedulerStats stats = pool.stats();
  std::printf("async_ad_stress_example: threads=%d iterations=%d depth=%d dead-branches=%d "
              "failing-branches=%d seed=%llu\n",
              o.threads, o.iterations, o.depth, o.dead_branches, o.failing_branches,
              static_cast<unsigned long long>(o.seed));
  std::printf("  worst relative error %.3g (bound %.3g); discarded forwards: %ld completed, %ld "
              "failed; discarded reverse bodies entered: %ld\n",
              worst, tolerance, counters.forward_ok.load(), counters.forward_failed.load(),
              counters.reverse_entered.load());
  std::printf("  pool: %llu tasks, %llu turns, %llu completed, %llu cancelled\n",
              static_cast<unsigned long long>(stats.scheduled),
              static_cast<unsigned long long>(stats.turns),
              static_cast<unsigned long long>(stats.completed),
              static_cast<unsigned long long>(stats.cancelled));
  std::printf("stress: %s\n", failures == 0 ? "OK" : "FAILED");
  return failures == 0 ? 0 : 1;
}
