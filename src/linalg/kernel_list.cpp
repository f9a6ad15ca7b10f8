// The list of kernel ops (linalg/ops.hpp), expanded from the rows of ops/defs/linalg.hpp.
#include "linalg/ops.hpp"

namespace tfe::linalg {

std::span<const LinalgOp* const> kernel_ops() {
#define TFE_LINALG_KERNEL_ENTRY(name, inputs, outputs) &name##_op(),
  // A function-local static: built once, thread-safe, no registration order to get wrong.
  static const LinalgOp* const list[] = {TFE_LINALG_KERNELS(TFE_LINALG_KERNEL_ENTRY)};
#undef TFE_LINALG_KERNEL_ENTRY
  return list;
}

} // namespace tfe::linalg
