// Samples and reference results of the indexing group (src/ops/defs/indexing.hpp).
#include <algorithm>
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

// Start indices clamped so that a block of `sizes` fits in `shape` (StableHLO semantics).
Dims clamp_starts(const Tensor& starts, const Dims& shape, const Dims& sizes) {
  Dims s(shape.size());
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t v = int_at(starts, {static_cast<int64_t>(d)});
    s[d] = std::min(std::max<int64_t>(v, 0), shape[d] - sizes[d]);
  }
  return s;
}

// The operand index addressed by an output (gather) or update (scatter) index.
Dims taken_index(const Dims& oi, const Tensor& indices, int64_t axis, size_t operand_rank) {
  size_t a = static_cast<size_t>(axis), ri = indices.shape().size();
  Dims si(operand_rank);
  for (size_t d = 0; d < a; ++d) si[d] = oi[d];
  si[a] = int_at(indices,
                 Dims(oi.begin() + static_cast<long>(a), oi.begin() + static_cast<long>(a + ri)));
  for (size_t d = a + 1; d < operand_rank; ++d) si[d] = oi[d - 1 + ri];
  return si;
}

Tensor scatter_reference(const Sample& s, const ops::ConcreteMeta& out) {
  const Tensor& x = s.inputs[0];
  const Tensor& idx = s.inputs[1];
  const Tensor& upd = s.inputs[2];
  int64_t axis = std::get<ops::AxisParams>(s.params).axis;
  Tensor r = remap(x, out, [](const Dims& oi, Dims& si) {
    si = oi;
    return true;
  });
  // Updates are added one at a time in column-major order of the updates, so duplicates
  // accumulate in index order and each F32 sum is rounded like the kernel's.
  for_each_index(upd.shape(), [&](const Dims& ui) {
    Dims si = taken_index(ui, idx, axis, x.shape().size());
    if (out.dtype == DType::Bool)
      set_int(r, si, int_at(r, si) != 0 || int_at(upd, ui) != 0);
    else if (is_integer(out.dtype))
      set_int(r, si,
              wrap_to(out.dtype, static_cast<int64_t>(static_cast<uint64_t>(int_at(r, si)) +
                                                      static_cast<uint64_t>(int_at(upd, ui)))));
    else
      set_value(r, si, value_at(r, si) + value_at(upd, ui));
  });
  return r;
}

