// Rules of comparison and selection (src/ops/defs/comparison.hpp). Compare has a Bool output
// (no tangent). Clamp's rules are exactly those of Minimum(Maximum(x, lo), hi), so lo > hi gives
// hi and ties split (docs/design/ad-contract.md).
#include "ad/rules/rules.hpp"

namespace tfe::ad::rules {

using ops::CompareDir;
using ops::OpCode;

Tangent extremum_tangent(const Value& x0, const Value& x1, const Tangent& d0, const Tangent& d1,
                         CompareDir wins); // arithmetic.cpp

Tangent select_jvp(const JvpArgs& a) {
  if (!a.dx[1] && !a.dx[2]) return std::nullopt;
  Value t = a.dx[1] ? *a.dx[1] : zeros_like(a.x[1]);
  Value f = a.dx[2] ? *a.dx[2] : zeros_like(a.x[2]);
  return select(a.x[0], t, f);
}

Tangent clamp_jvp(const JvpArgs& a) {
  Value m = emit2(OpCode::Maximum, a.x[0], a.x[1]);
  Tangent dm = extremum_tangent(a.x[0], a.x[1], a.dx[0], a.dx[1], CompareDir::Gt);
  return extremum_tangent(m, a.x[2], dm, a.dx[2], CompareDir::Lt);
}

void select_t(const TransposeArgs& a, std::span<Tangent> out) {
  if (a.linear[0]) fail(Status::Internal, "select is not linear in its predicate");
  if (a.linear[1]) out[1] = select(a.x[0], a.ct, zeros_like(a.ct));
  if (a.linear[2]) out[2] = select(a.x[0], zeros_like(a.ct), a.ct);
}

} // namespace tfe::ad::rules
