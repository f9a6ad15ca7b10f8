// CPU kernels of the complex-parts group (ops/defs/complex_parts.hpp).
#include "backend/cpu/kernels/elementwise.hpp"
#include "backend/cpu/kernels/kernels.hpp"

namespace tfe::cpu::kernels {
namespace {

using ops::OpCode;

struct RealF {
  template <class T> real_of_t<T> operator()(T a) const {
    if constexpr (is_complex_v<T>)
      return a.real();
    else
      return a;
  }
};
struct ImagF {
  template <class T> real_of_t<T> operator()(T a) const {
    if constexpr (is_complex_v<T>)
      return a.imag();
    else
      return T(0);
  }
};
struct ComplexF {
  template <class T> std::complex<T> operator()(T re, T im) const { return {re, im}; }
};

} // namespace

Tensor real(std::span<const Tensor> in, const ops::Params&, const ops::ConcreteMeta& m) {
  return unary<OpCode::Real, RealF>(in, m);
}
Tensor imag(std::span<const Tensor> in, const ops::Params&, const ops::ConcreteMeta& m) {
  return unary<OpCode::Imag, ImagF>(in, m);
}
Tensor complex(std::span<const Tensor> in, const ops::Params&, const ops::ConcreteMeta& m) {
  Tensor out = Tensor::empty(m.dtype, m.shape);
  dispatch_accepted<OpCode::Complex>(in[0].dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T>)
      Map<std::complex<T>, T, T>::run(ComplexF{}, kGrainCheap, out, in[0], in[1]);
  });
  return out;
}

} // namespace tfe::cpu::kernels
