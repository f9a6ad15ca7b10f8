// Compiling a program for concrete argument shapes: bind the symbols, check the guards, resolve
// every node's shape and params, eliminate common subexpressions, assign slots and free each
// intermediate after its last use (its storage goes back to the caching allocator for the next
// one). The result is a flat instruction list the executor runs.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "backend/backend.hpp"
#include "graph/fusion.hpp"
#include "graph/lru_cache.hpp"
#include "graph/program.hpp"

namespace tfe::graph {

// One op of a compiled program: backend-neutral (the kernel is bound by CompiledProgram).
struct Instruction {
  ops::OpCode op;
  ops::Params params; // concrete
  ops::ConcreteMeta out;
  // An op with several outputs: their metadata; they go to slots output, output + 1, ...
  // (the backend's multi-output kernel writes them all in one call).
  std::vector<ops::ConcreteMeta> outs;
  SmallVector<int32_t, 4> inputs; // slots
  int32_t output;                 // slot (of output 0)
  SmallVector<int32_t, 4> free_after;
  std::string_view origin; // the node's (graph::Node::origin): names a failure
  // A fused region (fusion.hpp) in place of several elementwise instructions: `inputs` are the
  // region inputs, its outputs go to `fused_outputs`, and `fused_kernel` computes them all.
  std::shared_ptr<const FusedRegion> fused;
  std::shared_ptr<const backend::FusedKernel> fused_kernel;
  SmallVector<int32_t, 4> fused_outputs;
};

struct CompiledProgram {
  int32_t num_slots = 0;
  std::vector<int32_t> argument_slots, captured_slots, output_slots;
  std::vector<ops::ConcreteMeta> arguments; // the bound argument metadata
  std::vector<ops::ConcreteMeta> captured;  // the captured values' metadata
  std::vector<Instruction> code;
  int64_t eliminated = 0; // nodes removed by CSE
  int64_t fused = 0;      // ops that run inside fused instructions
  // The backend the program was compiled for, and its kernel for each instruction of `code`
  // (nullptr for ops with several outputs, which run through backend->multi_output).
  const backend::Backend* backend = nullptr;
  std::vector<backend::Kernel> kernels;
};
using CompiledPtr = std::shared_ptr<const CompiledProgram>;

// Binds the program to concrete argument metadata. Errors name the argument and dim, a failed
// guard its condition, and any op its constraint, all before anything runs. The op nodes at the
// `given` positions of p.order are not computed: their values follow the arguments at execution
// (in `given` order), and nodes that only they needed are skipped.
// Every kernel is bound from `target`; an op it lacks is NotSupported naming the op, the dtype
// and the backend, before anything runs. With `fuse`, elementwise regions the backend can fuse
// become single instructions (fusion.hpp).
CompiledPtr compile(const Program& p, std::span<const ops::ConcreteMeta> arguments,
                    std::span<const int32_t> given = {},
                    const backend::Backend& target = backend::cpu(), bool fuse = fusion_enabled());

// Per position of p.order: whether the node must run when the `given` nodes are supplied.
std::vector<bool> nodes_to_run(const Program& p, std::span<const int32_t> given);

// params with every symbolic extent evaluated for the given symbol values.
ops::Params bind_params(const ops::Params& params, std::span<const int64_t> symbols);

// The symbol values implied by the arguments (InvalidArgument on rank, dtype or extent mismatch).
std::vector<int64_t> bind_symbols(const Program& p, std::span<const ops::ConcreteMeta> arguments);

using CompileCache = LruCache<CompiledProgram>;

// compile() through a cache keyed by the program's fingerprint, the argument metadata and
// whether fusion is on.
CompiledPtr compile_cached(CompileCache& cache, const Program& p,
                           std::span<const ops::ConcreteMeta> arguments,
                           std::span<const int32_t> given = {},
                           const backend::Backend& target = backend::cpu());

// The backend that runs ops on device d: the host backend for the CPU, else the device backend.
const backend::Backend& backend_for(Device d);

// Runs c, compiled for backend_for(d), on device d: host scalars among the arguments join it
// (backend::device_of chose d), and ops without operands create their results there.
std::vector<Tensor> execute_on(Device d, const CompiledProgram& c,
                               std::span<const Tensor> arguments, std::span<const Tensor> captured);

// Compiles (cached) for the device of the arguments and runs there: the host backend when they
// are on the host, else the device backend. Captured constants belong to the program, so they go
// with it to the arguments' device (copied per run); the arguments themselves are never moved.
std::vector<Tensor> run_cached(CompileCache& cache, const Program& p,
                               std::span<const ops::ConcreteMeta> metas,
                               std::span<const int32_t> given, std::span<const Tensor> arguments,
                               std::span<const Tensor> captured);

// Runs a compiled program: arguments (then the given node values), captured values in the
// program's captured order.
std::vector<Tensor> execute(const CompiledProgram& c, std::span<const Tensor> arguments,
                            std::span<const Tensor> captured);

} // namespace tfe::graph
