// CPU kernels of the logical group (ops/defs/logical.hpp): logical on Bool, bitwise on integers.
#include "backend/cpu/kernels/elementwise.hpp"
#include "backend/cpu/kernels/elementwise_functors.hpp"
#include "backend/cpu/kernels/kernels.hpp"

namespace tfe::cpu::kernels {
namespace {

using namespace functors;

using ops::OpCode;

} // namespace

Tensor logical_and(Operands in, const ops::Params&, const ops::ConcreteMeta& m) {
  return binary<OpCode::And, AndF>(in, m);
}
Tensor logical_or(Operands in, const ops::Params&, const ops::ConcreteMeta& m) {
  return binary<OpCode::Or, OrF>(in, m);
}
Tensor logical_xor(Operands in, const ops::Params&, const ops::ConcreteMeta& m) {
  return binary<OpCode::Xor, XorF>(in, m);
}
Tensor logical_not(Operands in, const ops::Params&, const ops::ConcreteMeta& m) {
  return unary<OpCode::Not, NotF>(in, m);
}

} // namespace tfe::cpu::kernels
