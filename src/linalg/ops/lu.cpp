// LU ops: LuFactor (packed LU, pivots, info), LuFactorSolve (solve that keeps its factors, so a
// derivative never factors A again: the fused solve) and LuSolve (a solve with given
// factors, linear in b).
#include "linalg/ir.hpp"
#include "linalg/ops.hpp"
#include "backend/lapack.hpp"

namespace tfe::linalg {
namespace {

ops::Meta pivots_meta(Extent k, const Shape& like) { return {DType::I32, vector_shape(k, like)}; }

void require_pivots(const ops::Meta& lu, const ops::Meta& piv) {
  if (piv.dtype != DType::I32)
    fail(Status::DtypeMismatch, "pivots are %s, not I32",
         std::string(dtype_name(piv.dtype)).c_str());
  Shape want = vector_shape(lu.shape[0], lu.shape);
  if (piv.shape.size() != want.size())
    fail(Status::ShapeMismatch, "pivots of shape %s for factors of shape %s",
         ops::format_shape(piv.shape).c_str(), ops::format_shape(lu.shape).c_str());
  for (size_t d = 0; d < want.size(); ++d)
    ops::require_eq(piv.shape[d], want[d], Status::ShapeMismatch, "pivots",
                    "pivots of shape " + ops::format_shape(piv.shape) + " for factors of shape " +
                        ops::format_shape(lu.shape));
}

class LuFactorOp final : public LinalgOp {
public:
  LuFactorOp() : LinalgOp("lu_factor", "tfe_linalg_lu_factor", 1, 3) {}

  ops::MetaList infer(std::span<const ops::Meta> in, const ops::ExtensionParams&) const override {
    require_float(in[0], "a");
    require_matrix(in[0], "a");
    const Shape& s = in[0].shape;
    return {in[0], pivots_meta(min_extent(s[0], s[1]), s), {DType::I32, batch_shape(s)}};
  }

  bool runs_on_devices() const override { return true; }

  void run(Operands in, const ops::ExtensionParams&, std::span<const ops::ConcreteMeta>,
           std::span<Tensor> out) const override {
    backend::lapack::LuFactor r = backend::lapack::lu_factor(in[0]);
    out[0] = std::move(r.lu);
    out[1] = std::move(r.pivots);
    out[2] = std::move(r.info);
  }

  // Square: lu_tangent. Rectangular, with B = P^T dA split at K = min(M, N):
  //   tall (M > N): the square rule on the top N rows, dL2 = (B2 - L2 dU) U^-1 below;
  //   wide (M < N): the square rule on the left M columns, dU2 = L^-1 (B2 - dL U2) right.
  void jvp(const ad::MultiJvpArgs& a, std::span<Tangent> out) const override {
    const Value &lu = a.y[0], &da = *a.dx[0];
    const Shape& s = a.x[0].meta().shape;
    Extent m = s[0], n = s[1];
    // Decided by the algebra, or at an eager request's recorded extents (ops::ShapeWitness).
    std::optional<bool> square = ops::decide_eq(m, n), tall = ops::decide_le(n, m);
    if (square.value_or(false)) {
      out[0] = lu_tangent(lu, lu_solve(lu, a.y[1], da, Trans::No));
      return;
    }
    std::optional<int64_t> rows = ops::decide_value(m); // the permutation's size
    if (!square || !tall || !rows)
      fail(Status::NotDifferentiable,
           "the derivative of a factorisation of symbolic shape %s needs to know whether it is "
           "tall or wide",
           ops::format_shape(s).c_str());
    Extent k = *tall ? n : m;
    int64_t dim = *tall ? 0 : 1;
    Value b = permute_rows(a.y[1], da, *rows);
    Value head = ir::take(lu, dim, 0, k), rest = ir::take(lu, dim, k, *tall ? m : n);
    Value b1 = ir::take(b, dim, 0, k), b2 = ir::take(b, dim, k, *tall ? m : n);
    Value x = triangular_solve(head, triangular_solve(head, b1, {false, true, true, Trans::No}),
                               {true, false, false, Trans::No});
    Value dl = ir::matmul(unit_lower(head), ir::tril(x, -1));
    Value du = ir::matmul(ir::triu(x), upper(head));
    Value tail =
        *tall ? triangular_solve(head, b2 - ir::matmul(rest, du), {true, false, false, Trans::No})
              : triangular_solve(head, b2 - ir::matmul(dl, rest), {false, true, true, Trans::No});
    out[0] = ir::join({dl + du, tail}, dim);
  }

private:
  // P^T b for the permutation of LAPACK pivots, as a one-hot matrix product (b [M, N, B..]).
  static Value permute_rows(const Value& pivots, const Value& b, int64_t m) {
    std::array<Value, 1> in{pivots};
    Value perm =
        graph::emit(ops::OpCode::Extension, in, pivots_to_permutation_op().make_params({m}));
    Shape ps = matrix_shape(m, m, b.meta().shape);
    Value rows = graph::emit(ops::OpCode::Iota, {}, ops::IotaParams{DType::I32, ps, 0});
    Dims dims{1};
    for (int64_t i = 2; i < static_cast<int64_t>(ps.size()); ++i) dims.push_back(i);
    Value p =
        ad::convert(ad::compare(rows, ad::broadcast_in_dim(perm, ps, dims), ops::CompareDir::Eq),
                    b.meta().dtype);
    return ir::matmul(ir::mT(p), b);
  }
};

class LuFactorSolveOp final : public LinalgOp {
public:
  LuFactorSolveOp() : LinalgOp("lu_factor_solve", "tfe_linalg_solve", 2, 3) {}

