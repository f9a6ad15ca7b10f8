// einsum on eager tensors against a naive loop over every index assignment: traces, diagonals,
// sums, broadcasting, left-aligned ellipsis, mixed dtypes, many operands (greedy path), and the
// plan cache.
#include <catch2/catch.hpp>

#include <complex>
#include <map>

#include "core/error.hpp"
#include "eager/surface.hpp"
#include "einsum/einsum.hpp"
#include "support/tensor_testing.hpp"

using namespace tfe;
using namespace tfe::testing;

namespace {

// sum over every label assignment of the product of the operands' elements (an extent of 1
// reads index 0), accumulated at the output labels' position.
Tensor naive(const std::string& subscripts, const std::vector<Tensor>& xs, DType dtype) {
  std::vector<Shape> shapes;
  for (const Tensor& x : xs) shapes.push_back(Shape(x.shape()));
  einsum::Problem p = einsum::resolve(einsum::parse(subscripts, xs.size()), shapes);
  std::vector<int> used;
  for (const auto& ls : p.operands)
    for (int l : ls)
      if (std::find(used.begin(), used.end(), l) == used.end()) used.push_back(l);
  Dims out_shape, loop_shape;
  for (int l : p.output) out_shape.push_back(p.extent[static_cast<size_t>(l)].value());
  for (int l : used) loop_shape.push_back(p.extent[static_cast<size_t>(l)].value());
  Tensor out = Tensor::empty(DType::C64, out_shape);
  for_each_index(out_shape, [&](const Dims& i) { set_value(out, i, 0.0); });
  for_each_index(loop_shape, [&](const Dims& at) {
    std::map<int, int64_t> value;
    for (size_t u = 0; u < used.size(); ++u) value[used[u]] = at[u];
    std::complex<double> prod = 1.0;
    for (size_t k = 0; k < xs.size(); ++k) {
      Dims idx;
      for (size_t d = 0; d < p.operands[k].size(); ++d)
        idx.push_back(xs[k].shape()[d] == 1 ? 0 : value[p.operands[k][d]]);
      prod *= value_at(xs[k], idx);
    }
    Dims o;
    for (int l : p.output) o.push_back(value[l]);
    set_value(out, o, value_at(out, o) + prod);
  });
  return eager::cast(out, dtype);
}

Tensor run(const std::string& s, const std::vector<Tensor>& xs,
           einsum::PlanCache* cache = nullptr) {
  return einsum::einsum(s, std::span<const Tensor>(xs), cache);
}

void check(const std::string& s, const std::vector<Tensor>& xs) {
  Tensor got = run(s, xs);
  DType d = xs.front().dtype();
  for (const Tensor& x : xs) d = join(d, x.dtype());
  Tensor want = naive(s, xs, d == DType::Bool ? DType::I64 : d);
  if (d == DType::Bool) want = eager::cast(want, DType::Bool);
  std::string why;
  double tol = d == DType::F32 || d == DType::C32 ? 1e-5 : 1e-10;
  bool ok = close(got, want, tol, tol, &why);
  INFO(s << ": " << why);
  CHECK(got.dtype() == d);
  CHECK(ok);
}

Tensor rnd(DType d, const Dims& shape, uint64_t seed) { return random_tensor(d, shape, seed); }

} // namespace

TEST_CASE("einsum eager: single-operand forms", "[einsum]") {
  Tensor sq = rnd(DType::F64, {4, 4}, 1), cube = rnd(DType::F64, {3, 3, 5}, 2);
  check("ii->", {sq});
  check("ii", {sq});
  check("ii->i", {sq});
  check("ij->ji", {sq});
  check("ij->", {sq});
  check("ij->j", {sq});
  check("iij->j", {cube});
  check("iij->ji", {cube});
  check("ijk->kji", {cube});
  check("", {rnd(DType::F64, {}, 3)});
  check("iii->i", {rnd(DType::F64, {3, 3, 3}, 4)});
  check("...->...", {cube});
  check("i...->...", {cube});
}

TEST_CASE("einsum eager: two or more operands", "[einsum]") {
  Tensor a = rnd(DType::F64, {2, 3}, 1), b = rnd(DType::F64, {3, 4}, 2),
         c = rnd(DType::F64, {4, 5}, 3), v = rnd(DType::F64, {3}, 4);
  check("ij,jk->ik", {a, b});
  check("ij,jk", {a, b});
  check("ij,jk->ki", {a, b});
  check("ij,jk,kl->il", {a, b, c});
  check("ij,jk,kl->", {a, b, c});
  check("ij,j->i", {a, v});
  check("ij,ij->ij", {a, a});
  check("ij,ij->", {a, a});
  check("ij,kl->ijkl", {a, b});
  check("i,j", {v, rnd(DType::F64, {2}, 5)});
  check("ij,jk->", {a, b});
  check("ijk,jil->kl", {rnd(DType::F64, {2, 3, 4}, 6), rnd(DType::F64, {3, 2, 5}, 7)});
  check("ii,ij->j", {rnd(DType::F64, {3, 3}, 8), b});
  check(",ij->ij", {rnd(DType::F64, {}, 9), a});
  check("ij,ij,ij->i", {a, a, a});
  check("bij,bjk->bik", {rnd(DType::F64, {2, 3, 4}, 10), rnd(DType::F64, {2, 4, 5}, 11)});
}

