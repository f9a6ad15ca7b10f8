// Rules of the analytic group (src/ops/defs/analytic.hpp). All are holomorphic on complex input,
// so the JVP is f'(z) dz with no conjugation; the derivative reuses the primal output where it
// can (exp, tan, tanh, sqrt, expm1).
#include "ad/rules/rules.hpp"

namespace tfe::ad::rules {

using ops::OpCode;

namespace {
template <class F> Tangent scaled(const JvpArgs& a, F factor) {
  if (!a.dx[0]) return std::nullopt;
  return mul(*a.dx[0], factor(a.x[0], a.y));
}
Value ones(const Value& v) { return full(v.meta().dtype, v.meta().shape, 1.0); }
} // namespace

Tangent exp_jvp(const JvpArgs& a) {
  return scaled(a, [](const Value&, const Value& y) { return y; });
}

Tangent log_jvp(const JvpArgs& a) {
  if (!a.dx[0]) return std::nullopt;
  return div(*a.dx[0], a.x[0]);
}

Tangent sin_jvp(const JvpArgs& a) {
  return scaled(a, [](const Value& x, const Value&) { return emit1(OpCode::Cos, x); });
}

Tangent cos_jvp(const JvpArgs& a) {
  return scaled(a, [](const Value& x, const Value&) { return neg(emit1(OpCode::Sin, x)); });
}

Tangent tan_jvp(const JvpArgs& a) {
  return scaled(a, [](const Value&, const Value& y) { return add(ones(y), mul(y, y)); });
}

Tangent tanh_jvp(const JvpArgs& a) {
  return scaled(a, [](const Value&, const Value& y) { return sub(ones(y), mul(y, y)); });
}

Tangent sqrt_jvp(const JvpArgs& a) {
  if (!a.dx[0]) return std::nullopt;
  return div(*a.dx[0], scale(a.y, 2.0));
}

// d x^(-1/2) = -1/2 x^(-3/2) dx = -1/2 y^3 dx (no division by x).
Tangent rsqrt_jvp(const JvpArgs& a) {
  return scaled(a, [](const Value&, const Value& y) { return scale(mul(y, mul(y, y)), -0.5); });
}

Tangent expm1_jvp(const JvpArgs& a) {
  return scaled(a, [](const Value&, const Value& y) { return add(y, ones(y)); });
}

Tangent log1p_jvp(const JvpArgs& a) {
  if (!a.dx[0]) return std::nullopt;
  return div(*a.dx[0], add(a.x[0], ones(a.x[0])));
}

Tangent zero_jvp(const JvpArgs&) { return std::nullopt; }

} // namespace tfe::ad::rules
