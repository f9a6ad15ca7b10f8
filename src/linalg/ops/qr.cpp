// QR: A = Q R, reduced (Q [M,K], R [K,N], K = min(M,N)) or complete (Q [M,M], R [M,N]); R upper
// triangular. Never fails on rank deficiency.
#include "linalg/ir.hpp"
#include "linalg/ops.hpp"
#include "backend/lapack.hpp"

namespace tfe::linalg {
namespace {

Value columns(const Value& a, Extent begin, Extent end) { return ir::take(a, 1, begin, end); }

// The JVP of A = Q R for a square or tall A. With C = Q^H dA R^-1 (= Q^H dQ + dR R^-1, a
// skew-Hermitian plus an upper triangular part): Omega = tril(C,-1) - tril(C,-1)^H + i Im diag(C)
// (R's diagonal stays real), dQ = dA R^-1 + Q (Omega - C), dR = (C - Omega) R.
std::pair<Value, Value> tall_jvp(const Value& q, const Value& r, const Value& da) {
  Value da_rinv = triangular_solve(r, da, {true, false, false, Trans::No});
  Value c = ir::matmul(ir::mH(q), da_rinv);
  Value low = ir::tril(c, -1);
  Value omega = low - ir::mH(low);
  if (is_complex(c.meta().dtype)) {
    Value d = ir::diagonal(c);
    omega = omega + ir::diag_embed(d - ad::convert(ad::real(d), d.meta().dtype));
  }
  Value dq = ir::matmul(q, omega - c) + da_rinv;
  Value dr = ir::matmul(c - omega, r);
  return {dq, dr};
}

class QrOp final : public LinalgOp {
public:
  QrOp() : LinalgOp("qr", "tfe_linalg_qr", 1, 2) {}

  ops::MetaList infer(std::span<const ops::Meta> in, const ops::ExtensionParams& p) const override {
    require_float(in[0], "a");
    require_matrix(in[0], "a");
    const Shape& s = in[0].shape;
    Extent m = s[0], n = s[1], k = option(p, 0) ? m : min_extent(m, n);
    return {{in[0].dtype, matrix_shape(m, k, s)}, {in[0].dtype, matrix_shape(k, n, s)}};
  }

  bool runs_on_devices() const override { return true; }

  void run(Operands in, const ops::ExtensionParams& p, std::span<const ops::ConcreteMeta>,
           std::span<Tensor> out) const override {
    backend::lapack::Qr r = backend::lapack::qr(in[0], option(p, 0) != 0);
    out[0] = std::move(r.q);
    out[1] = std::move(r.r);
  }

  std::string format_options(const ops::ExtensionParams& p) const override {
    return option(p, 0) ? "{complete}" : "{reduced}";
  }

  // Tall or square: tall_jvp. Wide (M < N): A = [X | Y] with X = Q R1 square, R = [R1 | Q^H Y],
  // so dQ, dR1 come from X and dR2 = dQ^H Y + Q^H dY.
  void jvp(const ad::MultiJvpArgs& a, std::span<Tangent> out) const override {
    const Value &q = a.y[0], &r = a.y[1], &da = *a.dx[0];
    const Shape& s = a.x[0].meta().shape;
    Extent m = s[0], n = s[1];
    bool complete = option(params(a.node), 0) != 0;
    // Decided by the algebra, or at an eager request's recorded extents (ops::ShapeWitness).
    std::optional<bool> tall = ops::decide_le(n, m);
    if (!tall)
      fail(Status::NotDifferentiable,
           "the derivative needs to know whether a (shape %s) is tall or wide",
           ops::format_shape(s).c_str());
    if (*tall) {
      if (complete && !ops::decide_eq(m, n).value_or(false))
        fail(Status::NotDifferentiable,
             "complete mode of a tall matrix (shape %s) has no derivative (Q is not unique)",
             ops::format_shape(s).c_str());
      auto [dq, dr] = tall_jvp(q, r, da);
      out[0] = dq;
      out[1] = dr;
      return;
    }
    Value x = columns(a.x[0], 0, m), y = columns(a.x[0], m, n);
    Value dx = columns(da, 0, m), dy = columns(da, m, n);
    auto [dq, dr1] = tall_jvp(q, columns(r, 0, m), dx);
    Value dr2 = ir::matmul(ir::mH(dq), y) + ir::matmul(ir::mH(q), dy);
    out[0] = dq;
    out[1] = ir::join({dr1, dr2}, 1);
  }
};

} // namespace

const LinalgOp& qr_op() {
  static const QrOp op;
  return op;
}

} // namespace tfe::linalg
