// The row of extension ops (ops/extension.hpp): one code for every op a later layer defines;
// the ExtensionParams say which. Arity, dtypes and shapes are checked by the def's own rule.
#pragma once

#include "ops/op_def.hpp"

namespace tfe::ops::rules {
Meta extension(std::span<const Meta> in, const Params& p); // output 0 of the def's rule
} // namespace tfe::ops::rules

namespace tfe::ops::defs {

// clang-format off
inline constexpr OpDef kExtension[] = {
  {OpCode::Extension, "extension", "tfe_linalg_*", OpGroup::Extension, 0, -1, ParamsKind::Extension, dtypes::kInexact, 0, false, false, rules::extension, AdClass::Smooth, "", "An op defined by a later layer (linalg): its ExtensionParams name it; see the linalg reference."},
};
// clang-format on

} // namespace tfe::ops::defs
