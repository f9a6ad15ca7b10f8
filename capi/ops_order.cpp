// Entry points of running sums and products, sorting, top-k and arg-reductions
// (tenferro/ops_order.h). Scans, argsort and the arg-reductions are IR ops (ops/defs/order.hpp);
// sort and topk gather x with the argsort permutation, so their values differentiate in every
// engine through the gather's rules. Every computation is generic over the value type.
#include <algorithm>
#include <array>
#include <vector>

#include "capi/op_call.hpp"
#include "ops/shape_checks.hpp"

using namespace tfe;
using namespace tfe::capi;
using ops::OpCode;

namespace {

template <class V> V run1(OpCode op, const V& x, const ops::Params& p) {
  std::array<V, 1> in{x};
  return eager::call<V>(op, std::span<const V>(in), p);
}
template <class V> V run2(OpCode op, const V& a, const V& b, const ops::Params& p) {
  std::array<V, 2> in{a, b};
  return eager::call<V>(op, std::span<const V>(in), p);
}

template <class V> int64_t axis_of(const V& x, int64_t axis) {
  return normalize_axis(axis, rank_of(x));
}

// Bool and I32 accumulate in I64, as NumPy's cumsum and cumprod do.
template <class V> V scan(OpCode op, const V& x, int64_t axis) {
  int64_t a = axis_of(x, axis);
  DType d = meta_of(x).dtype;
  V v = (d == DType::Bool || d == DType::I32) ? eager::cast(x, DType::I64) : x;
  return run1(op, v, ops::AxisParams{a});
}

Dims concrete_extents(const Shape& s, const char* what) {
  Dims out;
  for (Extent e : s) {
    if (!e.is_const())
      fail(Status::NotSupported, "%s of shape %s: sorting needs concrete extents", what,
           ops::format_shape(s).c_str());
    out.push_back(e.value());
  }
  return out;
}

// x[..., idx[..., k, ...], ...] along axis (NumPy's take_along_axis): x viewed flat and gathered
// at lane base + idx * (stride of axis). idx has x's shape except, possibly, on axis.
template <class V> V take_along(const V& x, const V& idx, int64_t axis) {
  Dims xs = concrete_extents(meta_of(x).shape, "x");
  Dims is = concrete_extents(meta_of(idx).shape, "indices");
  // No element (idx has none either): the result is x reshaped. The loops below run over the
  // nominal extents, which beside a zero extent may be as long as 2^62 (a hang), and their
  // products may overflow.
  if (std::find(xs.begin(), xs.end(), 0) != xs.end()) {
    Shape empty;
    for (int64_t e : is) empty.push_back(Extent(e));
    return run1(OpCode::Reshape, x, ops::ReshapeParams{empty});
  }
  // The lane arithmetic below multiplies extents, which a traced tensor may declare far beyond
  // what memory holds: the element counts are checked first (overflow and element limit).
  (void)checked_numel(xs);
  (void)checked_numel(is);
  int64_t inner = 1, outer = 1, numel = 1;
  for (size_t d = 0; d < xs.size(); ++d) {
    numel *= xs[d];
    if (static_cast<int64_t>(d) < axis) inner *= xs[d];
    if (static_cast<int64_t>(d) > axis) outer *= xs[d];
  }
  int64_t extent = xs[static_cast<size_t>(axis)], k = is[static_cast<size_t>(axis)];
  // Each index's lane, i + inner * extent * o over [inner, k, outer], from two iotas: ops
  // without operands are made where the op runs, so the lanes are on x's device.
  Shape lanes{Extent(inner), Extent(k), Extent(outer)};
  const V* none = nullptr;
  V along_inner = eager::call<V>(OpCode::Iota, std::span<const V>(none, size_t{0}),
                                 ops::IotaParams{DType::I64, lanes, 0});
  V along_outer = eager::call<V>(OpCode::Iota, std::span<const V>(none, size_t{0}),
                                 ops::IotaParams{DType::I64, lanes, 2});
  Tensor block = Tensor::empty(DType::I64, {});
  *block.data<int64_t>() = inner * extent;
  V base =
      run2(OpCode::Add, along_inner, run2(OpCode::Mul, along_outer, literal(block, none), {}), {});
  Shape index_shape;
  for (int64_t e : is) index_shape.push_back(Extent(e));
  base = run1(OpCode::Reshape, base, ops::ReshapeParams{index_shape});
  Tensor stride = Tensor::empty(DType::I64, {});
  *stride.data<int64_t>() = inner;
  V flat_idx = run2(OpCode::Add, run2(OpCode::Mul, idx, literal(stride, none), {}), base, {});
  V flat_x = run1(OpCode::Reshape, x, ops::ReshapeParams{Shape{Extent(numel)}});
  return run2(OpCode::Gather, flat_x, flat_idx, ops::AxisParams{0});
}

template <class V> V argsort(const V& x, int64_t axis, bool descending) {
  DType d = meta_of(x).dtype;
  if (!ops::op_def(OpCode::Argsort).accepts.contains(d))
    fail(Status::DtypeMismatch, "x has dtype %s, which has no order (it accepts %s)",
         std::string(dtype_name(d)).c_str(),
         ops::dtype_list(ops::op_def(OpCode::Argsort).accepts).c_str());
  return run1(OpCode::Argsort, x, ops::SortParams{axis, descending});
}

template <class V> std::vector<V> topk(const V& x, int64_t k, int64_t axis, bool largest) {
  int64_t a = axis_of(x, axis);
  Shape s = meta_of(x).shape;
  Extent n = s[static_cast<size_t>(a)];
  if (k < 0 || (n.is_const() && k > n.value()))
    fail(Status::InvalidArgument, "k %lld is out of range for axis %lld of extent %s", (long long)k,
         (long long)axis, to_string(n).c_str());
  V idx = argsort(x, a, largest);
  ops::SliceParams p;
  p.starts.assign(s.size(), Extent(0));
  p.limits = s;
  p.limits[static_cast<size_t>(a)] = Extent(k);
  p.strides.assign(s.size(), 1);
  idx = run1(OpCode::Slice, idx, p);
  return {take_along(x, idx, a), idx};
}

template <class V> V arg_extremum(OpCode op, const V& x, int64_t axis) {
  int64_t a = axis_of(x, axis);
  Extent n = meta_of(x).shape[static_cast<size_t>(a)];
  if (n.is_const() && n.value() == 0)
    fail(Status::InvalidArgument, "axis %lld has extent 0: an empty axis has no %s",
         (long long)axis, op == OpCode::Argmax ? "maximum" : "minimum");
  DType d = meta_of(x).dtype;
  if (!ops::op_def(op).accepts.contains(d))
    fail(Status::DtypeMismatch, "x has dtype %s, which has no order (it accepts %s)",
         std::string(dtype_name(d)).c_str(), ops::dtype_list(ops::op_def(op).accepts).c_str());
  return run1(op, x, ops::AxisParams{a});
}

} // namespace