TEST_CASE("einsum eager: ellipsis (left-aligned) and size-1 broadcasting", "[einsum]") {
  check("ij...,jk...->ik...", {rnd(DType::F64, {2, 3, 4, 5}, 1), rnd(DType::F64, {3, 2, 4, 5}, 2)});
  // operand 1's "..." covers one dim: it pairs with operand 0's first ellipsis dim.
  check("ij...,jk...->ik...", {rnd(DType::F64, {2, 3, 4, 5}, 3), rnd(DType::F64, {3, 2, 4}, 4)});
  check("...ij,...jk", {rnd(DType::F64, {4, 2, 3}, 5), rnd(DType::F64, {4, 3, 2}, 6)});
  check("ij...,jk...->ik...", {rnd(DType::F64, {2, 3, 1, 5}, 7), rnd(DType::F64, {3, 2, 4}, 8)});
  check("ij,ij->ij", {rnd(DType::F64, {2, 1}, 9), rnd(DType::F64, {2, 3}, 10)});
  check("ij,jk->ik", {rnd(DType::F64, {2, 1}, 11), rnd(DType::F64, {3, 4}, 12)});
  check("i,i->", {rnd(DType::F64, {1}, 13), rnd(DType::F64, {4}, 14)});
  check("i...,i...->...", {rnd(DType::F64, {3}, 15), rnd(DType::F64, {3, 2}, 16)});
}

TEST_CASE("einsum eager: dtypes promote; Bool stays Bool", "[einsum]") {
  check("ij,jk", {rnd(DType::F32, {2, 3}, 1), rnd(DType::F64, {3, 2}, 2)});
  check("ij,jk", {rnd(DType::I32, {2, 3}, 3), rnd(DType::C64, {3, 2}, 4)});
  check("ij,jk", {rnd(DType::I64, {2, 3}, 5), rnd(DType::I32, {3, 2}, 6)});
  check("ij,jk", {rnd(DType::C32, {2, 3}, 7), rnd(DType::C32, {3, 2}, 8)});
  check("ij,jk->ik", {rnd(DType::Bool, {2, 3}, 9), rnd(DType::Bool, {3, 2}, 10)});
  check("ii", {rnd(DType::I32, {3, 3}, 11)});
}

TEST_CASE("einsum eager: many operands use the greedy path", "[einsum]") {
  // A chain of 14 matrices with varying extents, and an MPS-like ladder.
  std::vector<Tensor> xs;
  std::string s;
  const char* letters = "abcdefghijklmnopqrstuvwxyz";
  for (int k = 0; k < 14; ++k) {
    xs.push_back(rnd(DType::F64, {2 + k % 3, 2 + (k + 1) % 3}, 100 + static_cast<uint64_t>(k)));
    if (k) s += ",";
    s += letters[k];
    s += letters[k + 1];
  }
  s += "->ao";
  check(s, xs);
  std::vector<Shape> shapes;
  for (const Tensor& x : xs) shapes.push_back(Shape(x.shape()));
  CHECK_FALSE(einsum::make_plan(s, shapes).path.optimal);
}

TEST_CASE("einsum eager: plans are cached per subscripts and shapes", "[einsum]") {
  einsum::PlanCache cache(16, 1 << 20);
  Tensor a = rnd(DType::F64, {2, 3}, 1), b = rnd(DType::F64, {3, 4}, 2);
  run("ij,jk->ik", {a, b}, &cache);
  run("ij,jk->ik", {a, b}, &cache);
  run("ij,jk->ik", {eager::cast(a, DType::F32), b}, &cache); // dtypes share the plan
  run("ij,jk->ki", {a, b}, &cache);
  run("ij,jk->ik", {b, rnd(DType::F64, {4, 2}, 3)}, &cache);
  graph::CacheStats st = cache.stats();
  CHECK(st.hits == 2);
  CHECK(st.misses == 3);
  CHECK(st.entries == 3);
  CHECK(st.bytes > 0);
  // A failing call stores nothing.
  CHECK_THROWS_AS(run("ij,jk->ik", {a, a}, &cache), Error);
  CHECK(cache.stats().entries == 3);
}

