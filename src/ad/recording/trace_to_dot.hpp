// Graphviz DOT text of the eager trace below a tensor: what a derivative request would analyse.
// Variables, constants and captured leaves are distinguished; every node shows its user-facing
// op name and the dtype and shape of the value it recorded.
#pragma once

#include <string>

#include "ad/recording/trace.hpp"

namespace tfe::ad::recording {

std::string trace_to_dot(const RawRef& root);

} // namespace tfe::ad::recording
