// PivotsToPermutation: LAPACK's row interchanges (1-based ipiv, applied in order) as the
// permutation perm with (P^T A)[i] = A[perm[i]], so that A = P L U with P[r, c] = (perm[c] == r).
// Integer in and out: never differentiated.
#include "backend/device/plugin.hpp"
#include "linalg/ops.hpp"

namespace tfe::linalg {
namespace {

class PivotsToPermutationOp final : public LinalgOp {
public:
  PivotsToPermutationOp() : LinalgOp("pivots_to_permutation", "tfe_linalg_lu", 1, 1) {}

  ops::MetaList infer(std::span<const ops::Meta> in, const ops::ExtensionParams& p) const override {
    if (in[0].dtype != DType::I32 || in[0].shape.empty())
      fail(Status::DtypeMismatch, "pivots must be I32 [K, B..], not %s %s",
           std::string(dtype_name(in[0].dtype)).c_str(), ops::format_shape(in[0].shape).c_str());
    Extent m = option(p, 0);
    ops::require_le(in[0].shape[0], m, Status::ShapeMismatch, "rows", "more pivots than rows");
    Shape out = in[0].shape;
    out[0] = m;
    return {{DType::I32, out}};
  }

  // A sequence of swaps over K small integers per matrix: on a device the pivots come to the
  // host (one small read) and the permutation goes back.
  bool runs_on_devices() const override { return true; }

  void run(Operands in, const ops::ExtensionParams& p, std::span<const ops::ConcreteMeta> out_meta,
           std::span<Tensor> out) const override {
    const Tensor piv = device::to_device(in[0], Device{});
    int64_t m = option(p, 0), k = piv.dim(0);
    Tensor perm = Tensor::empty(DType::I32, out_meta[0].shape);
    int64_t batch = m == 0 ? 0 : perm.numel() / m;
    Dims bshape(piv.shape().begin() + 1, piv.shape().end());
    Dims idx(bshape.size(), 0);
    for (int64_t b = 0; b < batch; ++b) {
      int32_t* dst = perm.data<int32_t>() + b * m;
      for (int64_t i = 0; i < m; ++i) dst[i] = static_cast<int32_t>(i);
      int64_t offset = 0;
      for (size_t d = 0; d < idx.size(); ++d)
        offset += idx[d] * piv.stride(static_cast<int64_t>(d) + 1);
      // No pivots (K = 0, as for an M x 0 batch): the identity, and no address into pivots,
      // which then have no memory behind them.
      const int32_t* src = k == 0 ? nullptr : piv.data<int32_t>() + offset;
      for (int64_t i = 0; i < k; ++i) {
        int64_t j = src[i * piv.stride(0)] - 1;
        if (j < 0 || j >= m)
          fail(Status::InvalidArgument,
               "pivot %lld of batch %lld is %lld, "
               "outside [1, %lld]",
               (long long)i, (long long)b, (long long)(j + 1), (long long)m);
        std::swap(dst[i], dst[j]);
      }
      for (size_t d = 0; d < idx.size() && ++idx[d] == bshape[d]; ++d) idx[d] = 0;
    }
    out[0] = device::to_device(perm, in[0].device());
  }

  void jvp(const ad::MultiJvpArgs&, std::span<Tangent>) const override {} // integer output
};

} // namespace

const LinalgOp& pivots_to_permutation_op() {
  static const PivotsToPermutationOp op;
  return op;
}

} // namespace tfe::linalg
