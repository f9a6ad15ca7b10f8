// einsum in the AD test matrix. einsum has no derivative code of its own: it lowers to
// ExtractDiag, Reshape, ReduceSum, DotGeneral, BroadcastInDim, Mul and Transpose, so its
// derivatives are those rules composed along the chosen path, including the index bookkeeping
// (diagonals, squeezed broadcast dims, private sums, the final transpose) that no single-op test
// exercises.
//
// For a catalog of expressions (matrix product, batched products with left-aligned ellipsis,
// trace, diagonal, per-slice trace, outer products (batched ones lowered to broadcast
// multiplies), full contractions, a chain whose path is not left to right, an MPS
// transfer-matrix step with a conjugated operand, private sums, extent-1 broadcasting), in
// F64 and C64 with every non-empty subset of the operands tracked: the eager engine's vjp,
// backward, jvp and both Hessian-vector products, and the dataflow engine's gradients, equal the
// traced program's (support/engine_checks.hpp); the traced derivatives equal central finite
// differences, pass the dot-product test and second order (support/ad_checks.hpp); the tracked
// inputs also reach einsum through reshape, pad and slice, and concatenate. In F32 and C32 the
// engines agree at single-precision tolerance and the JVP agrees with the double one. The
// companions built on einsum (tensordot, outer, kron, trace) run through the same matrix.
#include <catch2/catch.hpp>

#include "eager/surface.hpp"
#include "einsum/einsum.hpp"
#include "einsum/plan.hpp"
#include "einsum/products.hpp"
#include "support/engine_checks.hpp"

using namespace tfe;
using namespace tfe::testing;

