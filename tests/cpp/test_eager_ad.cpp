// Eager deferred semantic AD in C++, through the recording value type and
// the engine: what is recorded, that helper nodes are owned by the trace, that shared histories
// are visited once, the promotion replay, concatenate pinning and cache identity.
#include <catch2/catch.hpp>

#include "ad/recording/engine.hpp"
#include "support/eager_env.hpp"
#include "ad/recording/semantic.hpp"
#include "graph/fusion.hpp"
#include "support/tensor_testing.hpp"

#include <map>
#include <set>

using namespace tfe;
using namespace tfe::testing;
namespace ae = tfe::ad::recording;
using ops::OpCode;

namespace {

using Env = EagerEnv;

ae::Recorded var(const Tensor& t) { return {t, ae::tracked_leaf(t)}; }
ae::Recorded constant(const Tensor& t) { return {t, {}}; }

ae::Recorded op(OpCode code, std::initializer_list<ae::Recorded> in,
                ops::Params p = ops::NoParams{}) {
  std::vector<ae::Recorded> v(in);
  return eager::call<ae::Recorded>(code, std::span<const ae::Recorded>(v), p);
}

ae::Recorded sum_all(const ae::Recorded& x) { return eager::sum(x, std::span<const int64_t>{}); }

Tensor grad_of(const ae::Recorded& leaf) {
  std::lock_guard lock(leaf.ref.node->leaf->mutex);
  REQUIRE(leaf.ref.node->leaf->grad.has_value());
  return *leaf.ref.node->leaf->grad;
}

// Counts raw nodes of each kind reachable from r (distinct nodes).
std::map<OpCode, int> op_counts(const ae::RawRef& r) {
  std::map<OpCode, int> counts;
  std::set<const ae::RawNode*> seen;
  std::vector<const ae::RawNode*> stack{r.node.get()};
  while (!stack.empty()) {
    const ae::RawNode* n = stack.back();
    stack.pop_back();
    if (!seen.insert(n).second) continue;
    if (n->kind == ae::RawKind::Op) ++counts[n->op];
    for (const ae::RawRef& i : n->inputs) stack.push_back(i.node.get());
  }
  return counts;
}

} // namespace

TEST_CASE("eager AD: an op with no tracked operand records nothing", "[ad][eager]") {
  ae::Recorded a = constant(random_tensor(DType::F64, {3}, 1));
  ae::Recorded b = op(OpCode::Exp, {a});
  CHECK_FALSE(b.ref);
  ae::Recorded x = var(random_tensor(DType::F64, {3}, 2));
  ae::Recorded y = op(OpCode::Mul, {x, a});
  REQUIRE(y.ref);
  CHECK(y.ref.node->inputs[1].node->kind == ae::RawKind::ConstantLeaf); // a constant leaf
  CHECK(y.ref.node->value.shape() == Dims{3});
}

