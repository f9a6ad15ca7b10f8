// Values-only decompositions: singular values, Hermitian and general eigenvalues. The kernels
// skip the vectors; the derivatives need them, so the JVP rules emit the full decomposition of
// the (primal) input, which only a differentiated program computes.
#include "linalg/ir.hpp"
#include "linalg/ops.hpp"
#include "backend/lapack.hpp"

namespace tfe::linalg {
namespace {

// The full decomposition `op` of a with the options and eps of p.
std::vector<Value> full(const LinalgOp& op, const Value& a, const ops::ExtensionParams& p) {
  std::array<Value, 1> in{a};
  return graph::emit_multi(ops::OpCode::Extension, in, op.make_params(p.options, p.eps));
}

class SvdValsOp final : public LinalgOp {
public:
  SvdValsOp() : LinalgOp("svdvals", "tfe_linalg_svdvals", 1, 1) {}
  ops::MetaList infer(std::span<const ops::Meta> in, const ops::ExtensionParams&) const override {
    require_float(in[0], "a");
    require_matrix(in[0], "a");
    const Shape& s = in[0].shape;
    return {{real_dtype(in[0].dtype), vector_shape(min_extent(s[0], s[1]), s)}};
  }
  bool runs_on_devices() const override { return true; }

  void run(Operands in, const ops::ExtensionParams&, std::span<const ops::ConcreteMeta>,
           std::span<Tensor> out) const override {
    out[0] = backend::lapack::svd(in[0], SvdMode::ValuesOnly).s;
  }
  // dS = Re diag(U^H dA V) with the vectors of the reduced SVD.
  void jvp(const ad::MultiJvpArgs& a, std::span<Tangent> out) const override {
    std::vector<Value> usv =
        full(svd_op(), a.x[0], svd_op().make_params({static_cast<int64_t>(SvdMode::Reduced)}));
    Value dp = ir::matmul(ir::mH(usv[0]), ir::matmul(*a.dx[0], ir::mH(usv[2])));
    out[0] = ad::real(ir::diagonal(dp));
  }
};

class EigvalshOp final : public LinalgOp {
public:
  EigvalshOp() : LinalgOp("eigvalsh", "tfe_linalg_eigvalsh", 1, 1) {}
  ops::MetaList infer(std::span<const ops::Meta> in, const ops::ExtensionParams&) const override {
    require_float(in[0], "a");
    Extent n = require_square(in[0], "a");
    return {{real_dtype(in[0].dtype), vector_shape(n, in[0].shape)}};
  }
  bool runs_on_devices() const override { return true; }

  void run(Operands in, const ops::ExtensionParams& p, std::span<const ops::ConcreteMeta>,
           std::span<Tensor> out) const override {
    out[0] = backend::lapack::eigh(in[0], option(p, 0) != 0, false).w;
  }
  std::string format_options(const ops::ExtensionParams& p) const override {
    return option(p, 0) ? "{upper}" : "{lower}";
  }
  // dw = Re diag(V^H dA V), dA made Hermitian (eigh's convention).
  void jvp(const ad::MultiJvpArgs& a, std::span<Tangent> out) const override {
    Value v = full(eigh_op(), a.x[0], params(a.node))[1];
    out[0] = ad::real(ir::diagonal(hermitian_projection(v, *a.dx[0])));
  }
};

class EigvalsOp final : public LinalgOp {
public:
  EigvalsOp() : LinalgOp("eigvals", "tfe_linalg_eigvals", 1, 1) {}
  ops::MetaList infer(std::span<const ops::Meta> in, const ops::ExtensionParams&) const override {
    require_float(in[0], "a");
    Extent n = require_square(in[0], "a");
    return {{complex_dtype(in[0].dtype), vector_shape(n, in[0].shape)}};
  }
  bool runs_on_devices() const override { return true; }

  void run(Operands in, const ops::ExtensionParams&, std::span<const ops::ConcreteMeta>,
           std::span<Tensor> out) const override {
    out[0] = backend::lapack::eig(in[0], false).w;
  }
  // dw = diag(V^-1 dA V).
  void jvp(const ad::MultiJvpArgs& a, std::span<Tangent> out) const override {
    Value v = full(eig_op(), a.x[0], params(a.node))[1];
    out[0] = ir::diagonal(general_projection(v, *a.dx[0]));
  }
};

} // namespace

const LinalgOp& svdvals_op() {
  static const SvdValsOp op;
  return op;
}
const LinalgOp& eigvalsh_op() {
  static const EigvalshOp op;
  return op;
}
const LinalgOp& eigvals_op() {
  static const EigvalsOp op;
  return op;
}

} // namespace tfe::linalg
