// Samples and reference results of the order group (src/ops/defs/order.hpp): running sums and
// products, argsort and the arg-reductions. The references walk each lane element by element.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

#include "op_samples/op_samples.hpp"

namespace tfe::testing {
namespace {

using ops::AxisParams;
using ops::OpCode;
using ops::SortParams;

int64_t axis_of(const ops::Params& p) {
  if (const auto* s = std::get_if<SortParams>(&p)) return s->axis;
  return std::get<AxisParams>(p).axis;
}

// The values of the lane through idx (idx[axis] is ignored).
std::vector<Scalar> lane(const Tensor& x, Dims idx, size_t axis) {
  std::vector<Scalar> v;
  for (int64_t k = 0; k < x.dim(static_cast<int64_t>(axis)); ++k) {
    idx[axis] = k;
    v.push_back(value_at(x, idx));
  }
  return v;
}

Tensor scan_reference(OpCode op, const Sample& s, const ops::ConcreteMeta& out) {
  const Tensor& x = s.inputs[0];
  size_t axis = static_cast<size_t>(axis_of(s.params));
  bool sum = op == OpCode::Cumsum;
  if (!is_inexact(out.dtype))
    return build_int(out, [&](const Dims& oi) {
      Dims xi = oi;
      uint64_t acc = sum ? 0 : 1;
      for (int64_t k = 0; k <= oi[axis]; ++k) {
        xi[axis] = k;
        auto v = static_cast<uint64_t>(int_at(x, xi));
        acc = sum ? acc + v : acc * v;
      }
      return wrap_to(out.dtype, static_cast<int64_t>(acc));
    });
  return build(out, [&](const Dims& oi) {
    Dims xi = oi;
    Scalar acc = sum ? 0.0 : 1.0;
    for (int64_t k = 0; k <= oi[axis]; ++k) {
      xi[axis] = k;
      acc = sum ? acc + value_at(x, xi) : acc * value_at(x, xi);
    }
    return acc;
  });
}

// Stable order of a lane: numbers ascending (or descending), NaN last.
std::vector<int64_t> lane_order(const std::vector<Scalar>& v, bool descending) {
  std::vector<int64_t> order(v.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    double x = v[static_cast<size_t>(a)].real(), y = v[static_cast<size_t>(b)].real();
    if (std::isnan(x) || std::isnan(y)) return !std::isnan(x) && std::isnan(y);
    return descending ? y < x : x < y;
  });
  return order;
}

Tensor argsort_reference(const Sample& s, const ops::ConcreteMeta& out) {
  const auto& p = std::get<SortParams>(s.params);
  size_t axis = static_cast<size_t>(p.axis);
  std::map<std::vector<int64_t>, std::vector<int64_t>> orders; // one sort per lane
  return build_int(out, [&](const Dims& oi) {
    std::vector<int64_t> key(oi.begin(), oi.end());
    key[axis] = 0;
    auto it = orders.find(key);
    if (it == orders.end())
      it = orders.emplace(key, lane_order(lane(s.inputs[0], oi, axis), p.descending)).first;
    return it->second[static_cast<size_t>(oi[axis])];
  });
}

Tensor arg_extremum_reference(OpCode op, const Sample& s, const ops::ConcreteMeta& out) {
  size_t axis = static_cast<size_t>(axis_of(s.params));
  return build_int(out, [&](const Dims& oi) {
    Dims xi = oi;
    xi.insert(xi.begin() + static_cast<std::ptrdiff_t>(axis), 0);
    std::vector<Scalar> v = lane(s.inputs[0], xi, axis);
    int64_t best = 0;
    for (size_t k = 0; k < v.size(); ++k) {
      double a = v[k].real(), b = v[static_cast<size_t>(best)].real();
      if (std::isnan(b)) break;
      if (std::isnan(a) || (op == OpCode::Argmax ? a > b : a < b)) best = static_cast<int64_t>(k);
    }
    return best;
  });
}

std::vector<Sample> scan_samples(OpCode op, DType d) {
  bool prod = op == OpCode::Cumprod;
  Domain dom = prod ? Domain::Unit : Domain::Any;
  auto t = [&](Dims shape, uint64_t seed) { return random_tensor(d, shape, seed, dom); };
  std::vector<Sample> v;
  v.push_back({"vector", {t({6}, 1)}, AxisParams{0}});
  v.push_back({"inner", {t({5, 3}, 2)}, AxisParams{0}});
  v.push_back({"outer", {t({5, 3}, 3)}, AxisParams{1}});
  v.push_back({"middle", {t({2, 4, 3}, 4)}, AxisParams{1}});
  v.push_back({"empty_lane", {t({0, 3}, 5)}, AxisParams{0}});
  v.push_back({"empty_other", {t({3, 0}, 6)}, AxisParams{0}});
  if (prod && is_inexact(d)) {
    // The derivative with zeros in a lane: one zero, two zeros, a zero first.
    v.push_back({"one_zero", {tensor_of(d, {5}, {0.5, -0.7, 0, 0.8, 0.6})}, AxisParams{0}});
    v.push_back({"two_zeros", {tensor_of(d, {6}, {0.5, 0, -0.7, 0, 0.8, 0.6})}, AxisParams{0}});
    v.push_back({"zero_first",
                 {tensor_of(d, {4, 2}, {0, 0.5, 0.3, 0, -0.6, 0.9, 0.7, 0.4})},
                 AxisParams{0}});
  }
  if (!prod) {
    // Large enough to split over threads.
    v.push_back({"large_lanes", {t({3, 50000}, 7)}, AxisParams{0}});
    v.push_back({"large_rows", {t({40000, 3}, 8)}, AxisParams{1}});
  }
  return v;
}

std::vector<Sample> sort_samples(OpCode op, DType d) {
  auto t = [&](Dims shape, uint64_t seed) { return random_tensor(d, shape, seed); };
  auto params = [&](int64_t axis, bool desc) -> ops::Params {
    if (op == OpCode::Argsort) return SortParams{axis, desc};
    return AxisParams{axis};
  };
  std::vector<Sample> v;
  for (bool desc : {false, true}) {
    if (op != OpCode::Argsort && desc) break;
    std::string tag = desc ? "_descending" : "";
    v.push_back({"vector" + tag, {t({7}, 1)}, params(0, desc)});
    v.push_back({"inner" + tag, {t({5, 3}, 2)}, params(0, desc)});
    v.push_back({"outer" + tag, {t({5, 3}, 3)}, params(1, desc)});
    v.push_back({"middle" + tag, {t({2, 4, 3}, 4)}, params(1, desc)});
    // Ties (Bool has only two values anyway): the order must be stable.
    Dims tie_shape{9, 2};
    std::vector<double> ties;
    for (int i = 0; i < 18; ++i) ties.push_back(d == DType::Bool ? i % 2 : (i * 7) % 3);
    v.push_back({"ties" + tag, {tensor_of(d, tie_shape, ties)}, params(0, desc)});
    if (is_inexact(d)) {
      double nan = std::numeric_limits<double>::quiet_NaN(),
             inf = std::numeric_limits<double>::infinity();
      v.push_back({"nan_inf" + tag,
                   {tensor_of(d, {7}, {1.0, nan, -inf, 2.0, nan, inf, -0.0})},
                   params(0, desc)});
    }
    if (op != OpCode::Argsort || !desc)
      v.push_back({"empty_other" + tag, {t({4, 0}, 5)}, params(0, desc)});
    if (op == OpCode::Argsort) v.push_back({"empty_lane" + tag, {t({0, 3}, 6)}, params(0, desc)});
    v.push_back({"many_lanes" + tag, {t({40, 2000}, 7)}, params(0, desc)});
  }
  return v;
}

} // namespace

