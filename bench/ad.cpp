// Program-AD benchmarks, each against our own baseline in the same process:
//   A1 JVP and VJP of a chain of 20 elementwise ops on 1e6 elements vs the primal (<= 2.5x);
//   A2 the first derivative request, transform + compile, vs one primal run (<= 1x);
//   A3 per-node cost of a compiled program of one-element tensors vs eager C calls (<= 0.5x);
//   A4 the chain's compiled forward and VJP with elementwise fusion vs without (<= 0.5x).
// The chain is traced once through the C ABI; A2 times the transform and compile directly in
// the core, because the C ABI compiles lazily inside the first call.
#include <tenferro/tenferro.h>

#include <array>
#include <cstdio>
#include <vector>

#include "ad/transforms.hpp"
#include "eager/surface.hpp"
#include "graph/compile.hpp"
#include "ratio_reporter.hpp"

namespace {

constexpr int64_t kN = 1000000;

struct Chain {
  tfe_context* ctx = nullptr;
  tfe_function *f = nullptr, *jvp = nullptr, *vjp = nullptr;
  tfe_tensor *x = nullptr, *v = nullptr, *ybar = nullptr;
};

// y = x; repeat 4 times: sin, * x, tanh, + x, cos  (20 elementwise ops)
tfe_tensor* trace_chain(tfe_tensor* x, std::vector<tfe_tensor*>& temps) {
  tfe_tensor* y = x;
  for (int r = 0; r < 4; ++r) {
    tfe_tensor* t = nullptr;
    CHECK_TFE(tfe_sin(&t, y));
    temps.push_back(y = t);
    CHECK_TFE(tfe_mul(&t, y, x));
    temps.push_back(y = t);
    CHECK_TFE(tfe_tanh(&t, y));
    temps.push_back(y = t);
    CHECK_TFE(tfe_add(&t, y, x));
    temps.push_back(y = t);
    CHECK_TFE(tfe_cos(&t, y));
    temps.push_back(y = t);
  }
  return y;
}

Chain& chain() {
  static Chain c = [] {
    Chain c;
    CHECK_TFE(tfe_context_create(&c.ctx));
    const int64_t sym[] = {-1}, shape[] = {kN};
    tfe_tensor* xs = nullptr;
    CHECK_TFE(tfe_tensor_symbolic(&xs, c.ctx, TFE_F64, 1, sym));
    std::vector<tfe_tensor*> temps;
    tfe_tensor* y = trace_chain(xs, temps);
    CHECK_TFE(tfe_function_create(&c.f, 1, &xs, 1, &y));
    CHECK_TFE(tfe_function_jvp(&c.jvp, c.f, 0, nullptr));
    CHECK_TFE(tfe_function_vjp(&c.vjp, c.f, 0, nullptr));
    for (tfe_tensor* t : temps) tfe_tensor_release(t);
    tfe_tensor_release(xs);
    CHECK_TFE(tfe_random_uniform(&c.x, c.ctx, TFE_F64, 1, shape, 1, -1, 1));
    CHECK_TFE(tfe_random_uniform(&c.v, c.ctx, TFE_F64, 1, shape, 2, -1, 1));
    CHECK_TFE(tfe_random_uniform(&c.ybar, c.ctx, TFE_F64, 1, shape, 3, -1, 1));
    return c;
  }();
  return c;
}

void call(benchmark::State& state, tfe_function* f, std::vector<tfe_tensor*> args) {
  for (auto _ : state) {
    tfe_results* r = nullptr;
    CHECK_TFE(tfe_function_call(&r, f, static_cast<int32_t>(args.size()), args.data()));
    tfe_results_release(r);
  }
}

void primal(benchmark::State& s) { call(s, chain().f, {chain().x}); }
void jvp(benchmark::State& s) { call(s, chain().jvp, {chain().x, chain().v}); }
void vjp(benchmark::State& s) { call(s, chain().vjp, {chain().x, chain().ybar}); }

// The same chain traced with the core's own surface (this executable links its own copy of the
// core; programs must not cross from the shared library's copy, whose symbol arena differs).
tfe::graph::ProgramPtr core_chain() {
  using tfe::graph::Value;
  using tfe::ops::OpCode;
  Value x = tfe::graph::argument(tfe::DType::F64, {tfe::Extent::symbol(1)});
  Value y = x;
  auto un = [](OpCode op, const Value& a) {
    std::array<Value, 1> in{a};
    return tfe::eager::call<Value>(op, in);
  };
  auto bin = [](OpCode op, const Value& a, const Value& b) {
    std::array<Value, 2> in{a, b};
    return tfe::eager::call<Value>(op, in);
  };
  for (int r = 0; r < 4; ++r) {
    y = un(OpCode::Sin, y);
    y = bin(OpCode::Mul, y, x);
    y = un(OpCode::Tanh, y);
    y = bin(OpCode::Add, y, x);
    y = un(OpCode::Cos, y);
  }
  return tfe::graph::make_program({x}, {y});
}

// A2: the derivative program built from the source program and compiled for [1e6].
void first_request(benchmark::State& state) {
  static const tfe::graph::ProgramPtr program = core_chain();
  const tfe::graph::Program& p = *program;
  std::vector<tfe::ops::ConcreteMeta> metas{{tfe::DType::F64, {kN}}, {tfe::DType::F64, {kN}}};
  for (auto _ : state) {
    tfe::ad::Derivative d = tfe::ad::vjp(p, {0});
    benchmark::DoNotOptimize(tfe::graph::compile(*d.program, metas));
  }
}

// A4: the chain and its VJP compiled for [1e6] with fusion on or off, run through the core.
struct Compiled {
  tfe::graph::CompiledPtr program;
  std::vector<tfe::Tensor> args;
};

tfe::Tensor filled(uint64_t seed) {
  tfe::Tensor t = tfe::Tensor::empty(tfe::DType::F64, {kN});
  double* p = t.data<double>();
  uint64_t s = seed * 0x9e3779b97f4a7c15ull + 1;
  for (int64_t i = 0; i < kN; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    p[i] = static_cast<double>(s >> 11) * 0x1.0p-52 - 1; // uniform in [-1, 1)
  }
  return t;
}

Compiled compiled_chain(bool derivative, bool fuse) {
  static const tfe::graph::ProgramPtr program = core_chain();
  tfe::graph::ProgramPtr p = program;
  std::vector<tfe::ops::ConcreteMeta> metas{{tfe::DType::F64, {kN}}};
  std::vector<tfe::Tensor> args{filled(1)};
  if (derivative) {
    p = tfe::ad::vjp(*program, {0}).program;
    metas.push_back({tfe::DType::F64, {kN}});
    args.push_back(filled(2));
  }
  return {tfe::graph::compile(*p, metas, {}, tfe::backend::cpu(), fuse), std::move(args)};
}

void run_compiled(benchmark::State& state, bool derivative, bool fuse) {
  Compiled c = compiled_chain(derivative, fuse);
  for (auto _ : state) benchmark::DoNotOptimize(tfe::graph::execute(*c.program, c.args, {}));
}
void forward_unfused(benchmark::State& s) { run_compiled(s, false, false); }
void forward_fused(benchmark::State& s) { run_compiled(s, false, true); }
void vjp_unfused(benchmark::State& s) { run_compiled(s, true, false); }
void vjp_fused(benchmark::State& s) { run_compiled(s, true, true); }

// A3: 20 chained adds of one-element tensors.
struct Tiny {
  tfe_context* ctx = nullptr;
  tfe_function* f = nullptr;
  tfe_tensor *a = nullptr, *b = nullptr;
};

Tiny& tiny() {
  static Tiny t = [] {
    Tiny t;
    CHECK_TFE(tfe_context_create(&t.ctx));
    const int64_t one[] = {1};
    tfe_tensor *xa = nullptr, *xb = nullptr;
    CHECK_TFE(tfe_tensor_symbolic(&xa, t.ctx, TFE_F64, 1, one));
    CHECK_TFE(tfe_tensor_symbolic(&xb, t.ctx, TFE_F64, 1, one));
    tfe_tensor* y = xa;
    std::vector<tfe_tensor*> temps;
    for (int i = 0; i < 20; ++i) {
      tfe_tensor* n = nullptr;
      CHECK_TFE(tfe_add(&n, y, xb));
      temps.push_back(y = n);
    }
    tfe_tensor* ins[] = {xa, xb};
    CHECK_TFE(tfe_function_create(&t.f, 2, ins, 1, &y));
    for (tfe_tensor* p : temps) tfe_tensor_release(p);
    tfe_tensor_release(xa);
    tfe_tensor_release(xb);
    const double one_value = 1.0;
    CHECK_TFE(tfe_tensor_from_data(&t.a, t.ctx, TFE_F64, 1, one, nullptr, &one_value));
    CHECK_TFE(tfe_tensor_from_data(&t.b, t.ctx, TFE_F64, 1, one, nullptr, &one_value));
    return t;
  }();
  return t;
}

void eager_adds(benchmark::State& state) {
  Tiny& t = tiny();
  for (auto _ : state) {
    tfe_tensor* y = t.a;
    for (int i = 0; i < 20; ++i) {
      tfe_tensor* n = nullptr;
      CHECK_TFE(tfe_add(&n, y, t.b));
      if (y != t.a) tfe_tensor_release(y);
      y = n;
    }
    tfe_tensor_release(y);
  }
}

void compiled_adds(benchmark::State& state) {
  Tiny& t = tiny();
  tfe_tensor* args[] = {t.a, t.b};
  for (auto _ : state) {
    tfe_tensor* y = nullptr;
    CHECK_TFE(tfe_function_call1(&y, t.f, 2, args));
    tfe_tensor_release(y);
  }
}

} // namespace

int main(int argc, char** argv) {
  using tfe_bench::Goal;
  using tfe_bench::register_case;
  register_case("A1", "jvp_chain20_n1e6", Goal::ratio(2.5), primal, jvp);
  register_case("A1", "vjp_chain20_n1e6", Goal::ratio(2.5), primal, vjp);
  register_case("A2", "first_vjp_request", Goal::ratio(1.0), primal, first_request);
  register_case("A3", "node_overhead_20", Goal::ratio(0.5), eager_adds, compiled_adds);
  register_case("A4", "fused_chain20_n1e6", Goal::ratio(0.5), forward_unfused, forward_fused);
  register_case("A4", "fused_vjp_chain20_n1e6", Goal::ratio(0.5), vjp_unfused, vjp_fused);
  return tfe_bench::run(argc, argv);
}
