// CPU kernels of the arithmetic ops: one per row of ops/defs/arithmetic.hpp, named like the op
// code, mapping the row's functor (arithmetic.hpp) over its operands.
#include "backend/cpu/kernels/arithmetic.hpp"
#include "backend/cpu/kernels/elementwise.hpp"
#include "backend/cpu/kernels/kernels.hpp"

namespace tfe::cpu::kernels {

#define TFE_ARITHMETIC_KERNEL(Code, name, c_stem, entry, arity, ...)                               \
  Tensor Code(Operands in, const ops::Params&, const ops::ConcreteMeta& m) {                       \
    return map_row<ops::OpCode::Code, arithmetic::Code, arity>(in, m);                             \
  }
TFE_ARITHMETIC_OPS(TFE_ARITHMETIC_KERNEL)
#undef TFE_ARITHMETIC_KERNEL

} // namespace tfe::cpu::kernels
