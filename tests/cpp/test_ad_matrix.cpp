// The AD matrix, generated from the op table (docs/design/ad-contract.md "How AD is tested"): for
// every op that is not marked non-differentiable, every float dtype it accepts and every sample
// with finite inputs: JVP vs central finite differences (F64/C64), the dot-product test, second
// order (HVP both ways and finite differences of the gradient), and F32/C32 JVPs against the
// F64/C64 ones. An op without rules fails here (jvp_of raises NotDifferentiable), it is never
// skipped.
#include <catch2/catch.hpp>

#include "ad/rules/rules.hpp"
#include "ad/vjp_kernel.hpp"
#include "backend/cpu/kernels/kernels.hpp"
#include "op_samples/op_samples.hpp"
#include "support/ad_checks.hpp"

using namespace tfe;
using namespace tfe::testing;

namespace {

DType doubled(DType d) { return d == DType::F32 ? DType::F64 : DType::C64; }

} // namespace

TEST_CASE("AD matrix: every differentiable op has a JVP rule, linear ops a transpose",
          "[ad][matrix]") {
  for (const ops::OpDef& def : ops::kOpTable) {
    CAPTURE(def.name);
    const ad::Rules& r = ad::rules_for(def.code);
    CHECK(r.jvp != nullptr);
    if (def.ad == ops::AdClass::Linear && def.code != ops::OpCode::Conj &&
        def.code != ops::OpCode::Add && def.code != ops::OpCode::Sub &&
        def.code != ops::OpCode::Neg)
      CHECK(r.transpose != nullptr);
  }
}

TEST_CASE("AD matrix: finite differences, transposition and second order per op and dtype",
          "[ad][matrix]") {
  int64_t checked = 0;
  for (const ops::OpDef& def : ops::kOpTable) {
    if (def.ad == ops::AdClass::NotDiff) continue;
    auto samples = samples_for(def.code);
    REQUIRE(samples.has_value());
    for (DType d : {DType::F64, DType::C64, DType::F32, DType::C32}) {
      if (!def.accepts.contains(d)) continue;
      int index = 0;
      for (const Sample& s : samples->make(d)) {
        if (!differentiable_at(s)) continue;
        INFO(def.name << " " << dtype_name(d) << " sample " << s.label);
        OneOpProgram c = one_op_program(def, s);
        if (!is_inexact(c.program->outputs[0].meta().dtype) || c.active.empty()) continue;
        uint64_t seed = 11 + static_cast<uint64_t>(index);
        if (d == DType::F64 || d == DType::C64) {
          AdCheckResult fd = check_jvp_fd(*c.program, s.inputs, c.active, seed);
          INFO(fd.why);
          CHECK(fd.ok);
          AdCheckResult tr = check_transpose(*c.program, s.inputs, c.active, seed);
          INFO(tr.why);
          CHECK(tr.ok);
          if (index < 3) {
            AdCheckResult so = check_second_order(*c.program, s.inputs, c.active, seed);
            INFO(so.why);
            CHECK(so.ok);
          }
        } else {
          Sample s64 = s;
          for (Tensor& t : s64.inputs)
            if (is_inexact(t.dtype())) t = cpu::kernels::convert_to(t, doubled(t.dtype()));
          OneOpProgram c64 = one_op_program(def, s64);
          AdCheckResult sd =
              check_single_vs_double(*c.program, *c64.program, s.inputs, c.active, seed);
          INFO(sd.why);
          CHECK(sd.ok);
        }
        ++index;
        ++checked;
      }
    }
  }
  CHECK(checked > 300);
}

TEST_CASE("direct VJP kernels agree with linearize-then-transpose of the program",
          "[ad][vjp_kernel]") {
  int64_t checked = 0;
  for (const ops::OpDef& def : ops::kOpTable) {
    if (def.ad == ops::AdClass::NotDiff) continue;
    auto samples = samples_for(def.code);
    REQUIRE(samples.has_value());
    for (DType d : kAllDTypes) {
      if (!def.accepts.contains(d) || !is_inexact(d)) continue;
      for (const Sample& s : samples->make(d)) {
        if (!differentiable_at(s)) continue;
        INFO(def.name << " " << dtype_name(d) << " sample " << s.label);
        OneOpProgram c = one_op_program(def, s);
        const ops::Meta& ym = c.program->outputs[0].meta();
        if (!is_inexact(ym.dtype) || c.active.empty()) continue;
        std::vector<Tensor> y = run_program(*c.program, s.inputs);
        Tensor ybar = random_tensor(ym.dtype, y[0].shape(), 99);
        auto kernel =
            ad::vjp_kernel(ad::VjpKernelScope::current(), def.code, s.params, s.inputs, ybar);
        ad::Derivative v = ad::vjp(*c.program, c.active);
        std::vector<Tensor> args = s.inputs;
        args.push_back(ybar);
        std::vector<Tensor> want = run_program(*v.program, args);
        for (size_t k = 0; k < c.active.size(); ++k) {
          const auto& got = kernel[static_cast<size_t>(c.active[k])];
          CAPTURE(k);
          if (v.structurally_zero[1 + k]) {
            CHECK_FALSE(got.has_value());
            continue;
          }
          REQUIRE(got.has_value());
          std::string why;
          bool same = close(*got, want[1 + k], 1e-12, 1e-12, &why);
          INFO(why);
          CHECK(same);
        }
        ++checked;
      }
    }
  }
  CHECK(checked > 300);
  CHECK(ad::VjpKernelScope::current().stats().entries > 100);
}
