// CPU kernel of DotGeneral (ops/defs/contraction.hpp). Each operand is seen per batch element as
// a matrix (lhs: free x contracting, rhs: contracting x free). When its dims merge into two
// strided groups with one unit stride, BLAS reads it in place with a transpose flag; otherwise
// it is packed once into that layout. Floats and complex go to gemm, except an inner product
// (one element per batch element), which is a loop over the operands in place; integers use a
// plain loop.
#include <array>
#include <optional>
#include <vector>

#include "backend/cpu/blas/blas.hpp"
#include "backend/cpu/kernels/elementwise.hpp"
#include "backend/cpu/kernels/kernels.hpp"
#include "backend/cpu/kernels/scalar_math.hpp"

namespace tfe::cpu::kernels {

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
    if (ld >= std::max<int64_t>(1, cols)) return MatrixView{Trans::Transpose, ld};
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

// One inner product per batch element, read in place: sum over the contracted dims (extents
// ext, element strides sa and sb, extent-1 dims dropped, contiguous neighbours merged) of
// a[i] b[i]. OpenBLAS's gemm with m = n = 1 packs both operands into panels and is several times
// slower than this loop, and an operand whose dims do not merge would need a packed copy first.
// The first dim is the inner loop, with four partial sums so that the adds do not wait on each
// other.
template <class T>
T strided_dot(const T* a, const T* b, const Dims& ext, const Dims& sa, const Dims& sb) {
  const size_t nd = ext.size();
  if (nd == 0) return a[0] * b[0];
  std::array<T, 4> acc{};
  Dims idx(nd, 0);
  const int64_t n0 = ext[0], a0 = sa[0], b0 = sb[0];
  for (;;) {
    int64_t i = 0;
    for (; i + 4 <= n0; i += 4)
      for (int64_t u = 0; u < 4; ++u)
        acc[static_cast<size_t>(u)] += a[(i + u) * a0] * b[(i + u) * b0];
    for (; i < n0; ++i) acc[0] += a[i * a0] * b[i * b0];
    size_t d = 1;
    for (; d < nd; ++d) {
      a += sa[d];
      b += sb[d];
      if (++idx[d] < ext[d]) break;
      a -= sa[d] * ext[d];
      b -= sb[d] * ext[d];
      idx[d] = 0;
    }
    if (d == nd) break;
  }
  return (acc[0] + acc[1]) + (acc[2] + acc[3]);
}

// The contracted dims of an inner product, paired in lhs order, coalesced for strided_dot.
struct DotLayout {
  Dims ext, sa, sb;
};

DotLayout dot_layout(const Tensor& a, const Dims& a_dims, const Tensor& b, const Dims& b_dims) {
  DotLayout l;
  for (size_t k = 0; k < a_dims.size(); ++k) {
    int64_t e = a.dim(a_dims[k]), s = a.stride(a_dims[k]), t = b.stride(b_dims[k]);
    if (e == 1) continue;
    if (!l.ext.empty() && s == l.sa.back() * l.ext.back() && t == l.sb.back() * l.ext.back()) {
      l.ext.back() *= e;
      continue;
    }
    l.ext.push_back(e);
    l.sa.push_back(s);
    l.sb.push_back(t);
  }
  return l;
}

} // namespace

Tensor dot_general(Operands in, const ops::Params& params, const ops::ConcreteMeta& m) {
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
  if (use_blas && M == 1 && N == 1) {
    DotLayout l = dot_layout(lhs.t, lhs.cols, rhs.t, rhs.rows);
    std::vector<int64_t> loff = batch_offsets(lhs.t, lhs.batch, batch_extents);
    std::vector<int64_t> roff = batch_offsets(rhs.t, rhs.batch, batch_extents);
    dispatch_accepted<ops::OpCode::DotGeneral>(m.dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (is_inexact(dtype_of_v<T>))
        for (size_t bi = 0; bi < loff.size(); ++bi)
          out.data<T>()[bi] = strided_dot(lhs.t.data<T>() + loff[bi], rhs.t.data<T>() + roff[bi],
                                          l.ext, l.sa, l.sb);
    });
    return out;
  }
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
