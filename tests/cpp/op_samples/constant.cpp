// Samples and reference results of the constant group (src/ops/defs/constant.hpp).
#include "op_samples/op_samples.hpp"

namespace tfe::testing {

std::optional<OpSamples> constant_samples(ops::OpCode) { return std::nullopt; }

} // namespace tfe::testing