Tensor reference(OpCode op, const Sample& s, const ops::ConcreteMeta& out) {
  if (op == OpCode::Scatter) return scatter_reference(s, out);
  const Tensor& x = s.inputs[0];
  const Dims& xs = x.shape();
  switch (op) {
  case OpCode::Slice: {
    const auto& p = std::get<ops::SliceParams>(s.params);
    return remap(x, out, [&](const Dims& oi, Dims& si) {
      for (size_t d = 0; d < xs.size(); ++d) si[d] = p.starts[d].value() + oi[d] * p.strides[d];
      return true;
    });
  }
  case OpCode::DynamicSlice: {
    Dims st = clamp_starts(s.inputs[1], xs, out.shape);
    return remap(x, out, [&](const Dims& oi, Dims& si) {
      for (size_t d = 0; d < xs.size(); ++d) si[d] = oi[d] + st[d];
      return true;
    });
  }
  case OpCode::DynamicUpdateSlice: {
    const Tensor& u = s.inputs[1];
    Dims st = clamp_starts(s.inputs[2], xs, u.shape()), ui(xs.size());
    auto in_update = [&](const Dims& oi) {
      for (size_t d = 0; d < xs.size(); ++d) {
        ui[d] = oi[d] - st[d];
        if (ui[d] < 0 || ui[d] >= u.dim(static_cast<int64_t>(d))) return false;
      }
      return true;
    };
    if (is_inexact(out.dtype))
      return build(
          out, [&](const Dims& oi) { return in_update(oi) ? value_at(u, ui) : value_at(x, oi); });
    return build_int(out,
                     [&](const Dims& oi) { return in_update(oi) ? int_at(u, ui) : int_at(x, oi); });
  }
  case OpCode::Gather: {
    int64_t axis = std::get<ops::AxisParams>(s.params).axis;
    return remap(x, out, [&](const Dims& oi, Dims& si) {
      si = taken_index(oi, s.inputs[1], axis, xs.size());
      return true;
    });
  }
  case OpCode::Pad: {
    const auto& p = std::get<ops::PadParams>(s.params);
    return remap(x, out, [&](const Dims& oi, Dims& si) {
      for (size_t d = 0; d < xs.size(); ++d) {
        int64_t t = oi[d] - p.low[d].value(), step = p.interior[d] + 1;
        if (t < 0 || t % step != 0 || t / step >= xs[d]) return false;
        si[d] = t / step;
      }
      return true;
    });
  }
  case OpCode::Concatenate: {
    size_t a = static_cast<size_t>(std::get<ops::AxisParams>(s.params).axis);
    size_t k = 0;
    Dims si;
    auto locate = [&](const Dims& oi) {
      si = oi;
      for (k = 0; si[a] >= s.inputs[k].shape()[a]; ++k) si[a] -= s.inputs[k].shape()[a];
    };
    if (is_inexact(out.dtype))
      return build(out, [&](const Dims& oi) {
        locate(oi);
        return value_at(s.inputs[k], si);
      });
    return build_int(out, [&](const Dims& oi) {
      locate(oi);
      return int_at(s.inputs[k], si);
    });
  }
  default: throw std::logic_error("no indexing reference");
  }
}

