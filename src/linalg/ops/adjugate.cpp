// The adjugate adj(A) (adj(A) A = det(A) I), the derivative of det: d det = tr(adj(A) dA). It is
// exact at every rank: for a nonsingular A it is det(A) A^-1 from the saved LU; when a pivot is
// exactly zero it comes from the SVD A = U S V^H as det(U V^H) V diag(c) U^H with c_i the
// product of the singular values other than s_i (nonzero only for rank N-1; zero for rank
// < N-1). Its own derivative, for second order, holds U and V fixed (adj(U M V^H) =
// det(U V^H) V adj(M) U^H for every M): d adj(A)[E] = det(U V^H) V G U^H with F = U^H E V,
// G[i,j] = -F[i,j] c2[i,j] off the diagonal and G[i,i] = sum_k c2[i,k] F[k,k], where c2[i,k] is
// the product of the singular values other than s_i and s_k (no division anywhere).
#include "backend/device/plugin.hpp"
#include "linalg/ir.hpp"
#include "linalg/ops.hpp"
#include "linalg/surface_impl.hpp"

namespace tfe::linalg {
namespace {

using namespace api::detail;

// s [N, B..] spread to [N, N, B..] along dim `dim` (s[j] at [i, j] for dim 1).
template <class V> V spread_values(const V& s, int64_t dim) {
  Shape vs = meta_of(s).shape;
  Shape full{vs[0], vs[0]};
  full.insert(full.end(), vs.begin() + 1, vs.end());
  return spread(s, full, dim);
}

// Bool [N, N, B..]: true where row == column.
template <class V> V eye_mask(const V& square) {
  Shape s = meta_of(square).shape;
  Shape rc{s[0], s[1]};
  V rows = emit(ops::OpCode::Iota, std::span<const V>{}, ops::IotaParams{DType::I32, rc, 0});
  V cols = emit(ops::OpCode::Iota, std::span<const V>{}, ops::IotaParams{DType::I32, rc, 1});
  return tfe::eager::broadcast_to(compare(rows, cols, ops::CompareDir::Eq), s);
}

// c[i] = prod_{j != i} s[j] for s [N, B..] (exact with zeros: a product, never a quotient).
template <class V> V products_but_one(const V& s) {
  V table = spread_values(s, 1); // s[j] at [i, j]
  V masked = select(eye_mask(table), scalar_of<V>(meta_of(s).dtype, 1.0), table);
  return reduce(ops::OpCode::ReduceProd, masked, {1});
}

// c2[i, k] = prod_{j not in {i, k}} s[j], zero on the diagonal.
template <class V> V products_but_two(const V& s) {
  Shape vs = meta_of(s).shape;
  Extent n = vs[0];
  Shape cube{n, n, n};
  cube.insert(cube.end(), vs.begin() + 1, vs.end());
  Dims along_j{2};
  for (int64_t d = 1; d < static_cast<int64_t>(vs.size()); ++d) along_j.push_back(d + 2);
  V table = emit1(ops::OpCode::BroadcastInDim, s, ops::BroadcastInDimParams{cube, along_j});
  Shape sq{n, n, n};
  auto iota = [&](int64_t axis) {
    return emit(ops::OpCode::Iota, std::span<const V>{}, ops::IotaParams{DType::I32, sq, axis});
  };
  V i = iota(0), k = iota(1), j = iota(2);
  V skip =
      bin(ops::OpCode::Or, compare(j, i, ops::CompareDir::Eq), compare(j, k, ops::CompareDir::Eq));
  DType d = meta_of(s).dtype;
  V masked = select(tfe::eager::broadcast_to(skip, cube), scalar_of<V>(d, 1.0), table);
  V c2 = reduce(ops::OpCode::ReduceProd, masked, {2});
  return select(eye_mask(c2), scalar_of<V>(d, 0.0), c2);
}

// A value per matrix [B..] spread over every entry of matrices of shape [N, N, B..].
template <class V> V per_matrix(const V& v, const Shape& shape) {
  Dims dims;
  for (int64_t i = 2; i < static_cast<int64_t>(shape.size()); ++i) dims.push_back(i);
  return emit1(ops::OpCode::BroadcastInDim, v, ops::BroadcastInDimParams{shape, dims});
}

// det(U V^H) for the unitary factors of an SVD, spread over [N, N, B..].
template <class V> V unitary_phase(const V& u, const V& vh) {
  return per_matrix(api::det(u) * api::det(vh), meta_of(u).shape);
}

template <class V> V adjugate_by_svd(const V& a) {
  std::vector<V> usv = api::svd(a, SvdMode::Reduced, 0.0);
  DType d = meta_of(a).dtype;
  V c = tfe::eager::cast(products_but_one(usv[1]), d);
  V v_c = ir::mH(usv[2]) * spread(c, meta_of(a).shape, 1); // V diag(c)
  V adj = tfe::eager::matmul(v_c, ir::mH(usv[0]));
  return adj * unitary_phase(usv[0], usv[2]);
}

class AdjugateOp final : public LinalgOp {
public:
  AdjugateOp() : LinalgOp("adjugate", "tfe_linalg_det", 3, 1) {}

