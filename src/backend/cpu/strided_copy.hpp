// Bitwise copy between two tensors of one dtype and shape with arbitrary strides. When the
// source is contiguous along a different dim than the destination (a transpose), the copy runs
// in square tiles so that both sides stay in L1 instead of striding through memory.
#pragma once

#include "core/tensor.hpp"

namespace tfe::cpu {

// dst must not overlap itself or src.
void strided_copy(const Tensor& dst, const Tensor& src);

} // namespace tfe::cpu
