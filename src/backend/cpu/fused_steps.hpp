// One step of a fused region on the CPU: a function over a block of contiguous elements,
// chosen once when the region is bound (fused_kernel.cpp runs them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "core/dtype.hpp"
#include "ops/op_table.hpp"

namespace tfe::cpu::fused {

// out[i] = f(in[0][i], in[1][i], ...) for i < n; every pointer is to n contiguous elements.
using BlockFn = void (*)(int64_t n, std::byte* out, const std::byte* const* in);

struct BoundStep {
  BlockFn fn = nullptr; // null: the CPU cannot run this step fused
  int cost = 1;         // relative cost per element: 1 for cheap ops, more for transcendentals
};

// The block function of op (with params) on operands of the given dtypes producing `out`.
BoundStep bind_step(ops::OpCode op, const ops::Params& params, std::span<const DType> operands,
                    DType out);

} // namespace tfe::cpu::fused
