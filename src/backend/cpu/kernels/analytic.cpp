// CPU kernels of the analytic ops: one per row of ops/defs/analytic.hpp, mapping the row's
// functor (analytic.hpp) over its operands.
#include "backend/cpu/kernels/analytic.hpp"
#include "backend/cpu/kernels/elementwise.hpp"
#include "backend/cpu/kernels/kernels.hpp"

namespace tfe::cpu::kernels {

#define TFE_ANALYTIC_KERNEL(Code, name, arity, ...)                                                \
  Tensor name(Operands in, const ops::Params&, const ops::ConcreteMeta& m) {                       \
    return map_row<ops::OpCode::Code, analytic::Code, arity>(in, m);                               \
  }
TFE_ANALYTIC_OPS(TFE_ANALYTIC_KERNEL)
#undef TFE_ANALYTIC_KERNEL

} // namespace tfe::cpu::kernels
