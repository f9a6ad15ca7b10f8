// The interface between programs and the devices that run them. The program IR
// (graph::Instruction) names ops, their parameters and metadata, and slots; it holds no
// kernel. Compiling a program for a backend binds one kernel per instruction from that backend,
// so a new backend (CUDA) adds kernels without touching the IR, the AD transforms or the op
// surface. Decision 0023 gives the whole interface and what later backends add.
#pragma once

#include <memory>
#include <span>
#include <string_view>

#include "backend/fused_region.hpp"
#include "core/operands.hpp"
#include "core/tensor.hpp"
#include "ops/op_table.hpp"

namespace tfe::backend {

// The kernel of a single-output op: operands already validated by the op's shape rule, the
// inferred output metadata; returns the result (a fresh tensor or a view).
using Kernel = Tensor (*)(Operands in, const ops::Params& params, const ops::ConcreteMeta& out);

// The kernel of an op with several outputs: writes results[i] with metadata out[i].
using MultiKernel = void (*)(Operands in, const ops::Params& params,
                             std::span<const ops::ConcreteMeta> out, std::span<Tensor> results);

// A fused elementwise region (fused_region.hpp) bound to a backend's loops: computes every
// region output (results[i], fresh compact tensors) from the region inputs in one walk. Its one
// virtual call per run is spread over a whole region's work.
class FusedKernel {
public:
  virtual ~FusedKernel() = default;
  virtual void run(std::span<const Tensor> in, std::span<Tensor> results) const = 0;
};
// Binds a region, or returns null when the backend cannot run it fused (it then runs unfused).
using Fuser = std::shared_ptr<const FusedKernel> (*)(const FusedRegion& region);

// A table of function pointers rather than a class hierarchy: binding happens once per compiled
// instruction and execution calls the bound pointer, so no virtual call sits on the hot path.
struct Backend {
  std::string_view name;             // "cpu": messages name the backend that lacks an op
  Kernel (*kernel_for)(ops::OpCode); // nullptr result: the backend has no kernel for the op
  MultiKernel multi_output;          // the ops with several outputs (linear algebra)
  Fuser fuse = nullptr;              // null: the backend has no fusion; programs run unfused
};

// The host backend: OpenBLAS, LAPACKE and the library's own loops (backend/cpu/).
const Backend& cpu();

} // namespace tfe::backend
