// einsum benchmarks, through the C ABI, each against direct OpenBLAS calls doing the same
// contraction in the best order in the same process:
//   N1 a 3-matrix chain "ij,jk,kl->il" where the order matters (1000x50, 50x1000, 1000x1000):
//      two dgemm calls, right pair first (goal <= 1.10);
//   N2 a batched product "ij...,jk...->ik..." of 256 64x64 matrices vs a loop of dgemm (<= 1.25);
//   N3 a two-index contraction "abc,bcd->ad" (256x32x32 with 32x32x256) vs one dgemm over the
//      flattened indices (<= 1.10);
//   N4 a tiny "ij,jk->ik" (8x8): the fixed cost of parsing (cached plan), promotion and dispatch,
//      as overhead over one dgemm (goal: at most 5 us).
#include <cblas.h>
#include <tenferro/tenferro.h>

#include <cmath>
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
  return tfe_bench::run(argc, argv);
}