namespace {

// Operand k of the einsum is input `input`, conjugated first when `conj` (so one input can enter
// twice, as A and conj(A) in a transfer matrix).
struct Operand {
  size_t input = 0;
  bool conj = false;
};

// The companions of einsum/products.hpp, each on fixed parameters (see function_of).
enum class Companion { None, Tensordot, Outer, Kron, Trace };

struct EinsumCase {
  std::string name;
  std::string subscripts;
  std::vector<Dims> inputs;
  std::vector<Operand> operands;         // empty: operand k is input k, not conjugated
  Companion companion = Companion::None; // when set, it replaces the subscripts
};

const std::vector<EinsumCase>& catalog() {
  static const std::vector<EinsumCase> cases = {
      {"matrix product", "ij,jk->ik", {{3, 4}, {4, 2}}, {}},
      {"batched product (ellipsis)", "ij...,jk...->ik...", {{3, 4, 2}, {4, 2, 2}}, {}},
      // The second operand's "..." covers one dim fewer: it acts as [4,2,2,1] (left-aligned),
      // broadcast along the last batch dim, so its gradient sums over that dim.
      {"batched product, left-aligned ellipsis broadcast",
       "ij...,jk...->ik...",
       {{3, 4, 2, 3}, {4, 2, 2}},
       {}},
      {"trace", "ii->", {{4, 4}}, {}},
      {"diagonal", "ii->i", {{4, 4}}, {}},
      {"trace of each slice", "iij->j", {{3, 3, 2}}, {}},
      {"outer product", "i,j->ij", {{3}, {4}}, {}},
      {"batched outer product", "bi,bj->bij", {{2, 3}, {2, 4}}, {}},
      // Batched steps summing nothing are broadcast multiplies: one with a contraction of
      // extent 1 (a reshape drops k first), and one whose first step is an intermediate.
      {"batched contraction of extent 1", "bik,bkj->bij", {{2, 3, 1}, {2, 1, 2}}, {}},
      {"outer product of three", "bi,bj,bk->bijk", {{2, 2}, {2, 3}, {2, 2}}, {}},
      // No free dims: one inner product per batch element, on a transposed operand.
      {"batched full contraction", "bij,bji->b", {{2, 3, 2}, {2, 2, 3}}, {}},
      // Cheapest as A (B C): the first step contracts operands 1 and 2 (checked below).
      {"chain of three, path not left to right", "ij,jk,kl->il", {{6, 5}, {5, 6}, {6, 2}}, {}},
      {"chain of three, implicit output", "ij,jk,kl", {{6, 5}, {5, 6}, {6, 2}}, {}},
      {"MPS transfer step, separate conj operand",
       "ac,asb,csd->bd",
       {{3, 3}, {3, 2, 4}, {3, 2, 4}},
       {{0, false}, {1, false}, {2, true}}},
      // The usual E' = A^H E A: A enters twice, once conjugated, so the function is not
      // holomorphic in A and has a non-zero Hessian.
      {"MPS transfer step, A and conj(A)",
       "ac,asb,csd->bd",
       {{3, 3}, {3, 2, 4}},
       {{0, false}, {1, false}, {1, true}}},
      {"summed index in one operand", "ij->i", {{3, 4}}, {}},
      {"summed index private to one of two operands", "ij,jk->i", {{3, 4}, {4, 2}}, {}},
      {"extent 1 broadcast, elementwise", "ij,ij->ij", {{3, 1}, {3, 4}}, {}},
      // j has extent 1 in the first operand and 4 in the second: the first is constant along j.
      {"extent 1 broadcast, contracted index", "ij,jk->ik", {{3, 1}, {4, 2}}, {}},
      {"transpose of three dims", "ijk->kji", {{2, 3, 4}}, {}},
      {"diagonal times matrix", "ii,ij->j", {{3, 3}, {3, 2}}, {}},
      {"tensordot over dims (1, 2) of a and (1, 0) of b",
       "",
       {{2, 3, 4}, {4, 3, 2}},
       {},
       Companion::Tensordot},
      {"outer product of a matrix and a vector", "", {{2, 3}, {3}}, {}, Companion::Outer},
      {"kron of two matrices", "", {{2, 3}, {2, 2}}, {}, Companion::Kron},
      {"kron of a matrix and a vector (padded as a column)",
       "",
       {{2, 2}, {3}},
       {},
       Companion::Kron},
      {"trace above the diagonal of a batch", "", {{3, 4, 2}}, {}, Companion::Trace},
  };
  return cases;
}

EngineFunction function_of(const EinsumCase& c) {
  std::vector<Operand> operands = c.operands;
  if (operands.empty())
    for (size_t k = 0; k < c.inputs.size(); ++k) operands.push_back({k, false});
  std::string subscripts = c.subscripts;
  Companion companion = c.companion;
  return engine_function(c.name, [subscripts, operands, companion](const auto& x) {
    using V = typename std::decay_t<decltype(x)>::value_type;
    switch (companion) {
    case Companion::Tensordot: {
      std::array<int64_t, 2> axes_a{1, 2}, axes_b{1, 0};
      return std::vector<V>{einsum::tensordot<V>(x[0], x[1], axes_a, axes_b, nullptr)};
    }
    case Companion::Outer: return std::vector<V>{einsum::outer<V>(x[0], x[1], nullptr)};
    case Companion::Kron: return std::vector<V>{einsum::kron<V>(x[0], x[1], nullptr)};
    case Companion::Trace: return std::vector<V>{einsum::trace<V>(x[0], 1)};
    case Companion::None: break;
    }
    std::vector<V> in;
    for (const Operand& o : operands)
      in.push_back(o.conj ? testing::unary(ops::OpCode::Conj, x[o.input]) : x[o.input]);
    return std::vector<V>{einsum::einsum<V>(subscripts, std::span<const V>(in), nullptr)};
  });
}

std::vector<Tensor> inputs_of(const EinsumCase& c, DType d, uint64_t seed) {
  // Drawn in double precision and converted, so single-precision inputs equal the double ones.
  DType dbl = is_complex(d) ? DType::C64 : DType::F64;
  std::vector<Tensor> in;
  for (const Dims& s : c.inputs) {
    Tensor t = random_tensor(dbl, s, seed++);
    in.push_back(d == dbl ? t : eager::cast(t, d));
  }
  return in;
}

std::vector<int64_t> every_leaf(const TracedCase& t) {
  std::vector<int64_t> all;
  for (size_t k = 0; k < t.leaves.size(); ++k) all.push_back(static_cast<int64_t>(k));
  return all;
}

// The traced checks of one double-precision case: finite differences and the dot-product test
// with two seeds, second order, and a JVP that is not identically zero (a zero one would make
// the finite-difference comparison weaker than it looks).
void traced_checks(const EngineCase& c) {
  TracedCase t = traced_case(c);
  std::vector<int64_t> all = every_leaf(t);
  for (uint64_t seed : {1u, 2u}) {
    AdCheckResult fd = check_jvp_fd(*t.program, t.leaves, all, seed);
    INFO(fd.why);
    CHECK(fd.ok);
    AdCheckResult tr = check_transpose(*t.program, t.leaves, all, seed);
    INFO(tr.why);
    CHECK(tr.ok);
  }
  AdCheckResult so = check_second_order(*t.program, t.leaves, all, 3);
  INFO(so.why);
  CHECK(so.ok);
  std::vector<Tensor> args = t.leaves;
  for (const Tensor& l : t.leaves) args.push_back(random_tensor(l.dtype(), l.shape(), 5));
  std::vector<Tensor> jvp = run_program(*ad::jvp(*t.program, all).program, args);
  CHECK(max_abs(jvp.back()) > 1e-3);
}

bool is_double(DType d) { return d == DType::F64 || d == DType::C64; }

} // namespace

TEST_CASE("einsum AD: the chain case's path is not left to right", "[einsum][ad]") {
  // Otherwise the "path matters" cases would differentiate the same ops as a plain chain.
  for (const char* s : {"ij,jk,kl->il", "ij,jk,kl"}) {
    std::vector<Shape> shapes{Shape{6, 5}, Shape{5, 6}, Shape{6, 2}};
    einsum::Plan plan = einsum::make_plan(s, shapes);
    REQUIRE(plan.path.pairs.size() == 2);
    CHECK(plan.path.pairs[0] == std::pair<int, int>{1, 2});
  }
}

