// Ratio benchmarks (docs/performance.md): every case registers a
// `baseline` and an `ours` benchmark on identical inputs; RatioReporter prints the usual console
// output (aggregates only) and then one line per case with ratio = ours/baseline of the median
// real times, the goal and ok/miss. A bench file registers its cases from main and calls run():
//
//   int main(int argc, char** argv) {
//     tfe_bench::register_case("G1", "gemm_n256", tfe_bench::Goal::ratio(1.05), baseline, ours);
//     return tfe_bench::run(argc, argv);
//   }
//
// run() defaults to --benchmark_enable_random_interleaving=true and --benchmark_repetitions=9
// (later command-line flags override them); --benchmark_out=FILE --benchmark_out_format=json
// writes every repetition as usual. --ratios_json=FILE (or the environment variable
// TFE_BENCH_RATIOS_JSON) also writes the ratio table as JSON, one object per case, which
// tools/plot_bench.py draws.
#pragma once

#include <benchmark/benchmark.h>
#include <tenferro/tenferro.h>

#include <cstdio>
#include <cstdlib>

#include <functional>
#include <map>
#include <string>
#include <vector>

// Benchmark setup through the C ABI: a failing call aborts with the library's message.
#define CHECK_TFE(call)                                                                            \
  do {                                                                                             \
    if ((call) != TFE_OK) {                                                                        \
      std::fprintf(stderr, "%s: %s\n", #call, tfe_last_error_message());                           \
      std::abort();                                                                                \
    }                                                                                              \
  } while (0)

namespace tfe_bench {

// A case's goal: on ratio = ours/baseline, on our absolute median time, or on our overhead
// (ours - baseline) in nanoseconds.
struct Goal {
  bool absolute = false;
  double limit = 0; // a ratio, or nanoseconds when absolute or overhead
  bool overhead = false;

  static Goal ratio(double max_ratio) { return {false, max_ratio}; }
  static Goal at_most_ns(double max_ns) { return {true, max_ns}; }
  static Goal overhead_at_most_ns(double max_ns) { return {false, max_ns, true}; }
  bool met(double baseline_ns, double ours_ns) const;
  std::string text() const;
};

using Body = std::function<void(benchmark::State&)>;

// Registers "<goal_id>/<case_name>/baseline" and ".../ours" (real time) and the table row.
// Returns the two benchmarks (baseline, ours) for further settings.
std::pair<benchmark::internal::Benchmark*, benchmark::internal::Benchmark*>
register_case(const std::string& goal_id, const std::string& case_name, Goal goal, Body baseline,
              Body ours);

// One context for a whole bench executable (created on first use, never released).
tfe_context* bench_context();

// The library's thread budget when the process started (tfe_get_num_threads), before any case
// changed it. Cases that are not about threads should run with it.
int library_threads();

// Console output plus the ratio table (printed by Finalize).
class RatioReporter : public benchmark::ConsoleReporter {
public:
  RatioReporter(OutputOptions opts, bool interleaved, std::string ratios_json = "");

  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& reports) override;
  void Finalize() override;

  // The header line: library threads, OpenBLAS threads and core, CPU count.
  std::string header() const;

private:
  struct Side {
    std::vector<double> repetitions_ns; // per-repetition real time per iteration
    double median_aggregate_ns = -1;    // benchmark's "median" aggregate, when reported
    std::string error;
    double median_ns() const; // of the repetitions; else the aggregate; -1 if none
  };
  // One case's row of the ratio table.
  struct Row {
    std::string goal_id, name, goal, result;
    double baseline_ns = -1, ours_ns = -1, cv_baseline = -1, cv_ours = -1;
  };
  void write_json(const std::vector<Row>& rows) const;

  bool interleaved_;
  std::string ratios_json_; // file for the table as JSON; empty: none
  int num_cpus_ = 0;
  std::map<std::string, Side> sides_; // by function name ("G1/gemm_n256/ours")
};

// Adds the default flags, initializes Google Benchmark, runs every registered case with a
// RatioReporter and shuts down. Returns the process exit code (misses do not fail).
int run(int argc, char** argv);

} // namespace tfe_bench
