// bench_core: the core goals G1-G7 (ours = through the C ABI, baseline = direct OpenBLAS or a
// raw loop compiled with the kernels' flags), on identical inputs in one process. Run with
// bench/run.sh; the ratio table at the end is what issue notes quote.
//
// Names are "<goal>/<case>/{baseline,ours}"; every side builds its inputs outside the timed loop
// and shares them with the other side of its case. Results are checked once against a reference
// (G5 against a plain transpose, since its baseline is memcpy). G1-G6 run with the library's
// default thread budget; G7 compares a budget of 1 (baseline) with 2 (ours).
#include <cblas.h>
#include <tenferro/tenferro.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "ratio_reporter.hpp"

namespace {

using benchmark::State;
using tfe_bench::Goal;

tfe_context* g_ctx = nullptr;

// Owns one tensor reference.
class Tensor {
public:
  Tensor() = default;
  explicit Tensor(tfe_tensor* t) : t_(t) {}
  Tensor(const Tensor&) = delete;
  Tensor& operator=(const Tensor&) = delete;
  ~Tensor() { tfe_tensor_release(t_); }
  tfe_tensor* get() const { return t_; }
  tfe_tensor** out() {
    tfe_tensor_release(t_);
    t_ = nullptr;
    return &t_;
  }

private:
  tfe_tensor* t_ = nullptr;
};

// Turns a failed call into an error string ("" on success).
std::string failed(tfe_status s) { return s == TFE_OK ? std::string() : tfe_last_error_message(); }

std::vector<double> random_vector(int64_t n, uint64_t seed, double low, double high) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> dist(low, high);
  std::vector<double> v(static_cast<size_t>(n));
  for (double& x : v) x = dist(gen);
  return v;
}

std::string from_data(Tensor& t, const std::vector<double>& v, std::vector<int64_t> shape) {
  return failed(tfe_tensor_from_data(t.out(), g_ctx, TFE_F64, static_cast<int32_t>(shape.size()),
                                     shape.data(), nullptr, v.data()));
}

std::string to_vector(const tfe_tensor* t, std::vector<double>& v, int64_t n) {
  v.assign(static_cast<size_t>(n), 0.0);
  return failed(tfe_tensor_to_data(t, v.data(), n * static_cast<int64_t>(sizeof(double))));
}

// Largest |x - y| / max(1, |y|).
double max_rel_diff(const std::vector<double>& x, const std::vector<double>& y) {
  double d = 0;
  for (size_t i = 0; i < x.size(); ++i)
    d = std::max(d, std::abs(x[i] - y[i]) / std::max(1.0, std::abs(y[i])));
  return d;
}

void set_threads(State& state, int threads) {
  if (tfe_set_num_threads(threads) != TFE_OK) state.SkipWithError(tfe_last_error_message());
}

// Inside the timed loop: stops it with the library's message when a call failed.
#define TFE_BENCH_CALL(state, call)                                                                \
  if ((call) != TFE_OK) {                                                                          \
    (state).SkipWithError(tfe_last_error_message());                                               \
    break;                                                                                         \
  }

// ---- the raw baselines (compiled with -O3, like the kernels; not inlined, so that n stays a
// run-time value as it is for the library) ----

[[gnu::noinline]] void raw_add(const double* a, const double* b, double* c, int64_t n) {
  for (int64_t i = 0; i < n; ++i) c[i] = a[i] + b[i];
}

[[gnu::noinline]] void raw_exp(const double* x, double* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = std::exp(x[i]);
}

// Four accumulators, as a reasonable hand-written loop would use.
[[gnu::noinline]] double raw_sum(const double* x, int64_t n) {
  double acc0 = 0, acc1 = 0, acc2 = 0, acc3 = 0;
  const int64_t n4 = n - n % 4;
  for (int64_t i = 0; i < n4; i += 4) {
    acc0 += x[i];
    acc1 += x[i + 1];
    acc2 += x[i + 2];
    acc3 += x[i + 3];
  }
  for (int64_t i = n4; i < n; ++i) acc0 += x[i];
  return (acc0 + acc1) + (acc2 + acc3);
}

[[gnu::noinline]] double raw_scalar_add(double a, double b) { return a + b; }

// ---- inputs, built on first use, shared by both sides of a case ----

// Two vectors of n elements (a in [-2, 2), b in [0, 1)), their tensors, and a reused output.
struct Vectors {
  int64_t n = 0;
  std::vector<double> a, b, out;
  Tensor ta, tb;
  std::string error; // set when building or checking failed
};

