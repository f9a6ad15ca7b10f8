// Matrix exponential (Higham's scaling and squaring with the [13/13] Pade approximant) and its
// Frechet derivative L(A, E). The number of squarings depends on the values, so exp is an
// extension op with its own rules rather than a composite: d exp(A)[E] = L(A, E),
// L is linear in E with the adjoint L(A^H, .), and both come from the block identity
// exp([[A, E], [0, A]]) = [[exp A, L(A, E)], [0, exp A]], which also gives L's own derivative
// in A, so every order is differentiable.
#include <cmath>

#include "backend/device/plugin.hpp"
#include "linalg/ir.hpp"
#include "linalg/ops.hpp"
#include "linalg/surface_impl.hpp"

namespace tfe::linalg {
namespace {

using namespace tfe::eager::operators;
using tfe::eager::detail::emit1;
using tfe::eager::detail::literal_of;

template <class V> V zeros_like_matrix(const V& a) {
  ops::Meta m = meta_of(a);
  V zero = tfe::eager::cast(literal_of<V>(Tensor::scalar(0.0)), m.dtype);
  return tfe::eager::broadcast_to(zero, m.shape);
}

// [[a, e], [0, a]] for a, e [N, N, B..] (for d = a's tangent: [[d, 0], [0, d]] with e = 0).
template <class V>
V block(const V& top_left, const V& top_right, const V& bottom_left, const V& bottom_right) {
  std::array<V, 2> top{top_left, top_right}, bottom{bottom_left, bottom_right};
  std::array<V, 2> rows{tfe::eager::concatenate(std::span<const V>(top), 1),
                        tfe::eager::concatenate(std::span<const V>(bottom), 1)};
  return tfe::eager::concatenate(std::span<const V>(rows), 0);
}

// Rows [0, n) and columns [n, 2n) of a [2n, 2n, B..] value.
template <class V> V top_right(const V& b, Extent n) {
  Shape s = meta_of(b).shape;
  Shape starts(s.size(), 0), limits = s;
  starts[1] = n;
  limits[0] = n;
  return emit1(ops::OpCode::Slice, b, ops::SliceParams{starts, limits, Dims(s.size(), 1)});
}

Tensor scaled(const Tensor& a, double c) {
  return a * tfe::eager::cast(Tensor::scalar(c), a.dtype());
}

// exp of every matrix of a (compact [N, N, B..]); one squaring count for the whole batch, from
// the largest 1-norm (extra squarings of the smaller matrices cost accuracy only at the level
// of rounding).
Tensor expm(const Tensor& a) {
  static constexpr double b[] = {64764752532480000.0,
                                 32382376266240000.0,
                                 7771770303897600.0,
                                 1187353796428800.0,
                                 129060195264000.0,
                                 10559470521600.0,
                                 670442572800.0,
                                 33522128640.0,
                                 1323241920.0,
                                 40840800.0,
                                 960960.0,
                                 16380.0,
                                 182.0,
                                 1.0};
  static constexpr double theta13 = 5.371920351148152;
  if (a.numel() == 0) return a;
  std::array<int64_t, 1> rows{0};
  Tensor colsums = tfe::eager::sum(emit1(ops::OpCode::Abs, a, ops::NoParams{}), rows);
  Tensor norm = tfe::eager::cast(
      tfe::eager::reduce(ops::OpCode::ReduceMax, colsums, std::span<const int64_t>{}), DType::F64);
  // The one host read that chooses the scaling (a one-element copy when a is on a device).
  double norm1 = *device::to_device(norm, Device{}).data<double>();
  int s = 0;
  if (std::isfinite(norm1) && norm1 > theta13)
    s = static_cast<int>(std::ceil(std::log2(norm1 / theta13)));
  Tensor as = s > 0 ? scaled(a, std::ldexp(1.0, -s)) : a;
  Tensor ident = api::detail::identity<Tensor>(a.dtype(), Shape(a.shape()));
  auto mm = [](const Tensor& x, const Tensor& y) { return tfe::eager::matmul(x, y); };
  Tensor a2 = mm(as, as), a4 = mm(a2, a2), a6 = mm(a4, a2);
  Tensor u_inner = (scaled(a6, b[13]) + scaled(a4, b[11])) + scaled(a2, b[9]);
  Tensor u = mm(as, ((mm(a6, u_inner) + scaled(a6, b[7])) + (scaled(a4, b[5]) + scaled(a2, b[3]))) +
                        scaled(ident, b[1]));
  Tensor v_inner = (scaled(a6, b[12]) + scaled(a4, b[10])) + scaled(a2, b[8]);
  Tensor v = ((mm(a6, v_inner) + scaled(a6, b[6])) + (scaled(a4, b[4]) + scaled(a2, b[2]))) +
             scaled(ident, b[0]);
  Tensor r = api::solve(v - u, v + u);
  for (int i = 0; i < s; ++i) r = mm(r, r);
  return r;
}

class MatrixExpOp final : public LinalgOp {
public:
  MatrixExpOp() : LinalgOp("matrix_exp", "tfe_linalg_matrix_exp", 1, 1) {}
  ops::MetaList infer(std::span<const ops::Meta> in, const ops::ExtensionParams&) const override {
    require_float(in[0], "a");
    require_square(in[0], "a");
    return {in[0]};
  }
  // Eager ops and one host read of a norm: it runs wherever the operand is.
  bool runs_on_devices() const override { return true; }

