// Elementwise fusion of compiled programs: fused and unfused programs give the same bits for
// every elementwise op of the table (all float and complex dtypes, strided and broadcast inputs,
// empty to multi-threaded sizes, derivative programs), regions are formed, and a value read
// outside its region is still written out.
#include <catch2/catch.hpp>

#include <cstring>

#include "ad/transforms.hpp"
#include "backend/cpu/thread_budget.hpp"
#include "eager/surface.hpp"
#include "graph/compile.hpp"
#include "op_samples/op_samples.hpp"

using namespace tfe;
using namespace tfe::testing;

namespace {

constexpr DType kFloatDTypes[] = {DType::F32, DType::F64, DType::C32, DType::C64};

// Byte equality of two compact results (NaN payloads and signed zeros included).
bool same_bits(const Tensor& a, const Tensor& b, std::string* why) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) {
    *why = describe(a) + " vs " + describe(b);
    return false;
  }
  if (!a.is_compact() || !b.is_compact() || a.strides() != b.strides()) return identical(a, b, why);
  if (a.numel() == 0 ||
      std::memcmp(a.raw_data(), b.raw_data(), static_cast<size_t>(a.nbytes())) == 0)
    return true;
  identical(a, b, why);
  *why = "bits differ " + *why;
  return false;
}

struct Compiled {
  graph::CompiledPtr fused, unfused;
};

Compiled compile_both(const graph::Program& p, const std::vector<Tensor>& args) {
  std::vector<ops::ConcreteMeta> m;
  for (const Tensor& t : args) m.push_back({t.dtype(), t.shape()});
  return {graph::compile(p, m, {}, backend::cpu(), true),
          graph::compile(p, m, {}, backend::cpu(), false)};
}

// Runs both and checks every output bit for bit; returns the fused program's fused op count.
int64_t check_fused_equals_unfused(const graph::Program& p, const std::vector<Tensor>& args,
                                   const std::string& what) {
  Compiled c = compile_both(p, args);
  CHECK(c.unfused->fused == 0);
  std::vector<Tensor> got = graph::execute(*c.fused, args, {});
  std::vector<Tensor> want = graph::execute(*c.unfused, args, {});
  REQUIRE(got.size() == want.size());
  for (size_t k = 0; k < got.size(); ++k) {
    std::string why;
    INFO(what << " output " << k << ": " << why);
    bool same = same_bits(got[k], want[k], &why);
    INFO(why);
    CHECK(same);
  }
  return c.fused->fused;
}

// An identity step in front of an operand, so each operand enters the op through the region.
graph::Value through_region(const graph::Value& v) {
  std::array<graph::Value, 1> a{v};
  DType d = v.meta().dtype;
  if (d == DType::Bool) {
    graph::Value n = graph::emit(ops::OpCode::Not, a, {});
    std::array<graph::Value, 1> b{n};
    return graph::emit(ops::OpCode::Not, b, {});
  }
  if (d == DType::I32 || d == DType::I64) return v;
  graph::Value c = graph::emit(ops::OpCode::Conj, a, {});
  std::array<graph::Value, 1> b{c};
  return graph::emit(ops::OpCode::Conj, b, {});
}

// op(args) with every operand passed through the region and one step after it; both the op's
// result and the step's are program outputs.
graph::ProgramPtr op_program(ops::OpCode op, const std::vector<Tensor>& inputs,
                             const ops::Params& params) {
  std::vector<graph::Value> args, through;
  for (const Tensor& t : inputs) {
    args.push_back(graph::argument(t.dtype(), Shape(t.shape())));
    through.push_back(through_region(args.back()));
  }
  graph::Value y = graph::emit(op, through, params);
  std::array<graph::Value, 2> yy{y, y};
  std::array<graph::Value, 1> y1{y};
  graph::Value after = y.meta().dtype == DType::Bool ? graph::emit(ops::OpCode::Not, y1, {})
                       : is_integer(y.meta().dtype)  ? y
                                                     : graph::emit(ops::OpCode::Add, yy, {});
  return graph::make_program(args, {y, after});
}

