// CPU kernels of the comparison and selection group (ops/defs/comparison.hpp).
#include "backend/cpu/kernels/elementwise.hpp"
#include "backend/cpu/kernels/elementwise_functors.hpp"
#include "backend/cpu/kernels/kernels.hpp"
#include "backend/cpu/kernels/scalar_math.hpp"

namespace tfe::cpu::kernels {
namespace {

using namespace functors;

using ops::CompareDir;
using ops::OpCode;

} // namespace

Tensor compare(Operands in, const ops::Params& p, const ops::ConcreteMeta& m) {
  switch (std::get<ops::CompareParams>(p).dir) {
  case CompareDir::Eq: return binary<OpCode::Compare, CompareF<CompareDir::Eq>>(in, m);
  case CompareDir::Ne: return binary<OpCode::Compare, CompareF<CompareDir::Ne>>(in, m);
  case CompareDir::Lt: return binary<OpCode::Compare, CompareF<CompareDir::Lt>>(in, m);
  case CompareDir::Le: return binary<OpCode::Compare, CompareF<CompareDir::Le>>(in, m);
  case CompareDir::Gt: return binary<OpCode::Compare, CompareF<CompareDir::Gt>>(in, m);
  case CompareDir::Ge: return binary<OpCode::Compare, CompareF<CompareDir::Ge>>(in, m);
  }
  fail(Status::InvalidArgument, "unknown comparison direction");
}

Tensor select(Operands in, const ops::Params&, const ops::ConcreteMeta& m) {
  Tensor out = Tensor::empty(m.dtype, m.shape);
  dispatch_accepted<OpCode::Select>(in[1].dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    Map<T, bool, T, T>::run([](bool c, T a, T b) { return c ? a : b; }, kGrainCheap, out, in[0],
                            in[1], in[2]);
  });
  return out;
}

Tensor clamp(Operands in, const ops::Params&, const ops::ConcreteMeta& m) {
  return ternary<OpCode::Clamp, ClampF>(in, m);
}

} // namespace tfe::cpu::kernels