TEST_CASE("promotion: recording inserts Convert exactly where the execution dtype differs",
          "[ad][eager][promotion]") {
  // One tracked F32 operand beside tracked F64 ones: every promotion family records exactly one
  // Convert (F32 -> F64), predicate and index operands are never converted.
  ae::Recorded d = var(tensor_of(DType::F64, {2}, {1.25, -2.5}));
  ae::Recorded f = var(tensor_of(DType::F32, {2}, {0.5, 4.0}));
  ae::Recorded p = constant(tensor_of(DType::Bool, {2}, {1, 0}));
  ae::Recorded idx = constant(int_tensor(DType::I32, {1}, {1}));
  auto converts = [](const ae::Recorded& r) {
    REQUIRE(r.ref);
    return op_counts(r.ref)[OpCode::Convert];
  };
  CHECK(converts(op(OpCode::Add, {d, f})) == 1);
  CHECK(converts(op(OpCode::Add, {f, d})) == 1);
  CHECK(converts(op(OpCode::Compare, {f, d}, ops::CompareParams{ops::CompareDir::Lt})) == 1);
  CHECK(converts(op(OpCode::Select, {p, f, d})) == 1);
  CHECK(converts(op(OpCode::Clamp, {d, f, d})) == 1);
  std::array<ae::Recorded, 3> parts{d, f, d};
  CHECK(converts(eager::concatenate(std::span<const ae::Recorded>(parts), 0)) == 1);
  CHECK(converts(op(OpCode::DotGeneral, {f, d}, ops::DotGeneralParams{{0}, {0}, {}, {}})) == 1);
  ae::Recorded f1 = var(tensor_of(DType::F32, {1}, {3.0}));
  CHECK(converts(op(OpCode::Scatter, {d, idx, f1}, ops::AxisParams{0})) == 1);
  CHECK(converts(op(OpCode::DynamicUpdateSlice, {d, f1, idx})) == 1);
  // Same dtypes and unary ops: no Convert.
  CHECK(converts(op(OpCode::Mul, {d, d})) == 0);
  CHECK(converts(op(OpCode::Exp, {f})) == 0);
  // An untracked operand is converted before it enters the trace: it becomes a constant leaf of
  // the execution dtype, so the recording holds no Convert for it.
  ae::Recorded i = constant(int_tensor(DType::I32, {2}, {1, 2}));
  ae::Recorded s = op(OpCode::Select, {p, d, i});
  CHECK(converts(s) == 0);
  CHECK(s.ref.node->inputs[2].node->kind == ae::RawKind::ConstantLeaf);
  CHECK(s.ref.node->inputs[2].node->value.dtype() == DType::F64);
}

TEST_CASE("promotion: promoted non-Add replays (concatenate and dot_general)",
          "[ad][eager][promotion]") {
  Env env;
  // Concatenate of a tracked F64 and a tracked C64: the F64 cotangent is the real projection.
  ae::Recorded r = var(tensor_of(DType::F64, {2}, {1, 2}));
  ae::Recorded c = var(tensor_of(DType::C64, {3}, {0, 0, 0}));
  std::array<ae::Recorded, 2> parts{r, c};
  ae::Recorded cat = eager::concatenate(std::span<const ae::Recorded>(parts), 0);
  CHECK(cat.value.dtype() == DType::C64);
  Tensor seed = Tensor::empty(DType::C64, {5});
  for (int64_t k = 0; k < 5; ++k)
    set_value(seed, {k}, {0.5 * static_cast<double>(k), 1.0 - static_cast<double>(k)});
  std::vector<ae::Recorded> xs{r, c};
  auto g = ae::vjp(cat, xs, ae::Recorded{seed, {}}, env.caches, false);
  REQUIRE(g[0]);
  CHECK(g[0]->value.dtype() == DType::F64);
  CHECK(identical(g[0]->value, tensor_of(DType::F64, {2}, {0.0, 0.5})));
  CHECK(g[1]->value.dtype() == DType::C64);
  CHECK(value_at(g[1]->value, {0}) == std::complex<double>(1.0, -1.0));
  CHECK(value_at(g[1]->value, {2}) == std::complex<double>(2.0, -3.0));
  // DotGeneral of an F32 matrix and an F64 vector: the F32 leaf's gradient is F32.
  ae::Recorded a = var(tensor_of(DType::F32, {2, 2}, {1, 2, 3, 4}));
  ae::Recorded v = constant(tensor_of(DType::F64, {2, 1}, {1, -1}));
  ae::Recorded mv = eager::matmul(a, v);
  CHECK(mv.value.dtype() == DType::F64);
  auto ga = ae::vjp(sum_all(mv), std::vector<ae::Recorded>{a}, std::nullopt, env.caches, false);
  REQUIRE(ga[0]);
  CHECK(ga[0]->value.dtype() == DType::F32);
  CHECK(identical(ga[0]->value, tensor_of(DType::F32, {2, 2}, {1, 1, -1, -1})));
}