  ops::MetaList infer(std::span<const ops::Meta> in, const ops::ExtensionParams&) const override {
    require_float(in[0], "a");
    require_square(in[0], "a");
    require_same_dtype(in[0], in[1], "a and lu");
    return {{in[0].dtype, require_same_shape(in[0], in[1], "a and its factors")}};
  }

  // Eager ops and one host read of a count: it runs wherever the operands are.
  bool runs_on_devices() const override { return true; }

  void run(Operands in, const ops::ExtensionParams&, std::span<const ops::ConcreteMeta>,
           std::span<Tensor> out) const override {
    const Tensor &a = in[0], &lu = in[1], &pivots = in[2];
    Tensor zero_pivots = tfe::eager::sum( // I64
        compare(ir::diagonal(lu), scalar_of<Tensor>(a.dtype(), 0.0), ops::CompareDir::Eq),
        std::span<const int64_t>{});
    // One count read on the host (a copy of one element when the operands are on a device).
    const Tensor count = eager::contiguous(device::to_device(zero_pivots, Device{}));
    if (count.data<int64_t>()[0] == 0) { // every matrix nonsingular
      Tensor eye = identity<Tensor>(a.dtype(), {a.dim(0), a.dim(0)});
      Tensor inv = api::lu_solve(lu, pivots, eye, Trans::No);
      out[0] = inv * per_matrix(det_from_lu(lu, pivots), Shape(a.shape()));
      return;
    }
    out[0] = adjugate_by_svd(a);
  }

  void jvp(const ad::MultiJvpArgs& a, std::span<Tangent> out) const override {
    if (!a.dx[0]) return; // the factors only cache a: its tangent is the one that counts
    const Value& x = a.x[0];
    std::vector<Value> usv = api::svd(x, SvdMode::Reduced, 0.0);
    Value v = ir::mH(usv[2]);
    Value f = ir::matmul(ir::mH(usv[0]), ir::matmul(*a.dx[0], v));
    DType d = x.meta().dtype;
    Value c2 = tfe::eager::cast(products_but_two(usv[1]), d);
    Value diagonal = reduce(ops::OpCode::ReduceSum, ir::scale_columns(c2, ir::diagonal(f)), {1});
    Value g = -(f * c2) + ir::diag_embed(diagonal);
    out[0] = ir::matmul(v, ir::matmul(g, ir::mH(usv[0]))) * unitary_phase(usv[0], usv[2]);
  }
};

} // namespace

const LinalgOp& adjugate_op() {
  static const AdjugateOp op;
  return op;
}

} // namespace tfe::linalg