// Checks once that ours and the baselines agree, so both sides time the same computation.
std::string check_vectors(Vectors& v) {
  std::vector<double> want(v.a.size()), got;
  Tensor r;
  if (auto e = failed(tfe_add(r.out(), v.ta.get(), v.tb.get())); !e.empty()) return e;
  if (auto e = to_vector(r.get(), got, v.n); !e.empty()) return e;
  raw_add(v.a.data(), v.b.data(), want.data(), v.n);
  if (got != want) return "tfe_add differs from the raw loop";
  if (auto e = failed(tfe_exp(r.out(), v.ta.get())); !e.empty()) return e;
  if (auto e = to_vector(r.get(), got, v.n); !e.empty()) return e;
  raw_exp(v.a.data(), want.data(), v.n);
  if (max_rel_diff(got, want) > 1e-14) return "tfe_exp differs from std::exp";
  if (auto e = failed(tfe_sum(r.out(), v.ta.get(), 0, nullptr)); !e.empty()) return e;
  if (auto e = to_vector(r.get(), got, 1); !e.empty()) return e;
  double s = raw_sum(v.a.data(), v.n);
  if (std::abs(got[0] - s) > 1e-12 * std::max(1.0, static_cast<double>(v.n)))
    return "tfe_sum differs from the raw loop";
  return {};
}

std::map<int64_t, std::unique_ptr<Vectors>>& vector_store() {
  static std::map<int64_t, std::unique_ptr<Vectors>> store;
  return store;
}

Vectors& vectors(int64_t n) {
  auto& slot = vector_store()[n];
  if (!slot) {
    slot = std::make_unique<Vectors>();
    Vectors& v = *slot;
    v.n = n;
    v.a = random_vector(n, 1000 + static_cast<uint64_t>(n), -2, 2);
    v.b = random_vector(n, 2000 + static_cast<uint64_t>(n), 0, 1);
    v.out.assign(static_cast<size_t>(n), 0.0); // touched: no page faults in the timed loop
    v.error = from_data(v.ta, v.a, {n});
    if (v.error.empty()) v.error = from_data(v.tb, v.b, {n});
    if (v.error.empty()) v.error = check_vectors(v);
  }
  return *slot;
}

// Square n x n matrices A, B (column-major), their tensors, and a reused C for dgemm.
struct Matrices {
  int64_t n = 0;
  std::vector<double> a, b, c;
  Tensor ta, tb;
  std::string error;
};

std::map<int64_t, std::unique_ptr<Matrices>>& matrix_store() {
  static std::map<int64_t, std::unique_ptr<Matrices>> store;
  return store;
}

void raw_gemm(const Matrices& m, double* c) {
  const int n = static_cast<int>(m.n);
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, m.a.data(), n, m.b.data(), n,
              0.0, c, n);
}

Matrices& matrices(int64_t n) {
  auto& slot = matrix_store()[n];
  if (!slot) {
    slot = std::make_unique<Matrices>();
    Matrices& m = *slot;
    m.n = n;
    m.a = random_vector(n * n, 3000 + static_cast<uint64_t>(n), -1, 1);
    m.b = random_vector(n * n, 4000 + static_cast<uint64_t>(n), -1, 1);
    m.c.assign(static_cast<size_t>(n * n), 0.0);
    m.error = from_data(m.ta, m.a, {n, n});
    if (m.error.empty()) m.error = from_data(m.tb, m.b, {n, n});
    if (m.error.empty()) {
      Tensor r;
      std::vector<double> got;
      m.error = failed(tfe_matmul(r.out(), m.ta.get(), m.tb.get()));
      if (m.error.empty()) m.error = to_vector(r.get(), got, n * n);
      if (m.error.empty()) {
        raw_gemm(m, m.c.data());
        if (max_rel_diff(got, m.c) > 1e-10 * static_cast<double>(n))
          m.error = "tfe_matmul differs from cblas_dgemm";
      }
    }
  }
  return *slot;
}

// ---- G1: GEMM ----

void gemm_baseline(State& state, int64_t n) {
  set_threads(state, tfe_bench::library_threads());
  Matrices& m = matrices(n);
  if (!m.error.empty()) return state.SkipWithError(m.error.c_str());
  for (auto _ : state) {
    raw_gemm(m, m.c.data());
    benchmark::ClobberMemory();
  }
}