TEST_CASE("trace lifetime: temporaries released before differentiating change nothing",
          "[ad][eager][lifetime]") {
  Env env;
  ae::Recorded x = var(tensor_of(DType::F64, {2}, {0.5, 1.5}));
  ae::Recorded y;
  {
    // A tracked F64 chain with a temporary untracked exponent, then a mixed F64 * C64 op; every
    // temporary goes out of scope here.
    ae::Recorded two = constant(tensor_of(DType::F64, {2}, {2, 2}));
    ae::Recorded sq = op(OpCode::Pow, {x, two});
    ae::Recorded w = constant(tensor_of(DType::C64, {2}, {0, 0}));
    set_value(w.value, {0}, {1.0, 2.0});
    set_value(w.value, {1}, {-0.5, 0.25});
    y = op(OpCode::Mul, {sq, w}); // C64: y = x^2 w
  }
  // backward of sum(Re y): d/dx = 2 x Re(w)
  ae::Recorded loss = sum_all(op(OpCode::Real, {y}));
  ae::commit(ae::backward(loss, std::nullopt, env.caches));
  CHECK(close(grad_of(x), tensor_of(DType::F64, {2}, {2 * 0.5 * 1.0, 2 * 1.5 * -0.5}), 1e-14, 0));
  // VJP with a complex cotangent: the real projection Re(conj(2 x w) * ybar)
  Tensor ybar = Tensor::empty(DType::C64, {2});
  set_value(ybar, {0}, {0.5, -1.0});
  set_value(ybar, {1}, {2.0, 0.5});
  auto g = ae::vjp(y, std::vector<ae::Recorded>{x}, ae::Recorded{ybar, {}}, env.caches, false);
  REQUIRE(g[0]);
  auto w0 = std::complex<double>(1.0, 2.0), w1 = std::complex<double>(-0.5, 0.25);
  double want0 = (std::conj(2 * 0.5 * w0) * std::complex<double>(0.5, -1.0)).real();
  double want1 = (std::conj(2 * 1.5 * w1) * std::complex<double>(2.0, 0.5)).real();
  CHECK(close(g[0]->value, tensor_of(DType::F64, {2}, {want0, want1}), 1e-14, 0));
  // JVP: the complex directional derivative 2 x w dx
  std::vector<std::optional<ae::Recorded>> t{ae::Recorded{tensor_of(DType::F64, {2}, {1, -2}), {}}};
  auto j = ae::jvp(y, std::vector<ae::Recorded>{x}, t, env.caches, false);
  REQUIRE(j);
  CHECK(std::abs(value_at(j->value, {0}) - 2 * 0.5 * w0 * 1.0) < 1e-14);
  CHECK(std::abs(value_at(j->value, {1}) - 2 * 1.5 * w1 * -2.0) < 1e-14);
}

TEST_CASE("trace lifetime: a concatenate with a dropped exactified constant",
          "[ad][eager][lifetime]") {
  Env env;
  ae::Recorded x = var(tensor_of(DType::F64, {2}, {1, 2}));
  ae::Recorded out;
  {
    ae::Recorded k = constant(tensor_of(DType::F64, {3}, {7, 8, 9}));
    ae::Recorded doubled = op(OpCode::Add, {x, x});
    std::array<ae::Recorded, 2> parts{doubled, k};
    out = eager::concatenate(std::span<const ae::Recorded>(parts), 0);
  }
  auto g =
      ae::vjp(out, std::vector<ae::Recorded>{x},
              ae::Recorded{tensor_of(DType::F64, {5}, {1, 2, 3, 4, 5}), {}}, env.caches, false);
  REQUIRE(g[0]);
  CHECK(identical(g[0]->value, tensor_of(DType::F64, {2}, {2, 4})));
}

