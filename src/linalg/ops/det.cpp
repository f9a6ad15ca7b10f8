// Det and Slogdet from a saved LU (det and slogdet carry their own rules). The ops
// take A and its packed LU and pivots: the value comes from the factors, the derivative from
// A alone: d det = tr(adj(A) dA) with the adjugate (exact at singular matrices too: adjugate.cpp)
// and d logabs = Re tr(A^-1 dA), with A^-1 applied through the saved factors (one solve instead of
// differentiating the factorisation; log|det| has no finite derivative at a singular matrix). The
// factors' own tangents are ignored: they are functions of A, and counting them would count dA
// twice.
#include "linalg/ir.hpp"
#include "linalg/ops.hpp"
#include "linalg/surface_impl.hpp"

namespace tfe::linalg {
namespace {

class DetBase : public LinalgOp {
public:
  using LinalgOp::LinalgOp;

protected:
  // a, lu [N,N,B..] of one dtype, pivots I32 [N,B..]; returns the batch shape.
  Shape check(std::span<const ops::Meta> in) const {
    require_float(in[0], "a");
    require_square(in[0], "a");
    require_same_dtype(in[0], in[1], "a and lu");
    require_same_shape(in[0], in[1], "a and its factors");
    if (in[2].dtype != DType::I32)
      fail(Status::ShapeMismatch, "factors %s, pivots %s %s do not belong to a of shape %s",
           ops::format_shape(in[1].shape).c_str(), std::string(dtype_name(in[2].dtype)).c_str(),
           ops::format_shape(in[2].shape).c_str(), ops::format_shape(in[0].shape).c_str());
    return batch_shape(in[0].shape);
  }
  // tr(A^-1 dA) per matrix, through the saved factors.
  static Value trace_of_solve(const ad::MultiJvpArgs& a) {
    return ir::trace(lu_solve(a.x[1], a.x[2], *a.dx[0], Trans::No));
  }
};

class DetOp final : public DetBase {
public:
  DetOp() : DetBase("det", "tfe_linalg_det", 3, 1) {}
  ops::MetaList infer(std::span<const ops::Meta> in, const ops::ExtensionParams&) const override {
    return {{in[0].dtype, check(in)}};
  }
  // Composed of eager ops: they run wherever the operands are.
  bool runs_on_devices() const override { return true; }

  void run(Operands in, const ops::ExtensionParams&, std::span<const ops::ConcreteMeta>,
           std::span<Tensor> out) const override {
    out[0] = api::detail::det_from_lu(in[1], in[2]);
  }
  // d det = tr(adj(A) dA): exact at singular matrices too (the adjugate, adjugate.cpp).
  void jvp(const ad::MultiJvpArgs& a, std::span<Tangent> out) const override {
    if (!a.dx[0]) return;
    std::array<Value, 3> in{a.x[0], a.x[1], a.x[2]};
    Value adj = graph::emit(ops::OpCode::Extension, in, adjugate_op().make_params());
    out[0] = ad::reduce_sum(ir::mT(adj) * *a.dx[0], {0, 1});
  }
};

class SlogdetOp final : public DetBase {
public:
  SlogdetOp() : DetBase("slogdet", "tfe_linalg_slogdet", 3, 2) {}
  ops::MetaList infer(std::span<const ops::Meta> in, const ops::ExtensionParams&) const override {
    Shape b = check(in);
    return {{in[0].dtype, b}, {real_dtype(in[0].dtype), b}};
  }
  // Composed of eager ops: they run wherever the operands are.
  bool runs_on_devices() const override { return true; }

  void run(Operands in, const ops::ExtensionParams&, std::span<const ops::ConcreteMeta>,
           std::span<Tensor> out) const override {
    std::vector<Tensor> r = api::detail::slogdet_from_lu(in[1], in[2]);
    out[0] = std::move(r[0]);
    out[1] = std::move(r[1]);
  }
  // With t = tr(A^-1 dA): d logabs = Re t; d sign = sign * i Im t (complex; 0 for real).
  void jvp(const ad::MultiJvpArgs& a, std::span<Tangent> out) const override {
    if (!a.dx[0]) return;
    Value t = trace_of_solve(a);
    out[1] = ad::real(t);
    if (is_complex(t.meta().dtype))
      out[0] = a.y[0] * (t - ad::convert(ad::real(t), t.meta().dtype));
  }
};

} // namespace

const LinalgOp& det_op() {
  static const DetOp op;
  return op;
}
const LinalgOp& slogdet_op() {
  static const SlogdetOp op;
  return op;
}

} // namespace tfe::linalg
