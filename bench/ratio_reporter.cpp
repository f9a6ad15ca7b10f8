// RatioReporter and the case registry (ratio_reporter.hpp).
#include "ratio_reporter.hpp"

#include <cblas.h>
#include <tenferro/tenferro.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ostream>
#include <sstream>

namespace tfe_bench {
namespace {

struct Case {
  std::string goal_id;
  std::string name;
  Goal goal;
};

std::vector<Case>& cases() {
  static std::vector<Case> all;
  return all;
}

constexpr const char* kBaseline = "baseline";
constexpr const char* kOurs = "ours";

std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

// Three significant digits with a unit between ns and s.
std::string fmt_time(double ns) {
  if (ns < 0) return "-";
  static const char* const units[] = {"ns", "us", "ms", "s"};
  int u = 0;
  double v = ns;
  while (v >= 1000 && u < 3) {
    v /= 1000;
    ++u;
  }
  const char* format = v < 10 ? "%.2f %s" : v < 100 ? "%.1f %s" : "%.0f %s";
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v, units[u]);
  return buf;
}

double to_ns(double value, benchmark::TimeUnit unit) {
  return value * 1e9 / benchmark::GetTimeUnitMultiplier(unit);
}

double median_of(std::vector<double> v) {
  if (v.empty()) return -1;
  std::sort(v.begin(), v.end());
  size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

// Coefficient of variation in percent; -1 with fewer than two values.
double cv_percent(const std::vector<double>& v) {
  if (v.size() < 2) return -1;
  double mean = 0;
  for (double x : v) mean += x;
  mean /= static_cast<double>(v.size());
  double var = 0;
  for (double x : v) var += (x - mean) * (x - mean);
  var /= static_cast<double>(v.size() - 1);
  return mean > 0 ? 100 * std::sqrt(var) / mean : -1;
}

// Google Benchmark's spelling of a true boolean flag value.
bool flag_true(const std::string& v) {
  std::string s;
  for (char c : v) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s == "true" || s == "1" || s == "yes" || s == "t" || s == "y" || s == "on";
}

} // namespace

bool Goal::met(double baseline_ns, double ours_ns) const {
  if (ours_ns < 0) return false;
  if (absolute) return ours_ns <= limit;
  if (overhead) return baseline_ns > 0 && ours_ns - baseline_ns <= limit;
  return baseline_ns > 0 && ours_ns / baseline_ns <= limit;
}

std::string Goal::text() const {
  if (absolute) return "<= " + fmt_time(limit) + " abs";
  if (overhead) return "<= base+" + fmt_time(limit);
  return "<= " + fmt("%g", limit);
}

std::pair<benchmark::internal::Benchmark*, benchmark::internal::Benchmark*>
register_case(const std::string& goal_id, const std::string& case_name, Goal goal, Body baseline,
              Body ours) {
  cases().push_back({goal_id, case_name, goal});
  const std::string prefix = goal_id + "/" + case_name + "/";
  auto* b = benchmark::RegisterBenchmark((prefix + kBaseline).c_str(), std::move(baseline));
  auto* o = benchmark::RegisterBenchmark((prefix + kOurs).c_str(), std::move(ours));
  b->UseRealTime();
  o->UseRealTime();
  return {b, o};
}

int library_threads() {
  static const int threads = [] {
    int32_t t = 0;
    return tfe_get_num_threads(&t) == TFE_OK ? static_cast<int>(t) : -1;
  }();
  return threads;
}

double RatioReporter::Side::median_ns() const {
  if (!repetitions_ns.empty()) return median_of(repetitions_ns);
  return median_aggregate_ns;
}

RatioReporter::RatioReporter(OutputOptions opts, bool interleaved, std::string ratios_json)
    : ConsoleReporter(opts), interleaved_(interleaved), ratios_json_(std::move(ratios_json)) {}

namespace {

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) out += c;
  }
  return out + "\"";
}

std::string json_number(double v) { return v < 0 ? "null" : fmt("%.6g", v); }

} // namespace

