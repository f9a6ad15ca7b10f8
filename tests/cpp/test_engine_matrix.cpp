// The engine matrix: every differentiable op of the op table and every linalg function, in every
// float dtype it accepts, on each of its samples (the shape classes of its group: rank 0,
// vectors, batched and broadcast operands for the core ops; square, tall, wide, batched with
// broadcasting and rank-deficient inputs for linalg), with the differentiated inputs tracked
// directly or reaching the function through reshape, pad and slice, or concatenate, and the
// other inputs untracked in either operand position. The eager engine's vjp, backward, jvp,
// forward-over-reverse and reverse-over-reverse must equal the traced program's derivatives, and
// the dataflow engine's gradients too (support/engine_checks.hpp), and in double precision the
// traced derivative of each case's composite equals central finite differences (second order
// and transposition are checked by test_ad_matrix.cpp and test_linalg_ad.cpp on the samples).
#include <catch2/catch.hpp>

#include <set>

#include "linalg/functions.hpp"
#include "op_samples/linalg_samples.hpp"
#include "op_samples/op_samples.hpp"
#include "support/engine_checks.hpp"

using namespace tfe;
using namespace tfe::testing;

namespace {

EngineFunction op_function(const ops::OpDef& def, const ops::Params& params) {
  ops::OpCode code = def.code;
  return engine_function(std::string(def.name), [code, params](const auto& in) {
    using V = typename std::decay_t<decltype(in)>::value_type;
    return std::vector<V>{emit(code, std::span<const V>(in), params)};
  });
}

bool is_double(DType d) { return d == DType::F64 || d == DType::C64; }

// Runs one sample through every variant of the matrix: all differentiated inputs tracked
// directly (with second order and the dataflow engine), each one alone (the others untracked,
// so every operand order occurs), and through each provenance (double precision; `provenances`
// limits it to the first samples of an op to keep the suite fast).
void run_variants(const EngineFunction& f, const std::vector<Tensor>& inputs, bool second_order,
                  bool provenances, double tol, uint64_t seed, EngineCounts& counts) {
  std::vector<bool> active;
  size_t n_active = 0;
  for (const Tensor& t : inputs) {
    active.push_back(is_inexact(t.dtype()));
    n_active += active.back();
  }
  if (n_active == 0) return;
  const bool dbl = is_double(inputs[0].dtype()) || !is_inexact(inputs[0].dtype());
  auto run = [&](EngineCase c, const std::string& what) {
    INFO(what);
    AdCheckResult r = check_engines(c, &counts);
    INFO(r.why);
    CHECK(r.ok);
    if (!dbl) return;
    // The composite itself (provenance ops, then the function) against central differences.
    TracedCase t = traced_case(c);
    std::vector<int64_t> all;
    for (size_t k = 0; k < t.leaves.size(); ++k) all.push_back(static_cast<int64_t>(k));
    AdCheckResult fd = check_jvp_fd(*t.program, t.leaves, all, c.seed);
    INFO(fd.why);
    CHECK(fd.ok);
  };
  EngineCase all{&f,   inputs,           active, Provenance::Direct, second_order && dbl,
                 true, dbl ? tol : 1e-5, seed};
  run(all, "every inexact input tracked");
  if (!dbl) return;
  if (n_active > 1)
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (!active[i]) continue;
      EngineCase one = all;
      one.active.assign(inputs.size(), false);
      one.active[i] = true;
      one.second_order = false;
      one.dataflow = false;
      run(one, "only input " + std::to_string(i) + " tracked");
    }
  if (!provenances) return;
  for (Provenance p : {Provenance::Reshape, Provenance::PadSlice, Provenance::Concatenate}) {
    bool applies = true;
    for (size_t i = 0; i < inputs.size(); ++i)
      if (active[i]) applies &= provenance_applies(p, inputs[i].shape());
    if (!applies) continue;
    EngineCase q = all;
    q.provenance = p;
    q.dataflow = false;
    run(q, std::string("tracked inputs ") + provenance_name(p));
  }
}

} // namespace

TEST_CASE("engine matrix: every differentiable op, every engine", "[engines][matrix]") {
  EngineCounts counts;
  int64_t ops_covered = 0;
  for (const ops::OpDef& def : ops::kOpTable) {
    if (def.ad == ops::AdClass::NotDiff) continue;
    auto samples = samples_for(def.code);
    REQUIRE(samples.has_value()); // an op without samples fails here, it is never skipped
    bool covered = false;
    for (DType d : {DType::F64, DType::C64, DType::F32, DType::C32}) {
      if (!def.accepts.contains(d)) continue;
      int index = 0;
      for (const Sample& s : samples->make(d)) {
        if (!differentiable_at(s)) continue;
        OneOpProgram one = one_op_program(def, s);
        if (!is_inexact(one.program->outputs[0].meta().dtype) || one.active.empty()) continue;
        INFO(def.name << " " << dtype_name(d) << " sample " << s.label);
        EngineFunction f = op_function(def, s.params);
        run_variants(f, s.inputs, index < 3, index < 2, 1e-12, 17 + static_cast<uint64_t>(index),
                     counts);
        ++index;
        covered = true;
      }
    }
    CAPTURE(def.name);
    CHECK(covered);
    ops_covered += covered;
  }
  WARN("engine matrix (core ops): " << ops_covered << " ops, " << counts.cases << " cases, "
                                    << counts.requests << " derivative comparisons");
  CHECK(counts.cases > 1000);
}

TEST_CASE("engine matrix: every linalg function, every engine", "[engines][matrix][linalg]") {
  EngineCounts counts;
  std::set<std::string> rows_run;
  for (const LinalgCase& c : linalg_cases()) {
    for (DType d : {DType::F64, DType::C64, DType::F32, DType::C32}) {
      uint64_t index = 0;
      for (const LinalgSample& s : c.samples(d)) {
        INFO(c.function.name << " " << dtype_name(d) << " " << s.label);
        run_variants(c.function, s.inputs, c.second_order, index < 2, 1e-12, 23 + index, counts);
        ++index;
        rows_run.insert(c.c_function);
      }
    }
  }
  for (const linalg::FunctionRow& r : linalg::kFunctions) { // every row, in every engine
    CAPTURE(r.c_name);
    CHECK(rows_run.count(std::string(r.c_name)) == 1);
  }
  WARN("engine matrix (linalg): " << linalg_cases().size() << " functions and variants, "
                                  << counts.cases << " cases, " << counts.requests
                                  << " derivative comparisons");
  CHECK(counts.cases > 500);
}