  void run(Operands in, const ops::ExtensionParams&, std::span<const ops::ConcreteMeta>,
           std::span<Tensor> out) const override {
    out[0] = tfe::eager::contiguous(expm(in[0]));
  }
  void jvp(const ad::MultiJvpArgs& a, std::span<Tangent> out) const override {
    out[0] =
        ad::emit2(ops::OpCode::Extension, a.x[0], *a.dx[0], matrix_exp_frechet_op().make_params());
  }
};

class FrechetOp final : public LinalgOp {
public:
  FrechetOp() : LinalgOp("matrix_exp_frechet", "tfe_linalg_matrix_exp", 2, 1) {}
  ops::MetaList infer(std::span<const ops::Meta> in, const ops::ExtensionParams&) const override {
    require_float(in[0], "a");
    require_square(in[0], "a");
    require_same_dtype(in[0], in[1], "a and e");
    return {{in[0].dtype, require_same_shape(in[0], in[1], "a and e")}};
  }
  // Eager ops and one host read of a norm: it runs wherever the operand is.
  bool runs_on_devices() const override { return true; }

  void run(Operands in, const ops::ExtensionParams&, std::span<const ops::ConcreteMeta>,
           std::span<Tensor> out) const override {
    Tensor z = zeros_like_matrix(in[0]);
    out[0] = tfe::eager::contiguous(
        top_right(expm(tfe::eager::contiguous(block(in[0], in[1], z, in[0]))), in[0].dim(0)));
  }
  // In e: L(a, de). In a: the top-right block of L(B, diag(da, da)) with B = [[a, e], [0, a]].
  void jvp(const ad::MultiJvpArgs& a, std::span<Tangent> out) const override {
    Tangent r;
    if (a.dx[1]) r = frechet(a.x[0], *a.dx[1]);
    if (a.dx[0]) {
      Value z = ad::zeros_like(a.x[0]);
      Value big = block(a.x[0], a.x[1], z, a.x[0]);
      Value dbig = block(*a.dx[0], z, z, *a.dx[0]);
      r = ad::add(r, Tangent{top_right(frechet(big, dbig), a.x[0].meta().shape[0])});
    }
    out[0] = r;
  }
  // The adjoint of e -> L(a, e) under Re<., .> is c -> L(a^H, c).
  void transpose(const ad::TransposeArgs& a, std::span<Tangent> out) const override {
    if (a.linear[0]) fail(Status::NotDifferentiable, "matrix_exp_frechet is not linear in a");
    out[1] = frechet(ir::mH(a.x[0]), a.ct);
  }

private:
  static Value frechet(const Value& a, const Value& e) {
    return ad::emit2(ops::OpCode::Extension, a, e, matrix_exp_frechet_op().make_params());
  }
};

} // namespace

const LinalgOp& matrix_exp_op() {
  static const MatrixExpOp op;
  return op;
}
const LinalgOp& matrix_exp_frechet_op() {
  static const FrechetOp op;
  return op;
}

} // namespace tfe::linalg