bool fusible_dtype(DType d) {
  return d == DType::Bool || d == DType::F32 || d == DType::F64 || d == DType::C32 ||
         d == DType::C64;
}

// The same dtypes as `inputs` with a new shape and fresh values.
std::vector<Tensor> resized(const std::vector<Tensor>& inputs, const Dims& shape, uint64_t seed) {
  std::vector<Tensor> out;
  for (const Tensor& t : inputs) out.push_back(random_tensor(t.dtype(), shape, seed++));
  return out;
}

struct ThreadBudget {
  int before = cpu::thread_budget();
  explicit ThreadBudget(int n) { cpu::set_thread_budget(n); }
  ~ThreadBudget() { cpu::set_thread_budget(before); }
};

} // namespace

TEST_CASE("fusion: every elementwise op gives the unfused bits", "[graph][fusion]") {
  int ops_checked = 0;
  for (const ops::OpDef& def : ops::kOpTable) {
    if (!def.elementwise) continue;
    auto samples = samples_for(def.code);
    INFO(def.name);
    REQUIRE(samples.has_value()); // an elementwise op without samples is not covered
    bool checked = false;
    for (DType d : kAllDTypes) {
      if (!def.accepts.contains(d) || !fusible_dtype(d)) continue;
      bool first = true;
      for (const Sample& s : samples->make(d)) {
        bool all_fusible = true;
        for (const Tensor& t : s.inputs) all_fusible &= fusible_dtype(t.dtype());
        if (!all_fusible) continue;
        std::string what = std::string(def.name) + " " + std::string(dtype_name(d)) + " " + s.label;
        graph::ProgramPtr p = op_program(def.code, s.inputs, s.params);
        int64_t fused = check_fused_equals_unfused(*p, s.inputs, what);
        CHECK(fused >= 2);
        checked = true;
        // Strided inputs: reversed dims, negative and doubled strides.
        for (int v = 0; v < kNumRelayouts; ++v) {
          std::vector<Tensor> strided;
          for (const Tensor& t : s.inputs) strided.push_back(relayout(t, v));
          check_fused_equals_unfused(*p, strided, what + " relayout " + std::to_string(v));
        }
        if (!first) continue;
        first = false;
        // Sizes: empty, one, odd, more than one block, more than one thread's chunk.
        ThreadBudget two(2);
        for (int64_t n : {0, 1, 7, 1025, 5001, 300007}) {
          std::vector<Tensor> in = resized(s.inputs, {n}, 11 + static_cast<uint64_t>(n));
          graph::ProgramPtr pn = op_program(def.code, in, s.params);
          check_fused_equals_unfused(*pn, in, what + " n=" + std::to_string(n));
        }
      }
    }
    bool any_fusible = false;
    for (DType d : kAllDTypes) any_fusible |= def.accepts.contains(d) && fusible_dtype(d);
    CHECK(checked == any_fusible); // every op with a float, complex or Bool dtype is compared
    if (checked) ++ops_checked;
  }
  WARN("fusion: " << ops_checked << " elementwise ops compared fused against unfused");
  CHECK(ops_checked > 40);
}

TEST_CASE("fusion: the 20-op chain becomes one instruction", "[graph][fusion]") {
  for (DType d : kFloatDTypes) {
    graph::Value x = graph::argument(d, {Extent::symbol(1)});
    graph::Value y = x;
    auto un = [&](ops::OpCode op) {
      std::array<graph::Value, 1> a{y};
      y = graph::emit(op, a, {});
    };
    auto bin = [&](ops::OpCode op) {
      std::array<graph::Value, 2> a{y, x};
      y = graph::emit(op, a, {});
    };
    for (int r = 0; r < 4; ++r) {
      un(ops::OpCode::Sin);
      bin(ops::OpCode::Mul);
      un(ops::OpCode::Tanh);
      bin(ops::OpCode::Add);
      un(ops::OpCode::Cos);
    }
    graph::ProgramPtr p = graph::make_program({x}, {y});
    std::vector<Tensor> args{random_tensor(d, {100003}, 5)};
    Compiled c = compile_both(*p, args);
    CHECK(c.fused->code.size() == 1);
    CHECK(c.fused->fused == 20);
    CHECK(c.unfused->code.size() == 20);
    ThreadBudget two(2);
    CHECK(check_fused_equals_unfused(*p, args, "chain20") == 20);
    // A strided argument (every other element of a bigger buffer) is gathered per block.
    std::vector<Tensor> strided{relayout(args[0], 2)};
    check_fused_equals_unfused(*p, strided, "chain20 strided");
  }
}

