// The contraction-order search (path.hpp).
#include "einsum/path.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>

#include "core/error.hpp"

namespace tfe::einsum {

namespace {

double size_of(const LabelSet& s, const std::vector<double>& extent) {
  double n = 1;
  for (size_t l = 0; l < extent.size(); ++l)
    if (s[l]) n *= extent[l];
  return n;
}

// The flops of contracting a and b into a result that keeps `kept`.
double step_flops(const LabelSet& a, const LabelSet& b, const LabelSet& kept,
                  const std::vector<double>& extent) {
  LabelSet all = a | b;
  bool sums = (all & ~kept).any();
  return size_of(all, extent) * (sums ? 2.0 : 1.0);
}

bool better(double flops, double largest, double best_flops, double best_largest) {
  return flops < best_flops || (flops == best_flops && largest < best_largest);
}

// The current operands of a sequential contraction and how many hold each label, so a step knows
// which labels are still needed elsewhere.
struct Pool {
  std::vector<LabelSet> ops;
  std::vector<int> count;
  const PathProblem* p;

  explicit Pool(const PathProblem& problem) : ops(problem.inputs), p(&problem) {
    count.assign(problem.extent.size(), 0);
    for (const LabelSet& s : ops)
      for (size_t l = 0; l < count.size(); ++l) count[l] += s[l] ? 1 : 0;
  }

  LabelSet kept(size_t i, size_t j) const {
    LabelSet all = ops[i] | ops[j], out;
    for (size_t l = 0; l < count.size(); ++l) {
      if (!all[l]) continue;
      int elsewhere = count[l] - (ops[i][l] ? 1 : 0) - (ops[j][l] ? 1 : 0);
      if (elsewhere > 0 || p->output[l]) out.set(l);
    }
    return out;
  }

  // Contracts i and j (i < j): both leave the pool, the result is appended.
  void merge(size_t i, size_t j, const LabelSet& result) {
    for (size_t l = 0; l < count.size(); ++l)
      count[l] += (result[l] ? 1 : 0) - (ops[i][l] ? 1 : 0) - (ops[j][l] ? 1 : 0);
    ops.erase(ops.begin() + static_cast<std::ptrdiff_t>(j));
    ops.erase(ops.begin() + static_cast<std::ptrdiff_t>(i));
    ops.push_back(result);
  }
};

} // namespace

Path evaluate(const PathProblem& p, const std::vector<std::pair<int, int>>& pairs) {
  Pool pool(p);
  Path path;
  path.pairs = pairs;
  for (auto [i, j] : pairs) {
    if (i < 0 || j <= i || static_cast<size_t>(j) >= pool.ops.size())
      fail(Status::Internal, "einsum path step (%d, %d) is out of range", i, j);
    auto a = static_cast<size_t>(i), b = static_cast<size_t>(j);
    LabelSet kept = pool.kept(a, b);
    path.flops += step_flops(pool.ops[a], pool.ops[b], kept, p.extent);
    path.largest = std::max(path.largest, size_of(kept, p.extent));
    pool.merge(a, b, kept);
  }
  return path;
}

Path optimal_path(const PathProblem& p) {
  size_t n = p.inputs.size();
  if (n > 20) fail(Status::Internal, "optimal einsum path for %zu operands", n);
  if (n < 2) return Path{{}, 0, 0, true};
  size_t full = (size_t{1} << n) - 1;
  std::vector<LabelSet> in_union(full + 1), kept(full + 1);
  for (size_t m = 1; m <= full; ++m) {
    size_t low = static_cast<size_t>(__builtin_ctzll(m));
    in_union[m] = in_union[m & (m - 1)] | p.inputs[low];
  }
  // An intermediate keeps the labels still needed outside it; a single operand is as given (a
  // label private to it is summed by its first step, as evaluate() counts it).
  for (size_t m = 1; m <= full; ++m)
    kept[m] = (m & (m - 1)) == 0 ? in_union[m] : in_union[m] & (p.output | in_union[full ^ m]);

  std::vector<double> flops(full + 1, 0), largest(full + 1, 0);
  std::vector<size_t> split(full + 1, 0);
  for (size_t m = 1; m <= full; ++m) {
    if ((m & (m - 1)) == 0) continue; // one operand: nothing to do
    size_t low = m & (~m + 1);
    bool found = false;
    double size_m = size_of(kept[m], p.extent);
    // Every split into two non-empty parts, counted once: the part holding the lowest operand.
    for (size_t sub = (m - 1) & m; sub; sub = (sub - 1) & m) {
      if (!(sub & low)) continue;
      size_t other = m ^ sub;
      double f = flops[sub] + flops[other] + step_flops(kept[sub], kept[other], kept[m], p.extent);
      double big = std::max({largest[sub], largest[other], size_m});
      if (!found || better(f, big, flops[m], largest[m])) {
        flops[m] = f;
        largest[m] = big;
        split[m] = sub;
        found = true;
      }
    }
  }

  // The tree in NumPy's sequential form: contract each subtree, then the two results.
  Path path;
  std::vector<size_t> list; // node ids of the current operands: leaves 0..n-1, then merges
  for (size_t i = 0; i < n; ++i) list.push_back(i);
  size_t next_id = n;
  std::function<size_t(size_t)> emit = [&](size_t m) -> size_t {
    if ((m & (m - 1)) == 0) return static_cast<size_t>(__builtin_ctzll(m));
    size_t a = emit(split[m]), b = emit(m ^ split[m]);
    auto pa = static_cast<int>(std::find(list.begin(), list.end(), a) - list.begin());
    auto pb = static_cast<int>(std::find(list.begin(), list.end(), b) - list.begin());
    int i = std::min(pa, pb), j = std::max(pa, pb);
    path.pairs.emplace_back(i, j);
    list.erase(list.begin() + j);
    list.erase(list.begin() + i);
    list.push_back(next_id);
    return next_id++;
  };
  emit(full);
  path.flops = flops[full];
  path.largest = largest[full];
  path.optimal = true;
  return path;
}

Path greedy_path(const PathProblem& p) {
  Pool pool(p);
  std::vector<std::pair<int, int>> pairs;
  while (pool.ops.size() > 1) {
    bool any_shared = false;
    for (size_t i = 0; i < pool.ops.size() && !any_shared; ++i)
      for (size_t j = i + 1; j < pool.ops.size() && !any_shared; ++j)
        any_shared = (pool.ops[i] & pool.ops[j]).any();
    size_t bi = 0, bj = 1;
    double best_growth = 0, best_flops = 0;
    bool found = false;
    LabelSet best_kept;
    for (size_t i = 0; i < pool.ops.size(); ++i)
      for (size_t j = i + 1; j < pool.ops.size(); ++j) {
        if (any_shared && !(pool.ops[i] & pool.ops[j]).any()) continue;
        LabelSet kept = pool.kept(i, j);
        double growth = size_of(kept, p.extent) - size_of(pool.ops[i], p.extent) -
                        size_of(pool.ops[j], p.extent);
        double f = step_flops(pool.ops[i], pool.ops[j], kept, p.extent);
        if (!found || better(growth, f, best_growth, best_flops)) {
          found = true;
          best_growth = growth;
          best_flops = f;
          bi = i;
          bj = j;
          best_kept = kept;
        }
      }
    pairs.emplace_back(static_cast<int>(bi), static_cast<int>(bj));
    pool.merge(bi, bj, best_kept);
  }
  return evaluate(p, pairs);
}

Path choose_path(const PathProblem& p) {
  return p.inputs.size() <= kOptimalMaxOperands ? optimal_path(p) : greedy_path(p);
}

} // namespace tfe::einsum
