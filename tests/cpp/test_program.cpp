// Traced programs: every op of the table, on every sample, traced with symbolic input extents
// (equal extents share a symbol, extents of 1 stay constant, as symbolic tracing prescribes),
// compiled for the sample's shapes and run, must equal the eager result exactly. Plus compile-time
// behaviour: symbol binding, guards, CSE and liveness.
#include <catch2/catch.hpp>

#include <map>

#include "backend/cpu/kernel.hpp"
#include "eager/surface.hpp"
#include "graph/compile.hpp"
#include "op_samples/op_samples.hpp"
#include "support/ad_checks.hpp"

using namespace tfe;
using namespace tfe::testing;

namespace {

// Extent value -> symbol, shared across a sample's operands (1 and 0 stay concrete).
struct Symbolizer {
  std::map<int64_t, int64_t> symbol_of;
  Shape operator()(const Dims& d) {
    Shape s;
    for (int64_t e : d) {
      if (e <= 1) {
        s.push_back(e);
        continue;
      }
      auto [it, fresh] = symbol_of.emplace(e, static_cast<int64_t>(symbol_of.size()) + 1);
      s.push_back(Extent::symbol(it->second));
    }
    return s;
  }
};

std::vector<ops::ConcreteMeta> metas_of(const std::vector<Tensor>& in) {
  std::vector<ops::ConcreteMeta> m;
  for (const Tensor& t : in) m.push_back({t.dtype(), t.shape()});
  return m;
}

} // namespace

TEST_CASE("programs: every op traced symbolically equals its eager result", "[graph][program]") {
  int64_t traced = 0;
  for (const ops::OpDef& def : ops::kOpTable) {
    auto s = samples_for(def.code);
    REQUIRE(s.has_value());
    for (DType d : kAllDTypes) {
      if (!def.accepts.contains(d)) continue;
      for (const Sample& smp : s->make(d)) {
        INFO(def.name << " " << dtype_name(d) << " sample " << smp.label);
        Symbolizer sym;
        std::vector<graph::Value> args;
        for (const Tensor& t : smp.inputs)
          args.push_back(graph::argument(t.dtype(), sym(t.shape())));
        graph::Value out = graph::emit(def.code, args, smp.params);
        graph::ProgramPtr p = graph::make_program(args, {out});
        graph::CompiledPtr c = graph::compile(*p, metas_of(smp.inputs));
        std::vector<Tensor> got = graph::execute(*c, smp.inputs, {});
        Tensor want = cpu::execute(def.code, smp.inputs, smp.params);
        std::string why;
        bool same = identical(got.at(0), want, &why);
        INFO(why);
        CHECK(same);
        ++traced;
      }
    }
  }
  CHECK(traced > 1000);
}

