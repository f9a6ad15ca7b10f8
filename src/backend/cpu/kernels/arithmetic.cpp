// CPU kernels of the arithmetic group (ops/defs/arithmetic.hpp).
#include <cmath>
#include <limits>

#include "backend/cpu/kernels/elementwise.hpp"
#include "backend/cpu/kernels/elementwise_functors.hpp"
#include "backend/cpu/kernels/kernels.hpp"
#include "backend/cpu/kernels/scalar_math.hpp"
#include "backend/cpu/vector_block.hpp"

namespace tfe::cpu::kernels {
namespace {

using namespace functors;

using ops::OpCode;

// Integer division, remainder and power check their right operand before anything is written.
template <OpCode Op> void check_integer_rhs(Operands in, const char* what) {
  const Tensor& b = in[1];
  visit_dtype(b.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_integer_v<T>) {
      bool bad = Op == OpCode::Pow ? any_element<T>(b, [](T v) { return v < 0; })
                                   : any_element<T>(b, [](T v) { return v == 0; });
      if (bad) fail(Status::Numerical, "integer %s", what);
    }
  });
}

} // namespace

Tensor add(Operands in, const ops::Params&, const ops::ConcreteMeta& m) {
  return binary<OpCode::Add, AddF>(in, m);
}
Tensor sub(Operands in, const ops::Params&, const ops::ConcreteMeta& m) {
  return binary<OpCode::Sub, SubF>(in, m);
}
Tensor mul(Operands in, const ops::Params&, const ops::ConcreteMeta& m) {
  return binary<OpCode::Mul, MulF>(in, m);
}
Tensor div(Operands in, const ops::Params&, const ops::ConcreteMeta& m) {
  check_integer_rhs<OpCode::Div>(in, "division by zero");
  return binary<OpCode::Div, DivF>(in, m);
}
Tensor rem(Operands in, const ops::Params&, const ops::ConcreteMeta& m) {
  check_integer_rhs<OpCode::Rem>(in, "remainder by zero");
  return binary<OpCode::Rem, RemF>(in, m);
}
Tensor pow(Operands in, const ops::Params&, const ops::ConcreteMeta& m) {
  check_integer_rhs<OpCode::Pow>(in, "power with a negative exponent");
  return binary<OpCode::Pow, PowF>(in, m);
}
Tensor neg(Operands in, const ops::Params&, const ops::ConcreteMeta& m) {
  return unary<OpCode::Neg, NegF>(in, m);
}
Tensor conj(Operands in, const ops::Params&, const ops::ConcreteMeta& m) {
  return unary<OpCode::Conj, ConjF>(in, m);
}
Tensor abs(Operands in, const ops::Params&, const ops::ConcreteMeta& m) {
  return unary<OpCode::Abs, AbsF>(in, m);
}
Tensor sign(Operands in, const ops::Params&, const ops::ConcreteMeta& m) {
  return unary<OpCode::Sign, SignF>(in, m);
}
Tensor maximum(Operands in, const ops::Params&, const ops::ConcreteMeta& m) {
  return binary<OpCode::Maximum, MaxF>(in, m);
}
Tensor minimum(Operands in, const ops::Params&, const ops::ConcreteMeta& m) {
  return binary<OpCode::Minimum, MinF>(in, m);
}

} // namespace tfe::cpu::kernels
