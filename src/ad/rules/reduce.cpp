// Rules of the reductions (src/ops/defs/reduce.hpp). ReduceProd's JVP is exact with zeros (no
// division by a zero input); ReduceMax/Min split the tangent equally among all positions that
// attain the extremum (docs/design/ad-contract.md).
#include <algorithm>

#include "ad/rules/rules.hpp"

namespace tfe::ad::rules {

using ops::AxesParams;
using ops::CompareDir;
using ops::OpCode;

namespace {

Dims kept_dims(size_t rank, const Dims& axes) {
  Dims kept;
  for (int64_t d = 0; d < static_cast<int64_t>(rank); ++d)
    if (std::find(axes.begin(), axes.end(), d) == axes.end()) kept.push_back(d);
  return kept;
}

// A reduced value broadcast back over the reduced axes (to x's shape).
Value spread(const Value& reduced, const Value& x, const Dims& axes) {
  return broadcast_in_dim(reduced, x.meta().shape, kept_dims(x.meta().shape.size(), axes));
}

} // namespace

Tangent reduce_sum_jvp(const JvpArgs& a) {
  if (!a.dx[0]) return std::nullopt;
  return reduce_sum(*a.dx[0], a.params<AxesParams>().axes);
}

// d prod(x) = sum_i (prod_{j != i} x_j) dx_i. With k zeros among the reduced elements: k = 0
// gives prod/x_i; k = 1 gives the product of the nonzeros at the zero and 0 elsewhere; k > 1
// gives 0. The product of the nonzeros is computed directly, never divided by a zero.
Tangent reduce_prod_jvp(const JvpArgs& a) {
  if (!a.dx[0]) return std::nullopt;
  const Value& x = a.x[0];
  const Dims& axes = a.params<AxesParams>().axes;
  DType d = x.meta().dtype;
  const Shape& s = x.meta().shape;
  Value zeros = full(d, s, 0.0), ones = full(d, s, 1.0);
  Value is0 = compare(x, zeros, CompareDir::Eq);
  Value count = spread(reduce_sum(convert(is0, real_dtype(d)), axes), x, axes);
  Value safe = select(is0, ones, x);
  Value nonzero_product = spread(emit1(OpCode::ReduceProd, safe, AxesParams{axes}), x, axes);
  Value none = nonzero_product / safe;
  Value one = select(is0, nonzero_product, zeros);
  DType r = real_dtype(d);
  Value factor = select(compare(count, full(r, s, 0.0), CompareDir::Eq), none,
                        select(compare(count, full(r, s, 1.0), CompareDir::Eq), one, zeros));
  return reduce_sum(*a.dx[0] * factor, axes);
}

Tangent reduce_extremum_jvp(const JvpArgs& a) {
  if (!a.dx[0]) return std::nullopt;
  const Value& x = a.x[0];
  const Dims& axes = a.params<AxesParams>().axes;
  Value at_extremum = convert(compare(x, spread(a.y, x, axes), CompareDir::Eq), x.meta().dtype);
  Value count = reduce_sum(at_extremum, axes);
  return reduce_sum(*a.dx[0] * at_extremum, axes) / count;
}

void reduce_sum_t(const TransposeArgs& a, std::span<Tangent> out) {
  out[0] = spread(a.ct, a.x[0], a.params<AxesParams>().axes);
}

} // namespace tfe::ad::rules
