// Samples and reference results of the logical group (src/ops/defs/logical.hpp).
#include "op_samples/op_samples.hpp"

namespace tfe::testing {

std::optional<OpSamples> logical_samples(ops::OpCode op) {
  using ops::OpCode;
  using I = std::vector<int64_t>;
  const Domain A = Domain::Any;
  auto none = [](const std::vector<Scalar>&, DType) { return Scalar(0); };
  auto bool_or_int = [](auto on_bool, auto on_int) {
    return
        [=](const I& v, DType d) { return d == DType::Bool ? on_bool(v) : wrap_to(d, on_int(v)); };
  };
  OpSamples s;
  switch (op) {
  case OpCode::And:
    s = elementwise_samples({A, A},
                            {none, bool_or_int([](const I& v) { return int64_t{v[0] && v[1]}; },
                                               [](const I& v) { return v[0] & v[1]; })});
    break;
  case OpCode::Or:
    s = elementwise_samples({A, A},
                            {none, bool_or_int([](const I& v) { return int64_t{v[0] || v[1]}; },
                                               [](const I& v) { return v[0] | v[1]; })});
    break;
  case OpCode::Xor:
    s = elementwise_samples(
        {A, A}, {none, bool_or_int([](const I& v) { return int64_t{(v[0] != 0) != (v[1] != 0)}; },
                                   [](const I& v) { return v[0] ^ v[1]; })});
    break;
  case OpCode::Not:
    s = elementwise_samples({A}, {none, bool_or_int([](const I& v) { return int64_t{!v[0]}; },
                                                    [](const I& v) { return ~v[0]; })});
    break;
  default: return std::nullopt;
  }
  size_t arity = ops::op_def(op).min_inputs;
  s.errors = [arity] { return elementwise_errors(arity, DType::I32, DType::I64); };
  return s;
}

} // namespace tfe::testing
