// CPU kernels of the logical ops: one per row of ops/defs/logical.hpp, named like the op
// code, mapping the row's functor (logical.hpp) over its operands.
#include "backend/cpu/kernels/logical.hpp"
#include "backend/cpu/kernels/elementwise.hpp"
#include "backend/cpu/kernels/kernels.hpp"

namespace tfe::cpu::kernels {

#define TFE_LOGICAL_KERNEL(Code, name, c_stem, entry, arity, ...)                                  \
  Tensor Code(Operands in, const ops::Params&, const ops::ConcreteMeta& m) {                       \
    return map_row<ops::OpCode::Code, logical::Code, arity>(in, m);                                \
  }
TFE_LOGICAL_OPS(TFE_LOGICAL_KERNEL)
#undef TFE_LOGICAL_KERNEL

} // namespace tfe::cpu::kernels
