// Samples and reference results of the complex-parts group (src/ops/defs/complex_parts.hpp).
#include "op_samples/op_samples.hpp"

namespace tfe::testing {

std::optional<OpSamples> complex_parts_samples(ops::OpCode op) {
  using ops::OpCode;
  using V = std::vector<Scalar>;
  auto none = [](const std::vector<int64_t>&, DType) { return int64_t{0}; };
  const Domain A = Domain::Any;
  switch (op) {
  case OpCode::Real:
    return elementwise_samples({A}, {[](const V& v, DType) { return Scalar(v[0].real()); }, none});
  case OpCode::Imag:
    return elementwise_samples({A}, {[](const V& v, DType) { return Scalar(v[0].imag()); }, none});
  case OpCode::Complex:
    return elementwise_samples(
        {A, A}, {[](const V& v, DType) { return Scalar(v[0].real(), v[1].real()); }, none});
  default: return std::nullopt;
  }
}

} // namespace tfe::testing