void gemm_ours(State& state, int64_t n) {
  set_threads(state, tfe_bench::library_threads());
  Matrices& m = matrices(n);
  if (!m.error.empty()) return state.SkipWithError(m.error.c_str());
  for (auto _ : state) {
    tfe_tensor* c = nullptr;
    TFE_BENCH_CALL(state, tfe_matmul(&c, m.ta.get(), m.tb.get()));
    tfe_tensor_release(c);
  }
}

// ---- G2, G3, G4, G7: add, exp, sum ----

enum class Op { Add, Exp, Sum };

template <Op op> void op_baseline_impl(State& state, Vectors& v) {
  const int64_t n = v.n;
  const double* a = v.a.data();
  const double* b = v.b.data();
  double* c = v.out.data();
  for (auto _ : state) {
    benchmark::DoNotOptimize(a);
    benchmark::DoNotOptimize(b);
    benchmark::DoNotOptimize(c);
    if constexpr (op == Op::Add) {
      raw_add(a, b, c, n);
    } else if constexpr (op == Op::Exp) {
      raw_exp(a, c, n);
    } else {
      double s = raw_sum(a, n);
      benchmark::DoNotOptimize(s);
    }
    benchmark::ClobberMemory();
  }
}

// A fresh output per call, released each iteration (eager use).
template <Op op> void op_ours_impl(State& state, Vectors& v) {
  const tfe_tensor* a = v.ta.get();
  const tfe_tensor* b = v.tb.get();
  for (auto _ : state) {
    tfe_tensor* r = nullptr;
    tfe_status st;
    if constexpr (op == Op::Add)
      st = tfe_add(&r, a, b);
    else if constexpr (op == Op::Exp)
      st = tfe_exp(&r, a);
    else
      st = tfe_sum(&r, a, 0, nullptr);
    TFE_BENCH_CALL(state, st);
    tfe_tensor_release(r);
  }
}

// `threads` has no effect on the raw loop; it keeps the process state the same for both sides.
void op_baseline(State& state, Op op, int64_t n, int threads) {
  set_threads(state, threads);
  Vectors& v = vectors(n);
  if (!v.error.empty()) return state.SkipWithError(v.error.c_str());
  switch (op) {
  case Op::Add: return op_baseline_impl<Op::Add>(state, v);
  case Op::Exp: return op_baseline_impl<Op::Exp>(state, v);
  case Op::Sum: return op_baseline_impl<Op::Sum>(state, v);
  }
}

void op_ours(State& state, Op op, int64_t n, int threads) {
  set_threads(state, threads);
  Vectors& v = vectors(n);
  if (!v.error.empty()) return state.SkipWithError(v.error.c_str());
  switch (op) {
  case Op::Add: return op_ours_impl<Op::Add>(state, v);
  case Op::Exp: return op_ours_impl<Op::Exp>(state, v);
  case Op::Sum: return op_ours_impl<Op::Sum>(state, v);
  }
}

// ---- G5: transpose into a new compact tensor vs memcpy ----

struct Square {
  int64_t n = 0;
  std::vector<double> a, dst;
  Tensor ta;
  std::string error;
};

std::map<int64_t, std::unique_ptr<Square>>& square_store() {
  static std::map<int64_t, std::unique_ptr<Square>> store;
  return store;
}

Square& square(int64_t n) {
  auto& slot = square_store()[n];
  if (!slot) {
    slot = std::make_unique<Square>();
    Square& s = *slot;
    s.n = n;
    s.a = random_vector(n * n, 5000 + static_cast<uint64_t>(n), -1, 1);
    s.dst.assign(s.a.size(), 0.0);
    s.error = from_data(s.ta, s.a, {n, n});
    if (s.error.empty()) {
      const int64_t perm[2] = {1, 0};
      Tensor t, c;
      std::vector<double> got;
      s.error = failed(tfe_transpose(t.out(), s.ta.get(), 2, perm));
      if (s.error.empty()) s.error = failed(tfe_tensor_contiguous(c.out(), t.get()));
      if (s.error.empty()) s.error = to_vector(c.get(), got, n * n);
      for (int64_t j = 0; s.error.empty() && j < n; ++j)
        for (int64_t i = 0; i < n; ++i)
          if (got[static_cast<size_t>(i + j * n)] != s.a[static_cast<size_t>(j + i * n)]) {
            s.error = "transpose + contiguous gave wrong values";
            break;
          }
    }
  }
  return *slot;
}

