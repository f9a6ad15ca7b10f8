// Rules of the analytic group (src/ops/defs/analytic.hpp). All are holomorphic on complex input,
// so the JVP is f'(z) dz with no conjugation; the derivative reuses the primal output where it
// can (exp, tan, tanh, sqrt, expm1). exp, log, sin, cos, tan, tanh and sqrt are the shared
// formulas of ad/formulas/elementwise.hpp (the dataflow engine evaluates the same ones).
#include "ad/rules/ir_algebra.hpp"
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

Tangent exp_jvp(const JvpArgs& a) { return unary_formula<formulas::Exp>(a.x, a.y, a.dx); }

Tangent log_jvp(const JvpArgs& a) { return unary_formula<formulas::Log>(a.x, a.y, a.dx); }

Tangent sin_jvp(const JvpArgs& a) { return unary_formula<formulas::Sin>(a.x, a.y, a.dx); }

Tangent cos_jvp(const JvpArgs& a) { return unary_formula<formulas::Cos>(a.x, a.y, a.dx); }

Tangent tan_jvp(const JvpArgs& a) { return unary_formula<formulas::Tan>(a.x, a.y, a.dx); }

Tangent tanh_jvp(const JvpArgs& a) { return unary_formula<formulas::Tanh>(a.x, a.y, a.dx); }

Tangent sqrt_jvp(const JvpArgs& a) { return unary_formula<formulas::Sqrt>(a.x, a.y, a.dx); }

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
