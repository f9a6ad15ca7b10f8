// CPU kernels of the logical group (ops/defs/logical.hpp): logical on Bool, bitwise on integers.
#include "backend/cpu/kernels/elementwise.hpp"
#include "backend/cpu/kernels/kernels.hpp"

namespace tfe::cpu::kernels {
namespace {

using ops::OpCode;

struct AndF {
  template <class T> T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>)
      return a && b;
    else
      return static_cast<T>(a & b);
  }
};
struct OrF {
  template <class T> T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>)
      return a || b;
    else
      return static_cast<T>(a | b);
  }
};
struct XorF {
  template <class T> T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>)
      return a != b;
    else
      return static_cast<T>(a ^ b);
  }
};
struct NotF {
  template <class T> T operator()(T a) const {
    if constexpr (std::is_same_v<T, bool>)
      return !a;
    else
      return static_cast<T>(~a);
  }
};

} // namespace

Tensor logical_and(std::span<const Tensor> in, const ops::Params&, const ops::ConcreteMeta& m) {
  return binary<OpCode::And, AndF>(in, m);
}
Tensor logical_or(std::span<const Tensor> in, const ops::Params&, const ops::ConcreteMeta& m) {
  return binary<OpCode::Or, OrF>(in, m);
}
Tensor logical_xor(std::span<const Tensor> in, const ops::Params&, const ops::ConcreteMeta& m) {
  return binary<OpCode::Xor, XorF>(in, m);
}
Tensor logical_not(std::span<const Tensor> in, const ops::Params&, const ops::ConcreteMeta& m) {
  return unary<OpCode::Not, NotF>(in, m);
}

} // namespace tfe::cpu::kernels
