// Rules of the arithmetic group (src/ops/defs/arithmetic.hpp). add, sub, mul, div, pow, neg,
// conj and abs are the shared formulas of ad/formulas/elementwise.hpp.
#include "ad/rules/ir_algebra.hpp"
#include "ad/rules/rules.hpp"

namespace tfe::ad::rules {

using ops::CompareDir;
using ops::OpCode;

namespace {
// Weight of operand 0 in max/min: 1 where it strictly wins, 1/2 on a tie, 0 where it loses.
Value extremum_weight(const Value& x0, const Value& x1, CompareDir wins) {
  DType d = x0.meta().dtype;
  const Shape& s = x0.meta().shape;
  Value half = select(compare(x0, x1, CompareDir::Eq), full(d, s, 0.5), full(d, s, 0.0));
  return select(compare(x0, x1, wins), full(d, s, 1.0), half);
}
} // namespace

// d max(x0, x1) = w dx0 + (1 - w) dx1, ties split equally (docs/design/ad-contract.md).
Tangent extremum_tangent(const Value& x0, const Value& x1, const Tangent& d0, const Tangent& d1,
                         CompareDir wins) {
  if (!d0 && !d1) return std::nullopt;
  Value w = extremum_weight(x0, x1, wins);
  Tangent t0, t1;
  if (d0) t0 = mul(*d0, w);
  if (d1) t1 = mul(*d1, sub(full(w.meta().dtype, w.meta().shape, 1.0), w));
  return add(t0, t1);
}

Tangent add_jvp(const JvpArgs& a) { return binary_formula<formulas::Add>(a.x, a.y, a.dx); }

Tangent sub_jvp(const JvpArgs& a) { return binary_formula<formulas::Sub>(a.x, a.y, a.dx); }

Tangent mul_jvp(const JvpArgs& a) { return binary_formula<formulas::Mul>(a.x, a.y, a.dx); }

Tangent div_jvp(const JvpArgs& a) { return binary_formula<formulas::Div>(a.x, a.y, a.dx); }

// rem(x0, x1) = x0 - q x1 with q = trunc(x0 / x1) piecewise constant: d = dx0 - q dx1.
Tangent rem_jvp(const JvpArgs& a) {
  if (!a.dx[1]) return a.dx[0];
  Value q = emit1(OpCode::Round, div(sub(a.x[0], a.y), a.x[1]));
  return add(a.dx[0], Tangent(neg(mul(q, *a.dx[1]))));
}

Tangent pow_jvp(const JvpArgs& a) { return binary_formula<formulas::Pow>(a.x, a.y, a.dx); }

Tangent neg_jvp(const JvpArgs& a) { return unary_formula<formulas::Neg>(a.x, a.y, a.dx); }

Tangent conj_jvp(const JvpArgs& a) { return unary_formula<formulas::Conj>(a.x, a.y, a.dx); }

Tangent abs_jvp(const JvpArgs& a) { return unary_formula<formulas::Abs>(a.x, a.y, a.dx); }

// Real input: piecewise constant. Complex z != 0 with s = z/|z|: ds = i Im(conj(s) dz) s / |z|;
// 0 at z = 0 (docs/design/ad-contract.md).
Tangent sign_jvp(const JvpArgs& a) {
  if (!a.dx[0] || !is_complex(a.x[0].meta().dtype)) return std::nullopt;
  const Value& z = a.x[0];
  const Value& s = a.y;
  DType d = z.meta().dtype;
  const Shape& shape = z.meta().shape;
  Value im = imag(mul(conj(s), *a.dx[0]));
  Value i_im = complex(full(real_dtype(d), shape, 0.0), im);
  // |z| is replaced by 1 where z = 0 before dividing: the result is selected away there, and the
  // transpose (the VJP) then divides its zero cotangent by 1, not by 0 (no NaN at z = 0).
  Value zero = compare(z, full(d, shape, 0.0), CompareDir::Eq);
  Value safe = select(zero, full(d, shape, 1.0), convert(emit1(OpCode::Abs, z), d));
  Value r = div(mul(i_im, s), safe);
  return select(zero, full(d, shape, 0.0), r);
}

Tangent maximum_jvp(const JvpArgs& a) {
  return extremum_tangent(a.x[0], a.x[1], a.dx[0], a.dx[1], CompareDir::Gt);
}

Tangent minimum_jvp(const JvpArgs& a) {
  return extremum_tangent(a.x[0], a.x[1], a.dx[0], a.dx[1], CompareDir::Lt);
}

void add_t(const TransposeArgs& a, std::span<Tangent> out) {
  for (size_t i = 0; i < 2; ++i)
    if (a.linear[i]) out[i] = a.ct;
}

void sub_t(const TransposeArgs& a, std::span<Tangent> out) {
  if (a.linear[0]) out[0] = a.ct;
  if (a.linear[1]) out[1] = neg(a.ct);
}

namespace {
void require_one_linear(const TransposeArgs& a, const char* op) {
  if (a.linear[0] && a.linear[1])
    fail(Status::Internal, "%s of two tangents is not linear and cannot be transposed", op);
}
} // namespace

// y = x0 * x1 with one operand a residual r: the adjoint of dx -> r dx is ct -> conj(r) ct.
void mul_t(const TransposeArgs& a, std::span<Tangent> out) {
  require_one_linear(a, "mul");
  if (a.linear[0]) out[0] = mul(a.ct, conj(a.x[1]));
  if (a.linear[1]) out[1] = mul(conj(a.x[0]), a.ct);
}

void div_t(const TransposeArgs& a, std::span<Tangent> out) {
  if (a.linear[1])
    fail(Status::Internal, "div is not linear in its divisor and cannot be transposed");
  out[0] = div(a.ct, conj(a.x[1]));
}

void neg_t(const TransposeArgs& a, std::span<Tangent> out) { out[0] = neg(a.ct); }

void conj_t(const TransposeArgs& a, std::span<Tangent> out) { out[0] = conj(a.ct); }

} // namespace tfe::ad::rules