TEST_CASE("fusion: broadcast scalars and operands along dims", "[graph][fusion]") {
  for (DType d : kFloatDTypes) {
    graph::Value x = graph::argument(d, {Extent::symbol(1), Extent::symbol(2)});
    graph::Value s = graph::argument(d, {});
    graph::Value row = graph::argument(d, {1, Extent::symbol(2)});
    std::array<graph::Value, 1> xa{x};
    graph::Value sx = graph::emit(ops::OpCode::Sin, xa, {});
    std::array<graph::Value, 2> a{sx, s};
    graph::Value m = eager::call<graph::Value>(ops::OpCode::Mul, a, {}); // broadcasts s
    std::array<graph::Value, 2> b{m, row};
    graph::Value r = eager::call<graph::Value>(ops::OpCode::Sub, b, {}); // broadcasts row
    std::array<graph::Value, 1> ra{r};
    graph::Value out = graph::emit(ops::OpCode::Exp, ra, {});
    graph::ProgramPtr p = graph::make_program({x, s, row}, {out});
    for (int64_t rows : {1, 3, 1500}) {
      std::vector<Tensor> args{random_tensor(d, {rows, 5}, 1), random_tensor(d, {}, 2),
                               random_tensor(d, {1, 5}, 3)};
      ThreadBudget two(2);
      CHECK(check_fused_equals_unfused(*p, args, "broadcast rows=" + std::to_string(rows)) == 4);
      std::vector<Tensor> strided{relayout(args[0], 0), args[1], relayout(args[2], 1)};
      check_fused_equals_unfused(*p, strided, "broadcast strided");
    }
  }
}

TEST_CASE("fusion: a value read outside its region is written out", "[graph][fusion]") {
  graph::Value x = graph::argument(DType::F64, {Extent::symbol(1)});
  std::array<graph::Value, 1> xa{x};
  graph::Value y = graph::emit(ops::OpCode::Sin, xa, {});
  std::array<graph::Value, 1> ya{y};
  graph::Value z = graph::emit(ops::OpCode::Exp, ya, {});
  std::array<graph::Value, 1> za{z};
  graph::Value w = graph::emit(ops::OpCode::Tanh, za, {});
  std::array<int64_t, 1> axis{0};
  graph::Value total = eager::sum(y, std::span<const int64_t>(axis)); // reads y outside
  graph::ProgramPtr p = graph::make_program({x}, {w, total});
  std::vector<Tensor> args{random_tensor(DType::F64, {4099}, 9)};
  Compiled c = compile_both(*p, args);
  const graph::Instruction* fused = nullptr;
  for (const graph::Instruction& ins : c.fused->code)
    if (ins.fused) fused = &ins;
  REQUIRE(fused != nullptr);
  CHECK(fused->fused->steps.size() == 3);
  CHECK(fused->fused_outputs.size() == 2); // y for the sum, w for the caller; z stays inside
  CHECK(fused->fused->num_buffers == 1);
  CHECK(check_fused_equals_unfused(*p, args, "outside reader") == 3);
}