std::vector<Sample> make_samples(OpCode op, DType d) {
  auto t = [&](Dims shape, uint64_t seed) { return random_tensor(d, shape, seed); };
  auto i32 = [](Dims shape, std::vector<int64_t> v) { return int_tensor(DType::I32, shape, v); };
  auto i64 = [](Dims shape, std::vector<int64_t> v) { return int_tensor(DType::I64, shape, v); };
  std::vector<Sample> v;
  switch (op) {
  case OpCode::Slice:
    v.push_back({"rank0", {t({}, 1)}, ops::SliceParams{{}, {}, {}}});
    v.push_back({"inner", {t({6}, 2)}, ops::SliceParams{{1}, {5}, {1}}});
    v.push_back({"stride3", {t({10}, 3)}, ops::SliceParams{{1}, {9}, {3}}});
    v.push_back({"strided_matrix", {t({5, 6}, 4)}, ops::SliceParams{{1, 0}, {5, 6}, {2, 4}}});
    v.push_back({"batched", {t({3, 4, 2}, 5)}, ops::SliceParams{{0, 1, 0}, {3, 4, 2}, {1, 2, 1}}});
    v.push_back({"empty_result", {t({4, 3}, 6)}, ops::SliceParams{{2, 1}, {2, 3}, {1, 1}}});
    v.push_back({"zero_extent", {t({0, 3}, 7)}, ops::SliceParams{{0, 0}, {0, 3}, {1, 2}}});
    v.push_back({"at_end", {t({4}, 8)}, ops::SliceParams{{4}, {4}, {1}}});
    break;
  case OpCode::DynamicSlice:
    v.push_back({"inner_i32", {t({5}, 1), i32({1}, {1})}, ops::DynamicSliceParams{{3}}});
    v.push_back({"clamped_high_i64", {t({5}, 2), i64({1}, {4})}, ops::DynamicSliceParams{{3}}});
    v.push_back({"clamped_low_i32", {t({5}, 3), i32({1}, {-3})}, ops::DynamicSliceParams{{2}}});
    v.push_back({"matrix_i64", {t({4, 6}, 4), i64({2}, {2, -1})}, ops::DynamicSliceParams{{2, 3}}});
    v.push_back({"batched_i32",
                 {t({4, 6, 2}, 5), i32({3}, {10, 3, 1})},
                 ops::DynamicSliceParams{{2, 3, 1}}});
    v.push_back({"rank0_i64", {t({}, 6), i64({0}, {})}, ops::DynamicSliceParams{{}}});
    v.push_back(
        {"zero_size_i32", {t({4, 3}, 7), i32({2}, {3, 1})}, ops::DynamicSliceParams{{0, 2}}});
    v.push_back(
        {"zero_extent_i64", {t({0, 3}, 8), i64({2}, {5, 1})}, ops::DynamicSliceParams{{0, 2}}});
    v.push_back({"full_i32", {t({3, 2}, 9), i32({2}, {1, 1})}, ops::DynamicSliceParams{{3, 2}}});
    v.push_back({"huge_starts_i64",
                 {t({4, 5}, 10), i64({2}, {int64_t{1} << 40, std::numeric_limits<int64_t>::min()})},
                 ops::DynamicSliceParams{{2, 2}}});
    break;
  case OpCode::DynamicUpdateSlice:
    v.push_back({"inner_i32", {t({5}, 1), t({2}, 2), i32({1}, {1})}});
    v.push_back({"clamped_high_i64", {t({5}, 3), t({3}, 4), i64({1}, {4})}});
    v.push_back({"clamped_low_i32", {t({5}, 5), t({2}, 6), i32({1}, {-7})}});
    v.push_back({"matrix_i64", {t({4, 6}, 7), t({2, 3}, 8), i64({2}, {3, 2})}});
    v.push_back({"batched_i32", {t({3, 4, 2}, 9), t({2, 2, 2}, 10), i32({3}, {1, 5, 0})}});
    v.push_back({"rank0_i64", {t({}, 11), t({}, 12), i64({0}, {})}});
    v.push_back({"zero_update_i32", {t({4, 3}, 13), t({0, 2}, 14), i32({2}, {1, 1})}});
    v.push_back({"zero_extent_i64", {t({0, 3}, 15), t({0, 3}, 16), i64({2}, {0, 0})}});
    v.push_back({"full_i32", {t({3, 2}, 17), t({3, 2}, 18), i32({2}, {1, 1})}});
    v.push_back({"huge_starts_i64",
                 {t({4, 5}, 19), t({2, 2}, 20),
                  i64({2}, {std::numeric_limits<int64_t>::max(), -(int64_t{1} << 40)})}});
    break;
  case OpCode::Gather:
    v.push_back({"duplicates_i32", {t({5}, 1), i32({3}, {4, 0, 4})}, ops::AxisParams{0}});
    v.push_back({"rows_i64", {t({4, 3}, 2), i64({2}, {2, 0})}, ops::AxisParams{0}});
    v.push_back(
        {"matrix_indices_i32", {t({4, 3}, 3), i32({2, 2}, {0, 2, 2, 1})}, ops::AxisParams{1}});
    v.push_back({"batched_i64", {t({2, 5, 3}, 4), i64({4}, {4, 1, 1, 0})}, ops::AxisParams{1}});
    v.push_back({"rank0_index_i64", {t({5}, 5), i64({}, {3})}, ops::AxisParams{0}});
    v.push_back({"no_indices_i32", {t({4, 3}, 6), i32({0}, {})}, ops::AxisParams{0}});
    v.push_back({"zero_extent_i64", {t({0, 4}, 7), i64({2}, {1, 3})}, ops::AxisParams{1}});
    v.push_back({"last_axis_i32", {t({2, 2, 3}, 8), i32({3}, {2, 2, 0})}, ops::AxisParams{2}});
    v.push_back({"broadcast_operand_i64",
                 {t({4}, 9).broadcast_view({4, 3}, Dims{0}), i64({2}, {3, 1})},
                 ops::AxisParams{0}});
    break;
  case OpCode::Scatter:
    v.push_back(
        {"duplicates_i32", {t({5}, 1), i32({4}, {1, 3, 1, 1}), t({4}, 2)}, ops::AxisParams{0}});
    v.push_back(
        {"rows_i64", {t({4, 3}, 3), i64({3}, {0, 3, 0}), t({3, 3}, 4)}, ops::AxisParams{0}});
    v.push_back({"batched_i32",
                 {t({2, 4, 3}, 5), i32({2, 2}, {3, 0, 3, 3}), t({2, 2, 2, 3}, 6)},
                 ops::AxisParams{1}});
    v.push_back({"rank0_index_i64", {t({5}, 7), i64({}, {2}), t({}, 8)}, ops::AxisParams{0}});
    v.push_back(
        {"no_indices_i32", {t({4, 3}, 9), i32({0}, {}), t({4, 0}, 10)}, ops::AxisParams{1}});
    v.push_back(
        {"zero_extent_i64", {t({0, 3}, 11), i64({2}, {2, 2}), t({0, 2}, 12)}, ops::AxisParams{1}});
    v.push_back(
        {"last_axis_i64", {t({2, 3}, 13), i64({3}, {2, 0, 2}), t({2, 3}, 14)}, ops::AxisParams{1}});
    v.push_back({"broadcast_operand_i32",
                 {t({3}, 15).broadcast_view({3, 2}, Dims{0}), i32({2}, {1, 1}), t({3, 2}, 16)},
                 ops::AxisParams{1}});
    break;
  case OpCode::Pad:
    v.push_back({"rank0", {t({}, 1)}, ops::PadParams{{}, {}, {}}});
    v.push_back({"low_high", {t({3}, 2)}, ops::PadParams{{2}, {1}, {0}}});
    v.push_back({"interior", {t({3}, 3)}, ops::PadParams{{0}, {0}, {2}}});
    v.push_back({"crop_both", {t({4}, 4)}, ops::PadParams{{-1}, {-2}, {0}}});
    v.push_back({"mixed_matrix", {t({4, 3}, 5)}, ops::PadParams{{1, -1}, {-1, 2}, {1, 2}}});
    v.push_back({"crop_into_interior", {t({3}, 6)}, ops::PadParams{{-4}, {0}, {1}}});
    v.push_back({"high_crops_interior", {t({3}, 7)}, ops::PadParams{{0}, {-1}, {2}}});
    v.push_back({"batched", {t({2, 3, 2}, 8)}, ops::PadParams{{0, 1, 0}, {1, 0, 0}, {0, 0, 1}}});
    v.push_back({"zero_operand", {t({0, 2}, 9)}, ops::PadParams{{1, 0}, {2, 1}, {3, 0}}});
    v.push_back({"cropped_to_zero", {t({3}, 10)}, ops::PadParams{{-2}, {-1}, {0}}});
    v.push_back({"shifted_out", {t({3}, 11)}, ops::PadParams{{5}, {-6}, {0}}});
    break;
  case OpCode::Concatenate:
    v.push_back({"single", {t({3, 2}, 1)}, ops::AxisParams{0}});
    v.push_back({"rows", {t({2, 3}, 2), t({4, 3}, 3)}, ops::AxisParams{0}});
    v.push_back({"cols_with_empty",
                 {t({3, 1}, 4), t({3, 2}, 5), t({3, 0}, 6), t({3, 3}, 7)},
                 ops::AxisParams{1}});
    v.push_back({"vectors", {t({2}, 8), t({0}, 9), t({3}, 10)}, ops::AxisParams{0}});
    v.push_back({"batched_middle", {t({2, 3, 2}, 11), t({2, 1, 2}, 12)}, ops::AxisParams{1}});
    v.push_back({"batch_axis", {t({2, 2, 1}, 13), t({2, 2, 3}, 14)}, ops::AxisParams{2}});
    v.push_back({"all_empty", {t({0, 2}, 15), t({0, 2}, 16)}, ops::AxisParams{0}});
    v.push_back({"many",
                 {t({1, 2}, 17), t({2, 2}, 18), t({1, 2}, 19), t({3, 2}, 20), t({1, 2}, 21)},
                 ops::AxisParams{0}});
    break;
  default: break;
  }
  return v;
}

