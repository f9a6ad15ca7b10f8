// einsum over any value type of the op surface (eager Tensor, traced graph::Value, recorded
// ad::recording::Recorded, dataflow TensorVar). It emits only existing ops (Convert, ExtractDiag,
// Reshape, ReduceSum, DotGeneral, BroadcastInDim, Mul, Transpose), so each engine differentiates
// it through the rules of those ops; there is no einsum-specific derivative.
#pragma once

#include <span>
#include <string_view>

#include "einsum/cache.hpp"

namespace tfe::einsum {

// Operands are promoted to their joined dtype first (Bool computes in I64 and converts back:
// a sum of products is true when any product is). cache may be null.
template <class V>
V einsum(std::string_view subscripts, std::span<const V> operands, PlanCache* cache);

// The shapes einsum would plan for.
template <class V> std::vector<Shape> shapes_of(std::span<const V> operands);

} // namespace tfe::einsum