void RatioReporter::write_json(const std::vector<Row>& rows) const {
  std::FILE* f = std::fopen(ratios_json_.c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "ratio table: cannot write %s\n", ratios_json_.c_str());
    return;
  }
  std::string text = "{\n  \"context\": " + json_string(header()) +
                     ",\n  \"interleaved\": " + (interleaved_ ? "true" : "false") +
                     ",\n  \"cases\": [";
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    double ratio = r.baseline_ns > 0 && r.ours_ns >= 0 ? r.ours_ns / r.baseline_ns : -1;
    text += std::string(i ? "," : "") + "\n    {\"goal_id\": " + json_string(r.goal_id) +
            ", \"case\": " + json_string(r.name) +
            ", \"baseline_ns\": " + json_number(r.baseline_ns) +
            ", \"ours_ns\": " + json_number(r.ours_ns) + ", \"ratio\": " + json_number(ratio) +
            ", \"goal\": " + json_string(r.goal) + ", \"result\": " + json_string(r.result) +
            ", \"cv_baseline_percent\": " + json_number(r.cv_baseline) +
            ", \"cv_ours_percent\": " + json_number(r.cv_ours) + "}";
  }
  text += "\n  ]\n}\n";
  std::fputs(text.c_str(), f);
  std::fclose(f);
}

std::string RatioReporter::header() const {
  std::ostringstream s;
  s << "tenferro " << tfe_version() << ": library threads " << library_threads()
    << " (tfe_get_num_threads), OpenBLAS threads " << openblas_get_num_threads() << ", core "
    << openblas_get_corename() << ", CPUs " << num_cpus_;
  return s.str();
}

bool RatioReporter::ReportContext(const Context& context) {
  num_cpus_ = context.cpu_info.num_cpus;
  GetOutputStream() << header() << "\n";
  return ConsoleReporter::ReportContext(context);
}

void RatioReporter::ReportRuns(const std::vector<Run>& reports) {
  std::vector<Run> shown;
  for (const Run& r : reports) {
    Side& side = sides_[r.run_name.function_name];
    if (r.error_occurred) {
      side.error = r.error_message;
    } else if (r.run_type == Run::RT_Iteration) {
      side.repetitions_ns.push_back(to_ns(r.GetAdjustedRealTime(), r.time_unit));
    } else if (r.aggregate_name == "median") {
      side.median_aggregate_ns = to_ns(r.GetAdjustedRealTime(), r.time_unit);
    }
    // Console: single runs, errors and the median/cv aggregates; the JSON file keeps all.
    if (r.error_occurred || r.repetitions <= 1 ||
        (r.run_type == Run::RT_Aggregate &&
         (r.aggregate_name == "median" || r.aggregate_name == "cv")))
      shown.push_back(r);
  }
  if (!shown.empty()) ConsoleReporter::ReportRuns(shown);
}