std::vector<ErrorSample> make_errors(OpCode op) {
  Tensor m = Tensor::zeros(DType::F64, {2, 3});
  Tensor vec = Tensor::zeros(DType::F64, {3});
  Tensor m32 = Tensor::zeros(DType::F32, {2, 3});
  Tensor two = int_tensor(DType::I64, {2}, {0, 1});
  Tensor fstarts = Tensor::zeros(DType::F64, {2});
  switch (op) {
  case OpCode::Slice:
    return {
        {"C1",
         {m},
         ops::SliceParams{{0}, {2, 3}, {1, 1}},
         Status::ShapeMismatch,
         "starts [0] has 1 entries but the operand has rank 2"},
        {"C1",
         {m},
         ops::SliceParams{{0, 0}, {2, 3}, {1}},
         Status::ShapeMismatch,
         "strides [1] has 1 entries"},
        {"C2",
         {m},
         ops::SliceParams{{0, 3}, {2, 2}, {1, 1}},
         Status::InvalidArgument,
         "dim 1: need 0 <= start 3 <= limit 2 <= extent 3"},
        {"C2",
         {m},
         ops::SliceParams{{0, 0}, {3, 3}, {1, 1}},
         Status::InvalidArgument,
         "limit 3 <= extent 2"},
        {"C2", {m}, ops::SliceParams{{-1, 0}, {2, 3}, {1, 1}}, Status::InvalidArgument, "start -1"},
        {"C3",
         {m},
         ops::SliceParams{{0, 0}, {2, 3}, {1, 0}},
         Status::InvalidArgument,
         "dim 1: stride 0 must be >= 1"}};
  case OpCode::DynamicSlice:
    return {
        {"C1",
         {m, fstarts},
         ops::DynamicSliceParams{{1, 1}},
         Status::DtypeMismatch,
         "start indices must be I32 or I64, not F64"},
        {"C1",
         {m, int_tensor(DType::I32, {3}, {0, 0, 0})},
         ops::DynamicSliceParams{{1, 1}},
         Status::ShapeMismatch,
         "start indices have shape [3] but must be [2]"},
        {"C2",
         {m, two},
         ops::DynamicSliceParams{{1}},
         Status::ShapeMismatch,
         "sizes [1] has 1 entries"},
        {"C2",
         {m, two},
         ops::DynamicSliceParams{{1, 4}},
         Status::InvalidArgument,
         "sizes [1,4] do not fit in operand [2,3]"},
        {"C2", {m, two}, ops::DynamicSliceParams{{-1, 1}}, Status::InvalidArgument, "do not fit"}};
  case OpCode::DynamicUpdateSlice:
    return {{"C1",
             {m, m, fstarts},
             ops::NoParams{},
             Status::DtypeMismatch,
             "start indices must be I32 or I64"},
            {"C1",
             {m, m, int_tensor(DType::I64, {1}, {0})},
             ops::NoParams{},
             Status::ShapeMismatch,
             "start indices have shape [1] but must be [2]"},
            {"C2",
             {m, Tensor::zeros(DType::F64, {3, 3}), two},
             ops::NoParams{},
             Status::ShapeMismatch,
             "update [3,3] does not fit in operand [2,3]"},
            {"C2", {m, vec, two}, ops::NoParams{}, Status::ShapeMismatch, "does not fit"},
            {"C3",
             {m, m32, two},
             ops::NoParams{},
             Status::DtypeMismatch,
             "operand 1 is F32 but operand 0 is F64"}};
  case OpCode::Gather: {
    // A stride-0 view gives an operand whose gathered shape overflows, with no allocation.
    Tensor huge =
        Tensor::zeros(DType::F64, {1, 1}).broadcast_view({2, int64_t{1} << 61}, Dims{0, 1});
    return {{"C1",
             {m, fstarts},
             ops::AxisParams{0},
             Status::DtypeMismatch,
             "indices must be I32 or I64, not F64"},
            {"C2",
             {m, two},
             ops::AxisParams{2},
             Status::InvalidArgument,
             "axis 2 is out of range for rank 2"},
            {"C3",
             {huge, int_tensor(DType::I64, {8}, std::vector<int64_t>(8, 0))},
             ops::AxisParams{0},
             Status::Numerical,
             "result shape"},
            {"range",
             {m, int_tensor(DType::I32, {2}, {0, 2})},
             ops::AxisParams{0},
             Status::InvalidArgument,
             "index 2 at position 1 is out of range [0, 2)"},
            {"range",
             {m, int_tensor(DType::I64, {1}, {-1})},
             ops::AxisParams{1},
             Status::InvalidArgument,
             "index -1 at position 0"}};
  }
  case OpCode::Scatter:
    return {{"C1",
             {m, fstarts, m},
             ops::AxisParams{0},
             Status::DtypeMismatch,
             "indices must be I32 or I64, not F64"},
            {"C2",
             {m, two, m},
             ops::AxisParams{2},
             Status::InvalidArgument,
             "axis 2 is out of range for rank 2"},
            {"C3",
             {m, two, vec},
             ops::AxisParams{0},
             Status::ShapeMismatch,
             "updates have shape [3] but operand [2,3] with indices [2] along axis 0 needs [2,3]"},
            {"C4",
             {m, two, m32},
             ops::AxisParams{0},
             Status::DtypeMismatch,
             "operand 2 is F32 but operand 0 is F64"},
            {"range",
             {m, int_tensor(DType::I32, {2}, {2, 0}), m},
             ops::AxisParams{0},
             Status::InvalidArgument,
             "index 2 at position 0 is out of range [0, 2)"}};
  case OpCode::Pad:
    return {{"C1",
             {m},
             ops::PadParams{{0}, {0, 0}, {0, 0}},
             Status::ShapeMismatch,
             "low [0] has 1 entries but the operand has rank 2"},
            {"C1",
             {m},
             ops::PadParams{{0, 0}, {0, 0}, {0, 0, 0}},
             Status::ShapeMismatch,
             "interior [0,0,0] has 3 entries"},
            {"C2",
             {m},
             ops::PadParams{{0, 0}, {0, 0}, {0, -1}},
             Status::InvalidArgument,
             "interior [0,-1] must be non-negative"},
            {"C3",
             {vec},
             ops::PadParams{{-5}, {0}, {0}},
             Status::ShapeMismatch,
             "dim 0: padding low -5 high 0 of extent 3 gives -2"}};
  case OpCode::Concatenate:
    return {{"C1",
             {m, vec},
             ops::AxisParams{0},
             Status::ShapeMismatch,
             "operand 1 has rank 1 but operand 0 has rank 2"},
            {"C2",
             {m, m},
             ops::AxisParams{2},
             Status::InvalidArgument,
             "axis 2 is out of range for rank 2"},
            {"C3",
             {m, Tensor::zeros(DType::F64, {2, 2}), Tensor::zeros(DType::F64, {3, 3})},
             ops::AxisParams{1},
             Status::ShapeMismatch,
             "operand 2 has shape [3,3] but operand 0 has [2,3] (only axis 1 may differ)"},
            {"C4",
             {m, m32},
             ops::AxisParams{0},
             Status::DtypeMismatch,
             "operand 1 is F32 but operand 0 is F64"}};
  default: return {};
  }
}

} // namespace

std::optional<OpSamples> indexing_samples(OpCode op) {
  if (ops::op_def(op).group != ops::OpGroup::Indexing) return std::nullopt;
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
