// The transfer op's kernel, the same on every backend: the one op whose operand and result lie
// on different devices. Programs place it by its params (graph/placement.hpp), so the backend
// that runs it is the operand's and the result goes to params.to.
#pragma once

#include "core/operands.hpp"
#include "core/tensor.hpp"
#include "ops/op_table.hpp"

namespace tfe::backend {

Tensor transfer(Operands in, const ops::Params& params, const ops::ConcreteMeta& out);

} // namespace tfe::backend
