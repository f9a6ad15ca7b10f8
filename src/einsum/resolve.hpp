// Binds parsed subscripts to the operands' shapes: every dim of every operand gets a label, every
// label one extent, and the output its labels.
//
// Ellipsis dims align LEFT, like every other broadcast of the library (docs/decisions/0024): the
// first dim an operand's "..." covers pairs with the first dim of every other operand's "...",
// and an operand whose "..." covers fewer dims acts as if it had trailing extents of 1 there.
// A label's extents must agree across its dims, except that an extent of 1 broadcasts against
// any other (that operand is taken as constant along the label). Symbolic extents must be equal.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "core/extent.hpp"
#include "einsum/subscripts.hpp"

namespace tfe::einsum {

// Label ids fit a bitset of this size: 52 letters and up to 76 ellipsis dims.
inline constexpr int kMaxLabels = 128;

struct Problem {
  std::string text;                       // the subscripts, for messages
  std::vector<std::vector<int>> operands; // per operand: the label of each dim
  std::vector<Shape> shapes;              // per operand
  std::vector<int> output;                // the output's labels, in order
  std::vector<Extent> extent;             // per label id (Extent(1) for unused ids)
  int n_labels = 0;
};

// ShapeMismatch naming the subscripts, the operand, its term and shape, and the disagreeing
// extents; InvalidArgument when a rank does not fit a term.
Problem resolve(const Subscripts& s, std::span<const Shape> shapes);

} // namespace tfe::einsum
