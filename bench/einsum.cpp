// einsum benchmarks, through the C ABI, each against direct OpenBLAS calls doing the same
// contraction in the best order in the same process:
//   N1 a 3-matrix chain "ij,jk,kl->il" where the order matters (1000x50, 50x1000, 1000x1000):
//      two dgemm calls, right pair first (goal <= 1.10);
//   N2 a batched product "ij...,jk...->ik..." of 256 64x64 matrices vs a loop of dgemm (<= 1.25);
//   N3 a two-index contraction "abc,bcd->ad" (256x32x32 with 32x32x256) vs one dgemm over the
//      flattened indices (<= 1.10);
//   N4 a tiny "ij,jk->ik" (8x8): the fixed cost of parsing (cached plan), promotion and dispatch,
//      as overhead over one dgemm (goal: at most 5 us).
//   N5 a chain of five matrices of mixed sizes "ab,bc,cd,de,ef->af" (1200x80, 80x1800, 1800x60,
//      60x1600, 1600x1000): four dgemm calls in the cheapest order, ((A (B C)) (D E)) (<= 1.10);
//   N6 an MPS transfer-matrix step "ac,asb,csd->bd" (environment [64,64], site tensor [64,2,64]
//      entering twice; real, so without a conjugation): two dgemm calls (<= 1.25);
//   N7 a ring of four tensors "abp,bcq,cdp,daq->" (bond 16, physical 8, physical legs contracted
//      between opposite sites): two permutations, two dgemm calls and a permuted dot (<= 1.50);
//   N8 a batched outer product "bi,bj->bij" (128x128 with 128x128) vs a vectorised loop (<= 1.25);
//   N9 a trace "ii->" of a 2000x2000 matrix vs a strided loop (overhead at most 5 us).
// Before timing, each case's result is compared with its baseline's, and the path tfe_einsum_path
// reports is printed with its flops (docs/einsum.md's cost model) next to the baseline's.
#include <cblas.h>
#include <tenferro/tenferro.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "ratio_reporter.hpp"

namespace {

using benchmark::State;
using tfe_bench::Goal;

std::vector<double> random_vector(int64_t n, uint64_t seed) {
  std::vector<double> v(static_cast<size_t>(n));
  for (double& x : v) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    x = static_cast<double>(seed >> 11) / 9007199254740992.0 - 0.5;
  }
  return v;
}

tfe_tensor* tensor(const std::vector<double>& v, std::vector<int64_t> shape) {
  tfe_tensor* t = nullptr;
  CHECK_TFE(tfe_tensor_from_data(&t, tfe_bench::bench_context(), TFE_F64,
                                 static_cast<int32_t>(shape.size()), shape.data(), nullptr,
                                 v.data()));
  return t;
}

void set_threads(State& state) {
  if (tfe_set_num_threads(tfe_bench::library_threads()) != TFE_OK)
    state.SkipWithError(tfe_last_error_message());
}

void gemm(int m, int n, int k, const double* a, const double* b, double* c) {
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, a, m, b, k, 0.0, c, m);
}

// One einsum case: its operands as data and tensors, and the subscripts.
struct Case {
  std::string subscripts;
  std::vector<std::vector<int64_t>> shapes;
  std::vector<std::vector<double>> data;
  std::vector<tfe_tensor*> tensors; // owned for the process (benchmarks never release them)

  Case(std::string s, std::vector<std::vector<int64_t>> sh) : subscripts(std::move(s)), shapes(sh) {
    uint64_t seed = 17;
    for (const auto& shape : shapes) {
      int64_t n = 1;
      for (int64_t e : shape) n *= e;
      data.push_back(random_vector(n, seed++));
      tensors.push_back(tensor(data.back(), shape));
    }
  }
};

// Ours: the whole einsum (the plan comes from the context's cache after the first call).
void ours(State& state, Case& c) {
  set_threads(state);
  for (auto _ : state) {
    tfe_tensor* out = nullptr;
    if (tfe_einsum(&out, c.subscripts.c_str(), static_cast<int32_t>(c.tensors.size()),
                   c.tensors.data()) != TFE_OK) {
      state.SkipWithError(tfe_last_error_message());
      break;
    }
    tfe_tensor_release(out);
  }
}

