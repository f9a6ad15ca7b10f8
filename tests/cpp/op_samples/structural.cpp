// Samples and reference results of the structural group (src/ops/defs/structural.hpp).
#include <cmath>
#include <limits>
#include <stdexcept>

#include "op_samples/op_samples.hpp"

namespace tfe::testing {
namespace {

using ops::OpCode;

// out[oi] = src[si] where `at` fills si and returns true, else zero. Integers and Bool go through
// int64 so that large I64 values survive exactly.
Tensor remap(const Tensor& src, const ops::ConcreteMeta& out,
             const std::function<bool(const Dims&, Dims&)>& at) {
  Dims si(src.shape().size());
  if (is_inexact(out.dtype))
    return build(out, [&](const Dims& oi) { return at(oi, si) ? value_at(src, si) : Scalar(0); });
  return build_int(out, [&](const Dims& oi) { return at(oi, si) ? int_at(src, si) : int64_t{0}; });
}

int64_t linear_index(const Dims& idx, const Dims& shape) {
  int64_t lin = 0, stride = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    lin += idx[d] * stride;
    stride *= shape[d];
  }
  return lin;
}

Tensor complex_tensor(DType d, const Dims& shape, const std::vector<Scalar>& values) {
  Tensor t = Tensor::empty(d, shape);
  size_t i = 0;
  for_each_index(shape, [&](const Dims& idx) { set_value(t, idx, values.at(i++)); });
  return t;
}

// Values that hit every branch of the cast rules: truncation, saturation, NaN, inf, signed zero,
// complex parts that are zero on one side only, and integers outside the I32 range.
Tensor convert_specials(DType d) {
  const double inf = std::numeric_limits<double>::infinity(),
               nan = std::numeric_limits<double>::quiet_NaN();
  if (d == DType::Bool) return int_tensor(d, {4}, {0, 1, 1, 0});
  if (d == DType::I32)
    return int_tensor(d, {8},
                      {0, 1, -1, 7, -9, std::numeric_limits<int32_t>::max(),
                       std::numeric_limits<int32_t>::min(), 100000});
  if (d == DType::I64)
    return int_tensor(d, {12},
                      {0, 1, -1, -9, (int64_t{1} << 32) + 5, -(int64_t{1} << 31) - 1,
                       int64_t{1} << 31, (int64_t{1} << 40) + 3,
                       std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min(),
                       std::numeric_limits<int32_t>::max(), -123456789012});
  if (is_complex(d))
    return complex_tensor(d, {10},
                          {{1.5, 2.0},
                           {-2.7, 0.0},
                           {0.0, 0.0},
                           {0.0, -0.0},
                           {0.0, 3.0},
                           {nan, 1.0},
                           {3e9, 1.0},
                           {-1e19, 0.0},
                           {-0.0, 0.0},
                           {inf, -inf}});
  return tensor_of(d, {18},
                   {0.0, -0.0, 1.5, -1.5, 2.7, -2.7, 0.5, -0.99, nan, inf, -inf, 3e9, -3e9, 1e19,
                    -1e19, 123456.75, 2147483520.0, -2147483648.0});
}

// Float -> integer: truncate toward zero, saturate at the bounds, NaN -> 0. The bounds are the
// exact powers of two so that the comparison is exact in double.
int64_t float_to_int(double v, DType to) {
  if (std::isnan(v)) return 0;
  double lim = to == DType::I32 ? 2147483648.0 : 9223372036854775808.0;
  if (v >= lim)
    return to == DType::I32 ? std::numeric_limits<int32_t>::max()
                            : std::numeric_limits<int64_t>::max();
  if (v <= -lim)
    return to == DType::I32 ? std::numeric_limits<int32_t>::min()
                            : std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(std::trunc(v));
}

Tensor convert_reference(const Sample& s, const ops::ConcreteMeta& out) {
  const Tensor& x = s.inputs[0];
  DType from = x.dtype(), to = out.dtype;
  if (!is_inexact(to))
    return build_int(out, [&](const Dims& i) -> int64_t {
      if (to == DType::Bool)
        return is_inexact(from) ? value_at(x, i) != Scalar(0) : int_at(x, i) != 0;
      if (is_inexact(from)) return float_to_int(value_at(x, i).real(), to);
      // Integer narrowing wraps modulo 2^32.
      int64_t v = int_at(x, i);
      return to == DType::I32 ? static_cast<int32_t>(
                                    static_cast<uint32_t>(static_cast<uint64_t>(v) & 0xffffffffu))
                              : v;
    });
  return build(out, [&](const Dims& i) -> Scalar {
    if (!is_inexact(from)) return static_cast<double>(int_at(x, i));
    Scalar v = value_at(x, i);
    return is_complex(to) ? v : Scalar(v.real());
  });
}

std::vector<Sample> make_samples(OpCode op, DType d) {
  auto t = [&](Dims shape, uint64_t seed) { return random_tensor(d, shape, seed); };
  std::vector<Sample> v;
  switch (op) {
  case OpCode::Transpose:
    v.push_back({"rank0", {t({}, 1)}, ops::TransposeParams{{}}});
    v.push_back({"identity", {t({3, 2}, 2)}, ops::TransposeParams{{0, 1}}});
    v.push_back({"matrix", {t({3, 4}, 3)}, ops::TransposeParams{{1, 0}}});
    v.push_back({"rank3", {t({2, 3, 4}, 4)}, ops::TransposeParams{{2, 0, 1}}});
    v.push_back({"zero_extent", {t({0, 3, 2}, 5)}, ops::TransposeParams{{1, 2, 0}}});
    v.push_back({"batched", {t({2, 1, 3, 2}, 6)}, ops::TransposeParams{{3, 1, 0, 2}}});
    break;
  case OpCode::Reshape: {
    v.push_back({"rank0_to_ones", {t({}, 1)}, ops::ReshapeParams{{1, 1}}});
    v.push_back({"one_to_rank0", {t({1}, 2)}, ops::ReshapeParams{{}}});
    v.push_back({"flatten", {t({3, 4}, 3)}, ops::ReshapeParams{{12}}});
    v.push_back({"merge_leading", {t({2, 3, 4}, 4)}, ops::ReshapeParams{{6, 4}}});
    v.push_back({"regroup", {t({2, 3, 4}, 5)}, ops::ReshapeParams{{4, 3, 2}}});
    v.push_back({"zero_extent", {t({0, 3}, 6)}, ops::ReshapeParams{{3, 0, 5}}});
    // A transposed or reversed operand cannot be flattened by a view: the kernel must copy.
    v.push_back(
        {"transposed_not_view", {t({3, 4}, 7).permuted(Dims{1, 0})}, ops::ReshapeParams{{12}}});
    v.push_back(
        {"reversed_not_view", {t({4, 3}, 8).reversed(Dims{0})}, ops::ReshapeParams{{2, 6}}});
    // Non-compact operands whose layout does allow a view, and stride-0 (broadcast) operands.
    v.push_back({"strided_view",
                 {t({4, 6}, 9).sliced(Dims{0, 0}, Dims{4, 6}, Dims{1, 2})},
                 ops::ReshapeParams{{2, 2, 3}}});
    v.push_back({"broadcast_split",
                 {t({3}, 10).broadcast_view({3, 4}, Dims{0})},
                 ops::ReshapeParams{{3, 2, 2}}});
    v.push_back(
        {"broadcast_flat", {t({3}, 11).broadcast_view({3, 4}, Dims{0})}, ops::ReshapeParams{{12}}});
    break;
  }
  case OpCode::BroadcastInDim:
    v.push_back({"rank0", {t({}, 1)}, ops::BroadcastInDimParams{{3, 2}, {}}});
    v.push_back({"column", {t({3}, 2)}, ops::BroadcastInDimParams{{3, 4}, {0}}});
    v.push_back({"row", {t({4}, 3)}, ops::BroadcastInDimParams{{3, 4}, {1}}});
    v.push_back({"extent_one", {t({1, 4}, 4)}, ops::BroadcastInDimParams{{3, 4, 2}, {0, 1}}});
    v.push_back({"permuting", {t({2, 3}, 5)}, ops::BroadcastInDimParams{{3, 5, 2}, {2, 0}}});
    v.push_back({"identity", {t({2, 3}, 6)}, ops::BroadcastInDimParams{{2, 3}, {0, 1}}});
    v.push_back({"zero_extent", {t({0}, 7)}, ops::BroadcastInDimParams{{0, 3}, {0}}});
    v.push_back({"one_to_zero", {t({1}, 8)}, ops::BroadcastInDimParams{{0}, {0}}});
    break;
  case OpCode::Convert:
    for (DType to : kAllDTypes) {
      std::string name(dtype_name(to));
      v.push_back({"specials_to_" + name, {convert_specials(d)}, ops::ConvertParams{to}});
      v.push_back({"rank0_to_" + name, {t({}, 1)}, ops::ConvertParams{to}});
      v.push_back({"batched_to_" + name, {t({2, 3, 2}, 2)}, ops::ConvertParams{to}});
    }
    v.push_back({"zero_extent", {t({0, 2}, 3)}, ops::ConvertParams{DType::F64}});
    break;
  case OpCode::Reverse:
    v.push_back({"rank0", {t({}, 1)}, ops::AxesParams{{}}});
    v.push_back({"vector", {t({5}, 2)}, ops::AxesParams{{0}}});
    v.push_back({"columns", {t({3, 4}, 3)}, ops::AxesParams{{1}}});
    v.push_back({"both", {t({3, 4}, 4)}, ops::AxesParams{{0, 1}}});
    v.push_back({"batched", {t({2, 3, 4}, 5)}, ops::AxesParams{{2, 0}}});
    v.push_back({"zero_extent", {t({0, 3}, 6)}, ops::AxesParams{{0, 1}}});
    v.push_back({"none", {t({3, 2}, 7)}, ops::AxesParams{{}}});
    break;
  case OpCode::ExtractDiag:
    v.push_back({"square", {t({3, 3}, 1)}, ops::DiagParams{0, 1}});
    v.push_back({"wide", {t({3, 5}, 2)}, ops::DiagParams{0, 1}});
    v.push_back({"tall", {t({4, 2}, 3)}, ops::DiagParams{0, 1}});
    v.push_back({"b_before_a", {t({3, 4}, 4)}, ops::DiagParams{1, 0}});
    v.push_back({"batched", {t({3, 3, 2}, 5)}, ops::DiagParams{0, 1}});
    v.push_back({"outer_axes", {t({2, 3, 4}, 6)}, ops::DiagParams{2, 0}});
    v.push_back({"zero_extent", {t({0, 3}, 7)}, ops::DiagParams{0, 1}});
    v.push_back({"zero_batch", {t({3, 3, 0}, 8)}, ops::DiagParams{0, 1}});
    break;
  case OpCode::EmbedDiag:
    v.push_back({"vector", {t({3}, 1)}, ops::DiagParams{0, 1}});
    v.push_back({"b_before_a", {t({3}, 2)}, ops::DiagParams{1, 0}});
    v.push_back({"batched", {t({3, 2}, 3)}, ops::DiagParams{0, 1}});
    v.push_back({"outer_b_before_a", {t({2, 4}, 4)}, ops::DiagParams{2, 0}});
    v.push_back({"inner_axes", {t({3, 2}, 5)}, ops::DiagParams{1, 2}});
    v.push_back({"zero_extent", {t({0}, 6)}, ops::DiagParams{0, 1}});
    v.push_back({"zero_batch", {t({3, 0}, 7)}, ops::DiagParams{0, 1}});
    break;
  case OpCode::Tril:
  case OpCode::Triu:
    for (int64_t k : {-1, 0, 2}) {
      std::string ks = std::to_string(k);
      v.push_back({"wide_k" + ks, {t({3, 5}, 1)}, ops::TriangleParams{k}});
      v.push_back({"tall_k" + ks, {t({5, 3}, 2)}, ops::TriangleParams{k}});
    }
    v.push_back({"batched", {t({4, 4, 2}, 3)}, ops::TriangleParams{0}});
    v.push_back({"batched_k-1", {t({4, 3, 2}, 4)}, ops::TriangleParams{-1}});
    v.push_back({"k_beyond", {t({3, 4}, 5)}, ops::TriangleParams{10}});
    v.push_back({"k_below", {t({3, 4}, 6)}, ops::TriangleParams{-10}});
    v.push_back({"zero_rows", {t({0, 3}, 7)}, ops::TriangleParams{0}});
    v.push_back({"zero_cols", {t({3, 0, 2}, 8)}, ops::TriangleParams{1}});
    v.push_back({"broadcast_operand",
                 {t({3}, 9).broadcast_view({3, 3, 2}, Dims{0})},
                 ops::TriangleParams{0}});
    break;
  case OpCode::Transfer: // host to host here; across devices in the device suites
    v.push_back({"rank0", {t({}, 1)}, ops::TransferParams{}});
    v.push_back({"batched", {t({2, 3, 2}, 2)}, ops::TransferParams{}});
    v.push_back({"strided", {t({4, 3}, 3).permuted(Dims{1, 0})}, ops::TransferParams{}});
    v.push_back({"zero_extent", {t({0, 2}, 4)}, ops::TransferParams{}});
    break;
  case OpCode::Iota:
    v.push_back({"vector", {}, ops::IotaParams{d, {5}, 0}});
    v.push_back({"rows", {}, ops::IotaParams{d, {3, 4}, 0}});
    v.push_back({"cols", {}, ops::IotaParams{d, {3, 4}, 1}});
    v.push_back({"batched", {}, ops::IotaParams{d, {2, 3, 4}, 2}});
    v.push_back({"zero_other", {}, ops::IotaParams{d, {0, 3}, 1}});
    v.push_back({"zero_axis", {}, ops::IotaParams{d, {3, 0}, 1}});
    v.push_back({"one", {}, ops::IotaParams{d, {1}, 0}});
    break;
  default: break;
  }
  return v;
}

Tensor reference(OpCode op, const Sample& s, const ops::ConcreteMeta& out) {
  if (op == OpCode::Iota) {
    int64_t axis = std::get<ops::IotaParams>(s.params).axis;
    size_t a = static_cast<size_t>(axis);
    if (is_inexact(out.dtype))
      return build(out, [&](const Dims& i) { return Scalar(static_cast<double>(i[a])); });
    return build_int(out, [&](const Dims& i) { return i[a]; });
  }
  if (op == OpCode::Convert) return convert_reference(s, out);
  const Tensor& x = s.inputs[0];
  const Dims& xs = x.shape();
  switch (op) {
  case OpCode::Transfer:
    return remap(x, out, [&](const Dims& oi, Dims& si) {
      si = oi;
      return true;
    });
  case OpCode::Transpose: {
    const Dims& perm = std::get<ops::TransposeParams>(s.params).perm;
    return remap(x, out, [&](const Dims& oi, Dims& si) {
      for (size_t i = 0; i < perm.size(); ++i) si[static_cast<size_t>(perm[i])] = oi[i];
      return true;
    });
  }
  case OpCode::Reshape:
    return remap(x, out, [&](const Dims& oi, Dims& si) {
      int64_t lin = linear_index(oi, out.shape);
      for (size_t d = 0; d < xs.size(); ++d) {
        si[d] = lin % xs[d];
        lin /= xs[d];
      }
      return true;
    });
  case OpCode::BroadcastInDim: {
    const Dims& dims = std::get<ops::BroadcastInDimParams>(s.params).dims;
    return remap(x, out, [&](const Dims& oi, Dims& si) {
      for (size_t i = 0; i < xs.size(); ++i)
        si[i] = xs[i] == 1 ? 0 : oi[static_cast<size_t>(dims[i])];
      return true;
    });
  }
  case OpCode::Reverse: {
    const Dims& axes = std::get<ops::AxesParams>(s.params).axes;
    return remap(x, out, [&](const Dims& oi, Dims& si) {
      si = oi;
      for (int64_t a : axes)
        si[static_cast<size_t>(a)] = xs[static_cast<size_t>(a)] - 1 - oi[static_cast<size_t>(a)];
      return true;
    });
  }
  case OpCode::ExtractDiag: {
    const auto& p = std::get<ops::DiagParams>(s.params);
    return remap(x, out, [&](const Dims& oi, Dims& si) {
      size_t j = 0;
      for (size_t d = 0; d < xs.size(); ++d)
        if (static_cast<int64_t>(d) != p.axis_b) si[d] = oi[j++];
      si[static_cast<size_t>(p.axis_b)] = si[static_cast<size_t>(p.axis_a)];
      return true;
    });
  }
  case OpCode::EmbedDiag: {
    const auto& p = std::get<ops::DiagParams>(s.params);
    return remap(x, out, [&](const Dims& oi, Dims& si) {
      if (oi[static_cast<size_t>(p.axis_a)] != oi[static_cast<size_t>(p.axis_b)]) return false;
      size_t j = 0;
      for (size_t d = 0; d < oi.size(); ++d)
        if (static_cast<int64_t>(d) != p.axis_b) si[j++] = oi[d];
      return true;
    });
  }
  case OpCode::Tril:
  case OpCode::Triu: {
    int64_t k = std::get<ops::TriangleParams>(s.params).k;
    bool lower = op == OpCode::Tril;
    return remap(x, out, [&](const Dims& oi, Dims& si) {
      si = oi;
      int64_t diff = oi[1] - oi[0];
      return lower ? diff <= k : diff >= k;
    });
  }
  default: throw std::logic_error("no structural reference");
  }
}

std::vector<ErrorSample> make_errors(OpCode op) {
  Tensor m = Tensor::zeros(DType::F64, {2, 3});
  Tensor vec = Tensor::zeros(DType::F64, {3});
  Tensor s0 = Tensor::zeros(DType::F64, {});
  const int64_t big = int64_t{1} << 40;
  switch (op) {
  case OpCode::Transpose:
    return {
        {"C1",
         {m},
         ops::TransposeParams{{0, 0}},
         Status::InvalidArgument,
         "perm [0,0] is not a permutation of 0..1"},
        {"C1", {m}, ops::TransposeParams{{0}}, Status::InvalidArgument, "is not a permutation"},
        {"C1", {m}, ops::TransposeParams{{0, 2}}, Status::InvalidArgument, "is not a permutation"}};
  case OpCode::Reshape:
    return {
        {"C1", {m}, ops::ReshapeParams{{-1, 6}}, Status::InvalidArgument, "negative extent"},
        {"C1", {m}, ops::ReshapeParams{{big, big}}, Status::Numerical, "more than 2^63-1 elements"},
        {"C2",
         {m},
         ops::ReshapeParams{{4}},
         Status::ShapeMismatch,
         "cannot reshape [2,3] (6 elements) to [4]"}};
  case OpCode::BroadcastInDim:
    return {
        {"C1",
         {vec},
         ops::BroadcastInDimParams{{3, 2}, {}},
         Status::ShapeMismatch,
         "has 0 entries but the operand [3] has rank 1"},
        {"C2",
         {vec},
         ops::BroadcastInDimParams{{3, 2}, {2}},
         Status::InvalidArgument,
         "dims 2 is out of range for rank 2"},
        {"C2", {m}, ops::BroadcastInDimParams{{2, 3}, {1, 1}}, Status::InvalidArgument, "twice"},
        {"C3",
         {vec},
         ops::BroadcastInDimParams{{4, 2}, {0}},
         Status::ShapeMismatch,
         "does not broadcast to [4,2]"},
        {"C4",
         {vec},
         ops::BroadcastInDimParams{{3, -2}, {0}},
         Status::InvalidArgument,
         "negative extent"}};
  case OpCode::Convert:
    return {{"C1",
             {vec},
             ops::ConvertParams{static_cast<DType>(42)},
             Status::InvalidArgument,
             "unknown dtype 42"}};
  case OpCode::Reverse:
    return {{"C1",
             {m},
             ops::AxesParams{{2}},
             Status::InvalidArgument,
             "axes 2 is out of range for rank 2"},
            {"C1", {m}, ops::AxesParams{{1, 1}}, Status::InvalidArgument, "twice"}};
  case OpCode::ExtractDiag:
    return {
        {"C1", {vec}, ops::DiagParams{0, 1}, Status::ShapeMismatch, "needs rank >= 2, got rank 1"},
        {"C1", {m}, ops::DiagParams{1, 1}, Status::InvalidArgument, "twice"},
        {"C1", {m}, ops::DiagParams{0, 2}, Status::InvalidArgument, "out of range for rank 2"}};
  case OpCode::EmbedDiag:
    return {
        {"C1", {s0}, ops::DiagParams{0, 1}, Status::ShapeMismatch, "needs rank >= 2, got rank 1"},
        {"C1", {vec}, ops::DiagParams{0, 0}, Status::InvalidArgument, "twice"},
        {"C1", {vec}, ops::DiagParams{0, 2}, Status::InvalidArgument, "out of range for rank 2"}};
  case OpCode::Tril:
  case OpCode::Triu:
    return {{"C1",
             {vec},
             ops::TriangleParams{0},
             Status::ShapeMismatch,
             "needs a matrix (rank >= 2), got [3]"},
            {"C1", {s0}, ops::TriangleParams{1}, Status::ShapeMismatch, "needs a matrix"}};
  case OpCode::Iota:
    return {{"C1",
             {},
             ops::IotaParams{DType::I64, {-2}, 0},
             Status::InvalidArgument,
             "negative extent"},
            {"C2",
             {},
             ops::IotaParams{DType::I64, {3}, 1},
             Status::InvalidArgument,
             "axis 1 is out of range for rank 1"},
            {"C2",
             {},
             ops::IotaParams{DType::F64, {}, 0},
             Status::InvalidArgument,
             "out of range for rank 0"},
            {"C3",
             {},
             ops::IotaParams{DType::Bool, {3}, 0},
             Status::DtypeMismatch,
             "is not a numeric dtype"},
            {"C3",
             {},
             ops::IotaParams{static_cast<DType>(42), {3}, 0},
             Status::DtypeMismatch,
             "dtype 42"}};
  default: return {};
  }
}

} // namespace

std::optional<OpSamples> structural_samples(OpCode op) {
  if (ops::op_def(op).group != ops::OpGroup::Structural) return std::nullopt;
  OpSamples s;
  s.make = [op](DType d) { return make_samples(op, d); };
  s.reference = [op](const Sample& smp, const ops::ConcreteMeta& out) {
    return reference(op, smp, out);
  };
  s.errors = [op] { return make_errors(op); };
  s.layout_exact = true;
  return s;
}

} // namespace tfe::testing
