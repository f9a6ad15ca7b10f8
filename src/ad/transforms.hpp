// Program transforms (docs/design/ad-contract.md "Conventions"): JVP by forward propagation of
// tangents through each op's JVP rule; VJP by linearizing (the same JVP rules, with tangent
// arguments) and transposing the linear part only (residuals are primal values). Every result is a
// Program in the same IR, so transforms compose to any order.
#pragma once

#include <vector>

#include "graph/program.hpp"

namespace tfe::ad {

struct Derivative {
  graph::ProgramPtr program;
  // Per output of `program`: true when it is structurally zero (a gradient the function's
  // outputs do not depend on, or a tangent of an output no input reaches).
  std::vector<bool> structurally_zero;
};

// wrt: indices of the differentiated inputs (distinct, in request order); empty means all.
// Inputs: p's inputs, then one tangent per wrt input (its dtype and shape).
// Outputs: p's outputs, then one tangent per output of p (zeros where none flows).
Derivative jvp(const graph::Program& p, std::vector<int64_t> wrt);

// Inputs: p's inputs, then one cotangent per output of p (its dtype and shape).
// Outputs: p's outputs, then one gradient per wrt input (zeros, flagged, where none flows).
Derivative vjp(const graph::Program& p, std::vector<int64_t> wrt);

// p must have one output with one element. Inputs: p's inputs. Outputs: one gradient per wrt
// input, seeded with 1 in the output's dtype (for a complex output: the gradient of Re y).
Derivative grad(const graph::Program& p, std::vector<int64_t> wrt);

// Hessian-vector products of a one-element output. Inputs: p's inputs, then one direction per
// wrt input. Outputs: (H v) per wrt input, i.e. the derivative of the gradient along v.
enum class HvpMode { ForwardOverReverse, ReverseOverReverse };
Derivative hvp(const graph::Program& p, std::vector<int64_t> wrt, HvpMode mode);

// The validated wrt list (all inputs when empty); InvalidArgument on range or duplicates.
std::vector<int64_t> normalize_wrt(const graph::Program& p, std::vector<int64_t> wrt);

} // namespace tfe::ad
