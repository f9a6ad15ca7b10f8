// TriangularSolve: op(A) X = B or X op(A) = B with A triangular (one triangle read). Linear in B;
// its transpose solves the adjoint system with the same A.
#include "linalg/ir.hpp"
#include "linalg/ops.hpp"
#include "backend/lapack.hpp"

namespace tfe::linalg {
namespace {

// The triangle of A that the op reads, as a full matrix (zeros elsewhere).
Value read_triangle(const Value& a, const TriangularOptions& o) {
  int64_t k = o.unit_diagonal ? 1 : 0;
  return o.upper ? ir::triu(a, k) : ir::tril(a, -k);
}

class TriangularSolveOp final : public LinalgOp {
public:
  TriangularSolveOp() : LinalgOp("triangular_solve", "tfe_linalg_solve_triangular", 2, 1) {}

  ops::MetaList infer(std::span<const ops::Meta> in, const ops::ExtensionParams& p) const override {
    TriangularOptions o = triangular_options(p);
    require_system(in[0], in[1], "a", o.left ? 0 : 1);
    return {in[1]};
  }

  bool runs_on_devices() const override { return true; }

  void run(Operands in, const ops::ExtensionParams& p, std::span<const ops::ConcreteMeta>,
           std::span<Tensor> out) const override {
    TriangularOptions o = triangular_options(p);
    out[0] =
        backend::lapack::triangular_solve(in[0], in[1], o.upper, o.left, o.unit_diagonal, o.trans);
  }

  std::string format_options(const ops::ExtensionParams& p) const override {
    TriangularOptions o = triangular_options(p);
    static const char* trans[] = {"N", "T", "C"};
    return strformat("{%s, %s, %s, trans=%s}", o.upper ? "upper" : "lower",
                     o.left ? "left" : "right", o.unit_diagonal ? "unit" : "non-unit",
                     trans[static_cast<int>(o.trans)]);
  }

  // left: dX = op(A)^-1 (dB - op(dA) X); right: dX = (dB - X op(dA)) op(A)^-1.
  void jvp(const ad::MultiJvpArgs& a, std::span<Tangent> out) const override {
    TriangularOptions o = triangular_options(params(a.node));
    Tangent rhs = a.dx[1];
    if (a.dx[0]) {
      Value dop = apply_trans(read_triangle(*a.dx[0], o), o.trans);
      Value term = o.left ? ir::matmul(dop, a.y[0]) : ir::matmul(a.y[0], dop);
      rhs = rhs ? *rhs - term : -term;
    }
    out[0] = triangular_solve(a.x[0], *rhs, o);
  }

  // X = op(A)^-1 B (left) has the adjoint B_ct = op(A)^-H X_ct: the same A with the adjoint op.
  // op = T has no adjoint flag (that would be conj(A)): conj(A^-1 conj(X_ct)) instead.
  void transpose(const ad::TransposeArgs& a, std::span<Tangent> out) const override {
    if (a.linear[0]) fail(Status::NotDifferentiable, "triangular_solve is not linear in a");
    TriangularOptions o = triangular_options(params(a.node));
    switch (o.trans) {
    case Trans::No: o.trans = Trans::ConjTranspose; break;
    case Trans::ConjTranspose: o.trans = Trans::No; break;
    case Trans::Transpose:
      o.trans = Trans::No;
      out[1] = ad::conj(triangular_solve(a.x[0], ad::conj(a.ct), o));
      return;
    }
    out[1] = triangular_solve(a.x[0], a.ct, o);
  }
};

} // namespace

const LinalgOp& triangular_solve_op() {
  static const TriangularSolveOp op;
  return op;
}

ops::ExtensionParams triangular_solve_params(const TriangularOptions& o) {
  return triangular_solve_op().make_params(
      {o.upper, o.left, o.unit_diagonal, static_cast<int64_t>(o.trans)});
}

TriangularOptions triangular_options(const ops::ExtensionParams& p) {
  return {option(p, 0) != 0, option(p, 1) != 0, option(p, 2) != 0,
          static_cast<Trans>(option(p, 3))};
}

Value triangular_solve(const Value& a, const Value& b, const TriangularOptions& o) {
  return ad::emit2(ops::OpCode::Extension, a, b, triangular_solve_params(o));
}

Value apply_trans(const Value& m, Trans t) {
  switch (t) {
  case Trans::No: return m;
  case Trans::Transpose: return ir::mT(m);
  case Trans::ConjTranspose: return ir::mH(m);
  }
  fail(Status::Internal, "unknown transpose option %lld", static_cast<long long>(t));
}

} // namespace tfe::linalg
