// SVD: A = U diag(S) Vh, S real and descending; reduced (U [M,K], Vh [K,N]) or full (U [M,M],
// Vh [N,N]).
#include "linalg/ir.hpp"
#include "linalg/ops.hpp"
#include "linalg/truncation.hpp"
#include "backend/lapack.hpp"

namespace tfe::linalg {
namespace {

class SvdOp final : public LinalgOp {
public:
  SvdOp() : LinalgOp("svd", "tfe_linalg_svd", 1, 3) {}

  ops::MetaList infer(std::span<const ops::Meta> in, const ops::ExtensionParams& p) const override {
    require_float(in[0], "a");
    require_matrix(in[0], "a");
    const Shape& s = in[0].shape;
    Extent m = s[0], n = s[1], k = min_extent(m, n);
    bool full = option(p, 0) == static_cast<int64_t>(SvdMode::Full);
    DType d = in[0].dtype;
    return {{d, matrix_shape(m, full ? m : k, s)},
            {real_dtype(d), vector_shape(k, s)},
            {d, matrix_shape(full ? n : k, n, s)}};
  }

  bool runs_on_devices() const override { return true; }

  void run(Operands in, const ops::ExtensionParams& p, std::span<const ops::ConcreteMeta>,
           std::span<Tensor> out) const override {
    bool full = option(p, 0) == static_cast<int64_t>(SvdMode::Full);
    backend::lapack::Svd r = backend::lapack::svd(in[0], full ? SvdMode::Full : SvdMode::Reduced);
    out[0] = std::move(r.u);
    out[1] = std::move(r.s);
    out[2] = std::move(r.vh);
  }

  std::string format_options(const ops::ExtensionParams& p) const override {
    std::string base =
        strformat("{%s, derivative_eps=%g", option(p, 0) ? "full" : "reduced", p.eps);
    if (auto t = truncation_of(p))
      base += strformat(", kept=%lld, rtol=%g, atol=%g", static_cast<long long>(t->rank), t->rtol,
                        t->atol);
    return base + "}";
  }

  // With dP = U^H dA V and F[i,j] = 1/(s[j]^2 - s[i]^2) off the diagonal:
  //   dS = Re diag(dP)
  //   dU = U (F o (dP S + S dP^H) + i Im diag(dP) / S) + (I - U U^H) dA V / S
  //   dV = V (F o (S dP + dP^H S)) + (I - V V^H) dA^H U / S
  // The imaginary diagonal term fixes the complex phase gauge as JAX and PyTorch do (a
  // gauge-invariant loss does not see it); the projections vanish when U (or V) is square.
  // Truncated (svd_truncated): the caller slices or zeroes the outputs past the kept triplets;
  // the kept columns keep every term, the coupling to the discarded singular vectors included.
  // The discarded outputs keep their own tangents (the rule itself reads them, so its
  // derivatives need them).
  void jvp(const ad::MultiJvpArgs& a, std::span<Tangent> out) const override {
    const Value &u = a.y[0], &s = a.y[1], &vh = a.y[2], &da = *a.dx[0];
    const Shape& shape = a.x[0].meta().shape;
    Extent m = shape[0], n = shape[1], k = s.meta().shape[0];
    bool full = option(params(a.node), 0) == static_cast<int64_t>(SvdMode::Full);
    if (full && !ops::decide_eq(m, n).value_or(false))
      fail(Status::NotDifferentiable,
           "the full decomposition of a non-square matrix (shape %s) has no derivative "
           "(the extra singular vectors are not unique); use the reduced one",
           ops::format_shape(shape).c_str());
    Value v = ir::mH(vh);
    Value dp = ir::matmul(ir::mH(u), ir::matmul(da, v));
    Value dpd = ir::diagonal(dp);
    // Truncated: a zero singular value among the outputs the caller drops (or zeroes) gets 1/s
    // = 0, so that their zero cotangents do not meet an infinite factor.
    bool truncated = truncation_of(params(a.node)).has_value();
    out[1] = ad::real(dpd);
    Value f = ir::inverse_gaps(s * s, params(a.node).eps);
    Value dps = ir::scale_columns(dp, s), sdp = ir::scale_rows(dp, s);
    Value one = ad::full(s.meta().dtype, s.meta().shape, 1.0);
    Value inv_s = truncated ? nonzero_reciprocal(s) : one / s;
    Value ju = ad::mul_real(dps + ir::mH(dps), f);
    if (is_complex(dp.meta().dtype)) {
      Value gauge = dpd - ad::convert(ad::real(dpd), dpd.meta().dtype);
      ju = ju + ir::diag_embed(ad::mul_real(gauge, inv_s));
    }
    Value du = ir::matmul(u, ju);
    if (!ops::decide_eq(m, k).value_or(false)) { // the projection vanishes when U is square
      Value dav = ir::matmul(da, v);
      du = du + ir::scale_columns(dav - ir::matmul(u, dp), inv_s);
    }
    Value dv = ir::matmul(v, ad::mul_real(sdp + ir::mH(sdp), f));
    if (!ops::decide_eq(n, k).value_or(false)) {
      Value dahu = ir::matmul(ir::mH(da), u);
      dv = dv + ir::scale_columns(dahu - ir::matmul(v, ir::mH(dp)), inv_s);
    }
    out[0] = du;
    out[2] = ir::mH(dv);
  }
};

} // namespace

const LinalgOp& svd_op() {
  static const SvdOp op;
  return op;
}

} // namespace tfe::linalg
