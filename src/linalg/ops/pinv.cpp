// The pseudo-inverse A^+ = V diag(1/s) U^H over the singular values above rtol * max(s) (the
// eigenpairs of a Hermitian A with hermitian). It is an op with its own rule rather than a
// composite of svd: the SVD's derivative is not finite at repeated or zero singular values,
// while A^+ is differentiable wherever the rank does not change, with (Golub and Pereyra)
//   dX = -X dA X + X X^H dA^H (I - A X) + (I - X A) dA^H X^H X,   X = A^+,
// built from X and A alone, so rank-deficient matrices (and lstsq on them) differentiate too.
// At a matrix of full rank the rule is exact to every order. At a rank-deficient one (values cut
// off) the first derivative is exact, but the rule differentiated again misses the curvature of
// the set of rank-r matrices, so second derivatives there are not symmetric (docs/linalg.md).
// With hermitian, A and dA are taken by their Hermitian parts (a function of Hermitian matrices,
// as eigh: the gradient is Hermitian).
#include "linalg/ir.hpp"
#include "linalg/ops.hpp"
#include "linalg/surface_impl.hpp"

namespace tfe::linalg {
namespace {

using namespace api::detail;

template <class V> V pinv_by_decomposition(const V& a, double rtol, bool hermitian) {
  ops::Meta m = meta_of(a);
  V values, left, right;
  if (hermitian) {
    std::vector<V> wv = api::eigh(a, false, 0.0);
    V mags = un(ops::OpCode::Abs, wv[0]);
    values = masked_reciprocal(wv[0], above_cutoff(mags, rtol));
    left = wv[1];
    right = wv[1];
  } else {
    std::vector<V> usv = api::svd(a, SvdMode::Reduced, 0.0);
    values = masked_reciprocal(usv[1], above_cutoff(usv[1], rtol));
    left = ir::mH(usv[2]);
    right = usv[0];
  }
  V scaled = left * spread(tfe::eager::cast(values, m.dtype), meta_of(left).shape, 1);
  return tfe::eager::matmul(scaled, ir::mH(right));
}

class PinvOp final : public LinalgOp {
public:
  PinvOp() : LinalgOp("pinv", "tfe_linalg_pinv", 1, 1) {}

  ops::MetaList infer(std::span<const ops::Meta> in, const ops::ExtensionParams& p) const override {
    require_float(in[0], "a");
    require_matrix(in[0], "a");
    const Shape& s = in[0].shape;
    if (option(p, 0)) require_square(in[0], "a (hermitian)");
    return {{in[0].dtype, matrix_shape(s[1], s[0], s)}};
  }

  // eps < 0: the default cut-off max(M, N) * eps of the dtype, from the concrete shape.
  // Composed of eager ops: they run wherever the operands are.
  bool runs_on_devices() const override { return true; }

  void run(Operands in, const ops::ExtensionParams& p, std::span<const ops::ConcreteMeta>,
           std::span<Tensor> out) const override {
    const Tensor& a = in[0];
    double rtol = p.eps >= 0
                      ? p.eps
                      : static_cast<double>(std::max(a.dim(0), a.dim(1))) * machine_eps(a.dtype());
    out[0] = pinv_by_decomposition(a, rtol, option(p, 0) != 0);
  }

  std::string format_options(const ops::ExtensionParams& p) const override {
    std::string rtol = p.eps >= 0 ? strformat("rtol=%g", p.eps) : "rtol=default";
    return "{" + rtol + (option(p, 0) ? ", hermitian}" : "}");
  }

  void jvp(const ad::MultiJvpArgs& a, std::span<Tangent> out) const override {
    bool hermitian = option(params(a.node), 0) != 0;
    const Value& x = a.y[0];
    Value am = hermitian ? ir::hermitian_part(a.x[0]) : a.x[0];
    Value da = hermitian ? ir::hermitian_part(*a.dx[0]) : *a.dx[0];
    const Shape& s = am.meta().shape;
    DType d = am.meta().dtype;
    Value da_h = ir::mH(da), x_h = ir::mH(x);
    Value left_null = ir::eye(d, s[0], am) - ir::matmul(am, x);  // I - A X   [M, M]
    Value right_null = ir::eye(d, s[1], am) - ir::matmul(x, am); // I - X A   [N, N]
    Value dx = -ir::matmul(x, ir::matmul(da, x));
    dx = dx + ir::matmul(ir::matmul(x, x_h), ir::matmul(da_h, left_null));
    dx = dx + ir::matmul(right_null, ir::matmul(da_h, ir::matmul(x_h, x)));
    out[0] = dx;
  }
};

} // namespace

const LinalgOp& pinv_op() {
  static const PinvOp op;
  return op;
}

} // namespace tfe::linalg
