// The single-output adapter of extension ops: the def's kernel writes the one result.
#include "backend/cpu/kernel.hpp"
#include <array>

#include "backend/cpu/kernels/kernels.hpp"

namespace tfe::cpu::kernels {

Tensor extension(Operands in, const ops::Params& p, const ops::ConcreteMeta& out) {
  std::array<Tensor, 1> result;
  run_extension(in, p, std::span<const ops::ConcreteMeta>(&out, 1), result);
  return std::move(result[0]);
}

} // namespace tfe::cpu::kernels
