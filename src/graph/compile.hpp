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
  // Where it runs (placement, below) and the backend whose kernel runs it there.
  Device device;
  const backend::Backend* backend = nullptr;
  // Some operand may arrive from another device and is moved first: a host scalar, or a value
  // made from constants alone (never a value computed from the arguments).
  bool moves_operands = false;
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
  // The backend of the home device when every instruction runs there (fusion asks it to fuse),
  // else null; and each instruction's kernel (nullptr for ops with several outputs, which run
  // through its backend's multi_output).
  const backend::Backend* backend = nullptr;
  std::vector<backend::Kernel> kernels;
};
using CompiledPtr = std::shared_ptr<const CompiledProgram>;

// Where a program's arguments lie when it is compiled. Devices are static: an op runs on the
// device of its operands, a transfer moves its result to its params' device, and ops without
// operands (constants) run where their first reader runs (home when none). A host scalar
// argument (backend::is_host_scalar) joins any device, as in eager code.
struct Placement {
  Device home;
  std::vector<Device> devices; // per argument, then per output of a given node; empty: all home
  std::vector<bool> floating;  // per argument: a host scalar (moved to home before the run)
};

// The placement of concrete arguments: home is the device of the first argument off the host
// (the host when none is; the current device when there are no arguments).
Placement placement_of(std::span<const Tensor> arguments);

// Binds the program to concrete argument metadata. Errors name the argument and dim, a failed
// guard its condition, and any op its constraint, all before anything runs. The op nodes at the
// `given` positions of p.order are not computed: their values follow the arguments at execution
// (in `given` order), and nodes that only they needed are skipped.
// Instructions on `where.home` bind their kernels from `target`, the others from their device's
// backend; an op a backend lacks is NotSupported naming the op and the backend, and operands on
// two devices are a Device error naming both, all before anything runs. With `fuse`, elementwise
// regions the backend can fuse become single instructions (fusion.hpp).
CompiledPtr compile(const Program& p, std::span<const ops::ConcreteMeta> arguments,
                    std::span<const int32_t> given = {},
                    const backend::Backend& target = backend::cpu(), bool fuse = fusion_enabled(),
                    const Placement& where = {});

// Per position of p.order: whether the node must run when the `given` nodes are supplied.
std::vector<bool> nodes_to_run(const Program& p, std::span<const int32_t> given);

// params with every symbolic extent evaluated for the given symbol values.
ops::Params bind_params(const ops::Params& params, std::span<const int64_t> symbols);

// The symbol values implied by the arguments (InvalidArgument on rank, dtype or extent mismatch).
std::vector<int64_t> bind_symbols(const Program& p, std::span<const ops::ConcreteMeta> arguments);

using CompileCache = LruCache<CompiledProgram>;

// The placement's words for a cache key: programs placed differently compile differently.
void append_key(CacheKey& key, const Placement& where);

// compile() through a cache keyed by the program's fingerprint, the argument metadata and
// whether fusion is on.
CompiledPtr compile_cached(CompileCache& cache, const Program& p,
                           std::span<const ops::ConcreteMeta> arguments,
                           std::span<const int32_t> given = {},
                           const backend::Backend& target = backend::cpu(),
                           const Placement& where = {});

// The backend that runs ops on device d: the host backend for the CPU, else the device backend.
const backend::Backend& backend_for(Device d);

// Runs c, compiled with `where` (placement_of the arguments): host scalars among the arguments
// join the home device, and each instruction runs on its own.
std::vector<Tensor> execute_on(const Placement& where, const CompiledProgram& c,
                               std::span<const Tensor> arguments, std::span<const Tensor> captured);

// Compiles (cached) for where the arguments are and runs there: each op on its operands' device
// (a transfer in the program moves its result). Captured constants belong to the program, so
// they go with it to the home device (copied per run); the arguments themselves are never moved.
std::vector<Tensor> run_cached(CompileCache& cache, const Program& p,
                               std::span<const ops::ConcreteMeta> metas,
                               std::span<const int32_t> given, std::span<const Tensor> arguments,
                               std::span<const Tensor> captured);

// Runs a compiled program: arguments (then the given node values), captured values in the
// program's captured order.
std::vector<Tensor> execute(const CompiledProgram& c, std::span<const Tensor> arguments,
                            std::span<const Tensor> captured);

} // namespace tfe::graph