TEST_CASE("programs: one program serves every shape its symbols allow", "[graph][program]") {
  // f(x, y) = sum((x + y) * x, axis 0) with x, y : [s1, 3]
  Shape s{Extent::symbol(1), 3};
  graph::Value x = graph::argument(DType::F64, s), y = graph::argument(DType::F64, s);
  std::array<graph::Value, 2> xy{x, y};
  graph::Value sum_xy = eager::call<graph::Value>(ops::OpCode::Add, xy);
  std::array<graph::Value, 2> prod{sum_xy, x};
  graph::Value z = eager::call<graph::Value>(ops::OpCode::Mul, prod);
  std::array<int64_t, 1> axis0{0};
  graph::Value r = eager::sum(z, std::span<const int64_t>(axis0));
  CHECK(r.meta().shape == Shape{3});
  graph::ProgramPtr p = graph::make_program({x, y}, {r});
  for (int64_t n : {1, 4, 17}) {
    Tensor a = random_tensor(DType::F64, {n, 3}, 1), b = random_tensor(DType::F64, {n, 3}, 2);
    std::vector<ops::ConcreteMeta> m{{DType::F64, {n, 3}}, {DType::F64, {n, 3}}};
    auto c = graph::compile(*p, m);
    Tensor got = graph::execute(*c, std::vector<Tensor>{a, b}, {}).at(0);
    std::array<Tensor, 2> ab{a, b};
    Tensor e = eager::call<Tensor>(ops::OpCode::Add, ab);
    std::array<Tensor, 2> ea{e, a};
    Tensor want =
        eager::sum(eager::call<Tensor>(ops::OpCode::Mul, ea), std::span<const int64_t>(axis0));
    CHECK(identical(got, want));
  }
  // The two inputs share s1: different extents there are rejected when binding.
  std::vector<ops::ConcreteMeta> bad{{DType::F64, {2, 3}}, {DType::F64, {5, 3}}};
  try {
    graph::compile(*p, bad);
    FAIL("bound s1 to two values");
  } catch (const Error& e) {
    CHECK(e.status() == Status::ShapeMismatch);
    CHECK_THAT(e.message(), Catch::Contains("symbol s1, already bound to 2"));
  }
  std::vector<ops::ConcreteMeta> wrong_dtype{{DType::F32, {2, 3}}, {DType::F64, {2, 3}}};
  CHECK_THROWS_AS(graph::compile(*p, wrong_dtype), Error);
  std::vector<ops::ConcreteMeta> wrong_const{{DType::F64, {2, 4}}, {DType::F64, {2, 4}}};
  CHECK_THROWS_AS(graph::compile(*p, wrong_const), Error);
}

TEST_CASE("programs: provable mismatches fail at build time, others at binding",
          "[graph][program]") {
  graph::Value a = graph::argument(DType::F64, {Extent::symbol(1)});
  graph::Value b = graph::argument(DType::F64, {Extent::symbol(2)});
  std::array<graph::Value, 2> ab{a, b};
  try {
    eager::call<graph::Value>(ops::OpCode::Add, ab);
    FAIL("added two different symbols");
  } catch (const Error& e) {
    CHECK(e.status() == Status::ShapeMismatch);
    CHECK_THAT(e.message(), Catch::Contains("s1"));
    CHECK_THAT(e.message(), Catch::Contains("s2"));
  }
  // A symbol against a constant: a guard, checked when the program is bound.
  graph::Value c = graph::captured(random_tensor(DType::F64, {3}, 1));
  std::array<graph::Value, 2> ac{a, c};
  graph::Value sum = eager::call<graph::Value>(ops::OpCode::Add, ac);
  CHECK(sum.meta().shape == Shape{3});
  graph::ProgramPtr p = graph::make_program({a}, {sum});
  CHECK(p->guards.size() == 1);
  CHECK(p->captured.size() == 1);
  std::vector<ops::ConcreteMeta> ok{{DType::F64, {3}}}, bad{{DType::F64, {4}}};
  CHECK_NOTHROW(graph::compile(*p, ok));
  try {
    graph::compile(*p, bad);
    FAIL("guard not checked");
  } catch (const Error& e) {
    CHECK(e.status() == Status::ShapeMismatch);
    CHECK_THAT(e.message(), Catch::Contains("s1 = 4"));
  }
  // Left-aligned broadcasting with an extent of 1 needs no guard.
  graph::Value m = graph::argument(DType::F64, {Extent::symbol(1), Extent::symbol(3)});
  std::array<graph::Value, 2> ma{m, a};
  graph::Value mb = eager::call<graph::Value>(ops::OpCode::Mul, ma);
  CHECK(mb.meta().shape == Shape{Extent::symbol(1), Extent::symbol(3)});
  CHECK(mb.node->inputs[1].node->op == ops::OpCode::BroadcastInDim);
}