TEST_CASE("einsum AD: every engine, finite differences, second order", "[einsum][ad]") {
  EngineCounts counts;
  int64_t traced = 0;
  for (const EinsumCase& ec : catalog()) {
    EngineFunction f = function_of(ec);
    for (DType d : {DType::F64, DType::C64, DType::F32, DType::C32}) {
      INFO(ec.name << " (" << ec.subscripts << ") " << dtype_name(d));
      const bool dbl = is_double(d);
      std::vector<Tensor> inputs = inputs_of(ec, d, 11);
      const size_t n = inputs.size();
      // Every non-empty subset of the inputs tracked (the rest untracked constants), so each
      // operand position is differentiated alone and with the others.
      for (uint32_t mask = 1; mask < (1u << n); ++mask) {
        EngineCase c;
        c.function = &f;
        c.inputs = inputs;
        for (size_t i = 0; i < n; ++i) c.active.push_back(((mask >> i) & 1u) != 0);
        c.second_order = dbl;
        c.tol = dbl ? 1e-12 : 1e-5;
        c.seed = 7 + mask;
        INFO("tracked mask " << mask);
        AdCheckResult r = check_engines(c, &counts);
        INFO(r.why);
        CHECK(r.ok);
        if (!dbl) continue;
        traced_checks(c);
        ++traced;
      }
      if (!dbl) {
        // The single-precision JVP against the double one on the same (converted) inputs.
        DType up = is_complex(d) ? DType::C64 : DType::F64;
        auto program = [&](const std::vector<Tensor>& in) {
          std::vector<graph::Value> args;
          for (const Tensor& t : in) args.push_back(graph::argument(t.dtype(), Shape(t.shape())));
          return graph::make_program(args, f(args));
        };
        std::vector<int64_t> all;
        for (size_t i = 0; i < n; ++i) all.push_back(static_cast<int64_t>(i));
        AdCheckResult r = check_single_vs_double(*program(inputs), *program(inputs_of(ec, up, 11)),
                                                 inputs, all, 3);
        INFO(r.why);
        CHECK(r.ok);
        continue;
      }
      // The tracked inputs computed by ops recorded before einsum.
      for (Provenance p : {Provenance::Reshape, Provenance::PadSlice, Provenance::Concatenate}) {
        bool applies = true;
        for (const Tensor& t : inputs) applies &= provenance_applies(p, t.shape());
        if (!applies) continue;
        INFO(provenance_name(p));
        EngineCase c{&f, inputs, std::vector<bool>(n, true), p, true, false, 1e-12, 41};
        AdCheckResult r = check_engines(c, &counts);
        INFO(r.why);
        CHECK(r.ok);
        traced_checks(c);
        ++traced;
      }
    }
  }
  WARN("einsum engine matrix: " << catalog().size() << " expressions, " << counts.cases
                                << " engine cases, " << counts.requests
                                << " derivative comparisons, " << traced << " traced check sets");
  CHECK(counts.cases > 300);
}

TEST_CASE("einsum AD: the engine check detects a wrong derivative", "[einsum][ad]") {
  // Eager and dataflow run an einsum without the conjugation the traced program has: the values
  // differ, and so do the derivatives, and check_engines must say so. This guards the matrix
  // above against comparisons that cannot fail.
  const std::string s = "ac,asb,csd->bd";
  auto body = [s](bool conj) {
    return [s, conj](const auto& x) {
      using V = typename std::decay_t<decltype(x)>::value_type;
      std::vector<V> in{x[0], x[1], conj ? testing::unary(ops::OpCode::Conj, x[1]) : x[1]};
      return std::vector<V>{einsum::einsum<V>(s, std::span<const V>(in), nullptr)};
    };
  };
  EngineFunction right = engine_function("right", body(true));
  EngineFunction wrong = engine_function("wrong", body(false));
  EngineFunction mixed{"mixed", right.traced, wrong.eager, wrong.dataflow, right.plain};
  EinsumCase ec{"", s, {{3, 3}, {3, 2, 4}}, {}};
  std::vector<Tensor> inputs = inputs_of(ec, DType::C64, 3);
  EngineCase c{&mixed, inputs, {true, true}, Provenance::Direct, true, true, 1e-12, 5};
  AdCheckResult r = check_engines(c);
  CHECK_FALSE(r.ok);
  CHECK(r.why.find("eager vjp") != std::string::npos);
  CHECK(r.why.find("dataflow gradient") != std::string::npos);
  // The same function on both sides passes.
  c.function = &right;
  AdCheckResult same = check_engines(c);
  INFO(same.why);
  CHECK(same.ok);
}
