// Deferred analysis (docs/design/ad-contract.md): at a derivative request the raw trace is
// collected in one pass that visits each shared node once and turned into a semantic program. Its
// arguments are the leaves (and any intermediate the request differentiates with respect to); their
// extents are symbolic with equality classes, so one derivative program serves every shape with the
// same equality pattern: equal concrete extents share a symbol, an extent of 1 stays the constant
// 1. Op parameters recorded from eager shapes (broadcast targets, reshape and slice params, the
// pinning reshapes before concatenate) stay concrete and enter the program's fingerprint.
// Questions the symbols cannot answer (is a matrix tall? is min(s1,s2) s2?) are decided at the
// recorded extents, and the derivative cache keys on those decisions (decision 0020).
#pragma once

#include <span>
#include <vector>

#include "ad/recording/trace.hpp"
#include "graph/program.hpp"
#include "ops/shape_checks.hpp"

namespace tfe::ad::recording {

struct Semantic {
  graph::ProgramPtr program;     // arguments: cut points, then leaves in discovery order
  std::vector<RawRef> arguments; // the raw value behind each argument
  std::vector<Tensor> values;    // each argument's value
  std::vector<RawRef> computed;  // the raw op node behind each node of program->order
  int64_t visited = 0;           // raw nodes visited by this collection
};

struct Cut {
  RawRef ref; // an intermediate (or leaf) treated as an input of the program
  Tensor value;
};

// Binds each symbol to its recorded extent in `witness`, which must be the innermost witness of
// this thread and stay alive while the program is differentiated: shape questions the symbols
// cannot answer are decided at those extents (ops/shape_checks.hpp).
Semantic analyze(std::span<const RawRef> roots, std::span<const Cut> cuts,
                 ops::ShapeWitness& witness);

// Index of the argument holding ref, or -1.
int64_t argument_index(const Semantic& s, const RawRef& ref);

} // namespace tfe::ad::recording