  ops::MetaList infer(std::span<const ops::Meta> in, const ops::ExtensionParams&) const override {
    Extent n = require_system(in[0], in[1], "a", 0);
    return {in[1], in[0], pivots_meta(n, in[0].shape)};
  }

  bool runs_on_devices() const override { return true; }

  void run(Operands in, const ops::ExtensionParams&, std::span<const ops::ConcreteMeta>,
           std::span<Tensor> out) const override {
    backend::lapack::LuFactorSolve r = backend::lapack::lu_factor_solve(in[0], in[1]);
    out[0] = std::move(r.x);
    out[1] = std::move(r.lu);
    out[2] = std::move(r.pivots);
  }

  // dX = A^-1 (dB - dA X), with the saved factors; dLU as for lu_factor.
  void jvp(const ad::MultiJvpArgs& a, std::span<Tangent> out) const override {
    const Value &x = a.y[0], &lu = a.y[1], &piv = a.y[2];
    Tangent rhs = a.dx[1];
    if (a.dx[0]) {
      Value term = ir::matmul(*a.dx[0], x);
      rhs = rhs ? *rhs - term : -term;
      out[1] = lu_tangent(lu, lu_solve(lu, piv, *a.dx[0], Trans::No));
    }
    out[0] = lu_solve(lu, piv, *rhs, Trans::No);
  }
};

class LuSolveOp final : public LinalgOp {
public:
  LuSolveOp() : LinalgOp("lu_solve", "tfe_linalg_lu_solve", 3, 1) {}

  ops::MetaList infer(std::span<const ops::Meta> in, const ops::ExtensionParams&) const override {
    require_system(in[0], in[2], "lu", 0);
    require_pivots(in[0], in[1]);
    return {in[2]};
  }

  bool runs_on_devices() const override { return true; }

  void run(Operands in, const ops::ExtensionParams& p, std::span<const ops::ConcreteMeta>,
           std::span<Tensor> out) const override {
    out[0] = backend::lapack::lu_solve(in[0], in[1], in[2], trans(p));
  }

  std::string format_options(const ops::ExtensionParams& p) const override {
    static const char* names[] = {"N", "T", "C"};
    return strformat("{trans=%s}", names[static_cast<int>(trans(p))]);
  }