void transpose_baseline(State& state, int64_t n) {
  set_threads(state, tfe_bench::library_threads());
  Square& s = square(n);
  if (!s.error.empty()) return state.SkipWithError(s.error.c_str());
  const size_t bytes = s.a.size() * sizeof(double);
  for (auto _ : state) {
    std::memcpy(s.dst.data(), s.a.data(), bytes);
    benchmark::ClobberMemory();
  }
}

void transpose_ours(State& state, int64_t n) {
  set_threads(state, tfe_bench::library_threads());
  Square& s = square(n);
  if (!s.error.empty()) return state.SkipWithError(s.error.c_str());
  const int64_t perm[2] = {1, 0};
  for (auto _ : state) {
    tfe_tensor* t = nullptr;
    tfe_tensor* c = nullptr;
    TFE_BENCH_CALL(state, tfe_transpose(&t, s.ta.get(), 2, perm));
    tfe_status st = tfe_tensor_contiguous(&c, t);
    tfe_tensor_release(t);
    TFE_BENCH_CALL(state, st);
    tfe_tensor_release(c);
  }
}

// ---- G6: per-call overhead of a one-element add ----

void scalar_baseline(State& state) {
  set_threads(state, tfe_bench::library_threads());
  double x = 1.5, y = 0.25;
  for (auto _ : state) {
    benchmark::DoNotOptimize(x);
    benchmark::DoNotOptimize(y);
    double r = raw_scalar_add(x, y);
    benchmark::DoNotOptimize(r);
  }
}

void scalar_ours(State& state) {
  set_threads(state, tfe_bench::library_threads());
  Vectors& v = vectors(1);
  if (!v.error.empty()) return state.SkipWithError(v.error.c_str());
  for (auto _ : state) {
    tfe_tensor* r = nullptr;
    TFE_BENCH_CALL(state, tfe_add(&r, v.ta.get(), v.tb.get()));
    tfe_tensor_release(r);
  }
}

std::string size_name(int64_t n) {
  int e = 0;
  int64_t m = n;
  while (m % 10 == 0 && m > 1) {
    m /= 10;
    ++e;
  }
  return m == 1 ? "1e" + std::to_string(e) : std::to_string(n);
}

void register_all() {
  using tfe_bench::register_case;
  for (int64_t n : {256, 1024, 2048})
    register_case(
        "G1", "gemm_n" + std::to_string(n), Goal::ratio(1.05),
        [n](State& s) { gemm_baseline(s, n); }, [n](State& s) { gemm_ours(s, n); });

  const int dflt = tfe_bench::library_threads();
  const int64_t big = 1000000;
  register_case(
      "G2", "add_n1e6", Goal::ratio(1.25), [=](State& s) { op_baseline(s, Op::Add, big, dflt); },
      [=](State& s) { op_ours(s, Op::Add, big, dflt); });
  register_case(
      "G3", "exp_n1e6", Goal::ratio(1.5), [=](State& s) { op_baseline(s, Op::Exp, big, dflt); },
      [=](State& s) { op_ours(s, Op::Exp, big, dflt); });
  register_case(
      "G4", "sum_n1e6", Goal::ratio(1.2), [=](State& s) { op_baseline(s, Op::Sum, big, dflt); },
      [=](State& s) { op_ours(s, Op::Sum, big, dflt); });
  register_case(
      "G5", "transpose_2048", Goal::ratio(2.0), [](State& s) { transpose_baseline(s, 2048); },
      [](State& s) { transpose_ours(s, 2048); });
  register_case("G6", "add_n1_call", Goal::at_most_ns(1000), scalar_baseline, scalar_ours);

  const struct {
    Op op;
    const char* name;
  } ops[] = {{Op::Add, "add"}, {Op::Exp, "exp"}, {Op::Sum, "sum"}};
  for (const auto& o : ops)
    for (int64_t n : {1000, 10000, 100000, 1000000}) {
      Op op = o.op;
      register_case(
          "G7", std::string(o.name) + "_n" + size_name(n) + "_t2vs1", Goal::ratio(1.05),
          [=](State& s) { op_ours(s, op, n, 1); }, [=](State& s) { op_ours(s, op, n, 2); });
    }
}

} // namespace

int main(int argc, char** argv) {
  if (tfe_context_create(&g_ctx) != TFE_OK) {
    std::fprintf(stderr, "bench_core: %s\n", tfe_last_error_message());
    return 1;
  }
  register_all();
  int rc = tfe_bench::run(argc, argv);
  benchmark::ClearRegisteredBenchmarks();
  vector_store().clear();
  matrix_store().clear();
  square_store().clear();
  tfe_context_release(g_ctx);
  return rc;
}
