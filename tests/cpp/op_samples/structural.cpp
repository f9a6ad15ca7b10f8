// Samples and reference results of the structural group (src/ops/defs/structural.hpp).
#include "op_samples/op_samples.hpp"

namespace tfe::testing {

std::optional<OpSamples> structural_samples(ops::OpCode) { return std::nullopt; }

} // namespace tfe::testing