// ---- N1: a chain where order matters: (1000x50)(50x1000)(1000x1000) -> A (B C) ----
Case& chain() {
  static Case c("ij,jk,kl->il", {{1000, 50}, {50, 1000}, {1000, 1000}});
  return c;
}
void chain_baseline(State& state) {
  set_threads(state);
  Case& c = chain();
  std::vector<double> bc(50 * 1000), out(1000 * 1000);
  for (auto _ : state) {
    gemm(50, 1000, 1000, c.data[1].data(), c.data[2].data(), bc.data());
    gemm(1000, 1000, 50, c.data[0].data(), bc.data(), out.data());
    benchmark::ClobberMemory();
  }
}

// ---- N2: a batch of 256 products of 64x64 matrices ----
Case& batched() {
  static Case c("ij...,jk...->ik...", {{64, 64, 256}, {64, 64, 256}});
  return c;
}
void batched_baseline(State& state) {
  set_threads(state);
  Case& c = batched();
  std::vector<double> out(64 * 64 * 256);
  for (auto _ : state) {
    for (int b = 0; b < 256; ++b)
      gemm(64, 64, 64, c.data[0].data() + b * 4096, c.data[1].data() + b * 4096,
           out.data() + b * 4096);
    benchmark::ClobberMemory();
  }
}

// ---- N3: contract two indices at once: [256,32,32] x [32,32,256] -> [256,256] ----
Case& two_index() {
  static Case c("abc,bcd->ad", {{256, 32, 32}, {32, 32, 256}});
  return c;
}
void two_index_baseline(State& state) {
  set_threads(state);
  Case& c = two_index();
  std::vector<double> out(256 * 256);
  for (auto _ : state) {
    gemm(256, 256, 1024, c.data[0].data(), c.data[1].data(), out.data());
    benchmark::ClobberMemory();
  }
}

// ---- N4: a tiny product: the fixed cost of an einsum call ----
Case& tiny() {
  static Case c("ij,jk->ik", {{8, 8}, {8, 8}});
  return c;
}
void tiny_baseline(State& state) {
  set_threads(state);
  Case& c = tiny();
  std::vector<double> out(64);
  for (auto _ : state) {
    gemm(8, 8, 8, c.data[0].data(), c.data[1].data(), out.data());
    benchmark::ClobberMemory();
  }
}

// The result of einsum equals the baseline's (checked once before timing).
void check_chain() {
  Case& c = chain();
  std::vector<double> bc(50 * 1000), want(1000 * 1000), got(1000 * 1000);
  gemm(50, 1000, 1000, c.data[1].data(), c.data[2].data(), bc.data());
  gemm(1000, 1000, 50, c.data[0].data(), bc.data(), want.data());
  tfe_tensor* out = nullptr;
  CHECK_TFE(tfe_einsum(&out, c.subscripts.c_str(), 3, c.tensors.data()));
  CHECK_TFE(tfe_tensor_to_data(out, got.data(), static_cast<int64_t>(got.size() * 8)));
  tfe_tensor_release(out);
  for (size_t i = 0; i < got.size(); ++i)
    if (std::fabs(got[i] - want[i]) > 1e-9 * (1 + std::fabs(want[i]))) {
      std::fprintf(stderr, "einsum chain differs from dgemm at %zu\n", i);
      std::abort();
    }
}

// ---- N5..N9: each case's baseline writes the result (column-major, the einsum's output order)
// into `out`; the timed baseline calls it, and verify() compares it with einsum once. ----

using Compute = std::function<void(std::vector<double>& out)>;

void gemm_t(int m, int n, int k, const double* a, const double* b, double* c) {
  // a is stored k x m (its transpose is used): contracts a's leading dim.
  cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, m, n, k, 1.0, a, k, b, k, 0.0, c, m);
}

