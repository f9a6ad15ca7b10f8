// The value algebra of the program-AD rules for the shared formulas (ad/formulas/*.hpp): each
// operation emits IR through the builders (ad/builder.hpp).
#pragma once

#include "ad/builder.hpp"
#include "ad/formulas/analytic.hpp"
#include "ad/rules/rules.hpp"

namespace tfe::ad {

struct IrAlgebra {
  using Value = graph::Value;
  using Pred = graph::Value;
  static Value add(const Value& a, const Value& b) { return a + b; }
  static Value sub(const Value& a, const Value& b) { return a - b; }
  static Value mul(const Value& a, const Value& b) { return a * b; }
  static Value div(const Value& a, const Value& b) { return a / b; }
  static Value neg(const Value& a) { return -a; }
  static Value conj(const Value& a) { return ad::conj(a); }
  static Value real(const Value& a) { return ad::real(a); }
  static Value imag(const Value& a) { return ad::imag(a); }
  static Value sign(const Value& a) { return emit1(ops::OpCode::Sign, a); }
  static Value cos(const Value& a) { return emit1(ops::OpCode::Cos, a); }
  static Value sin(const Value& a) { return emit1(ops::OpCode::Sin, a); }
  static Value log(const Value& a) { return emit1(ops::OpCode::Log, a); }
  static Value pow(const Value& a, const Value& b) { return emit2(ops::OpCode::Pow, a, b); }
  // An analytic op (ops/defs/analytic.hpp) by its code.
  template <ops::OpCode Op> static Value apply(const Value& a) { return emit1(Op, a); }
  template <ops::OpCode Op> static Value apply(const Value& a, const Value& b) {
    return emit2(Op, a, b);
  }
  // c broadcast to like's dtype and shape.
  static Value constant(const Value& like, double c) {
    return full(like.meta().dtype, like.meta().shape, c);
  }
  static bool is_complex(const Value& v) { return tfe::is_complex(v.meta().dtype); }
  static Pred equal(const Value& v, double c) {
    return compare(v, constant(v, c), ops::CompareDir::Eq);
  }
  static Pred both(const Pred& p, const Pred& q) { return emit2(ops::OpCode::And, p, q); }
  static Value select(const Pred& p, const Value& a, const Value& b) { return ad::select(p, a, b); }
};

// The rule of op F (a formulas:: template) for a node's arguments.
template <template <class> class F>
Tangent unary_formula(std::span<const Value> x, const Value& y, std::span<const Tangent> dx) {
  return F<IrAlgebra>::jvp(x[0], y, dx[0]);
}
template <template <class> class F>
Tangent binary_formula(std::span<const Value> x, const Value& y, std::span<const Tangent> dx) {
  return F<IrAlgebra>::jvp(x[0], x[1], y, dx[0], dx[1]);
}

// The JVP of an op whose derivative is shared formula F (ad/formulas/), of arity 1 or 2.
template <template <class> class F, int Arity> struct FormulaJvp {
  static Tangent jvp(const JvpArgs& a) {
    if constexpr (Arity == 1)
      return unary_formula<F>(a.x, a.y, a.dx);
    else
      return binary_formula<F>(a.x, a.y, a.dx);
  }
};

// The rules of an op whose JVP is formula F of arity 1 or 2 (no transpose: not linear).
template <template <class> class F, int Arity> const Rules& formula_rules() {
  static const Rules r{&FormulaJvp<F, Arity>::jvp, nullptr};
  return r;
}

} // namespace tfe::ad
