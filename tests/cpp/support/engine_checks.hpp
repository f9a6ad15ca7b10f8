// The engine matrix's check: one function, one set of inputs, run as a traced program, as eager
// code with deferred recording and on the dataflow engine; every derivative the eager engine can
// be asked for (VJP by vjp and backward, JVP, forward-over-reverse and reverse-over-reverse
// Hessian-vector products) must equal the traced program's, and the dataflow gradients too.
// The differentiated tensors may reach the function through other ops first (provenance), and
// the inputs that are not differentiated are untracked constants, in any operand position.
#pragma once

#include <string>
#include <vector>

#include "support/engine_function.hpp"
#include "support/ad_checks.hpp"

namespace tfe::testing {

// How a differentiated input reaches the function: as the tracked leaf itself, or computed from
// a tracked leaf by ops recorded first (a flat leaf reshaped; a leaf zero-padded then sliced
// back; a tracked first row concatenated with an untracked rest).
enum class Provenance { Direct, Reshape, PadSlice, Concatenate };
const char* provenance_name(Provenance p);
// Whether p can apply to an input of this shape (rank, extents).
bool provenance_applies(Provenance p, const Dims& shape);

struct EngineCase {
  const EngineFunction* function = nullptr;
  std::vector<Tensor> inputs;
  std::vector<bool> active; // differentiated (tracked); the others are untracked constants
  Provenance provenance = Provenance::Direct;
  bool second_order = true; // forward-over-reverse and reverse-over-reverse
  bool dataflow = true;     // first order on the dataflow engine too
  double tol = 1e-12;       // relative to 1 + the reference's largest magnitude
  uint64_t seed = 1;
};

struct EngineCounts {
  int64_t cases = 0, requests = 0; // eager and dataflow derivative requests compared
};

// Runs every comparison; failures are in the result's text.
AdCheckResult check_engines(const EngineCase& c, EngineCounts* counts = nullptr);

// The traced program of the case (arguments: the tracked leaves) and the leaves' values, for
// the traced checks (finite differences, transposition, second order) on the same composite.
struct TracedCase {
  graph::ProgramPtr program;
  std::vector<Tensor> leaves;
};
TracedCase traced_case(const EngineCase& c);

} // namespace tfe::testing
