// The direct concrete VJP of one op (docs/design/ad-contract.md "one formula source"): the
// cotangents of an op's operands from their values and the output's cotangent, for engines that run
// op by op (the dataflow engine, eager fast paths). It is derived from the op's JVP and transpose
// rules, never written a second time: the one-op program is linearized and transposed once per (op,
// params, operand dtypes and shapes), compiled, cached, and run on the concrete values.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "core/tensor.hpp"
#include "graph/lru_cache.hpp"
#include "ops/op_code.hpp"
#include "ops/params.hpp"

namespace tfe::ad {

// out[i]: the cotangent of operand i (nullopt for inactive operands: Bool/integer, or ones the
// output does not depend on). ybar has the output's dtype and shape.
std::vector<std::optional<Tensor>> vjp_kernel(ops::OpCode op, const ops::Params& params,
                                              std::span<const Tensor> operands, const Tensor& ybar);

// The same for an op with any number of outputs, run with the forward's outputs supplied
// instead of recomputed (the dataflow engine keeps them): outputs[k] and ybars[k] (a zero where
// output k has no cotangent) per output of the op.
std::vector<std::optional<Tensor>> vjp_kernel(ops::OpCode op, const ops::Params& params,
                                              std::span<const Tensor> operands,
                                              std::span<const Tensor> outputs,
                                              std::span<const Tensor> ybars);

graph::CacheStats vjp_kernel_cache_stats();

} // namespace tfe::ad