void timed_baseline(State& state, const Compute& f, size_t out_size) {
  set_threads(state);
  std::vector<double> out(out_size);
  for (auto _ : state) {
    f(out);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
}

// The einsum's result equals the baseline's (relative to the result's scale), and the path.
void verify(const char* id, Case& c, const Compute& f, size_t out_size, double baseline_flops) {
  std::vector<double> want(out_size), got(out_size);
  f(want);
  tfe_tensor* out = nullptr;
  CHECK_TFE(tfe_einsum(&out, c.subscripts.c_str(), static_cast<int32_t>(c.tensors.size()),
                       c.tensors.data()));
  CHECK_TFE(tfe_tensor_to_data(out, got.data(), static_cast<int64_t>(got.size() * 8)));
  tfe_tensor_release(out);
  double scale = 0;
  for (double w : want) scale = std::fmax(scale, std::fabs(w));
  for (size_t i = 0; i < got.size(); ++i)
    if (std::fabs(got[i] - want[i]) > 1e-10 * (1 + scale)) {
      std::fprintf(stderr, "%s: einsum differs from the baseline at %zu (%g vs %g)\n", id, i,
                   got[i], want[i]);
      std::abort();
    }
  std::vector<int64_t> pairs(2 * c.tensors.size());
  int32_t steps = 0, optimal = 0;
  double flops = 0, largest = 0;
  CHECK_TFE(tfe_einsum_path(
      c.subscripts.c_str(), static_cast<int32_t>(c.tensors.size()), c.tensors.data(), pairs.data(),
      static_cast<int64_t>(pairs.size() * sizeof(int64_t)), &steps, &flops, &largest, &optimal));
  std::string path;
  for (int32_t s = 0; s < steps; ++s) {
    // snprintf rather than string concatenation: GCC 12 at -O3 warns falsely (-Wrestrict) on
    // "(" + std::string.
    char step[48];
    std::snprintf(step, sizeof step, "(%lld,%lld)",
                  static_cast<long long>(pairs[2 * static_cast<size_t>(s)]),
                  static_cast<long long>(pairs[2 * static_cast<size_t>(s) + 1]));
    path += step;
  }
  std::printf("%s %-24s path %-22s flops %.4g (baseline's order %.4g) largest %.4g%s\n", id,
              c.subscripts.c_str(), path.empty() ? "-" : path.c_str(), flops, baseline_flops,
              largest, optimal ? " optimal" : " greedy");
}

// N5: A [1200,80], B [80,1800], C [1800,60], D [60,1600], E [1600,1000].
Case& chain5() {
  static Case c("ab,bc,cd,de,ef->af",
                {{1200, 80}, {80, 1800}, {1800, 60}, {60, 1600}, {1600, 1000}});
  return c;
}
void chain5_compute(std::vector<double>& out) {
  static std::vector<double> bc(80 * 60), abc(1200 * 60), de(60 * 1000);
  Case& c = chain5();
  gemm(80, 60, 1800, c.data[1].data(), c.data[2].data(), bc.data());
  gemm(1200, 60, 80, c.data[0].data(), bc.data(), abc.data());
  gemm(60, 1000, 1600, c.data[3].data(), c.data[4].data(), de.data());
  gemm(1200, 1000, 60, abc.data(), de.data(), out.data());
}
constexpr double kChain5Flops =
    2.0 * (80 * 1800 * 60 + 1200 * 80 * 60 + 60 * 1600 * 1000 + 1200.0 * 60 * 1000);

// N6: out[b,d] = sum_{a,c,s} E[a,c] A[a,s,b] A[c,s,d] as T = E^T A (T[c,s,b]), out = T^T A
// with (c,s) flattened: in column-major storage both are plain matrix views.
Case& mps() {
  static Case c("ac,asb,csd->bd", {{64, 64}, {64, 2, 64}, {64, 2, 64}});
  return c;
}
void mps_compute(std::vector<double>& out) {
  static std::vector<double> t(64 * 2 * 64);
  Case& c = mps();
  gemm_t(64, 128, 64, c.data[0].data(), c.data[1].data(), t.data());
  gemm_t(64, 64, 128, t.data(), c.data[2].data(), out.data());
}
constexpr double kMpsFlops = 2.0 * (64 * 64 * 2 * 64) * 2;

// N7: X[a,p,c,q] = sum_b T1[a,b,p] T2[b,c,q], Y[c,p,a,q] = sum_d T3[c,d,p] T4[d,a,q], then
// sum X[a,p,c,q] Y[c,p,a,q]. T1 and T3 are permuted to put the contracted bond last.
constexpr int kRingD = 16, kRingP = 8;
Case& ring() {
  static Case c("abp,bcq,cdp,daq->", {{kRingD, kRingD, kRingP},
                                      {kRingD, kRingD, kRingP},
                                      {kRingD, kRingD, kRingP},
                                      {kRingD, kRingD, kRingP}});
  return c;
}
void ring_compute(std::vector<double>& out) {
  constexpr int D = kRingD, P = kRingP, M = D * P;
  static std::vector<double> t1(D * D * P), t3(D * D * P), x(M * M), y(M * M);
  Case& c = ring();
  auto permute = [&](const std::vector<double>& in, std::vector<double>& dst) {
    for (int p = 0; p < P; ++p) // in[a,b,p] -> dst[a,p,b]
      for (int b = 0; b < D; ++b)
        for (int a = 0; a < D; ++a) dst[a + D * p + M * b] = in[a + D * b + D * D * p];
  };
  permute(c.data[0], t1);
  permute(c.data[2], t3);
  gemm(M, M, D, t1.data(), c.data[1].data(), x.data());
  gemm(M, M, D, t3.data(), c.data[3].data(), y.data());
  double s = 0;
  for (int q = 0; q < P; ++q)
    for (int cc = 0; cc < D; ++cc)
      for (int p = 0; p < P; ++p)
        for (int a = 0; a < D; ++a)
          s += x[a + D * p + M * (cc + D * q)] * y[cc + D * p + M * (a + D * q)];
  out[0] = s;
}
constexpr double kRingFlops = 2.0 * (2.0 * kRingD * kRingD * kRingD * kRingP * kRingP) +
                              2.0 * kRingD * kRingD * kRingP * kRingP;

// N8: out[b,i,j] = x[b,i] y[b,j].
constexpr int kOuterB = 128, kOuterN = 128;
Case& outer() {
  static Case c("bi,bj->bij", {{kOuterB, kOuterN}, {kOuterB, kOuterN}});
  return c;
}
void outer_compute(std::vector<double>& out) {
  Case& c = outer();
  const double* x = c.data[0].data();
  const double* y = c.data[1].data();
  for (int j = 0; j < kOuterN; ++j)
    for (int i = 0; i < kOuterN; ++i) {
      double* o = out.data() + static_cast<size_t>(kOuterB) * (i + kOuterN * j);
      const double* xi = x + kOuterB * i;
      const double* yj = y + kOuterB * j;
      for (int b = 0; b < kOuterB; ++b) o[b] = xi[b] * yj[b];
    }
}

// N9: the trace of a 2000x2000 matrix.
Case& trace() {
  static Case c("ii->", {{2000, 2000}});
  return c;
}
void trace_compute(std::vector<double>& out) {
  const double* m = trace().data[0].data();
  double s = 0;
  for (int i = 0; i < 2000; ++i) s += m[static_cast<size_t>(i) * 2001];
  out[0] = s;
}

struct Extra {
  const char* id;
  const char* name;
  Goal goal;
  Case& (*make)();
  void (*compute)(std::vector<double>&);
  size_t out_size;
  double flops;
};

} // namespace

