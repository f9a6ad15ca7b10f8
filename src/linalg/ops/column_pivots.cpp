// ColumnPivots: the column order of QR with column pivoting (geqp3), perm I64 [N, B..] with
// A[:, perm] = Q R. The order is piecewise constant in A: never differentiated.
#include "linalg/ops.hpp"
#include "backend/cpu/lapack/lapack.hpp"

namespace tfe::linalg {
namespace {

class ColumnPivotsOp final : public LinalgOp {
public:
  ColumnPivotsOp() : LinalgOp("column_pivots", "tfe_linalg_qr_pivoted", 1, 1) {}

  ops::MetaList infer(std::span<const ops::Meta> in, const ops::ExtensionParams&) const override {
    require_float(in[0], "a");
    require_matrix(in[0], "a");
    return {{DType::I64, vector_shape(in[0].shape[1], in[0].shape)}};
  }

  void run(Operands in, const ops::ExtensionParams&, std::span<const ops::ConcreteMeta>,
           std::span<Tensor> out) const override {
    out[0] = cpu::lapack::column_pivots(in[0]);
  }

  void jvp(const ad::MultiJvpArgs&, std::span<Tangent>) const override {} // integer output
};

} // namespace

const LinalgOp& column_pivots_op() {
  static const ColumnPivotsOp op;
  return op;
}

} // namespace tfe::linalg
