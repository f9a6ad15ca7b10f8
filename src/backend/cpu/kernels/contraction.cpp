// CPU kernel of DotGeneral (ops/defs/contraction.hpp). Each operand is seen per batch element as
// a matrix (lhs: free x contracting, rhs: contracting x free). When its dims merge into two
// strided groups with one unit stride, BLAS reads it in place with a transpose flag; otherwise
// it is packed once into that layout. Floats and complex go to gemm; integers use a plain loop.
#include <optional>
#include <vector>

#include "backend/cpu/blas/blas.hpp"
#include "backend/cpu/kernels/elementwise.hpp"
#include "backend/cpu/kernels/kernels.hpp"
#include "backend/cpu/kernels/scalar_math.hpp"

namespace tfe::cpu::kernels {
namespace {

using blas::Trans;

// Product of the extents of dims. Wrapping on purpose: exact whenever the result has elements
// (its extents and the operands' are bounded then), and 0 exactly when a factor is; it is computed
// before the empty-result check, where other factors may be huge.
int64_t extent_of(const Tensor& t, const Dims& dims) {
  uint64_t e = 1;
  for (int64_t d : dims) e *= static_cast<uint64_t>(t.dim(d));
  return static_cast<int64_t>(e);
}

// Stride of dims merged into one column-major group; 0 when the group has extent <= 1 (any
// stride will do); nullopt when the dims do not merge.
std::optional<int64_t> group_stride(const Tensor& t, const Dims& dims) {
  int64_t stride = 0, expect = 0;
  bool first = true;
  for (int64_t d : dims) {
    if (t.dim(d) == 1) continue;
    if (first) {
      stride = t.stride(d);
      first = false;
    } else if (t.stride(d) != expect) {
      return std::nullopt;
    }
    expect = t.stride(d) * t.dim(d);
  }
  return stride;
}

struct MatrixView {
  Trans trans = Trans::No;
  int64_t ld = 1;
};

// How BLAS can read t as a rows x cols matrix (row dims, col dims), if it can.
std::optional<MatrixView> blas_view(const Tensor& t, const Dims& row_dims, const Dims& col_dims) {
  int64_t rows = extent_of(t, row_dims), cols = extent_of(t, col_dims);
  auto rs = group_stride(t, row_dims), cs = group_stride(t, col_dims);
  if (!rs || !cs) return std::nullopt;
  if (rows <= 1 || *rs == 1) {
    int64_t ld = cols <= 1 ? std::max<int64_t>(1, rows) : *cs;
    if (ld >= std::max<int64_t>(1, rows)) return MatrixView{Trans::No, ld};
  }
  if (cols <= 1 || *cs == 1) {
    int64_t ld = rows <= 1 ? std::max<int64_t>(1, cols) : *rs;
    if (ld >= std::max<int64_t>(1, cols)) return MatrixView{Trans::Yes, ld};
  }
  return std::nullopt;
}

// One operand: its tensor, which dims form rows, cols and batch.
struct Operand {
  Tensor t;
  Dims rows, cols, batch;

