// Samples and reference results of the reductions (src/ops/defs/reduce.hpp).
#include <cmath>
#include <limits>

#include "op_samples/op_samples.hpp"

namespace tfe::testing {
namespace {

using ops::AxesParams;
using ops::OpCode;

Tensor reduce_reference(OpCode op, const Sample& s, const ops::ConcreteMeta& out) {
  const Tensor& x = s.inputs[0];
  Dims axes = std::get<AxesParams>(s.params).axes;
  std::sort(axes.begin(), axes.end());
  Dims kept, rshape;
  for (int64_t d = 0; d < x.ndim(); ++d) {
    if (std::find(axes.begin(), axes.end(), d) == axes.end())
      kept.push_back(d);
    else
      rshape.push_back(x.dim(d));
  }
  auto full_index = [&](const Dims& oi, const Dims& ri) {
    Dims xi(static_cast<size_t>(x.ndim()));
    for (size_t i = 0; i < kept.size(); ++i) xi[static_cast<size_t>(kept[i])] = oi[i];
    for (size_t i = 0; i < axes.size(); ++i) xi[static_cast<size_t>(axes[i])] = ri[i];
    return xi;
  };
  if (!is_inexact(out.dtype)) {
    return build_int(out, [&](const Dims& oi) {
      int64_t acc = op == OpCode::ReduceSum    ? 0
                    : op == OpCode::ReduceProd ? 1
                    : op == OpCode::ReduceMax
                        ? (out.dtype == DType::Bool  ? 0
                           : out.dtype == DType::I32 ? std::numeric_limits<int32_t>::min()
                                                     : std::numeric_limits<int64_t>::min())
                        : (out.dtype == DType::Bool  ? 1
                           : out.dtype == DType::I32 ? std::numeric_limits<int32_t>::max()
                                                     : std::numeric_limits<int64_t>::max());
      for_each_index(rshape, [&](const Dims& ri) {
        int64_t v = int_at(x, full_index(oi, ri));
        if (op == OpCode::ReduceSum)
          acc = wrap_to(out.dtype, static_cast<int64_t>(static_cast<uint64_t>(acc) +
                                                        static_cast<uint64_t>(v)));
        else if (op == OpCode::ReduceProd)
          acc = wrap_to(out.dtype, static_cast<int64_t>(static_cast<uint64_t>(acc) *
                                                        static_cast<uint64_t>(v)));
        else if (op == OpCode::ReduceMax)
          acc = std::max(acc, v);
        else
          acc = std::min(acc, v);
      });
      return acc;
    });
  }
  return build(out, [&](const Dims& oi) {
    const double inf = std::numeric_limits<double>::infinity();
    Scalar acc = op == OpCode::ReduceSum    ? 0.0
                 : op == OpCode::ReduceProd ? 1.0
                 : op == OpCode::ReduceMax  ? -inf
                                            : inf;
    bool nan = false;
    for_each_index(rshape, [&](const Dims& ri) {
      Scalar v = value_at(x, full_index(oi, ri));
      if (op == OpCode::ReduceSum)
        acc += v;
      else if (op == OpCode::ReduceProd)
        acc *= v;
      else {
        nan |= std::isnan(v.real());
        acc = op == OpCode::ReduceMax ? std::max(acc.real(), v.real())
                                      : std::min(acc.real(), v.real());
      }
    });
    return nan ? Scalar(std::numeric_limits<double>::quiet_NaN()) : acc;
  });
}

} // namespace

std::optional<OpSamples> reduce_samples(OpCode op) {
  if (ops::op_def(op).group != ops::OpGroup::Reduce) return std::nullopt;
  OpSamples s;
  s.make = [op](DType d) {
    Domain dom = op == OpCode::ReduceProd ? Domain::Unit : Domain::Any;
    auto t = [&](Dims shape, uint64_t seed) { return random_tensor(d, shape, seed, dom); };
    std::vector<Sample> v;
    v.push_back({"all_of_rank0", {t({}, 1)}, AxesParams{{}}});
    v.push_back({"all", {t({4, 3, 2}, 2)}, AxesParams{{0, 1, 2}}});
    v.push_back({"inner", {t({5, 3}, 3)}, AxesParams{{0}}});
    v.push_back({"outer", {t({5, 3}, 4)}, AxesParams{{1}}});
    v.push_back({"middle", {t({2, 3, 4}, 5)}, AxesParams{{1}}});
    v.push_back({"two_axes", {t({2, 3, 4}, 6)}, AxesParams{{2, 0}}});
    v.push_back({"none", {t({3, 2}, 7)}, AxesParams{{}}});
    v.push_back({"empty_reduced", {t({0, 3}, 8)}, AxesParams{{0}}});
    v.push_back({"empty_kept", {t({3, 0}, 9)}, AxesParams{{0}}});
    // Large enough to take the chunked (threaded) paths of the kernel (products would underflow).
    if (op == OpCode::ReduceProd) return v;
    v.push_back({"large_all", {t({70001}, 10)}, AxesParams{{0}}});
    v.push_back({"large_outer", {t({3, 40000}, 11)}, AxesParams{{1}}});
    v.push_back({"large_inner", {t({40000, 3}, 12)}, AxesParams{{0}}});
    return v;
  };
  s.reference = [op](const Sample& smp, const ops::ConcreteMeta& out) {
    return reduce_reference(op, smp, out);
  };
  s.rtol_scale = 100;
  s.layout_exact = false;
  s.errors = [] {
    Tensor x = Tensor::zeros(DType::F64, {2, 3});
    return std::vector<ErrorSample>{
        {"C1", {x}, AxesParams{{2}}, Status::InvalidArgument, "axes 2 is out of range for rank 2"},
        {"C1", {x}, AxesParams{{1, 1}}, Status::InvalidArgument, "twice"},
        {"C1", {x}, AxesParams{{-1}}, Status::InvalidArgument, "out of range"},
    };
  };
  return s;
}

} // namespace tfe::testing
