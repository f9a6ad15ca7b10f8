// Operands: the tensors one kernel call reads, wherever they already lie (core/refs.hpp). Most
// callers hold them in an array of tensors; the eager recorder holds each inside a recorded value
// (tensor plus history) and the C entry points hold the caller's handles: both pass pointers.
#pragma once

#include "core/refs.hpp"
#include "core/tensor.hpp"

namespace tfe {

using Operands = Refs<Tensor>;

} // namespace tfe
