// Dispatch of extension ops to their own rules (extension_rules.hpp).
#include "ad/rules/extension_rules.hpp"

namespace tfe::ad {

void ExtensionRules::transpose(const TransposeArgs& a, std::span<Tangent>) const {
  fail(Status::NotDifferentiable, "%s has no transpose rule (it is not linear in an operand)",
       std::string(ops::extension_of(a.node.params).name()).c_str());
}

const ExtensionRules& extension_rules(const graph::Node& node) {
  const ops::ExtensionDef& def = ops::extension_of(node.params);
  const auto* r = dynamic_cast<const ExtensionRules*>(&def);
  if (!r)
    fail(Status::NotDifferentiable, "%s has no derivative rule", std::string(def.name()).c_str());
  return *r;
}

void jvp_multi_of(const graph::Node& node, std::span<const Value> x, std::span<const Value> y,
                  std::span<const Tangent> dx, std::span<Tangent> out) {
  for (Tangent& t : out) t.reset();
  bool active = false;
  for (const Tangent& t : dx) active |= t.has_value();
  if (!active) return;
  if (node.op != ops::OpCode::Extension) {
    out[0] = jvp_of(node, x, y[0], dx);
    return;
  }
  extension_rules(node).jvp(MultiJvpArgs{node, x, y, dx}, out);
  for (size_t i = 0; i < out.size(); ++i)
    if (!is_inexact(y[i].meta().dtype)) out[i].reset(); // pivots, info: never active
}

namespace rules {

Tangent extension_jvp(const JvpArgs& a) {
  std::array<Value, 1> y{a.y};
  std::array<Tangent, 1> out;
  extension_rules(a.node).jvp(MultiJvpArgs{a.node, a.x, y, a.dx}, out);
  return out[0];
}

void extension_t(const TransposeArgs& a, std::span<Tangent> out) {
  extension_rules(a.node).transpose(a, out);
}

} // namespace rules
} // namespace tfe::ad