extern "C" {

tfe_status tfe_cumsum(tfe_tensor** out, const tfe_tensor* x, int64_t axis) {
  return op_call(
      "tfe_cumsum", out, [&](const auto& v) { return scan(OpCode::Cumsum, v, axis); }, Arg{x, "x"});
}

tfe_status tfe_cumprod(tfe_tensor** out, const tfe_tensor* x, int64_t axis) {
  return op_call(
      "tfe_cumprod", out, [&](const auto& v) { return scan(OpCode::Cumprod, v, axis); },
      Arg{x, "x"});
}

tfe_status tfe_argsort(tfe_tensor** out, const tfe_tensor* x, int64_t axis, int32_t descending) {
  return op_call(
      "tfe_argsort", out,
      [&](const auto& v) { return argsort(v, axis_of(v, axis), descending != 0); }, Arg{x, "x"});
}

tfe_status tfe_sort(tfe_tensor** out, const tfe_tensor* x, int64_t axis, int32_t descending) {
  return op_call(
      "tfe_sort", out,
      [&](const auto& v) {
        int64_t a = axis_of(v, axis);
        return take_along(v, argsort(v, a, descending != 0), a);
      },
      Arg{x, "x"});
}

tfe_status tfe_topk(tfe_tensor** values, tfe_tensor** indices, const tfe_tensor* x, int64_t k,
                    int64_t axis, int32_t largest) {
  return op_call_outputs(
      "tfe_topk", std::array<Out, 2>{Out{values, "values"}, Out{indices, "indices"}},
      [&](const auto& v) { return topk(v, k, axis, largest != 0); }, Arg{x, "x"});
}

tfe_status tfe_argmax(tfe_tensor** out, const tfe_tensor* x, int64_t axis) {
  return op_call(
      "tfe_argmax", out, [&](const auto& v) { return arg_extremum(OpCode::Argmax, v, axis); },
      Arg{x, "x"});
}

tfe_status tfe_argmin(tfe_tensor** out, const tfe_tensor* x, int64_t axis) {
  return op_call(
      "tfe_argmin", out, [&](const auto& v) { return arg_extremum(OpCode::Argmin, v, axis); },
      Arg{x, "x"});
}

} // extern "C"