TEST_CASE("programs: CSE merges equal subexpressions and liveness frees intermediates",
          "[graph][program]") {
  graph::Value x = graph::argument(DType::F64, {Extent::symbol(1)});
  std::array<graph::Value, 1> xs{x};
  graph::Value e1 = graph::emit(ops::OpCode::Exp, xs, {});
  graph::Value e2 = graph::emit(ops::OpCode::Exp, xs, {}); // a separate node, same computation
  std::array<graph::Value, 2> both{e1, e2};
  graph::Value s = graph::emit(ops::OpCode::Add, both, {});
  std::array<graph::Value, 1> ss{s};
  graph::Value out = graph::emit(ops::OpCode::Sin, ss, {});
  auto p = graph::make_program({x}, {out});
  std::vector<ops::ConcreteMeta> m{{DType::F64, {5}}};
  auto c = graph::compile(*p, m, {}, backend::cpu(), false); // unfused: one instruction per op
  CHECK(c->eliminated == 1);
  REQUIRE(c->code.size() == 3);
  // exp's slot dies after the add, the add's after the sin.
  CHECK(c->code[1].free_after.size() == 1);
  CHECK(c->code[2].free_after.size() == 1);
  Tensor a = random_tensor(DType::F64, {5}, 3);
  Tensor got = graph::execute(*c, std::vector<Tensor>{a}, {}).at(0);
  for (int64_t i = 0; i < 5; ++i)
    CHECK(value_at(got, {i}).real() == Approx(std::sin(2 * std::exp(value_at(a, {i}).real()))));
}

TEST_CASE("programs: the surface traces mean, matmul and stack with symbolic extents",
          "[graph][program]") {
  Extent n = Extent::symbol(1), k = Extent::symbol(2);
  graph::Value a = graph::argument(DType::F32, {n, k, 2});
  graph::Value b = graph::argument(DType::F64, {k, 3});
  graph::Value mm = eager::matmul(a, b); // promotes to F64, broadcasts b's batch
  CHECK(mm.meta().dtype == DType::F64);
  CHECK(mm.meta().shape == Shape{n, 3, 2});
  std::array<int64_t, 1> ax{0};
  graph::Value mean = eager::mean(mm, std::span<const int64_t>(ax)); // symbolic count
  std::array<graph::Value, 2> pair{mean, mean};
  graph::Value st = eager::stack(std::span<const graph::Value>(pair), -1);
  CHECK(st.meta().shape == Shape{3, 2, 2});
  auto p = graph::make_program({a, b}, {st});
  for (int64_t rows : {2, 5}) {
    Tensor ta = random_tensor(DType::F32, {rows, 4, 2}, 4),
           tb = random_tensor(DType::F64, {4, 3}, 5);
    std::vector<ops::ConcreteMeta> m{{DType::F32, {rows, 4, 2}}, {DType::F64, {4, 3}}};
    Tensor got = graph::execute(*graph::compile(*p, m), std::vector<Tensor>{ta, tb}, {}).at(0);
    Tensor em = eager::mean(eager::matmul(ta, tb), std::span<const int64_t>(ax));
    std::array<Tensor, 2> ep{em, em};
    Tensor want = eager::stack(std::span<const Tensor>(ep), -1);
    CHECK(close(got, want, 1e-12, 1e-12));
  }
}

TEST_CASE("programs: a literal of a view holds the view's values, not its storage's bytes",
          "[graph][program]") {
  Tensor small = random_tensor(DType::F64, {3, 1, 2}, 2);
  Tensor wide = random_tensor(DType::C64, {4, 3}, 3);
  std::array<Tensor, 1> in{wide};
  Tensor column = emit(ops::OpCode::Slice, std::span<const Tensor>(in),
                       ops::SliceParams{Shape{0, 1}, Shape{4, 2}, Dims{1, 1}});
  for (const Tensor& view : {small.broadcast_view({3, 4, 2}, Dims{0, 1, 2}), column}) {
    graph::ProgramPtr p =
        graph::make_program({}, {graph::literal(view, static_cast<const graph::Value*>(nullptr))});
    CHECK(identical(run_program(*p, {})[0], eager::contiguous(view)));
  }
}
