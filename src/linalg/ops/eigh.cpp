// Eigh: A = V diag(w) V^H for Hermitian A (one triangle read); w real and ascending.
#include "linalg/ir.hpp"
#include "linalg/ops.hpp"
#include "backend/lapack.hpp"

namespace tfe::linalg {
namespace {

class EighOp final : public LinalgOp {
public:
  EighOp() : LinalgOp("eigh", "tfe_linalg_eigh", 1, 2) {}

  ops::MetaList infer(std::span<const ops::Meta> in, const ops::ExtensionParams&) const override {
    require_float(in[0], "a");
    Extent n = require_square(in[0], "a");
    return {{real_dtype(in[0].dtype), vector_shape(n, in[0].shape)}, in[0]};
  }

  bool runs_on_devices() const override { return true; }

  void run(Operands in, const ops::ExtensionParams& p, std::span<const ops::ConcreteMeta>,
           std::span<Tensor> out) const override {
    backend::lapack::Eigh r = backend::lapack::eigh(in[0], option(p, 0) != 0, true);
    out[0] = std::move(r.w);
    out[1] = std::move(r.v);
  }

  std::string format_options(const ops::ExtensionParams& p) const override {
    return strformat("{%s, derivative_eps=%g}", option(p, 0) ? "upper" : "lower", p.eps);
  }

  // With P = V^H dA V (dA made Hermitian): dw = Re diag(P), dV = V (F o P), F[i,j] =
  // 1/(w[j]-w[i]) off the diagonal (Lorentzian with derivative_eps), so v_k^H dv_k = 0.
  void jvp(const ad::MultiJvpArgs& a, std::span<Tangent> out) const override {
    const Value &w = a.y[0], &v = a.y[1];
    Value p = hermitian_projection(v, *a.dx[0]);
    out[0] = ad::real(ir::diagonal(p));
    out[1] = ir::matmul(v, ad::mul_real(p, ir::inverse_gaps(w, params(a.node).eps)));
  }
};

} // namespace

Value hermitian_projection(const Value& v, const Value& da) {
  return ir::matmul(ir::mH(v), ir::matmul(ir::hermitian_part(da), v));
}

const LinalgOp& eigh_op() {
  static const EighOp op;
  return op;
}

} // namespace tfe::linalg
