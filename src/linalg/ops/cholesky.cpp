// Cholesky: A = L L^H (lower) or A = U^H U (upper), reading one triangle of a Hermitian A.
#include "linalg/ir.hpp"
#include "linalg/ops.hpp"
#include "backend/lapack.hpp"

namespace tfe::linalg {
namespace {

class CholeskyOp final : public LinalgOp {
public:
  CholeskyOp() : LinalgOp("cholesky", "tfe_linalg_cholesky", 1, 1) {}

  ops::MetaList infer(std::span<const ops::Meta> in, const ops::ExtensionParams&) const override {
    require_float(in[0], "a");
    require_square(in[0], "a");
    return {in[0]};
  }

  bool runs_on_devices() const override { return true; }

  void run(Operands in, const ops::ExtensionParams& p, std::span<const ops::ConcreteMeta>,
           std::span<Tensor> out) const override {
    out[0] = backend::lapack::cholesky(in[0], option(p, 0) != 0);
  }

  std::string format_options(const ops::ExtensionParams& p) const override {
    return option(p, 0) ? "{upper}" : "{lower}";
  }

  // A function of Hermitian matrices (docs/design/ad-contract.md): the tangent is made Hermitian
  // first, so the transpose returns the Hermitian gradient. dL = L Phi(L^-1 dA L^-H), Phi = the
  // lower triangle with a halved diagonal.
  void jvp(const ad::MultiJvpArgs& a, std::span<Tangent> out) const override {
    bool upper_factor = option(params(a.node), 0) != 0;
    Value l = upper_factor ? ir::mH(a.y[0]) : a.y[0];
    Value da = ir::hermitian_part(*a.dx[0]);
    Value y = triangular_solve(l, da, {false, true, false, Trans::No});
    Value z = triangular_solve(l, y, {false, false, false, Trans::ConjTranspose});
    Value phi = ir::tril(z) - ad::scale(ir::diag_embed(ir::diagonal(z)), 0.5);
    Value dl = ir::matmul(l, phi);
    out[0] = upper_factor ? ir::mH(dl) : dl;
  }
};

} // namespace

const LinalgOp& cholesky_op() {
  static const CholeskyOp op;
  return op;
}

} // namespace tfe::linalg
