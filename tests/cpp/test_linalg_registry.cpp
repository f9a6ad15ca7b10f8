// The linalg rows (ops/defs/linalg.hpp) against what they stand for: every public function of
// the C header is a row and every row is declared there; every row has samples in every float
// dtype it accepts, covering each shape class it declares (so the AD matrix of
// test_linalg_ad.cpp and test_engine_matrix.cpp, which walk the samples, covers every row); every
// kernel row names a kernel op of that arity, and every kernel op occurs in the forward or
// derivative program of some sample.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "ad/transforms.hpp"
#include "linalg/functions.hpp"
#include "linalg/ops.hpp"
#include "op_samples/linalg_samples.hpp"
#include "ops/extension.hpp"

using namespace tfe;
using namespace tfe::testing;

namespace {

std::set<std::string> header_functions() {
  std::ifstream header(TFE_SOURCE_DIR "/include/tenferro/linalg.h");
  REQUIRE(header.good());
  std::stringstream text;
  text << header.rdbuf();
  std::string s = text.str();
  std::set<std::string> out;
  std::regex fn("tfe_status (tfe_linalg_[a-z_]+)\\(");
  for (auto it = std::sregex_iterator(s.begin(), s.end(), fn); it != std::sregex_iterator(); ++it)
    if (std::string name = (*it)[1]; name.rfind("tfe_linalg_options", 0) != 0) out.insert(name);
  return out;
}

std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  std::istringstream in{std::string(s)};
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::map<std::string, std::vector<const LinalgCase*>> cases_by_function() {
  std::map<std::string, std::vector<const LinalgCase*>> out;
  for (const LinalgCase& c : linalg_cases()) out[c.c_function].push_back(&c);
  return out;
}

void collect_kernels(const graph::Program& p, std::set<std::string>& seen) {
  for (const graph::NodePtr& n : p.order)
    if (n->op == ops::OpCode::Extension)
      seen.insert(std::string(ops::extension_of(n->params).name()));
}

} // namespace

TEST_CASE("linalg rows: the rows and the C header list the same functions", "[linalg][rows]") {
  std::set<std::string> declared = header_functions(), rows;
  for (const linalg::FunctionRow& r : linalg::kFunctions) {
    CAPTURE(r.c_name);
    CHECK(rows.insert(std::string(r.c_name)).second); // no row twice
    CHECK(declared.count(std::string(r.c_name)) == 1);
    CHECK(r.c_name == "tfe_linalg_" + std::string(r.name));
    CHECK(r.outputs >= 1);
    CHECK(r.inputs >= 1);
    CHECK(!r.summary.empty());
    CHECK((r.call == linalg::CallKind::Args) == (r.sample == "Custom"));
  }
  for (const std::string& name : declared) {
    CAPTURE(name);
    CHECK(rows.count(name) == 1);
  }
  CHECK(linalg::kNumFunctions >= 30);
}

TEST_CASE("linalg rows: every row has samples covering its shape classes in every dtype",
          "[linalg][rows]") {
  auto by_function = cases_by_function();
  std::set<std::string> rows;
  for (const linalg::FunctionRow& r : linalg::kFunctions) {
    std::string c_name(r.c_name);
    rows.insert(c_name);
    CAPTURE(c_name);
    auto it = by_function.find(c_name);
    REQUIRE(it != by_function.end()); // a row without samples fails here, it is never skipped
    for (DType d : {DType::F32, DType::F64, DType::C32, DType::C64}) {
      if (!r.accepts.contains(d)) continue;
      CAPTURE(dtype_name(d));
      std::vector<std::string> labels;
      for (const LinalgCase* c : it->second) {
        std::vector<LinalgSample> samples = c->samples(d);
        CHECK(!samples.empty());
        for (const LinalgSample& s : samples) {
          labels.push_back(s.label);
          CHECK(!s.inputs.empty());
          for (const Tensor& t : s.inputs) CHECK(t.dtype() == d);
        }
      }
      for (const std::string& shape : words(r.shapes)) {
        bool found = false;
        for (const std::string& l : labels) found |= l.find(shape) != std::string::npos;
        CAPTURE(shape);
        CHECK(found);
      }
    }
  }
  for (const auto& [name, cases] : by_function) {
    CAPTURE(name);
    CHECK(rows.count(name) == 1); // a case of a function that is not a row
  }
}

TEST_CASE("linalg rows: the kernel rows and the kernel ops agree", "[linalg][rows]") {
  struct KernelRow {
    std::string_view name;
    int inputs, outputs;
  };
#define TFE_TEST_KERNEL_ROW(name, inputs, outputs) {#name, inputs, outputs},
  const KernelRow kernel_rows[] = {TFE_LINALG_KERNELS(TFE_TEST_KERNEL_ROW)};
#undef TFE_TEST_KERNEL_ROW
  std::span<const linalg::LinalgOp* const> ops = linalg::kernel_ops();
  REQUIRE(ops.size() == std::size(kernel_rows));
  std::set<std::string_view> c_names;
  for (const linalg::FunctionRow& r : linalg::kFunctions) c_names.insert(r.c_name);
  std::set<std::string_view> names;
  for (size_t i = 0; i < ops.size(); ++i) {
    CAPTURE(kernel_rows[i].name);
    REQUIRE(ops[i] != nullptr);
    CHECK(ops[i]->name() == kernel_rows[i].name);
    CHECK(ops[i]->num_inputs() == kernel_rows[i].inputs);
    CHECK(ops[i]->num_outputs() == kernel_rows[i].outputs);
    CHECK(c_names.count(ops[i]->c_name()) == 1); // errors name a public function
    CHECK(names.insert(ops[i]->name()).second);
  }
}

TEST_CASE("linalg rows: every kernel op is reached by some sample's program or derivative",
          "[linalg][rows]") {
  std::set<std::string> seen;
  for (const LinalgCase& c : linalg_cases()) {
    std::vector<LinalgSample> samples = c.samples(DType::F64);
    REQUIRE(!samples.empty());
    const LinalgSample& s = samples.front();
    std::vector<graph::Value> args;
    for (const Tensor& t : s.inputs) args.push_back(graph::argument(t.dtype(), Shape(t.shape())));
    graph::ProgramPtr p = graph::make_program(args, c.function(args));
    collect_kernels(*p, seen);
    collect_kernels(*ad::jvp(*p, {}).program, seen);
    collect_kernels(*ad::vjp(*p, {}).program, seen);
  }
  for (const linalg::LinalgOp* op : linalg::kernel_ops()) {
    CAPTURE(op->name());
    CHECK(seen.count(std::string(op->name())) == 1);
  }
}
