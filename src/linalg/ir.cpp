// Implementation of the matrix IR builders (ir.hpp).
#include "linalg/ir.hpp"

namespace tfe::linalg::ir {

using ops::OpCode;

namespace {
Dims batch_dims(size_t rank, int64_t first) {
  Dims d;
  for (int64_t i = 2; i < static_cast<int64_t>(rank); ++i) d.push_back(i - 2 + first);
  return d;
}
Shape matrix_shape(Extent m, Extent n, const Value& batch_of) {
  const Shape& s = batch_of.meta().shape;
  Shape out{m, n};
  out.insert(out.end(), s.begin() + 2, s.end());
  return out;
}
} // namespace

Value matmul(const Value& a, const Value& b) {
  size_t rank = a.meta().shape.size();
  ops::DotGeneralParams p{{1}, {0}, batch_dims(rank, 2), batch_dims(rank, 2)};
  Value r = ad::emit2(OpCode::DotGeneral, a, b, p); // [M, N, B..]
  return r;
}

Value diagonal_mask(Extent n, const Value& batch_of) {
  Shape sq{n, n};
  Value rows = graph::emit(OpCode::Iota, {}, ops::IotaParams{DType::I64, sq, 0});
  Value cols = graph::emit(OpCode::Iota, {}, ops::IotaParams{DType::I64, sq, 1});
  Value eq = ad::compare(rows, cols, ops::CompareDir::Eq);
  Shape full = matrix_shape(n, n, batch_of);
  return ad::broadcast_in_dim(eq, full, {0, 1});
}

Value eye(DType dtype, Extent n, const Value& batch_of) {
  return ad::convert(diagonal_mask(n, batch_of), dtype);
}

namespace {
// d [K, B..] spread along matrix dim `dim` of a and multiplied in.
Value scale_along(const Value& a, const Value& d, int64_t dim) {
  const Shape& s = a.meta().shape;
  Dims dims{dim};
  for (int64_t i = 2; i < static_cast<int64_t>(s.size()); ++i) dims.push_back(i);
  return a * ad::broadcast_in_dim(ad::convert(d, a.meta().dtype), s, dims);
}
} // namespace

Value scale_columns(const Value& a, const Value& d) { return scale_along(a, d, 1); }
Value scale_rows(const Value& a, const Value& d) { return scale_along(a, d, 0); }

Value join(std::initializer_list<Value> parts, int64_t dim) {
  std::vector<Value> in(parts);
  return graph::emit(OpCode::Concatenate, in, ops::AxisParams{dim});
}

Value trace(const Value& a) { return ad::reduce_sum(diagonal(a), {0}); }

Value hermitian_part(const Value& a) { return ad::scale(a + mH(a), 0.5); }

Value inverse_gaps(const Value& w, double eps) {
  const Shape& s = w.meta().shape; // [N, B..]
  Extent n = s[0];
  Shape full{n, n};
  full.insert(full.end(), s.begin() + 1, s.end());
  Dims as_col{0}, as_row{1}; // w[i] along rows, w[j] along columns
  for (int64_t i = 1; i < static_cast<int64_t>(s.size()); ++i) {
    as_col.push_back(i + 1);
    as_row.push_back(i + 1);
  }
  Value gap = ad::broadcast_in_dim(w, full, as_row) - ad::broadcast_in_dim(w, full, as_col);
  DType d = w.meta().dtype;
  Value denom = eps > 0 ? (gap * gap) + ad::full(d, full, eps) : gap;
  Value numer = eps > 0 ? gap : ad::full(d, full, 1.0);
  // Exactly equal values (the diagonal, and exactly degenerate pairs) get 0: a degenerate pair
  // contributes nothing, which is the derivative of every function invariant under rotations
  // inside its subspace. The masked entries are selected away before dividing would matter, so
  // no inf or 0/0 reaches the result or its derivatives.
  Value equal = ad::compare(gap, ad::full(d, full, 0.0), ops::CompareDir::Eq);
  Value safe = ad::select(equal, ad::full(d, full, 1.0), denom);
  return ad::select(equal, ad::full(d, full, 0.0), numer / safe);
}

} // namespace tfe::linalg::ir
