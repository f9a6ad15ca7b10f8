// einsum contraction paths: the exhaustive search is the optimum of the cost model (checked
// against every sequence of pairs on small random networks), its pairs replay to the reported
// cost, and the greedy search gives valid paths that are never worse than the naive order on
// chains where order matters.
#include <catch2/catch.hpp>

#include <random>

#include "einsum/path.hpp"

using namespace tfe;
using namespace tfe::einsum;

namespace {

struct Cost {
  double flops, largest;
};

bool less(const Cost& a, const Cost& b) {
  return a.flops < b.flops || (a.flops == b.flops && a.largest < b.largest);
}

// The best (flops, largest) over every sequence of pairwise contractions.
void brute_force(const PathProblem& p, std::vector<std::pair<int, int>>& pairs, size_t remaining,
                 Cost& best, bool& found) {
  if (remaining == 1) {
    Path path = evaluate(p, pairs);
    Cost c{path.flops, path.largest};
    if (!found || less(c, best)) best = c;
    found = true;
    return;
  }
  for (size_t i = 0; i < remaining; ++i)
    for (size_t j = i + 1; j < remaining; ++j) {
      pairs.emplace_back(static_cast<int>(i), static_cast<int>(j));
      brute_force(p, pairs, remaining - 1, best, found);
      pairs.pop_back();
    }
}

PathProblem random_problem(std::mt19937& rng, size_t n_ops, int n_labels) {
  PathProblem p;
  p.extent.assign(kMaxLabels, 1.0);
  std::uniform_int_distribution<int> ext(2, 9), label(0, n_labels - 1), count(1, 3), coin(0, 3);
  for (int l = 0; l < n_labels; ++l) p.extent[static_cast<size_t>(l)] = ext(rng);
  for (size_t k = 0; k < n_ops; ++k) {
    LabelSet s;
    for (int c = count(rng); c > 0; --c) s.set(static_cast<size_t>(label(rng)));
    p.inputs.push_back(s);
  }
  for (int l = 0; l < n_labels; ++l)
    if (coin(rng) == 0) p.output.set(static_cast<size_t>(l));
  return p;
}

} // namespace

TEST_CASE("einsum path: the exhaustive search is optimal (vs brute force)", "[einsum]") {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 120; ++trial) {
    size_t n = 2 + static_cast<size_t>(trial % 4); // 2..5 operands
    PathProblem p = random_problem(rng, n, 6);
    Path opt = optimal_path(p);
    REQUIRE(opt.optimal);
    REQUIRE(opt.pairs.size() == n - 1);
    Path replay = evaluate(p, opt.pairs);
    CHECK(replay.flops == opt.flops);
    CHECK(replay.largest == opt.largest);
    std::vector<std::pair<int, int>> pairs;
    Cost best{0, 0};
    bool found = false;
    brute_force(p, pairs, n, best, found);
    INFO("trial " << trial);
    CHECK(opt.flops == best.flops);
    CHECK(opt.largest == best.largest);
    // greedy is a valid path, never better than the optimum
    Path g = greedy_path(p);
    CHECK(g.pairs.size() == n - 1);
    CHECK_FALSE(less(Cost{g.flops, g.largest}, Cost{opt.flops, opt.largest}));
  }
}

TEST_CASE("einsum path: a matrix chain picks the cheap order", "[einsum]") {
  // ij,jk,kl->il with i=2, j=3, k=40, l=5: (jk,kl) first costs 2*3*40*5 + 2*2*3*5 flops.
  PathProblem p;
  p.extent.assign(kMaxLabels, 1.0);
  p.extent[0] = 2, p.extent[1] = 3, p.extent[2] = 40, p.extent[3] = 5;
  LabelSet a, b, c;
  a.set(0), a.set(1), b.set(1), b.set(2), c.set(2), c.set(3);
  p.inputs = {a, b, c};
  p.output.set(0), p.output.set(3);
  Path opt = choose_path(p);
  CHECK(opt.pairs == std::vector<std::pair<int, int>>{{1, 2}, {0, 1}});
  CHECK(opt.flops == 2.0 * 3 * 40 * 5 + 2.0 * 2 * 3 * 5);
  CHECK(opt.largest == 15);
  Path naive = evaluate(p, {{0, 1}, {0, 1}});
  CHECK(naive.flops == 2.0 * 2 * 3 * 40 + 2.0 * 2 * 40 * 5);
  CHECK(greedy_path(p).flops == opt.flops);
}

TEST_CASE("einsum path: greedy on a long ring and many operands", "[einsum]") {
  // A ring of 40 matrices a0a1,a1a2,...,a39a0 -> trace of the product.
  PathProblem p;
  p.extent.assign(kMaxLabels, 3.0);
  size_t n = 40;
  for (size_t k = 0; k < n; ++k) {
    LabelSet s;
    s.set(k);
    s.set((k + 1) % n);
    p.inputs.push_back(s);
  }
  Path g = choose_path(p);
  CHECK_FALSE(g.optimal);
  REQUIRE(g.pairs.size() == n - 1);
  // Every intermediate of a sensible ring contraction is a matrix (or smaller).
  CHECK(g.largest <= 9);
  // One operand or none: nothing to do.
  PathProblem one;
  one.extent.assign(kMaxLabels, 2.0);
  one.inputs.push_back(LabelSet{});
  CHECK(choose_path(one).pairs.empty());
}