std::optional<OpSamples> order_samples(OpCode op) {
  if (ops::op_def(op).group != ops::OpGroup::Order) return std::nullopt;
  OpSamples s;
  bool scan = op == OpCode::Cumsum || op == OpCode::Cumprod;
  s.make = [op, scan](DType d) { return scan ? scan_samples(op, d) : sort_samples(op, d); };
  s.reference = [op](const Sample& smp, const ops::ConcreteMeta& out) {
    if (op == OpCode::Cumsum || op == OpCode::Cumprod) return scan_reference(op, smp, out);
    if (op == OpCode::Argsort) return argsort_reference(smp, out);
    return arg_extremum_reference(op, smp, out);
  };
  s.rtol_scale = 100;
  s.errors = [op] {
    Tensor x = Tensor::zeros(DType::F64, {2, 3});
    ops::Params bad =
        op == OpCode::Argsort ? ops::Params{SortParams{2, false}} : ops::Params{AxisParams{2}};
    ops::Params negative =
        op == OpCode::Argsort ? ops::Params{SortParams{-1, true}} : ops::Params{AxisParams{-1}};
    return std::vector<ErrorSample>{
        {"C1", {x}, bad, Status::InvalidArgument, "axis 2 is out of range for rank 2"},
        {"C1", {x}, negative, Status::InvalidArgument, "out of range"},
    };
  };
  return s;
}

} // namespace tfe::testing
