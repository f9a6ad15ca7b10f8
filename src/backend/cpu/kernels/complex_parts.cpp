// CPU kernels of the complex-parts group (ops/defs/complex_parts.hpp).
#include "backend/cpu/kernels/elementwise.hpp"
#include "backend/cpu/kernels/elementwise_functors.hpp"
#include "backend/cpu/kernels/kernels.hpp"

namespace tfe::cpu::kernels {
namespace {

using namespace functors;

using ops::OpCode;

} // namespace

Tensor real(Operands in, const ops::Params&, const ops::ConcreteMeta& m) {
  return unary<OpCode::Real, RealF>(in, m);
}
Tensor imag(Operands in, const ops::Params&, const ops::ConcreteMeta& m) {
  return unary<OpCode::Imag, ImagF>(in, m);
}
Tensor complex(Operands in, const ops::Params&, const ops::ConcreteMeta& m) {
  Tensor out = Tensor::empty(m.dtype, m.shape);
  dispatch_accepted<OpCode::Complex>(in[0].dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T>)
      Map<std::complex<T>, T, T>::run(ComplexF{}, kGrainCheap, out, in[0], in[1]);
  });
  return out;
}

} // namespace tfe::cpu::kernels
