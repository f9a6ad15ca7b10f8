// The direct concrete VJP of one op (docs/design/ad-contract.md "one formula source"): the
// cotangents of an op's operands from their values and the output's cotangent, for engines that run
// op by op (the dataflow engine, eager fast paths). It is derived from the op's JVP and transpose
// rules, never written a second time: the one-op program is linearized and transposed once per (op,
// params, operand dtypes and shapes), compiled, cached, and run on the concrete values.
// The cache belongs to a context (runtime::Context::vjp_kernels), like its other caches: the
// runtime opens a VjpKernelScope for it around every dataflow op, and the op keeps the cache of
// the scope it was emitted in for its reverse work.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "core/tensor.hpp"
#include "graph/compile.hpp"
#include "graph/lru_cache.hpp"
#include "ops/op_code.hpp"
#include "ops/params.hpp"

namespace tfe::ad {

// One compiled VJP program: the cache's entry.
struct CompiledVjp {
  ops::OpCode op;
  ops::Params params;          // exact, checked on every hit (the key holds only a hash)
  std::vector<int64_t> active; // operand index of each gradient output
  std::vector<bool> zero;      // per active operand: structurally zero
  size_t outputs = 1;          // outputs of the op (its gradients follow them in the results)
  graph::CompiledPtr compiled;
};
using VjpKernelCache = graph::LruCache<CompiledVjp>;

// Makes `cache` the calling thread's VJP-kernel cache while alive (scopes nest).
class VjpKernelScope {
public:
  explicit VjpKernelScope(VjpKernelCache& cache) noexcept;
  ~VjpKernelScope();
  VjpKernelScope(const VjpKernelScope&) = delete;
  VjpKernelScope& operator=(const VjpKernelScope&) = delete;
  // The innermost scope's cache; Internal error when none is open (an op emitted outside a
  // context).
  static VjpKernelCache& current();

private:
  VjpKernelCache* previous_;
};

// out[i]: the cotangent of operand i (nullopt for inactive operands: Bool/integer, or ones the
// output does not depend on). ybar has the output's dtype and shape.
std::vector<std::optional<Tensor>> vjp_kernel(VjpKernelCache& cache, ops::OpCode op,
                                              const ops::Params& params,
                                              std::span<const Tensor> operands, const Tensor& ybar);

// The same for an op with any number of outputs, run with the forward's outputs supplied
// instead of recomputed (the dataflow engine keeps them): outputs[k] and ybars[k] (a zero where
// output k has no cotangent) per output of the op.
std::vector<std::optional<Tensor>> vjp_kernel(VjpKernelCache& cache, ops::OpCode op,
                                              const ops::Params& params,
                                              std::span<const Tensor> operands,
                                              std::span<const Tensor> outputs,
                                              std::span<const Tensor> ybars);

} // namespace tfe::ad