TEST_CASE("trace lifetime: a diamond-shaped history is visited once per node",
          "[ad][eager][lifetime]") {
  ae::Recorded x = var(tensor_of(DType::F64, {4}, {1, 2, 3, 4}));
  ae::Recorded y = x;
  // 20 diamonds: y -> (sin y, cos y) -> sum: 3 nodes per level, each shared branch point reused.
  for (int i = 0; i < 20; ++i) y = op(OpCode::Add, {op(OpCode::Sin, {y}), op(OpCode::Cos, {y})});
  std::array<ae::RawRef, 1> roots{y.ref};
  ops::ShapeWitness witness;
  ae::Semantic s = ae::analyze(roots, {}, witness);
  CHECK(s.visited == 20 * 3 + 1); // every op node once, plus the leaf
  CHECK(s.program->order.size() == 60);
}

TEST_CASE("symbolic shapes: symbolic leaves serve every shape with the same equality pattern",
          "[ad][eager][shapes]") {
  Env env;
  for (int64_t n : {3, 5, 8}) {
    ae::Recorded x = var(random_tensor(DType::F64, {n}, 1));
    ae::Recorded y = var(random_tensor(DType::F64, {n}, 2));
    ae::commit(ae::backward(sum_all(op(OpCode::Mul, {x, y})), std::nullopt, env.caches));
    CHECK(identical(grad_of(x), y.value));
  }
  // one derivative program for the three lengths; one compiled program per length
  CHECK(env.transforms.stats().entries == 1);
  CHECK(env.transforms.stats().hits == 2);
  CHECK(env.prepared.stats().entries == 3);
}

TEST_CASE("symbolic shapes: concatenate shapes are pinned; caches never mix them",
          "[ad][eager][shapes]") {
  Env env;
  auto run = [&](int64_t na, int64_t nb) {
    ae::Recorded a = var(random_tensor(DType::F64, {na}, 1));
    ae::Recorded b = var(random_tensor(DType::F64, {nb}, 2));
    std::array<ae::Recorded, 2> parts{a, b};
    ae::Recorded cat = eager::concatenate(std::span<const ae::Recorded>(parts), 0);
    Tensor w = random_tensor(DType::F64, {na + nb}, 3);
    auto g = ae::vjp(cat, std::vector<ae::Recorded>{a, b}, ae::Recorded{w, {}}, env.caches, false);
    CHECK(identical(g[0]->value, w.sliced(Dims{0}, Dims{na}, Dims{1}).reshaped_view({na}).value()));
    CHECK(close(g[1]->value, eager::contiguous(w.sliced(Dims{na}, Dims{na + nb}, Dims{1})), 0, 0));
  };
  run(2, 3);
  int64_t entries = env.transforms.stats().entries;
  run(3, 2); // compatible shapes, different split: a different derivative program
  CHECK(env.transforms.stats().entries == entries + 1);
  CHECK(env.prepared.stats().entries == 2);
  run(2, 3); // the first again: hits
  CHECK(env.transforms.stats().entries == entries + 1);
  CHECK(env.transforms.stats().hits >= 1);
}

