// The cost of the C++ layer (include/tenferro/tenferro.hpp) over the C ABI, on the call where it
// weighs most against the work done: the add of two one-element F64 tensors.
//   C1 add_1elem: ours = `tfe::Tensor c = a + b` (status check, RAII release), baseline = the
//      raw tfe_add and tfe_tensor_release it wraps (<= 1.1x).
// Both sides use the same operands in the same process; bench/run.sh runs it interleaved.
#include <tenferro/tenferro.hpp>

#include "ratio_reporter.hpp"

namespace {

using tfe_bench::Goal;

struct Operands {
  tfe::Context ctx;
  tfe::Tensor a = tfe::scalar(ctx, 1.5).contiguous();
  tfe::Tensor b = tfe::scalar(ctx, 2.25).contiguous();
};

// Shared by both sides and never released: the operands outlive every benchmark.
const Operands& operands() {
  static const Operands* o = new Operands();
  return *o;
}

void raw_c(benchmark::State& state) {
  const tfe_tensor* a = operands().a.get();
  const tfe_tensor* b = operands().b.get();
  for (auto _ : state) {
    tfe_tensor* c = nullptr;
    CHECK_TFE(tfe_add(&c, a, b));
    benchmark::DoNotOptimize(c);
    tfe_tensor_release(c);
  }
}

void cxx_header(benchmark::State& state) {
  const tfe::Tensor& a = operands().a;
  const tfe::Tensor& b = operands().b;
  for (auto _ : state) {
    tfe::Tensor c = a + b;
    benchmark::DoNotOptimize(c.get());
  }
}

} // namespace

int main(int argc, char** argv) {
  if ((operands().a + operands().b).item<double>() != 3.75) {
    std::fprintf(stderr, "bench_cxx_overhead: wrong sum\n");
    return 1;
  }
  tfe_bench::register_case("C1", "add_1elem", Goal::ratio(1.1), raw_c, cxx_header);
  return tfe_bench::run(argc, argv);
}
