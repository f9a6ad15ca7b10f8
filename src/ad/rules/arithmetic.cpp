// Rules of the arithmetic group (src/ops/defs/arithmetic.hpp). The JVPs of add, sub, mul, div,
// pow, neg, conj and abs are the shared formulas of ad/formulas/elementwise.hpp.
#include "ad/rules/row_rules.hpp"

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
  if (d0) t0 = *d0 * w;
  if (d1) t1 = *d1 * (full(w.meta().dtype, w.meta().shape, 1.0) - w);
  return add(t0, t1);
}

// One struct per row of ops/defs/arithmetic.hpp (row_rules.hpp: what each AD class needs).
namespace {

void require_one_linear(const TransposeArgs& a, const char* op) {
  if (a.linear[0] && a.linear[1])
    fail(Status::Internal, "%s of two tangents is not linear and cannot be transposed", op);
}

struct Add : FormulaJvp<formulas::Add, 2> {
  static void transpose(const TransposeArgs& a, std::span<Tangent> out) {
    for (size_t i = 0; i < 2; ++i)
      if (a.linear[i]) out[i] = a.ct;
  }
};

struct Sub : FormulaJvp<formulas::Sub, 2> {
  static void transpose(const TransposeArgs& a, std::span<Tangent> out) {
    if (a.linear[0]) out[0] = a.ct;
    if (a.linear[1]) out[1] = -a.ct;
  }
};

// y = x0 * x1 with one operand a residual r: the adjoint of dx -> r dx is ct -> conj(r) ct.
struct Mul : FormulaJvp<formulas::Mul, 2> {
  static void transpose(const TransposeArgs& a, std::span<Tangent> out) {
    require_one_linear(a, "mul");
    if (a.linear[0]) out[0] = a.ct * conj(a.x[1]);
    if (a.linear[1]) out[1] = conj(a.x[0]) * a.ct;
  }
};

struct Div : FormulaJvp<formulas::Div, 2> {
  static void transpose(const TransposeArgs& a, std::span<Tangent> out) {
    if (a.linear[1])
      fail(Status::Internal, "div is not linear in its divisor and cannot be transposed");
    out[0] = a.ct / conj(a.x[1]);
  }
};

// rem(x0, x1) = x0 - q x1 with q = trunc(x0 / x1) piecewise constant: d = dx0 - q dx1.
struct Rem {
  static Tangent jvp(const JvpArgs& a) {
    if (!a.dx[1]) return a.dx[0];
    Value q = emit1(OpCode::Round, (a.x[0] - a.y) / a.x[1]);
    return add(a.dx[0], Tangent(-(q * *a.dx[1])));
  }
};

struct Pow : FormulaJvp<formulas::Pow, 2> {};

struct Neg : FormulaJvp<formulas::Neg, 1> {
  static void transpose(const TransposeArgs& a, std::span<Tangent> out) { out[0] = -a.ct; }
};

struct Conj : FormulaJvp<formulas::Conj, 1> {
  static void transpose(const TransposeArgs& a, std::span<Tangent> out) { out[0] = conj(a.ct); }
};

struct Abs : FormulaJvp<formulas::Abs, 1> {};

// Real input: piecewise constant. Complex z != 0 with s = z/|z|: ds = i Im(conj(s) dz) s / |z|;
// 0 at z = 0 (docs/design/ad-contract.md).
struct Sign {
  static Tangent jvp(const JvpArgs& a) {
    if (!a.dx[0] || !is_complex(a.x[0].meta().dtype)) return std::nullopt;
    const Value& z = a.x[0];
    const Value& s = a.y;
    DType d = z.meta().dtype;
    const Shape& shape = z.meta().shape;
    Value im = imag(conj(s) * *a.dx[0]);
    Value i_im = complex(full(real_dtype(d), shape, 0.0), im);
    // |z| is replaced by 1 where z = 0 before dividing: the result is selected away there, and
    // the transpose (the VJP) then divides its zero cotangent by 1, not by 0 (no NaN at z = 0).
    Value zero = compare(z, full(d, shape, 0.0), CompareDir::Eq);
    Value safe = select(zero, full(d, shape, 1.0), convert(emit1(OpCode::Abs, z), d));
    Value r = (i_im * s) / safe;
    return select(zero, full(d, shape, 0.0), r);
  }
};

struct Maximum {
  static Tangent jvp(const JvpArgs& a) {
    return extremum_tangent(a.x[0], a.x[1], a.dx[0], a.dx[1], CompareDir::Gt);
  }
};

struct Minimum {
  static Tangent jvp(const JvpArgs& a) {
    return extremum_tangent(a.x[0], a.x[1], a.dx[0], a.dx[1], CompareDir::Lt);
  }
};

// fmax and fmin: the extremum's tangent where both operands are numbers; where one is NaN the
// result is the other operand, and so is the tangent.
Tangent nan_ignoring_extremum(const JvpArgs& a, CompareDir wins) {
  Tangent t = extremum_tangent(a.x[0], a.x[1], a.dx[0], a.dx[1], wins);
  if (!t) return t;
  Value d0 = a.dx[0] ? *a.dx[0] : zeros_like(a.x[0]);
  Value d1 = a.dx[1] ? *a.dx[1] : zeros_like(a.x[1]);
  Value nan0 = compare(a.x[0], a.x[0], CompareDir::Ne);
  Value nan1 = compare(a.x[1], a.x[1], CompareDir::Ne);
  return select(nan1, d0, select(nan0, d1, *t));
}

struct Fmax {
  static Tangent jvp(const JvpArgs& a) { return nan_ignoring_extremum(a, CompareDir::Gt); }
};

struct Fmin {
  static Tangent jvp(const JvpArgs& a) { return nan_ignoring_extremum(a, CompareDir::Lt); }
};

} // namespace

TFE_DEFINE_GROUP_RULES(arithmetic_rules, TFE_ARITHMETIC_OPS)

} // namespace tfe::ad::rules
