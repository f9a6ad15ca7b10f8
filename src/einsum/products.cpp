// tensordot, outer, kron and trace (products.hpp), instantiated for the four value types.
#include "einsum/products.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "ad/recording/recorded.hpp"
#include "core/error.hpp"
#include "dataflow/tensor/surface.hpp"
#include "eager/surface.hpp"
#include "einsum/einsum.hpp"
#include "einsum/unary_op.hpp"

namespace tfe::einsum {

namespace {

// The einsum letters in order: 52 distinct indices.
constexpr std::string_view kLetters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

void check_letters(size_t needed, size_t rank_a, size_t rank_b) {
  if (needed > kLetters.size())
    fail(Status::InvalidArgument,
         "ranks %zu and %zu need %zu distinct dims; at most %zu are supported", rank_a, rank_b,
         needed, kLetters.size());
}

template <class V> V pair(std::string_view subscripts, const V& a, const V& b, PlanCache* cache) {
  std::array<V, 2> in{a, b};
  return einsum<V>(subscripts, std::span<const V>(in), cache);
}

} // namespace

template <class V>
V tensordot(const V& a, const V& b, std::span<const int64_t> axes_a,
            std::span<const int64_t> axes_b, PlanCache* cache) {
  const Shape sa = meta_of(a).shape, sb = meta_of(b).shape;
  if (axes_a.size() != axes_b.size())
    fail(Status::InvalidArgument, "%zu axes of a but %zu of b", axes_a.size(), axes_b.size());
  check_letters(sa.size() + sb.size(), sa.size(), sb.size());
  std::string ta(sa.size(), ' '), tb(sb.size(), ' ');
  for (size_t d = 0; d < sa.size(); ++d) ta[d] = kLetters[d];
  for (size_t d = 0; d < sb.size(); ++d) tb[d] = kLetters[sa.size() + d];
  std::vector<bool> used_a(sa.size()), used_b(sb.size());
  for (size_t k = 0; k < axes_a.size(); ++k) {
    auto da = static_cast<size_t>(axes_a[k]), db = static_cast<size_t>(axes_b[k]);
    if (used_a[da] || used_b[db])
      fail(Status::InvalidArgument, "axis %lld of %s is listed twice",
           static_cast<long long>(used_a[da] ? axes_a[k] : axes_b[k]), used_a[da] ? "a" : "b");
    used_a[da] = used_b[db] = true;
    if (sa[da].is_const() && sb[db].is_const() && sa[da] != sb[db])
      fail(Status::ShapeMismatch, "axis %lld of a has extent %s but axis %lld of b has %s",
           static_cast<long long>(axes_a[k]), to_string(sa[da]).c_str(),
           static_cast<long long>(axes_b[k]), to_string(sb[db]).c_str());
    tb[db] = ta[da];
  }
  std::string out;
  for (size_t d = 0; d < sa.size(); ++d)
    if (!used_a[d]) out += ta[d];
  for (size_t d = 0; d < sb.size(); ++d)
    if (!used_b[d]) out += tb[d];
  return pair(ta + "," + tb + "->" + out, a, b, cache);
}

template <class V> V outer(const V& a, const V& b, PlanCache* cache) {
  size_t ra = meta_of(a).shape.size(), rb = meta_of(b).shape.size();
  check_letters(ra + rb, ra, rb);
  std::string ta(kLetters.substr(0, ra)), tb(kLetters.substr(ra, rb));
  return pair(ta + "," + tb + "->" + ta + tb, a, b, cache);
}

template <class V> V kron(const V& a, const V& b, PlanCache* cache) {
  Shape sa = meta_of(a).shape, sb = meta_of(b).shape;
  size_t rank = std::max(sa.size(), sb.size());
  check_letters(2 * rank, sa.size(), sb.size());
  V pa = a, pb = b;
  if (sa.size() < rank) {
    sa.resize(rank, Extent(1));
    pa = unary_op(ops::OpCode::Reshape, a, ops::ReshapeParams{sa});
  }
  if (sb.size() < rank) {
    sb.resize(rank, Extent(1));
    pb = unary_op(ops::OpCode::Reshape, b, ops::ReshapeParams{sb});
  }
  // Column-major: in each pair of output dims b's index comes first, so it varies fastest.
  std::string ta, tb, out;
  Shape merged;
  for (size_t d = 0; d < rank; ++d) {
    ta += kLetters[2 * d];
    tb += kLetters[2 * d + 1];
    out += kLetters[2 * d + 1];
    out += kLetters[2 * d];
    merged.push_back(sa[d] * sb[d]);
  }
  V product = pair(ta + "," + tb + "->" + out, pa, pb, cache);
  return unary_op(ops::OpCode::Reshape, product, ops::ReshapeParams{merged});
}

template <class V> V trace(const V& x, int64_t offset) {
  ops::Meta m = meta_of(x);
  if (m.shape.size() < 2)
    fail(Status::InvalidArgument, "x has rank %zu; the trace needs the two matrix dims",
         m.shape.size());
  V v = x;
  if (m.dtype == DType::Bool || m.dtype == DType::I32) v = eager::cast(v, DType::I64);
  if (offset != 0) {
    // Rows (offset < 0) or columns (offset > 0) before the diagonal's start are dropped; an
    // offset beyond the matrix leaves an empty diagonal, whose sum is 0.
    size_t dim = offset > 0 ? 1 : 0;
    Extent n = m.shape[dim];
    Extent skip(offset > 0 ? offset : -std::max(offset, -INT64_MAX));
    ops::SliceParams p;
    p.starts.assign(m.shape.size(), Extent(0));
    p.limits = m.shape;
    p.strides.assign(m.shape.size(), 1);
    p.starts[dim] = min_extent(skip, n);
    v = unary_op(ops::OpCode::Slice, v, p);
  }
  V diag = unary_op(ops::OpCode::ExtractDiag, v, ops::DiagParams{0, 1});
  return unary_op(ops::OpCode::ReduceSum, diag, ops::AxesParams{Dims{0}});
}

#define TFE_PRODUCT_INSTANCES(V)                                                                   \
  template V tensordot<V>(const V&, const V&, std::span<const int64_t>, std::span<const int64_t>,  \
                          PlanCache*);                                                             \
  template V outer<V>(const V&, const V&, PlanCache*);                                             \
  template V kron<V>(const V&, const V&, PlanCache*);                                              \
  template V trace<V>(const V&, int64_t);
TFE_PRODUCT_INSTANCES(Tensor)
TFE_PRODUCT_INSTANCES(graph::Value)
TFE_PRODUCT_INSTANCES(ad::recording::Recorded)
TFE_PRODUCT_INSTANCES(dataflow::TensorVar)
#undef TFE_PRODUCT_INSTANCES

} // namespace tfe::einsum