void RatioReporter::Finalize() {
  ConsoleReporter::Finalize();
  std::ostream& out = GetOutputStream();
  size_t width = 4;
  size_t reps = 0;
  for (const Case& c : cases()) width = std::max(width, c.name.size());
  for (const auto& [name, side] : sides_) reps = std::max(reps, side.repetitions_ns.size());

  out << "\n== ratios (ours/baseline) of median real times, " << reps << " repetition"
      << (reps == 1 ? "" : "s") << (interleaved_ ? ", interleaved" : ", NOT interleaved") << " ==\n"
      << header() << "\n";
  char line[512];
  std::snprintf(line, sizeof line, "%-4s %-*s %11s %11s %9s  %-14s %-6s %s", "goal",
                static_cast<int>(width), "case", "baseline", "ours", "ratio", "goal", "result",
                "cv% b/o");
  out << line << "\n";
  int ok = 0, miss = 0, missing = 0;
  std::vector<Row> rows;
  for (const Case& c : cases()) {
    const std::string prefix = c.goal_id + "/" + c.name + "/";
    auto b_it = sides_.find(prefix + kBaseline);
    auto o_it = sides_.find(prefix + kOurs);
    if (b_it == sides_.end() && o_it == sides_.end()) continue; // filtered out
    static const Side none;
    const Side& b = b_it == sides_.end() ? none : b_it->second;
    const Side& o = o_it == sides_.end() ? none : o_it->second;
    double bt = b.median_ns(), ot = o.median_ns();
    std::string ratio = bt > 0 && ot >= 0 ? fmt("%.3f", ot / bt) : "-";
    std::string result;
    if (!b.error.empty() || !o.error.empty()) {
      result = "error: " + (o.error.empty() ? b.error : o.error);
      ++missing;
    } else if (ot < 0 || (!c.goal.absolute && bt < 0)) {
      result = "n/a";
      ++missing;
    } else if (c.goal.met(bt, ot)) {
      result = "ok";
      ++ok;
    } else {
      result = "miss";
      ++miss;
    }
    double bcv = cv_percent(b.repetitions_ns), ocv = cv_percent(o.repetitions_ns);
    std::string cv = bcv < 0 || ocv < 0 ? "-" : fmt("%.0f", bcv) + "/" + fmt("%.0f", ocv);
    std::snprintf(line, sizeof line, "%-4s %-*s %11s %11s %9s  %-14s %-6s %s", c.goal_id.c_str(),
                  static_cast<int>(width), c.name.c_str(), fmt_time(bt).c_str(),
                  fmt_time(ot).c_str(), ratio.c_str(), c.goal.text().c_str(), result.c_str(),
                  cv.c_str());
    out << line << "\n";
    rows.push_back({c.goal_id, c.name, c.goal.text(), result, bt, ot, bcv, ocv});
  }
  if (!ratios_json_.empty()) write_json(rows);
  out << "summary: " << ok << " ok, " << miss << " miss";
  if (missing) out << ", " << missing << " without a result";
  out << std::endl;
}

int run(int argc, char** argv) {
  library_threads(); // capture the default before any case changes it
  static char interleave[] = "--benchmark_enable_random_interleaving=true";
  static char repetitions[] = "--benchmark_repetitions=9";
  std::vector<char*> args{argv[0], interleave, repetitions};
  // --ratios_json is ours: taken out before Google Benchmark sees the flags.
  const std::string json_flag = "--ratios_json=";
  const char* env_json = std::getenv("TFE_BENCH_RATIOS_JSON");
  std::string ratios_json = env_json ? env_json : "";
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]).rfind(json_flag, 0) == 0)
      ratios_json = argv[i] + json_flag.size();
    else
      args.push_back(argv[i]);
  }

  bool interleaved = false;
  const std::string flag = "--benchmark_enable_random_interleaving";
  for (char* a : args) {
    std::string s = a;
    if (s == flag)
      interleaved = true;
    else if (s.rfind(flag + "=", 0) == 0)
      interleaved = flag_true(s.substr(flag.size() + 1));
  }

  int n = static_cast<int>(args.size());
  args.push_back(nullptr);
  benchmark::Initialize(&n, args.data());
  if (benchmark::ReportUnrecognizedArguments(n, args.data())) return 1;

  // The header's facts also go into the JSON context (for comparisons across commits).
  benchmark::AddCustomContext("tfe_version", tfe_version());
  benchmark::AddCustomContext("tfe_library_threads", std::to_string(library_threads()));
  benchmark::AddCustomContext("openblas_threads", std::to_string(openblas_get_num_threads()));
  benchmark::AddCustomContext("openblas_corename", openblas_get_corename());
  benchmark::AddCustomContext("interleaved", interleaved ? "true" : "false");

  RatioReporter reporter(isatty(STDOUT_FILENO) ? RatioReporter::OO_Color : RatioReporter::OO_None,
                         interleaved, ratios_json);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}

tfe_context* bench_context() {
  static tfe_context* ctx = [] {
    tfe_context* c = nullptr;
    CHECK_TFE(tfe_context_create(&c));
    return c;
  }();
  return ctx;
}

} // namespace tfe_bench