TEST_CASE("einsum eager: steps that sum nothing are broadcast multiplies", "[einsum]") {
  // Batched and plain outer products, extent-1 contractions, an intermediate outer product,
  // every dtype class, and non-compact operands. `batched`: the pair shares an index that both
  // operands and the output lead with, so every step is a multiply and the last writes the
  // output's order.
  struct Case {
    std::string s;
    std::vector<Tensor> xs;
    bool batched = false;
  };
  Tensor x = rnd(DType::F64, {3, 4}, 1), y = rnd(DType::F64, {3, 5}, 2);
  std::vector<Case> cases = {
      {"bi,bj->bij", {x, y}, true},
      {"bi,bj->jib", {x, y}},
      {"bi,bj->ijb", {x, y}},
      {"i,j->ij", {rnd(DType::F64, {4}, 3), rnd(DType::F64, {5}, 4)}},
      {"i,j->ji", {rnd(DType::F64, {4}, 3), rnd(DType::F64, {5}, 4)}},
      {"ik,kj->ij", {rnd(DType::F64, {3, 1}, 5), rnd(DType::F64, {1, 4}, 6)}},
      {"ik,kj->", {rnd(DType::F64, {3, 1}, 5), rnd(DType::F64, {1, 4}, 6)}},
      {"bik,bkj->bij", {rnd(DType::F64, {3, 2, 1}, 12), rnd(DType::F64, {3, 1, 4}, 13)}, true},
      {"ij,kl->ijkl", {x, rnd(DType::F64, {2, 3}, 7)}},
      {"bi,bj,bk->bijk", {x, y, rnd(DType::F64, {3, 2}, 7)}, true},
      {"bi,bj->bij", {eager::cast(x, DType::I32), eager::cast(y, DType::I64)}, true},
      {"bi,bj->bij", {rnd(DType::Bool, {3, 4}, 8), rnd(DType::Bool, {3, 5}, 9)}, true},
      {"bi,bj->bij", {rnd(DType::C32, {3, 4}, 10), rnd(DType::C64, {3, 5}, 11)}, true},
      // Transposed views lead with i and j: a rank-1 gemm per b (plans do not see strides).
      {"ib,jb->bij", {x.permuted(Dims{1, 0}), y.permuted(Dims{1, 0})}},
      {"ib,jb->ijb", {x.permuted(Dims{1, 0}), y.permuted(Dims{1, 0})}},
  };
  for (const Case& c : cases) {
    INFO(c.s);
    check(c.s, c.xs);
    if (!c.batched) continue;
    std::vector<Shape> shapes;
    for (const Tensor& t : c.xs) shapes.push_back(Shape(t.shape()));
    einsum::Plan plan = einsum::make_plan(c.s, shapes);
    REQUIRE_FALSE(plan.steps.empty());
    for (const einsum::Step& st : plan.steps) CHECK(st.kind == einsum::StepKind::Multiply);
    CHECK(plan.perm.empty()); // no transpose follows the last multiply
  }
  // A step that sums an index of extent > 1 stays a contraction.
  std::vector<Shape> mm{Shape{3, 4}, Shape{4, 5}};
  CHECK(einsum::make_plan("ij,jk->ik", mm).steps.front().kind == einsum::StepKind::Dot);
}

TEST_CASE("einsum eager: full contractions read strided operands in place", "[einsum]") {
  // The last step of a closed network has no free dims: one inner product per batch element.
  Tensor sq = rnd(DType::F64, {5, 5}, 1);
  check("ij,ji->", {sq, rnd(DType::F64, {5, 5}, 2)});
  check("ij,ij->", {sq, sq.permuted(Dims{1, 0})});
  Tensor t = rnd(DType::F64, {3, 3, 2}, 3);
  check("abp,bcq,cdp,daq->", {t, rnd(DType::F64, {3, 3, 2}, 4), rnd(DType::F64, {3, 3, 2}, 5),
                              rnd(DType::F64, {3, 3, 2}, 6)});
  check("bij,bji->b", {rnd(DType::F64, {4, 3, 2}, 7), rnd(DType::F64, {4, 2, 3}, 8)});
  check("ijb,jib->b", {rnd(DType::C64, {3, 2, 4}, 9), rnd(DType::C64, {2, 3, 4}, 10)});
  check("ij,ji->", {rnd(DType::I32, {4, 3}, 11), rnd(DType::I64, {3, 4}, 12)});
  check("ij,ji->", {rnd(DType::F32, {4, 3}, 13), rnd(DType::F32, {3, 4}, 14)});
  // More elements than one chunk of the split sum, with one operand transposed.
  Tensor big = rnd(DType::F64, {260, 270}, 15);
  check("ij,ji->", {big, rnd(DType::F64, {270, 260}, 16)});
  check("ij,ij->", {big, big});
}
