// CPU kernels of the complex-parts ops: one per row of ops/defs/complex_parts.hpp, named like the
// op code, mapping the row's functor (complex_parts.hpp) over its operands.
#include "backend/cpu/kernels/complex_parts.hpp"
#include "backend/cpu/kernels/elementwise.hpp"
#include "backend/cpu/kernels/kernels.hpp"

namespace tfe::cpu::kernels {

#define TFE_COMPLEX_PARTS_KERNEL(Code, name, c_stem, entry, arity, ...)                            \
  Tensor Code(Operands in, const ops::Params&, const ops::ConcreteMeta& m) {                       \
    return map_row<ops::OpCode::Code, complex_parts::Code, arity>(in, m);                          \
  }
TFE_COMPLEX_PARTS_OPS(TFE_COMPLEX_PARTS_KERNEL)
#undef TFE_COMPLEX_PARTS_KERNEL

} // namespace tfe::cpu::kernels