TEST_CASE("derivative requests bind the recorded forward values instead of recomputing them",
          "[ad][eager]") {
  Env env;
  ae::Recorded x = var(tensor_of(DType::F64, {3}, {0.25, -0.5, 1.0}));
  ae::Recorded y = op(OpCode::Exp, {op(OpCode::Sin, {x})});
  std::array<ae::RawRef, 1> roots{y.ref};
  ops::ShapeWitness witness;
  ae::Semantic sem = ae::analyze(roots, {}, witness);
  REQUIRE(sem.computed.size() == sem.program->order.size());
  auto d = ad::transform_cached(env.transforms, *sem.program, ad::Transform::Vjp, {0});
  std::vector<int32_t> given;
  std::vector<Tensor> args{sem.values[0], tensor_of(DType::F64, {3}, {1, 2, -1})};
  for (const ad::PrimalNode& pn : d->primal) {
    given.push_back(pn.position);
    args.push_back(sem.computed[static_cast<size_t>(pn.source_position)].node->value);
  }
  CHECK(given.size() == 2); // sin(x) and exp(sin(x))
  std::vector<ops::ConcreteMeta> metas{{DType::F64, {3}}, {DType::F64, {3}}};
  // Unfused, so each op is an instruction to count.
  graph::CompiledPtr recompute = graph::compile(*d->program, metas, {}, backend::cpu(), false);
  graph::CompiledPtr bound = graph::compile(*d->program, metas, given, backend::cpu(), false);
  auto count = [](const graph::CompiledProgram& c, OpCode code) {
    int n = 0;
    for (const graph::Instruction& i : c.code) n += i.op == code;
    return n;
  };
  CHECK(count(*recompute, OpCode::Sin) == 1);
  CHECK(count(*recompute, OpCode::Exp) == 1);
  CHECK(count(*bound, OpCode::Sin) == 0); // the forward pass does not run again
  CHECK(count(*bound, OpCode::Exp) == 0);
  std::vector<Tensor> a = graph::execute(*recompute, std::span(args).first(2), {});
  std::vector<Tensor> b = graph::execute(*bound, args, {});
  CHECK(identical(a[1], b[1]));

  // A recorded VJP hangs off the original trace: the only Sin node is the recorded one.
  auto g =
      ae::vjp(y, std::vector<ae::Recorded>{x}, ae::Recorded{sem.values[0], {}}, env.caches, true);
  REQUIRE(g[0]);
  CHECK(op_counts(g[0]->ref)[OpCode::Sin] == 1);
  CHECK(op_counts(g[0]->ref)[OpCode::Exp] == 1);
}

TEST_CASE("backward recomputes cheap recorded values in fused regions, with the same bits",
          "[ad][eager]") {
  // sin, * x, tanh, + x, cos, twice: with fusion the products and sums are recomputed from the
  // bound sin and tanh values instead of read back; without it every value is bound. Both must
  // give the same bits, for a real and a complex chain.
  for (DType dt : {DType::F64, DType::C64}) {
    CAPTURE(static_cast<int>(dt));
    Tensor xv = random_tensor(dt, {4099}, 7);
    auto gradient = [&](bool fuse) {
      Env env;
      const bool before = graph::fusion_enabled();
      graph::set_fusion_enabled(fuse);
      ae::Recorded x = var(xv);
      ae::Recorded y = x;
      for (int r = 0; r < 2; ++r) {
        y = op(OpCode::Sin, {y});
        y = op(OpCode::Mul, {y, x});
        y = op(OpCode::Tanh, {y});
        y = op(OpCode::Add, {y, x});
        y = op(OpCode::Cos, {y});
      }
      Tensor seed = random_tensor(dt, {4099}, 8);
      std::vector<ae::LeafGrad> g = ae::backward(y, seed, env.caches);
      graph::set_fusion_enabled(before);
      REQUIRE(g.size() == 1);
      return g[0].grad;
    };
    CHECK(identical(gradient(true), gradient(false)));
  }
}

TEST_CASE("a recorded op with more operands than a raw node holds inline", "[ad][eager]") {
  Env env;
  std::vector<ae::Recorded> parts;
  for (int64_t i = 0; i < 5; ++i) parts.push_back(var(tensor_of(DType::F64, {2}, {1.0 * i, 2.0})));
  ae::Recorded cat = eager::concatenate(std::span<const ae::Recorded>(parts), 0);
  REQUIRE(cat.ref.node->inputs.size() == 5);
  for (size_t i = 0; i < 5; ++i) // each operand pinned by its own Reshape over its own leaf
    CHECK(cat.ref.node->inputs[i].node->inputs[0].node == parts[i].ref.node);
  Tensor w = tensor_of(DType::F64, {10}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  auto g = ae::vjp(cat, parts, ae::Recorded{w, {}}, env.caches, false);
  for (size_t i = 0; i < 5; ++i) {
    REQUIRE(g[i]);
    double k = 2.0 * static_cast<double>(i);
    CHECK(identical(g[i]->value, tensor_of(DType::F64, {2}, {k + 1, k + 2})));
  }
}
