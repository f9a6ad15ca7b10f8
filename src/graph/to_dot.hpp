// Graphviz DOT text of a program, for looking at what was traced or derived: one box per op
// with its user-facing name and the dtype and shape of each output, inputs and captured constants
// as rounded and dashed boxes, and the outputs as plain labels.
#pragma once

#include <string>
#include <string_view>

#include "graph/program.hpp"

namespace tfe::graph {

// The user-facing name of an op: its C function without the "tfe_" prefix ("mul", "cast",
// "linalg_eigh"), or the IR name of an internal op.
std::string display_name(ops::OpCode op, const ops::Params& params);

// "F64 [s1,3]".
std::string describe(const ops::Meta& meta);

// Escapes text for a double-quoted DOT string.
std::string dot_quote(std::string_view text);

std::string to_dot(const Program& program, std::string_view title);

} // namespace tfe::graph
