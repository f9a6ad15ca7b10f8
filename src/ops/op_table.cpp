// Generic validation and the promotion plan, both derived from the op table (op_table.hpp).
#include "ops/op_table.hpp"

#include "ops/shape_checks.hpp"

namespace tfe::ops {

Dims concrete_dims(const Shape& s) {
  Dims d(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (!s[i].is_const()) // only a symbolic parameter given to an op on concrete tensors
      fail(Status::InvalidArgument,
           "a symbolic extent in a parameter needs a symbolic operand (result shape %s)",
           format_shape(s).c_str());
    d[i] = s[i].value();
  }
  return d;
}

ConcreteMeta concrete(const Meta& m) { return {m.dtype, concrete_dims(m.shape)}; }

std::optional<OpCode> op_by_name(std::string_view name) {
  for (const OpDef& d : kOpTable)
    if (d.name == name) return d.code;
  return std::nullopt;
}

Meta infer_meta(OpCode code, std::span<const Meta> inputs, const Params& params) {
  const OpDef& def = op_def(code);
  int64_t n = static_cast<int64_t>(inputs.size());
  if (n < def.min_inputs || (def.max_inputs >= 0 && n > def.max_inputs))
    fail(Status::InvalidArgument, "%s takes %d%s operands, got %lld", std::string(def.name).c_str(),
         def.min_inputs, def.max_inputs < 0 ? " or more" : "", (long long)n);
  if (kind_of(params) != def.params)
    fail(Status::InvalidArgument, "%s got parameters %s of the wrong kind",
         std::string(def.name).c_str(), to_string(params).c_str());
  for (size_t i = 0; i < inputs.size(); ++i)
    if (def.is_value_operand(i) && !def.accepts.contains(inputs[i].dtype))
      fail(Status::DtypeMismatch, "%s does not accept %s (operand %zu); it accepts %s",
           std::string(def.name).c_str(), std::string(dtype_name(inputs[i].dtype)).c_str(), i,
           dtype_list(def.accepts).c_str());
  return def.infer(inputs, params);
}

void promotion_plan(OpCode code, std::span<const DType> inputs, std::span<DType> out_targets) {
  const OpDef& def = op_def(code);
  bool any = false;
  DType joined = DType::Bool;
  for (size_t i = 0; i < inputs.size(); ++i) {
    out_targets[i] = inputs[i];
    if (def.promotes && def.is_value_operand(i)) {
      joined = any ? join(joined, inputs[i]) : inputs[i];
      any = true;
    }
  }
  if (!any) return;
  for (size_t i = 0; i < inputs.size(); ++i)
    if (def.is_value_operand(i)) out_targets[i] = joined;
}

} // namespace tfe::ops
