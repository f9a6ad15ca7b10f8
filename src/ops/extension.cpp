// Extension op plumbing (extension.hpp).
#include "ops/extension.hpp"

#include "core/error.hpp"
#include "ops/op_table.hpp"

namespace tfe::ops {

std::string ExtensionDef::format_options(const ExtensionParams& p) const {
  std::string out = "{options=" + format_dims(p.options);
  if (p.eps != 0) out += strformat(", eps=%g", p.eps);
  return out + "}";
}

const ExtensionDef& extension_of(const Params& p) {
  const auto* e = std::get_if<ExtensionParams>(&p);
  if (!e || !e->def) fail(Status::Internal, "an extension op without its definition");
  return *e->def;
}

int num_outputs(OpCode code, const Params& params) {
  return code == OpCode::Extension ? extension_of(params).num_outputs() : 1;
}

MetaList infer_metas(OpCode code, std::span<const Meta> inputs, const Params& params) {
  if (code != OpCode::Extension) return {infer_meta(code, inputs, params)};
  if (kind_of(params) != ParamsKind::Extension)
    fail(Status::InvalidArgument, "extension got parameters %s of the wrong kind",
         to_string(params).c_str());
  const ExtensionParams& p = std::get<ExtensionParams>(params);
  const ExtensionDef& def = extension_of(params);
  if (static_cast<int64_t>(inputs.size()) != def.num_inputs())
    fail(Status::InvalidArgument, "%s takes %d operands, got %zu", std::string(def.name()).c_str(),
         def.num_inputs(), inputs.size());
  MetaList out = def.infer(inputs, p);
  if (static_cast<int64_t>(out.size()) != def.num_outputs())
    fail(Status::Internal, "%s inferred %zu outputs, not %d", std::string(def.name()).c_str(),
         out.size(), def.num_outputs());
  return out;
}

namespace rules {
Meta extension(std::span<const Meta> in, const Params& p) {
  return infer_metas(OpCode::Extension, in, p).at(0);
}
} // namespace rules

} // namespace tfe::ops