  // x = op(A)^-1 b with A = P L U. In b: the same solve. In the factors (dA = P (dL U + L dU)):
  //   op = N:    dx = -U^-1 (L^-1 dL U x + dU x)
  //   op = T, H: dx = -op(A)^-1 (op(U) op(dL) y + op(dU) op(L) y), y = P^T x = op(L)^-1 op(U)^-1 b.
  void jvp(const ad::MultiJvpArgs& a, std::span<Tangent> out) const override {
    Trans t = trans(params(a.node));
    const Value &lu = a.x[0], &piv = a.x[1], &b = a.x[2], &x = a.y[0];
    Tangent dx;
    if (a.dx[2]) dx = lu_solve(lu, piv, *a.dx[2], t);
    if (a.dx[0]) {
      Value dl = ir::tril(*a.dx[0], -1), du = ir::triu(*a.dx[0]);
      Value l = unit_lower(lu), u = upper(lu);
      TriangularOptions lower_unit{false, true, true, Trans::No},
          upper_n{true, true, false, Trans::No};
      Value term;
      if (t == Trans::No) {
        Value inner =
            triangular_solve(lu, ir::matmul(dl, ir::matmul(u, x)), lower_unit) + ir::matmul(du, x);
        term = triangular_solve(lu, inner, upper_n);
      } else {
        TriangularOptions lo = lower_unit, up = upper_n;
        lo.trans = up.trans = t;
        Value y = triangular_solve(lu, triangular_solve(lu, b, up), lo);
        Value rhs = ir::matmul(apply_trans(u, t), ir::matmul(apply_trans(dl, t), y)) +
                    ir::matmul(apply_trans(du, t), ir::matmul(apply_trans(l, t), y));
        term = lu_solve(lu, piv, rhs, t);
      }
      dx = dx ? *dx - term : -term;
    }
    out[0] = dx;
  }

  // The adjoint of b -> op(A)^-1 b is c -> op(A)^-H c; for op = T that is conj(A^-1 conj(c)).
  void transpose(const ad::TransposeArgs& a, std::span<Tangent> out) const override {
    if (a.linear[0]) fail(Status::NotDifferentiable, "lu_solve is not linear in the factors");
    const Value &lu = a.x[0], &piv = a.x[1];
    switch (trans(params(a.node))) {
    case Trans::No: out[2] = lu_solve(lu, piv, a.ct, Trans::ConjTranspose); break;
    case Trans::ConjTranspose: out[2] = lu_solve(lu, piv, a.ct, Trans::No); break;
    case Trans::Transpose: out[2] = ad::conj(lu_solve(lu, piv, ad::conj(a.ct), Trans::No)); break;
    }
  }

private:
  static Trans trans(const ops::ExtensionParams& p) { return static_cast<Trans>(option(p, 0)); }
};

} // namespace

const LinalgOp& lu_factor_op() {
  static const LuFactorOp op;
  return op;
}
const LinalgOp& lu_factor_solve_op() {
  static const LuFactorSolveOp op;
  return op;
}
const LinalgOp& lu_solve_op() {
  static const LuSolveOp op;
  return op;
}

Value lu_solve(const Value& lu, const Value& pivots, const Value& b, Trans trans) {
  std::array<Value, 3> in{lu, pivots, b};
  return graph::emit(ops::OpCode::Extension, in,
                     lu_solve_op().make_params({static_cast<int64_t>(trans)}));
}

std::vector<Value> lu_factor(const Value& a) {
  std::array<Value, 1> in{a};
  return graph::emit_multi(ops::OpCode::Extension, in, lu_factor_op().make_params());
}

Value unit_lower(const Value& lu) {
  return ir::tril(lu, -1) + ir::eye(lu.meta().dtype, lu.meta().shape[0], lu);
}

Value upper(const Value& lu) { return ir::triu(lu); }

Value lu_tangent(const Value& lu, const Value& a_inv_da) {
  // L^-1 P^T dA = U A^-1 dA; then X = (U A^-1 dA) U^-1 by a right solve with U.
  Value u = upper(lu);
  Value x = triangular_solve(lu, ir::matmul(u, a_inv_da), {true, false, false, Trans::No});
  return ir::matmul(unit_lower(lu), ir::tril(x, -1)) + ir::matmul(ir::triu(x), u);
}

} // namespace tfe::linalg
