// Linalg derivatives through the program transforms (docs/design/ad-contract.md "How AD is
// tested"), for every case of the linalg catalog (op_samples/linalg_samples.hpp) and each of its
// shape classes: JVP vs central finite differences and the dot-product test in F64/C64 with two
// seeds, second order (HVP both ways and finite differences of the gradient), and F32/C32 JVPs
// against F64/C64. Every linalg row has cases (test_linalg_registry.cpp), so this covers every
// public linalg function.
#include <catch2/catch.hpp>

#include "op_samples/linalg_samples.hpp"
#include "support/ad_checks.hpp"

using namespace tfe;
using namespace tfe::testing;

namespace {

DType doubled(DType d) { return d == DType::F32 ? DType::F64 : DType::C64; }

graph::ProgramPtr program_of(const LinalgCase& c, const std::vector<Tensor>& inputs) {
  std::vector<graph::Value> args;
  for (const Tensor& t : inputs) args.push_back(graph::argument(t.dtype(), Shape(t.shape())));
  return graph::make_program(args, c.function(args));
}

std::vector<int64_t> every_input(const std::vector<Tensor>& in) {
  std::vector<int64_t> all;
  for (size_t i = 0; i < in.size(); ++i) all.push_back(static_cast<int64_t>(i));
  return all;
}

} // namespace

TEST_CASE("linalg AD: finite differences, transposition and second order per case",
          "[linalg][ad]") {
  int64_t checked = 0;
  for (const LinalgCase& c : linalg_cases()) {
    for (DType d : {DType::F64, DType::C64}) {
      for (const LinalgSample& s : c.samples(d)) {
        INFO(c.function.name << " " << dtype_name(d) << " " << s.label);
        graph::ProgramPtr p = program_of(c, s.inputs);
        std::vector<int64_t> all = every_input(s.inputs);
        for (uint64_t seed : {1u, 2u}) {
          AdCheckResult fd = check_jvp_fd(*p, s.inputs, all, seed);
          INFO(fd.why);
          CHECK(fd.ok);
          AdCheckResult tr = check_transpose(*p, s.inputs, all, seed, c.transpose_tol);
          INFO(tr.why);
          CHECK(tr.ok);
        }
        if (c.second_order) {
          AdCheckResult so = check_second_order(*p, s.inputs, all, 3);
          INFO(so.why);
          CHECK(so.ok);
        }
        ++checked;
      }
    }
    for (DType d : {DType::F32, DType::C32}) {
      std::vector<LinalgSample> single = c.samples(d), dbl = c.samples(doubled(d));
      for (size_t k = 0; k < single.size(); ++k) {
        INFO(c.function.name << " " << dtype_name(d) << " " << single[k].label);
        AdCheckResult r =
            check_single_vs_double(*program_of(c, single[k].inputs), *program_of(c, dbl[k].inputs),
                                   single[k].inputs, every_input(single[k].inputs), 3);
        INFO(r.why);
        CHECK(r.ok);
      }
    }
  }
  CHECK(checked > 150);
}