int main(int argc, char** argv) {
  using tfe_bench::register_case;
  check_chain();
  register_case("N1", "chain3_1000x50x1000x1000", Goal::ratio(1.10), chain_baseline,
                [](State& s) { ours(s, chain()); });
  register_case("N2", "batched_64x64x256", Goal::ratio(1.25), batched_baseline,
                [](State& s) { ours(s, batched()); });
  register_case("N3", "two_index_256x32x32", Goal::ratio(1.10), two_index_baseline,
                [](State& s) { ours(s, two_index()); });
  register_case("N4", "tiny_8x8", Goal::overhead_at_most_ns(5000), tiny_baseline,
                [](State& s) { ours(s, tiny()); });
  static const Extra extras[] = {
      {"N5", "chain5_mixed", Goal::ratio(1.10), chain5, chain5_compute, 1200 * 1000, kChain5Flops},
      {"N6", "mps_transfer_64x2", Goal::ratio(1.25), mps, mps_compute, 64 * 64, kMpsFlops},
      {"N7", "ring4_bond16_phys8", Goal::ratio(1.50), ring, ring_compute, 1, kRingFlops},
      {"N8", "batched_outer_128x128x128", Goal::ratio(1.25), outer, outer_compute,
       size_t{kOuterB} * kOuterN * kOuterN, 0},
      {"N9", "trace_2000", Goal::overhead_at_most_ns(5000), trace, trace_compute, 1, 0},
  };
  for (const Extra& e : extras) {
    verify(e.id, e.make(), e.compute, e.out_size, e.flops);
    register_case(
        e.id, e.name, e.goal, [&e](State& s) { timed_baseline(s, e.compute, e.out_size); },
        [&e](State& s) { ours(s, e.make()); });
  }
  return tfe_bench::run(argc, argv);
}
