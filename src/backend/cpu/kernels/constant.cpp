// CPU kernel of Constant (ops/defs/constant.hpp).
#include <cstring>

#include "backend/cpu/kernels/kernels.hpp"

namespace tfe::cpu::kernels {

Tensor constant(Operands, const ops::Params& p, const ops::ConcreteMeta& m) {
  const auto& cp = std::get<ops::ConstantParams>(p);
  Tensor out = Tensor::empty(m.dtype, m.shape);
  if (!cp.bytes.empty()) std::memcpy(out.raw_data(), cp.bytes.data(), cp.bytes.size());
  return out;
}

} // namespace tfe::cpu::kernels