  // Packs t compactly as (rows, cols, batch) so that it is a column-major matrix per batch.
  void pack() {
    Dims perm = rows;
    perm.insert(perm.end(), cols.begin(), cols.end());
    perm.insert(perm.end(), batch.begin(), batch.end());
    Tensor permuted = t.permuted(perm);
    Tensor packed = Tensor::empty(t.dtype(), permuted.shape());
    copy_into(packed, permuted);
    t = packed;
    int64_t d = 0;
    for (auto* group : {&rows, &cols, &batch})
      for (auto& v : *group) v = d++;
  }
};

Dims free_dims(int64_t rank, const Dims& a, const Dims& b) {
  Dims out;
  for (int64_t d = 0; d < rank; ++d) {
    bool used = false;
    for (int64_t x : a) used |= x == d;
    for (int64_t x : b) used |= x == d;
    if (!used) out.push_back(d);
  }
  return out;
}

// Offsets (in elements) of each batch element for an operand, in column-major batch order.
std::vector<int64_t> batch_offsets(const Tensor& t, const Dims& batch, const Dims& batch_extents) {
  int64_t nb = numel_of(batch_extents);
  std::vector<int64_t> off(static_cast<size_t>(nb), 0);
  for (int64_t i = 0; i < nb; ++i) {
    int64_t rem = i, o = 0;
    for (size_t k = 0; k < batch.size(); ++k) {
      o += (rem % batch_extents[k]) * t.stride(batch[k]);
      rem /= batch_extents[k];
    }
    off[static_cast<size_t>(i)] = o;
  }
  return off;
}

template <class T>
void integer_matmul(const T* a, int64_t a_rs, int64_t a_cs, const T* b, int64_t b_rs, int64_t b_cs,
                    T* c, int64_t m, int64_t n, int64_t k) {
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t i = 0; i < m; ++i) c[i + j * m] = T(0);
    for (int64_t p = 0; p < k; ++p) {
      T bv = b[p * b_rs + j * b_cs];
      for (int64_t i = 0; i < m; ++i)
        c[i + j * m] = wrap_add(c[i + j * m], wrap_mul(a[i * a_rs + p * a_cs], bv));
    }
  }
}

} // namespace

Tensor dot_general(std::span<const Tensor> in, const ops::Params& params,
                   const ops::ConcreteMeta& m) {
  const auto& p = std::get<ops::DotGeneralParams>(params);
  Operand lhs{in[0], free_dims(in[0].ndim(), p.lhs_batch, p.lhs_contracting), p.lhs_contracting,
              p.lhs_batch};
  Operand rhs{in[1], p.rhs_contracting, free_dims(in[1].ndim(), p.rhs_batch, p.rhs_contracting),
              p.rhs_batch};
  int64_t M = extent_of(lhs.t, lhs.rows), K = extent_of(lhs.t, lhs.cols);
  int64_t N = extent_of(rhs.t, rhs.cols);
  Dims batch_extents;
  for (int64_t d : lhs.batch) batch_extents.push_back(lhs.t.dim(d));
  Tensor out = Tensor::empty(m.dtype, m.shape);
  if (out.numel() == 0) return out;
  if (K == 0) return Tensor::zeros(m.dtype, m.shape);

  const bool use_blas = is_inexact(m.dtype);
  MatrixView lv, rv;
  if (use_blas) {
    for (int64_t v : {M, N, K}) blas::check_blas_int(v, "matrix dimension");
    auto prepare = [](Operand& op) {
      if (auto v = blas_view(op.t, op.rows, op.cols)) return *v;
      op.pack();
      return *blas_view(op.t, op.rows, op.cols);
    };
    lv = prepare(lhs);
    rv = prepare(rhs);
    blas::check_blas_int(lv.ld, "leading dimension");
    blas::check_blas_int(rv.ld, "leading dimension");
  } else {
    for (Operand* op : {&lhs, &rhs})
      if (!group_stride(op->t, op->rows) || !group_stride(op->t, op->cols)) op->pack();
  }
  std::vector<int64_t> loff = batch_offsets(lhs.t, lhs.batch, batch_extents);
  std::vector<int64_t> roff = batch_offsets(rhs.t, rhs.batch, batch_extents);
  dispatch_accepted<ops::OpCode::DotGeneral>(m.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* a = lhs.t.data<T>();
    const T* b = rhs.t.data<T>();
    T* c = out.data<T>();
    for (size_t bi = 0; bi < loff.size(); ++bi) {
      T* cb = c + static_cast<int64_t>(bi) * M * N;
      if constexpr (is_inexact(dtype_of_v<T>)) {
        blas::gemm(lv.trans, rv.trans, M, N, K, a + loff[bi], lv.ld, b + roff[bi], rv.ld, cb, M);
      } else {
        integer_matmul(a + loff[bi], *group_stride(lhs.t, lhs.rows), *group_stride(lhs.t, lhs.cols),
                       b + roff[bi], *group_stride(rhs.t, rhs.rows), *group_stride(rhs.t, rhs.cols),
                       cb, M, N, K);
      }
    }
  });
  return out;
}

} // namespace tfe::cpu::kernels
