// The derivative rules of an extension op (ops/extension.hpp). A layer that defines extension
// ops (linalg) derives its concrete op classes from both ops::ExtensionDef and this interface;
// the AD layer finds the rules by a cross-cast from the def, so ops never depends on AD.
#pragma once

#include "ad/rules/rules.hpp"
#include "ops/extension.hpp"

namespace tfe::ad {

class ExtensionRules {
public:
  virtual ~ExtensionRules() = default;
  // One tangent per output: out[i] for output i (nullopt: zero). Linear in the tangents, built
  // from IR ops (core or extension) so that it can be differentiated again.
  virtual void jvp(const MultiJvpArgs& a, std::span<Tangent> out) const = 0;
  // The adjoint of an op that is linear in some operands (its JVP must then be the op applied to
  // those tangents). Only single-output ops can be linear. Default: not linear in any operand.
  virtual void transpose(const TransposeArgs& a, std::span<Tangent> out) const;

  template <class P = ops::ExtensionParams> static const P& params(const graph::Node& n) {
    return std::get<P>(n.params);
  }
};

// The rules of an extension node; NotDifferentiable naming the op when its def has none.
const ExtensionRules& extension_rules(const graph::Node& node);

} // namespace tfe::ad
