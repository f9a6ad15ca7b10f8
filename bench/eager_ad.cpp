// Eager-AD benchmarks, all through the C ABI, each against the same work untracked in
// the same process:
//   E1 a recorded op on one-element tensors vs the same op untracked (<= 1.5x, and <= 1 us);
//   E2 forward + backward of a chain of 20 one-element ops (<= 4 us per op: 80 us; PyTorch 1.13
//      takes about 4 us per op, see bench/eager_ad_torch.py for the same-process comparison);
//   E3 forward + backward of that chain on 1e6 elements vs the untracked forward (<= 2.0x);
//   E4 that forward + backward with elementwise fusion of the derivative programs vs without
//      (TFE_FUSION=0), both in this process (<= 0.8x).
#include <tenferro/tenferro.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "chains.hpp"
#include "ratio_reporter.hpp"

namespace {

using tfe_bench::bench_context;
using tfe_bench::chain20;

tfe_tensor* random_vector(int64_t n, uint64_t seed, bool tracked) {
  tfe_tensor* t = nullptr;
  CHECK_TFE(tfe_random_uniform(&t, bench_context(), TFE_F64, 1, &n, seed, -1, 1));
  if (tracked) CHECK_TFE(tfe_tensor_set_requires_grad(t, 1));
  return t;
}

// E1: y = a * b of one-element tensors, a tracked or not.
void one_op(benchmark::State& state, bool tracked) {
  static tfe_tensor* plain = random_vector(1, 1, false);
  static tfe_tensor* variable = random_vector(1, 1, true);
  static tfe_tensor* b = random_vector(1, 2, false);
  tfe_tensor* a = tracked ? variable : plain;
  for (auto _ : state) {
    tfe_tensor* y = nullptr;
    CHECK_TFE(tfe_mul(&y, a, b));
    tfe_tensor_release(y);
  }
}
void untracked_op(benchmark::State& s) { one_op(s, false); }
void tracked_op(benchmark::State& s) { one_op(s, true); }

// The 20-op chain of n elements: forward only, untracked; or forward recorded + backward (the
// seed is all ones; the gradient is cleared each time so accumulation does not grow).
void forward(benchmark::State& state, int64_t n) {
  tfe_tensor* x = random_vector(n, 3, false);
  for (auto _ : state) tfe_tensor_release(chain20(x));
  tfe_tensor_release(x);
}

void forward_backward(benchmark::State& state, int64_t n) {
  tfe_tensor* x = random_vector(n, 3, true);
  tfe_tensor* seed = nullptr;
  CHECK_TFE(tfe_ones(&seed, bench_context(), TFE_F64, 1, &n));
  for (auto _ : state) {
    tfe_tensor* y = chain20(x);
    CHECK_TFE(tfe_backward(y, n == 1 ? nullptr : seed));
    tfe_tensor_release(y);
    CHECK_TFE(tfe_tensor_clear_grad(x));
  }
  tfe_tensor_release(seed);
  tfe_tensor_release(x);
}

// Runs forward_backward with TFE_FUSION set to `value` (compiled programs are cached per setting).
void forward_backward_with(benchmark::State& state, const char* value) {
  const char* before = std::getenv("TFE_FUSION");
  std::string saved = before ? before : "";
  setenv("TFE_FUSION", value, 1);
  forward_backward(state, 1000000);
  if (before)
    setenv("TFE_FUSION", saved.c_str(), 1);
  else
    unsetenv("TFE_FUSION");
}
void fb_unfused(benchmark::State& s) { forward_backward_with(s, "0"); }
void fb_fused(benchmark::State& s) { forward_backward_with(s, "1"); }

} // namespace

int main(int argc, char** argv) {
  using tfe_bench::Goal;
  using tfe_bench::register_case;
  register_case("E1", "tracked_mul_1elem", Goal::ratio(1.5), untracked_op, tracked_op);
  register_case("E1", "tracked_mul_1elem_abs", Goal::at_most_ns(1000), untracked_op, tracked_op);
  auto fwd1 = [](benchmark::State& s) { forward(s, 1); };
  auto fb1 = [](benchmark::State& s) { forward_backward(s, 1); };
  register_case("E2", "fwd_bwd_chain20_1elem", Goal::at_most_ns(20 * 4000), fwd1, fb1);
  auto fwd = [](benchmark::State& s) { forward(s, 1000000); };
  auto fb = [](benchmark::State& s) { forward_backward(s, 1000000); };
  register_case("E3", "fwd_bwd_chain20_n1e6", Goal::ratio(2.0), fwd, fb);
  register_case("E4", "fwd_bwd_chain20_n1e6_fused", Goal::ratio(0.8), fb_unfused, fb_fused);
  return tfe_bench::run(argc, argv);
}
