// The op matrix, generated from the op table: for every op and every dtype it accepts, each
// sample runs through the CPU kernel and is compared with the straightforward reference; every
// strided re-layout of the inputs must give the identical result; unaccepted dtypes, wrong
// arities and every labelled constraint must fail with their status.
#include <catch2/catch.hpp>

#include "backend/cpu/kernel.hpp"
#include "op_samples/op_samples.hpp"

using namespace tfe;
using namespace tfe::testing;

namespace {

std::vector<ops::Meta> metas_of(const std::vector<Tensor>& in) {
  std::vector<ops::Meta> m;
  for (const Tensor& t : in) m.push_back({t.dtype(), t.shape()});
  return m;
}

std::vector<std::string> labels_of(std::string_view constraints) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < constraints.size()) {
    size_t j = constraints.find(' ', i);
    if (j == std::string_view::npos) j = constraints.size();
    if (j > i) out.emplace_back(constraints.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

} // namespace

TEST_CASE("every op has samples, a reference, and an error sample per constraint label",
          "[ops][completeness]") {
  for (const ops::OpDef& def : ops::kOpTable) {
    CAPTURE(def.name);
    auto s = samples_for(def.code);
    REQUIRE(s.has_value());
    REQUIRE(s->make);
    REQUIRE(s->reference);
    std::vector<ErrorSample> errors = s->errors ? s->errors() : std::vector<ErrorSample>{};
    for (const std::string& label : labels_of(def.constraints)) {
      CAPTURE(label);
      bool covered = false;
      for (const ErrorSample& e : errors) covered |= e.label == label;
      CHECK(covered);
    }
    for (DType d : kAllDTypes)
      if (def.accepts.contains(d)) {
        CAPTURE(dtype_name(d));
        CHECK_FALSE(s->make(d).empty());
      }
    CHECK(cpu::kernel_for(def.code) != nullptr);
    CHECK(def.infer != nullptr); // not checkable in the consteval table check under UBSan
  }
}

TEST_CASE("op matrix: every op and accepted dtype matches its reference", "[ops][matrix]") {
  for (const ops::OpDef& def : ops::kOpTable) {
    auto s = samples_for(def.code);
    if (!s) continue; // the completeness test fails for it
    for (DType d : kAllDTypes) {
      if (!def.accepts.contains(d)) continue;
      for (const Sample& smp : s->make(d)) {
        INFO(def.name << " " << dtype_name(d) << " sample " << smp.label << " params "
                      << ops::to_string(smp.params));
        auto metas = metas_of(smp.inputs);
        ops::ConcreteMeta out = ops::concrete(ops::infer_meta(def.code, metas, smp.params));
        Tensor got = cpu::execute(def.code, smp.inputs, smp.params);
        CHECK(got.dtype() == out.dtype);
        CHECK(got.shape() == out.shape);
        Tensor want = s->reference(smp, out);
        std::string why;
        double rtol = default_rtol(out.dtype) * s->rtol_scale;
        bool ok = close(got, want, rtol, rtol * 1e-3, &why);
        INFO(why);
        CHECK(ok);
        for (int variant = 0; variant < kNumRelayouts; ++variant) {
          std::vector<Tensor> in;
          for (const Tensor& t : smp.inputs) in.push_back(relayout(t, variant));
          Tensor again = cpu::execute(def.code, in, smp.params);
          std::string why2;
          INFO("relayout variant " << variant);
          bool same = s->layout_exact ? identical(again, got, &why2)
                                      : close(again, got, rtol, rtol * 1e-3, &why2);
          INFO(why2);
          CHECK(same);
        }
      }
    }
  }
}

TEST_CASE("op matrix: unaccepted dtypes, wrong arity and constraint violations fail",
          "[ops][errors]") {
  for (const ops::OpDef& def : ops::kOpTable) {
    auto s = samples_for(def.code);
    if (!s) continue;
    // Each unaccepted dtype on the value operands of the first valid sample.
    DType good = DType::F64;
    for (DType d : kAllDTypes)
      if (def.accepts.contains(d)) {
        good = d;
        break;
      }
    std::vector<Sample> valid = s->make(good);
    if (!valid.empty() && def.value_operands != 0) {
      for (DType bad : kAllDTypes) {
        if (def.accepts.contains(bad)) continue;
        std::vector<ops::Meta> metas = metas_of(valid[0].inputs);
        for (size_t i = 0; i < metas.size(); ++i)
          if (def.is_value_operand(i)) metas[i].dtype = bad;
        INFO(def.name << " with " << dtype_name(bad));
        try {
          ops::infer_meta(def.code, metas, valid[0].params);
          FAIL("accepted an unaccepted dtype");
        } catch (const Error& e) {
          CHECK(e.status() == Status::DtypeMismatch);
        }
      }
      // One operand too many (variadic ops have no upper bound).
      if (def.max_inputs >= 0) {
        std::vector<ops::Meta> metas = metas_of(valid[0].inputs);
        metas.push_back(metas.empty() ? ops::Meta{good, {}} : metas.back());
        INFO(def.name << " with an extra operand");
        try {
          ops::infer_meta(def.code, metas, valid[0].params);
          FAIL("accepted a wrong arity");
        } catch (const Error& e) {
          CHECK(e.status() == Status::InvalidArgument);
          CHECK_THAT(e.message(), Catch::Contains("operands"));
        }
      }
    }
    if (!s->errors) continue;
    for (const ErrorSample& e : s->errors()) {
      INFO(def.name << " error sample " << e.label << ": expects '" << e.substring << "'");
      try {
        cpu::execute(def.code, e.inputs, e.params);
        FAIL("no error");
      } catch (const Error& err) {
        INFO("got: " << err.message());
        CHECK(err.status() == e.status);
        CHECK_THAT(err.message(), Catch::Contains(e.substring)); // the constraint's own words
        CHECK_THAT(err.message(), !Catch::Contains("(C"));       // labels are not the user's words
      }
    }
  }
}
