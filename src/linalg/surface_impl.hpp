// Definitions of the linalg surface templates (surface.hpp). Included only by the files that
// instantiate them for the three value types.
#pragma once

#include <array>
#include <cmath>
#include <optional>

#include "eager/operators.hpp"
#include "eager/surface_impl.hpp"
#include "linalg/ir.hpp"
#include "linalg/surface.hpp"

namespace tfe::linalg::api {

// a + b, a - b, a * b, a / b and -a on values (eager/operators.hpp).
using namespace tfe::eager::operators;
namespace detail {

using tfe::eager::detail::emit1;
using tfe::eager::detail::literal_of;
// Matrix views and parts (linalg/ir.hpp), the same for the composites and the rules.
using ir::diagonal;
using ir::mH;
using ir::mT;
using ir::take;

template <class V> std::vector<V> emit_ext(const ops::ExtensionParams& p, std::span<const V> in) {
  return emit_multi(ops::OpCode::Extension, in, ops::Params(p));
}
template <class V> V emit_ext1(const ops::ExtensionParams& p, std::span<const V> in) {
  return emit(ops::OpCode::Extension, in, ops::Params(p));
}

// Messages name the operand, not the function: the C layer puts the public function first.
inline void require_float(const char* what, DType d) {
  if (!is_inexact(d))
    fail(Status::DtypeMismatch, "%s is %s; linalg accepts F32, F64, C32 and C64", what,
         std::string(dtype_name(d)).c_str());
}

inline void require_matrix(const char* what, const Shape& s) {
  if (s.size() < 2)
    fail(Status::ShapeMismatch,
         "%s has shape %s; it needs rank >= 2 (the first two dims are the matrix)", what,
         ops::format_shape(s).c_str());
}

// The broadcast of the operands' batch dims. A NumPy habit puts batch dims first ([batch.., M, N]),
// which surfaces here as batch dims that do not broadcast, so the message says where they go.
template <size_t N> Shape broadcast_batches(const std::array<Shape, N>& batches) {
  try {
    return tfe::eager::broadcast_shapes(std::span<const Shape>(batches));
  } catch (const Error& e) {
    if (e.status() != Status::ShapeMismatch) throw;
    std::string what = e.message();
    if (what.rfind("shapes ", 0) == 0) what.erase(0, 7);
    fail(Status::ShapeMismatch,
         "batch dims %s; batch dims come after the two matrix dims ([M, N, batch..]), so a "
         "NumPy stack [batch.., M, N] needs its two matrix dims moved first",
         what.c_str());
  }
}

// A square float matrix (batched): what inv, det and slogdet take.
template <class V> ops::Meta require_square(const V& a) {
  ops::Meta m = meta_of(a);
  require_float("a", m.dtype);
  require_matrix("a", m.shape);
  ops::require_eq(m.shape[0], m.shape[1], Status::ShapeMismatch, "square",
                  "a of shape " + ops::format_shape(m.shape) + " must be square");
  return m;
}

// a and b in their joined float dtype with their batch dims broadcast (left-aligned).
template <class V> std::array<V, 2> joined(const V& a, const V& b) {
  ops::Meta ma = meta_of(a), mb = meta_of(b);
  require_float("a", ma.dtype);
  require_float("b", mb.dtype);
  require_matrix("a", ma.shape);
  require_matrix("b", mb.shape);
  DType d = join(ma.dtype, mb.dtype);
  std::array<Shape, 2> batches{batch_shape(ma.shape), batch_shape(mb.shape)};
  Shape batch = detail::broadcast_batches(batches);
  auto prepare = [&](const V& v, const ops::Meta& m) {
    V w = m.dtype == d ? v : tfe::eager::cast(v, d);
    Shape s{m.shape[0], m.shape[1]};
    s.insert(s.end(), batch.begin(), batch.end());
    return tfe::eager::broadcast_to(w, s);
  };
  return {prepare(a, ma), prepare(b, mb)};
}

template <class V> V scalar_of(DType d, double v) {
  return tfe::eager::cast(literal_of<V>(Tensor::scalar(v)), d);
}

template <class V> V un(ops::OpCode code, const V& a) { return emit1(code, a, ops::NoParams{}); }
template <class V> V bin(ops::OpCode code, const V& a, const V& b) {
  std::array<V, 2> in{a, b};
  return tfe::eager::call(code, std::span<const V>(in));
}
template <class V> V select(const V& pred, const V& t, const V& f) {
  std::array<V, 3> in{pred, t, f};
  return tfe::eager::call(ops::OpCode::Select, std::span<const V>(in));
}
template <class V> V compare(const V& a, const V& b, ops::CompareDir dir) {
  std::array<V, 2> in{a, b};
  return tfe::eager::call(ops::OpCode::Compare, std::span<const V>(in), ops::CompareParams{dir});
}
template <class V> V conj(const V& a) {
  return is_complex(meta_of(a).dtype) ? un(ops::OpCode::Conj, a) : a;
}
// +1 or -1 per matrix: the parity of the row interchanges of LAPACK pivots [N, B..].
template <class V> V pivot_sign(const V& pivots, DType d) {
  Shape s = meta_of(pivots).shape;
  V row = emit(ops::OpCode::Iota, std::span<const V>{}, ops::IotaParams{DType::I32, s, 0});
  V one_based = row + scalar_of<V>(DType::I32, 1.0);
  std::array<int64_t, 1> rows{0};
  V count = tfe::eager::sum(compare(pivots, one_based, ops::CompareDir::Ne), rows); // I64
  V odd = tfe::eager::cast(bin(ops::OpCode::Rem, count, scalar_of<V>(DType::I64, 2.0)), d);
  return scalar_of<V>(d, 1.0) + (odd * scalar_of<V>(d, -2.0));
}

// det = sign(P) prod(diag(U)) from a packed LU and its pivots.
template <class V> V det_from_lu(const V& lu, const V& pivots) {
  std::array<int64_t, 1> rows{0};
  V prod = tfe::eager::prod(diagonal(lu), rows);
  return prod * pivot_sign(pivots, meta_of(lu).dtype);
}

// (sign, logabs) from a packed LU: logabs = sum log|u_ii|; sign = sign(P) prod(u_ii / |u_ii|),
// 0 when a pivot is exactly zero (Sign does exactly that for real dtypes).
template <class V> std::vector<V> slogdet_from_lu(const V& lu, const V& pivots) {
  DType d = meta_of(lu).dtype;
  std::array<int64_t, 1> rows{0};
  V diag = diagonal(lu);
  V mag = un(ops::OpCode::Abs, diag);
  V logabs = tfe::eager::sum(un(ops::OpCode::Log, mag), rows);
  V zero_pivot = compare(mag, scalar_of<V>(real_dtype(d), 0.0), ops::CompareDir::Eq);
  V unit = is_complex(d) ? select(zero_pivot, scalar_of<V>(d, 0.0), diag / mag)
                         : un(ops::OpCode::Sign, diag);
  V sign = tfe::eager::prod(unit, rows) * pivot_sign(pivots, d);
  return {sign, logabs};
}

template <class V> V reduce(ops::OpCode code, const V& x, std::initializer_list<int64_t> axes) {
  return tfe::eager::reduce(code, x, std::span<const int64_t>(axes.begin(), axes.size()));
}
// v [K, B..] spread over the columns (matrix_dim 1) or rows (0) of a matrix of shape `shape`.
template <class V> V spread(const V& v, const Shape& shape, int64_t matrix_dim) {
  Dims dims{matrix_dim};
  for (int64_t i = 2; i < static_cast<int64_t>(shape.size()); ++i) dims.push_back(i);
  return emit1(ops::OpCode::BroadcastInDim, v, ops::BroadcastInDimParams{shape, dims});
}
// The identity of dtype d with shape [M, N, B..]: ones where row == col, batch dims broadcast.
template <class V> V identity(DType d, const Shape& shape) {
  Shape rc{shape[0], shape[1]};
  V rows = emit(ops::OpCode::Iota, std::span<const V>{}, ops::IotaParams{DType::I32, rc, 0});
  V cols = emit(ops::OpCode::Iota, std::span<const V>{}, ops::IotaParams{DType::I32, rc, 1});
  return tfe::eager::broadcast_to(tfe::eager::cast(compare(rows, cols, ops::CompareDir::Eq), d),
                                  shape);
}
inline int64_t constant_extent(Extent e) {
  std::optional<int64_t> v = ops::decide_value(e);
  if (!v)
    fail(Status::NotSupported, "needs constant matrix dims, not the symbolic extent %s",
         to_string(e).c_str());
  return *v;
}
// x / |x| elementwise, and 1 where x is exactly zero (a phase that is always defined).
template <class V> V unit_phase(const V& x) {
  DType d = meta_of(x).dtype;
  V mag = un(ops::OpCode::Abs, x);
  V zero = compare(mag, scalar_of<V>(real_dtype(d), 0.0), ops::CompareDir::Eq);
  V safe = select(zero, scalar_of<V>(real_dtype(d), 1.0), mag);
  return select(zero, scalar_of<V>(d, 1.0), x / safe);
}
// 1 / s where keep, 0 elsewhere, without an infinite intermediate (so no NaN in derivatives).
template <class V> V masked_reciprocal(const V& s, const V& keep) {
  DType d = meta_of(s).dtype;
  V safe = select(keep, s, scalar_of<V>(d, 1.0));
  return select(keep, scalar_of<V>(d, 1.0) / safe, scalar_of<V>(d, 0.0));
}
// keep[i] = mags[i] > rtol * max(mags) within each matrix's values (mags [K, B..], real).
template <class V> V above_cutoff(const V& mags, double rtol) {
  Shape s = meta_of(mags).shape;
  V largest = reduce(ops::OpCode::ReduceMax, mags, {0});
  Dims batch;
  for (int64_t i = 1; i < static_cast<int64_t>(s.size()); ++i) batch.push_back(i);
  V cutoff = emit1(ops::OpCode::BroadcastInDim, largest * scalar_of<V>(meta_of(mags).dtype, rtol),
                   ops::BroadcastInDimParams{s, batch});
  return compare(mags, cutoff, ops::CompareDir::Gt);
}
// s^(1/p) for s >= 0, with the subgradient 0 at s = 0 (a norm's derivative at the zero vector):
// s is replaced by 1 there before the root, so neither the value nor any derivative sees the
// infinite slope of the root at 0.
template <class V> V root_of(const V& s, double p) {
  DType d = meta_of(s).dtype;
  V zero = compare(s, scalar_of<V>(d, 0.0), ops::CompareDir::Eq);
  V safe = select(zero, scalar_of<V>(d, 1.0), s);
  V root = p == 2.0 ? un(ops::OpCode::Sqrt, safe)
                    : bin(ops::OpCode::Pow, safe, scalar_of<V>(d, 1.0 / p));
  return select(zero, scalar_of<V>(d, 0.0), root);
}
// A norm computed from singular values, 0 with the subgradient 0 at the zero matrix.
template <class V> V zero_at_zero(const V& norm) {
  DType d = meta_of(norm).dtype;
  return select(compare(norm, scalar_of<V>(d, 0.0), ops::CompareDir::Eq), scalar_of<V>(d, 0.0),
                norm);
}
inline double machine_eps(DType d) {
  return real_dtype(d) == DType::F32 ? 1.1920928955078125e-07 : 2.220446049250313e-16;
}

} // namespace detail

template <class V> V solve(const V& a, const V& b) {
  auto ab = detail::joined(a, b);
  return detail::emit_ext<V>(lu_factor_solve_op().make_params(), ab)[0];
}

template <class V> V solve_triangular(const V& a, const V& b, const TriangularOptions& o) {
  auto ab = detail::joined(a, b);
  return detail::emit_ext1<V>(triangular_solve_params(o), ab);
}

template <class V> V cholesky(const V& a, bool upper) {
  std::array<V, 1> in{a};
  return detail::emit_ext1<V>(cholesky_op().make_params({upper}), in);
}

template <class V> std::vector<V> qr(const V& a, bool complete) {
  std::array<V, 1> in{a};
  return detail::emit_ext<V>(qr_op().make_params({complete}), in);
}

template <class V> std::vector<V> svd(const V& a, SvdMode mode, double eps) {
  std::array<V, 1> in{a};
  return detail::emit_ext<V>(svd_op().make_params({static_cast<int64_t>(mode)}, eps), in);
}

template <class V> std::vector<V> eigh(const V& a, bool upper, double eps) {
  std::array<V, 1> in{a};
  return detail::emit_ext<V>(eigh_op().make_params({upper}, eps), in);
}

template <class V> std::vector<V> eig(const V& a, double eps) {
  std::array<V, 1> in{a};
  return detail::emit_ext<V>(eig_op().make_params({}, eps), in);
}

template <class V> std::vector<V> lu_factor(const V& a) {
  std::array<V, 1> in{a};
  return detail::emit_ext<V>(lu_factor_op().make_params(), in);
}

template <class V> V lu_solve(const V& lu, const V& pivots, const V& b, Trans trans) {
  // lu and b promote to their joined dtype; batch dims broadcast left-aligned across all three.
  ops::Meta ml = meta_of(lu), mp = meta_of(pivots), mb = meta_of(b);
  detail::require_matrix("lu", ml.shape);
  detail::require_matrix("b", mb.shape);
  if (mp.shape.empty()) fail(Status::ShapeMismatch, "pivots must be [N, B..], not a scalar");
  std::array<Shape, 3> batches{batch_shape(ml.shape), Shape(mp.shape.begin() + 1, mp.shape.end()),
                               batch_shape(mb.shape)};
  Shape batch = detail::broadcast_batches(batches);
  auto with_batch = [&](const V& v, Shape head) {
    head.insert(head.end(), batch.begin(), batch.end());
    return tfe::eager::broadcast_to(v, head);
  };
  detail::require_float("lu", ml.dtype);
  detail::require_float("b", mb.dtype);
  DType d = join(ml.dtype, mb.dtype); // real factors with a complex b: solve in complex
  auto as_d = [&](const V& v, DType from) { return from == d ? v : tfe::eager::cast(v, d); };
  std::array<V, 3> in{with_batch(as_d(lu, ml.dtype), {ml.shape[0], ml.shape[1]}),
                      with_batch(pivots, {mp.shape[0]}),
                      with_batch(as_d(b, mb.dtype), {mb.shape[0], mb.shape[1]})};
  return detail::emit_ext1<V>(lu_solve_op().make_params({static_cast<int64_t>(trans)}), in);
}

template <class V> V inv(const V& a) {
  ops::Meta m = detail::require_square(a);
  return solve(a, detail::identity<V>(m.dtype, {m.shape[0], m.shape[0]}));
}

template <class V> V det(const V& a) {
  detail::require_square(a);
  std::vector<V> f = lu_factor(a);
  std::array<V, 3> in{a, f[0], f[1]};
  return detail::emit_ext1<V>(det_op().make_params(), in);
}

template <class V> std::vector<V> slogdet(const V& a) {
  detail::require_square(a);
  std::vector<V> f = lu_factor(a);
  std::array<V, 3> in{a, f[0], f[1]};
  return detail::emit_ext<V>(slogdet_op().make_params(), in);
}

template <class V> V svdvals(const V& a) {
  std::array<V, 1> in{a};
  return detail::emit_ext1<V>(svdvals_op().make_params(), in);
}

template <class V> V eigvalsh(const V& a, bool upper) {
  std::array<V, 1> in{a};
  return detail::emit_ext1<V>(eigvalsh_op().make_params({upper}), in);
}

template <class V> V eigvals(const V& a) {
  std::array<V, 1> in{a};
  return detail::emit_ext1<V>(eigvals_op().make_params(), in);
}

template <class V> std::vector<V> lu(const V& a) {
  std::vector<V> f = lu_factor(a);
  ops::Meta m = meta_of(a);
  Extent rows = m.shape[0], cols = m.shape[1], k = min_extent(rows, cols);
  int64_t mr = detail::constant_extent(rows);
  // L [M,K]: unit lower part of the first K columns; U [K,N]: upper part of the first K rows.
  V lcols = detail::take(f[0], 1, 0, k);
  V l = detail::emit1(ops::OpCode::Tril, lcols, ops::TriangleParams{-1}) +
        detail::identity<V>(m.dtype, meta_of(lcols).shape);
  V u = detail::emit1(ops::OpCode::Triu, detail::take(f[0], 0, 0, k), ops::TriangleParams{0});
  std::array<V, 1> piv{f[1]};
  V perm = detail::emit_ext1<V>(pivots_to_permutation_op().make_params({mr}), piv);
  Shape pshape = matrix_shape(rows, rows, m.shape);
  V row = emit(ops::OpCode::Iota, std::span<const V>{}, ops::IotaParams{DType::I32, pshape, 0});
  V p = tfe::eager::cast(detail::compare(row, detail::spread(perm, pshape, 1), ops::CompareDir::Eq),
                         m.dtype);
  return {p, l, u};
}

template <class V> V matrix_exp(const V& a) {
  std::array<V, 1> in{a};
  return detail::emit_ext1<V>(matrix_exp_op().make_params(), in);
}

template <class V> V pinv(const V& a, double rtol, bool hermitian) {
  ops::Meta m = meta_of(a);
  detail::require_float("a", m.dtype);
  detail::require_matrix("a", m.shape);
  std::array<V, 1> in{a};
  // rtol < 0 stays in the params: the default cut-off is taken from the shape when it runs.
  return detail::emit_ext1<V>(pinv_op().make_params({hermitian}, rtol < 0 ? -1.0 : rtol), in);
}

template <class V> V vector_norm(const V& x, double ord, std::span<const int64_t> axes) {
  ops::Meta m = meta_of(x);
  detail::require_float("x", m.dtype);
  DType real = real_dtype(m.dtype);
  V mag = detail::un(ops::OpCode::Abs, x);
  if (std::isinf(ord))
    return tfe::eager::reduce(ord > 0 ? ops::OpCode::ReduceMax : ops::OpCode::ReduceMin, mag, axes);
  if (ord == 0) // the number of nonzero entries
    return tfe::eager::cast(
        tfe::eager::sum(detail::compare(mag, detail::scalar_of<V>(real, 0.0), ops::CompareDir::Ne),
                        axes),
        real);
  if (ord == 1) return tfe::eager::sum(mag, axes);
  if (ord == 2) return detail::root_of(tfe::eager::sum(mag * mag, axes), 2.0);
  V powered = detail::bin(ops::OpCode::Pow, mag, detail::scalar_of<V>(real, ord));
  return detail::root_of(tfe::eager::sum(powered, axes), ord);
}

template <class V> V matrix_norm(const V& a, MatrixNorm ord) {
  ops::Meta m = meta_of(a);
  detail::require_float("a", m.dtype);
  detail::require_matrix("a", m.shape);
  using ops::OpCode;
  switch (ord) {
  case MatrixNorm::Fro: {
    std::array<int64_t, 2> both{0, 1};
    return vector_norm(a, 2.0, both);
  }
  case MatrixNorm::Nuc:
    return detail::zero_at_zero(detail::reduce(OpCode::ReduceSum, svdvals(a), {0}));
  case MatrixNorm::Two:
    return detail::zero_at_zero(detail::reduce(OpCode::ReduceMax, svdvals(a), {0}));
  case MatrixNorm::MinusTwo:
    return detail::zero_at_zero(detail::reduce(OpCode::ReduceMin, svdvals(a), {0}));
  case MatrixNorm::One:
  case MatrixNorm::MinusOne:
  case MatrixNorm::Inf:
  case MatrixNorm::MinusInf: {
    // 1: the largest column sum of |a|; inf: the largest row sum (negative: the smallest)
    bool columns = ord == MatrixNorm::One || ord == MatrixNorm::MinusOne;
    bool largest = ord == MatrixNorm::One || ord == MatrixNorm::Inf;
    V sums = detail::reduce(OpCode::ReduceSum, detail::un(OpCode::Abs, a), {columns ? 0 : 1});
    return detail::reduce(largest ? OpCode::ReduceMax : OpCode::ReduceMin, sums, {0});
  }
  }
  fail(Status::InvalidArgument, "unknown order %d", static_cast<int>(ord));
}

template <class V> V cond(const V& a, MatrixNorm ord) {
  if (ord == MatrixNorm::Two || ord == MatrixNorm::MinusTwo) {
    V s = svdvals(a);
    V hi = detail::reduce(ops::OpCode::ReduceMax, s, {0});
    V lo = detail::reduce(ops::OpCode::ReduceMin, s, {0});
    return ord == MatrixNorm::Two ? hi / lo : lo / hi;
  }
  return matrix_norm(a, ord) * matrix_norm(inv(a), ord);
}

template <class V> V matrix_power(const V& a, int64_t n) {
  ops::Meta m = detail::require_square(a);
  if (n == 0) return detail::identity<V>(m.dtype, m.shape);
  V base = n < 0 ? inv(a) : a;
  uint64_t k = n < 0 ? 0 - static_cast<uint64_t>(n) : static_cast<uint64_t>(n);
  // binary powering: the result multiplies in the squares of the set bits
  std::optional<V> result;
  while (true) {
    if (k & 1u) result = result ? tfe::eager::matmul(*result, base) : base;
    k >>= 1u;
    if (!k) break;
    base = tfe::eager::matmul(base, base);
  }
  return *result;
}

template <class V> V multi_dot(std::span<const V> xs) {
  if (xs.size() < 2)
    fail(Status::InvalidArgument, "it takes at least 2 matrices, got %zu", xs.size());
  std::vector<V> ms(xs.begin(), xs.end());
  bool row = meta_of(ms.front()).shape.size() == 1, col = meta_of(ms.back()).shape.size() == 1;
  auto as_matrix = [](const V& v, bool first) {
    Shape s = meta_of(v).shape;
    Shape to = first ? Shape{1, s[0]} : Shape{s[0], 1};
    return detail::emit1(ops::OpCode::Reshape, v, ops::ReshapeParams{to});
  };
  if (row) ms.front() = as_matrix(ms.front(), true);
  if (col) ms.back() = as_matrix(ms.back(), false);
  // the chain's dims p0 x p1, p1 x p2, ...; the cheapest parenthesisation by dynamic programming
  size_t n = ms.size();
  std::vector<int64_t> p;
  for (size_t i = 0; i < n; ++i) {
    Shape s = meta_of(ms[i]).shape;
    if (s.size() != 2)
      fail(Status::ShapeMismatch,
           "operand %zu has shape %s; it takes matrices (and "
           "vectors at the ends)",
           i, ops::format_shape(s).c_str());
    if (i == 0) p.push_back(detail::constant_extent(s[0]));
    p.push_back(detail::constant_extent(s[1]));
  }
  std::vector<std::vector<double>> cost(n, std::vector<double>(n, 0));
  std::vector<std::vector<size_t>> split(n, std::vector<size_t>(n, 0));
  for (size_t len = 1; len < n; ++len)
    for (size_t i = 0; i + len < n; ++i) {
      size_t j = i + len;
      cost[i][j] = -1;
      for (size_t k = i; k < j; ++k) {
        double c = cost[i][k] + cost[k + 1][j] +
                   static_cast<double>(p[i]) * static_cast<double>(p[k + 1]) *
                       static_cast<double>(p[j + 1]);
        if (cost[i][j] < 0 || c < cost[i][j]) {
          cost[i][j] = c;
          split[i][j] = k;
        }
      }
    }
  auto build = [&](auto&& self, size_t i, size_t j) -> V {
    if (i == j) return ms[i];
    size_t k = split[i][j];
    return tfe::eager::matmul(self(self, i, k), self(self, k + 1, j));
  };
  V out = build(build, 0, n - 1);
  if (!row && !col) return out;
  Shape s = meta_of(out).shape;
  Shape to;
  if (!row) to.push_back(s[0]);
  if (!col) to.push_back(s[1]);
  return detail::emit1(ops::OpCode::Reshape, out, ops::ReshapeParams{to});
}

template <class V> V vecdot(const V& a, const V& b, int64_t axis) {
  std::array<int64_t, 1> ax{axis};
  return tfe::eager::sum(detail::conj(a) * b, ax);
}

template <class V> V vander(const V& x, int64_t n) {
  ops::Meta m = meta_of(x);
  if (m.shape.empty())
    fail(Status::ShapeMismatch, "x must have rank >= 1 ([N, B..]), not a scalar");
  if (n < 0) fail(Status::InvalidArgument, "the number of columns %lld is negative", (long long)n);
  // One op per column: n bounds the work before the loop (docs/reliability.md, limits).
  constexpr int64_t kMaxColumns = int64_t{1} << 16;
  if (n > kMaxColumns)
    fail(Status::InvalidArgument, "the number of columns %lld exceeds the limit of %lld",
         (long long)n, (long long)kMaxColumns);
  Shape col = m.shape;
  col.insert(col.begin() + 1, Extent(1)); // [N, 1, B..]
  V power = tfe::eager::broadcast_to(detail::scalar_of<V>(m.dtype, 1.0), m.shape);
  std::vector<V> columns;
  for (int64_t k = 0; k < n; ++k) {
    columns.push_back(detail::emit1(ops::OpCode::Reshape, power, ops::ReshapeParams{col}));
    if (k + 1 < n) power = power * x;
  }
  if (columns.empty()) {
    Shape empty = col;
    empty[1] = 0;
    return tfe::eager::broadcast_to(detail::scalar_of<V>(m.dtype, 0.0), empty);
  }
  return tfe::eager::concatenate(std::span<const V>(columns), 1);
}

namespace detail {
inline Extent product(const Shape& s, size_t begin, size_t end) {
  Extent p = 1;
  for (size_t i = begin; i < end; ++i) p = p * s[i];
  return p;
}
} // namespace detail

template <class V> V tensorinv(const V& a, int64_t ind) {
  Shape s = meta_of(a).shape;
  if (ind <= 0 || ind >= static_cast<int64_t>(s.size()))
    fail(Status::InvalidArgument, "ind %lld must split the %zu dims of a", (long long)ind,
         s.size());
  size_t k = static_cast<size_t>(ind);
  Extent rows = detail::product(s, 0, k), cols = detail::product(s, k, s.size());
  V inverse = inv(detail::emit1(ops::OpCode::Reshape, a, ops::ReshapeParams{Shape{rows, cols}}));
  Shape out(s.begin() + static_cast<long>(k), s.end());
  out.insert(out.end(), s.begin(), s.begin() + static_cast<long>(k));
  return detail::emit1(ops::OpCode::Reshape, inverse, ops::ReshapeParams{out});
}

template <class V> V tensorsolve(const V& a, const V& b) {
  Shape sa = meta_of(a).shape, sb = meta_of(b).shape;
  if (sa.size() <= sb.size())
    fail(Status::ShapeMismatch, "a %s must have b's dims %s followed by x's",
         ops::format_shape(sa).c_str(), ops::format_shape(sb).c_str());
  for (size_t i = 0; i < sb.size(); ++i)
    ops::require_eq(sa[i], sb[i], Status::ShapeMismatch, "leading",
                    "a " + ops::format_shape(sa) + " must start with b's dims " +
                        ops::format_shape(sb));
  Extent rows = detail::product(sb, 0, sb.size());
  Extent cols = detail::product(sa, sb.size(), sa.size());
  V m = detail::emit1(ops::OpCode::Reshape, a, ops::ReshapeParams{Shape{rows, cols}});
  V rhs = detail::emit1(ops::OpCode::Reshape, b, ops::ReshapeParams{Shape{rows, 1}});
  Shape out(sa.begin() + static_cast<long>(sb.size()), sa.end());
  return detail::emit1(ops::OpCode::Reshape, solve(m, rhs), ops::ReshapeParams{out});
}

template <class V> V lstsq(const V& a, const V& b, double rcond) {
  auto ab = detail::joined(a, b);
  return tfe::eager::matmul(pinv(ab[0], rcond, false), ab[1]);
}

template <class V> std::vector<V> qr_gauged(const V& a, bool complete, bool positive_diagonal) {
  std::vector<V> qrv = qr(a, complete);
  if (!positive_diagonal) return qrv;
  // Q D and D^H R with D = diag(phase of R's diagonal): the same product, diag(R) real >= 0.
  V phase = detail::unit_phase(detail::diagonal(qrv[1])); // [K, B..]
  ops::Meta mq = meta_of(qrv[0]), mr = meta_of(qrv[1]);
  Extent k = meta_of(phase).shape[0];
  if (!(mq.shape[1] == k)) { // complete and tall: the extra columns of Q keep phase 1
    Shape rest = meta_of(phase).shape;
    rest[0] = mq.shape[1] - k;
    std::array<V, 2> parts{phase,
                           tfe::eager::broadcast_to(detail::scalar_of<V>(mq.dtype, 1.0), rest)};
    phase = tfe::eager::concatenate(std::span<const V>(parts), 0);
  }
  V q = qrv[0] * detail::spread(phase, mq.shape, 1);
  V r = qrv[1] * detail::spread(detail::conj(phase), mr.shape, 0);
  return {q, r};
}

} // namespace tfe::linalg::api
