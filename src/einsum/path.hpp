// Contraction order: which pair of operands to contract next. Only label sets and extents matter
// here, so the search is independent of values, dtypes and value types.
//
// Cost model (per pairwise step): flops = the product of the extents of every label of either
// operand, doubled when the step sums a label (a multiply and an add per term); the size of a
// result is the product of its labels' extents. A path is better when it has fewer flops, then
// a smaller largest intermediate.
#pragma once

#include <bitset>
#include <utility>
#include <vector>

#include "einsum/resolve.hpp"

namespace tfe::einsum {

using LabelSet = std::bitset<kMaxLabels>;

struct PathProblem {
  std::vector<LabelSet> inputs; // the labels of each operand (after its own sums)
  LabelSet output;
  std::vector<double> extent; // per label id, for costs (symbolic extents get a nominal size)
};

// A symbolic extent's size in cost estimates.
inline constexpr double kSymbolicExtentCost = 100.0;

struct Path {
  // NumPy's einsum_path convention: each pair (i < j) indexes the current operand list; both are
  // removed and their result is appended at the end.
  std::vector<std::pair<int, int>> pairs;
  double flops = 0;   // total over the steps
  double largest = 0; // largest intermediate (elements); 0 without steps
  bool optimal = false;
};

// Operand counts up to this get the exact search; more get the greedy one.
inline constexpr size_t kOptimalMaxOperands = 10;

// The exact minimum over every contraction tree, by dynamic programming over subsets (an
// intermediate's labels depend only on which operands it holds, so each subset is solved once).
Path optimal_path(const PathProblem& p);
// Repeatedly contracts the pair whose result grows the operands' total size least (NumPy's
// greedy rule), fewer flops breaking ties; pairs sharing a label first, outer products last.
Path greedy_path(const PathProblem& p);
// optimal_path up to kOptimalMaxOperands operands, else greedy_path.
Path choose_path(const PathProblem& p);
// The cost of a given sequence of pairs (for tests and for reporting).
Path evaluate(const PathProblem& p, const std::vector<std::pair<int, int>>& pairs);

} // namespace tfe::einsum
