// An einsum lowered to the op vocabulary, as data: per operand its diagonals, squeezes and sums,
// then the pairwise steps of the chosen path (dot_generals, or broadcast multiplies where a step
// sums nothing), then the output transpose. A plan depends only on the subscripts and the
// operands' shapes (not on values, dtypes or the value type), so it is computed once per
// (subscripts, shapes) and cached (cache.hpp).
#pragma once

#include <string_view>
#include <utility>
#include <vector>

#include "einsum/path.hpp"
#include "ops/params.hpp"

namespace tfe::einsum {

struct OperandPrep {
  std::vector<std::pair<int64_t, int64_t>> diags; // ExtractDiag (axis_a, axis_b), in order
  bool squeeze = false;                           // Reshape to squeezed (drops broadcast 1s)
  Shape squeezed;
  Dims sums; // ReduceSum axes: indices no other operand and not the output has
};

// How one operand of a product step reaches the result's shape: its summed dims of extent 1
// reshaped away, then a broadcast view (either skipped when it would change nothing).
struct Widen {
  bool reshape = false;
  Shape reshaped;
  bool broadcast = false;
  ops::BroadcastInDimParams to;
};

// A step that sums no index of extent > 1 and whose operands both lead with one kept (batch)
// index is an elementwise product of the two operands broadcast to the result (one pass writing
// the result) rather than one rank-1 gemm per batch element (Multiply); any other step, pure
// outer products included, is a DotGeneral (Dot).
enum class StepKind : uint8_t { Dot, Multiply };

struct Step {
  int i = 0, j = 0;  // positions in the current operand list (i < j), NumPy's convention
  Dims sum_i, sum_j; // ReduceSum before the dot (empty in practice: prep sums such indices)
  StepKind kind = StepKind::Dot;
  Widen widen_i, widen_j; // Multiply only
  ops::DotGeneralParams dot;
};

struct Plan {
  std::vector<OperandPrep> prep;
  std::vector<Step> steps;
  Dims perm;             // the final Transpose; empty when the result is already in output order
  Path path;             // the pairs of `steps` and their cost estimate
  int64_t bytes() const; // an estimate of the memory it holds, for the cache's bound
};

// Parses, resolves against the shapes, chooses the path and lowers it.
Plan make_plan(std::string_view subscripts, std::span<const Shape> shapes);

} // namespace tfe::einsum