TEST_CASE("fusion: derivative programs fuse and give the unfused bits", "[graph][fusion][ad]") {
  for (DType d : {DType::F64, DType::C64}) {
    graph::Value x = graph::argument(d, {Extent::symbol(1)});
    graph::Value y = x;
    for (ops::OpCode op : {ops::OpCode::Sin, ops::OpCode::Tanh, ops::OpCode::Exp}) {
      std::array<graph::Value, 1> a{y};
      y = graph::emit(op, a, {});
      std::array<graph::Value, 2> b{y, x};
      y = graph::emit(ops::OpCode::Mul, b, {});
    }
    graph::ProgramPtr p = graph::make_program({x}, {y});
    const int64_t n = 20011;
    Tensor xv = random_tensor(d, {n}, 21), tv = random_tensor(d, {n}, 22);
    ThreadBudget two(2);
    ad::Derivative j = ad::jvp(*p, {});
    CHECK(check_fused_equals_unfused(*j.program, {xv, tv}, "jvp") > 0);
    ad::Derivative v = ad::vjp(*p, {});
    CHECK(check_fused_equals_unfused(*v.program, {xv, tv}, "vjp") > 0);
    // Second order needs a one-element output: the sum of the real part.
    std::array<int64_t, 1> axis{0};
    std::array<graph::Value, 1> ya{y};
    graph::Value re = graph::emit(ops::OpCode::Real, ya, {});
    graph::ProgramPtr s =
        graph::make_program({x}, {eager::sum(re, std::span<const int64_t>(axis))});
    ad::Derivative h = ad::hvp(*s, {}, ad::HvpMode::ForwardOverReverse);
    CHECK(check_fused_equals_unfused(*h.program, {xv, tv}, "hvp") > 0);
  }
}

TEST_CASE("fusion: the switch turns it off for cached compilations", "[graph][fusion]") {
  graph::Value x = graph::argument(DType::F64, {Extent::symbol(1)});
  std::array<graph::Value, 1> xa{x};
  graph::Value y = graph::emit(ops::OpCode::Sin, xa, {});
  std::array<graph::Value, 1> ya{y};
  graph::ProgramPtr p = graph::make_program({x}, {graph::emit(ops::OpCode::Cos, ya, {})});
  std::vector<ops::ConcreteMeta> m{{DType::F64, {10}}};
  graph::CompileCache cache(16, int64_t{1} << 24);
  bool before = graph::fusion_enabled();
  graph::set_fusion_enabled(false);
  CHECK(graph::compile_cached(cache, *p, m)->fused == 0);
  graph::set_fusion_enabled(true);
  CHECK(graph::compile_cached(cache, *p, m)->fused == 2);
  graph::set_fusion_enabled(before);
}

TEST_CASE("fusion: a backend without fusion and integer chains run unfused", "[graph][fusion]") {
  for (DType d : {DType::F64, DType::I64}) {
    graph::Value x = graph::argument(d, {Extent::symbol(1)});
    std::array<graph::Value, 2> xx{x, x};
    graph::Value y = graph::emit(ops::OpCode::Mul, xx, {});
    std::array<graph::Value, 2> yx{y, x};
    graph::Value z = graph::emit(ops::OpCode::Add, yx, {});
    graph::ProgramPtr p = graph::make_program({x}, {z});
    std::vector<Tensor> args{random_tensor(d, {33}, 4)};
    std::vector<ops::ConcreteMeta> m{{d, {33}}};
    backend::Backend plain = backend::cpu();
    plain.fuse = nullptr;
    graph::CompiledPtr unfusable = graph::compile(*p, m, {}, plain, true);
    CHECK(unfusable->fused == 0);
    CHECK(unfusable->code.size() == 2);
    int64_t fused = check_fused_equals_unfused(*p, args, std::string(dtype_name(d)));
    CHECK(fused == (d == DType::I64 ? 0 : 2)); // integer ops check operands before writing
    std::string why;
    CHECK(same_bits(
        graph::execute(*unfusable, args, {}).at(0),
        graph::execute(*graph::compile(*p, m, {}, backend::cpu(), true), args, {}).at(0), &why));
  }
}
