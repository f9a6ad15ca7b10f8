// Program: an immutable function in the IR, made from argument values and output values.
// It owns its whole graph through the output values (nodes keep their operands alive), lists
// the captured constants it reads, gathers every shape guard of its nodes, and has a structural
// fingerprint (ops, params, wiring, argument metadata; never tensor data) used as a cache key.
#pragma once

#include <memory>
#include <vector>

#include "graph/node.hpp"

namespace tfe::graph {

struct Program {
  std::vector<Value> arguments; // declared inputs, in order
  std::vector<Value> captured;  // captured constants the outputs depend on
  std::vector<Value> outputs;
  std::vector<NodePtr> order; // every reachable op node, operands before users
  std::vector<ops::ShapeGuard> guards;
  int64_t num_symbols = 0;
  uint64_t fingerprint = 0;  // two independent 64-bit structural hashes: a cache hit on both is
  uint64_t fingerprint2 = 0; // taken as structural equality (collision odds ~2^-128 per pair)
};
using ProgramPtr = std::shared_ptr<const Program>;

// Builds a program. Every argument must be an argument node (InvalidArgument otherwise) and every
// argument node the outputs reach must be listed (an output may not depend on a symbolic tensor
// the function does not take).
ProgramPtr make_program(std::vector<Value> arguments, std::vector<Value> outputs);

// A structurally identical copy whose captured nodes hold no tensor data (metadata only), for
// caches that must hold programs and never user data. Captured constants keep their order, so
// values are bound by position (Program::captured).
ProgramPtr without_data(const Program& p);

} // namespace tfe::graph
