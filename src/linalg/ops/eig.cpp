// Eig: A V = V diag(w) for a general square A; w and V complex (also for real A), each
// eigenvector of unit 2-norm, in LAPACK's order.
#include "linalg/ir.hpp"
#include "linalg/ops.hpp"
#include "backend/lapack.hpp"

namespace tfe::linalg {
namespace {

class EigOp final : public LinalgOp {
public:
  EigOp() : LinalgOp("eig", "tfe_linalg_eig", 1, 2) {}

  ops::MetaList infer(std::span<const ops::Meta> in, const ops::ExtensionParams&) const override {
    require_float(in[0], "a");
    Extent n = require_square(in[0], "a");
    DType c = complex_dtype(in[0].dtype);
    return {{c, vector_shape(n, in[0].shape)}, {c, in[0].shape}};
  }

  bool runs_on_devices() const override { return true; }

  void run(Operands in, const ops::ExtensionParams&, std::span<const ops::ConcreteMeta>,
           std::span<Tensor> out) const override {
    backend::lapack::Eig r = backend::lapack::eig(in[0], true);
    out[0] = std::move(r.w);
    out[1] = std::move(r.v);
  }

  std::string format_options(const ops::ExtensionParams& p) const override {
    return strformat("{derivative_eps=%g}", p.eps);
  }

  // With P = V^-1 dA V: dw = diag(P); dV0 = V (F o P), F[i,j] = 1/(w[j]-w[i]) off the
  // diagonal; the gauge of docs/design/ad-contract.md (PyTorch's) makes v_k^H dv_k = 0:
  // dV = dV0 - V diag(V^H dV0).
  void jvp(const ad::MultiJvpArgs& a, std::span<Tangent> out) const override {
    const Value &w = a.y[0], &v = a.y[1];
    Value p = general_projection(v, *a.dx[0]);
    out[0] = ir::diagonal(p);
    Value dv0 = ir::matmul(v, p * ir::inverse_gaps(w, params(a.node).eps));
    Value gauge = ir::diagonal(ir::matmul(ir::mH(v), dv0));
    out[1] = dv0 - ir::scale_columns(v, gauge);
  }
};

} // namespace

Value general_projection(const Value& v, const Value& da) {
  std::vector<Value> f = lu_factor(v);
  return lu_solve(f[0], f[1], ir::matmul(ad::convert(da, v.meta().dtype), v), Trans::No);
}

const LinalgOp& eig_op() {
  static const EigOp op;
  return op;
}

} // namespace tfe::linalg
