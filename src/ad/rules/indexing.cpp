// Rules of the indexing group (src/ops/defs/indexing.hpp). Slice and Pad are each other's
// transposes, Gather and Scatter(-add) likewise, DynamicSlice and DynamicUpdateSlice likewise.
// Index operands (indices, start indices) are integers and never carry tangents.
#include "ad/rules/rules.hpp"

namespace tfe::ad::rules {

using ops::OpCode;

Tangent dynamic_slice_jvp(const JvpArgs& a) {
  if (!a.dx[0]) return std::nullopt;
  return emit2(OpCode::DynamicSlice, *a.dx[0], a.x[1], a.node.params);
}

Tangent dynamic_update_slice_jvp(const JvpArgs& a) {
  if (!a.dx[0] && !a.dx[1]) return std::nullopt;
  Value x = a.dx[0] ? *a.dx[0] : zeros_like(a.x[0]);
  Value u = a.dx[1] ? *a.dx[1] : zeros_like(a.x[1]);
  return emit3(OpCode::DynamicUpdateSlice, x, u, a.x[2]);
}

Tangent gather_jvp(const JvpArgs& a) {
  if (!a.dx[0]) return std::nullopt;
  return emit2(OpCode::Gather, *a.dx[0], a.x[1], a.node.params);
}

Tangent scatter_jvp(const JvpArgs& a) {
  if (!a.dx[0] && !a.dx[2]) return std::nullopt;
  Value x = a.dx[0] ? *a.dx[0] : zeros_like(a.x[0]);
  Value u = a.dx[2] ? *a.dx[2] : zeros_like(a.x[2]);
  std::array<Value, 3> in{x, a.x[1], u};
  return graph::emit(OpCode::Scatter, in, a.node.params);
}

// Element i of the result came from start + i * stride: pad the cotangent back into place.
void slice_t(const TransposeArgs& a, std::span<Tangent> out) {
  const auto& p = a.params<ops::SliceParams>();
  const Shape& xs = a.x[0].meta().shape;
  const Shape& cs = a.ct.meta().shape;
  ops::PadParams pad{p.starts, Shape(xs.size()), Dims(xs.size())};
  for (size_t d = 0; d < xs.size(); ++d) {
    int64_t stride = p.strides[d];
    pad.interior[d] = stride - 1;
    pad.high[d] = xs[d] - p.starts[d] - cs[d] - max_extent(cs[d] - 1, 0) * (stride - 1);
  }
  out[0] = emit1(OpCode::Pad, a.ct, pad);
}

// Operand element i sits at low + i * (interior + 1) if that is inside the result: undo any
// cropping with zero padding, then take every (interior + 1)-th element.
void pad_t(const TransposeArgs& a, std::span<Tangent> out) {
  const auto& p = a.params<ops::PadParams>();
  const Shape& xs = a.x[0].meta().shape;
  size_t r = xs.size();
  ops::PadParams uncrop{Shape(r), Shape(r), Dims(r, 0)};
  bool crops = false;
  for (size_t d = 0; d < r; ++d) {
    uncrop.low[d] = max_extent(Extent(0) - p.low[d], 0);
    uncrop.high[d] = max_extent(Extent(0) - p.high[d], 0);
    crops |= !(uncrop.low[d] == Extent(0)) || !(uncrop.high[d] == Extent(0));
  }
  Value ct = crops ? emit1(OpCode::Pad, a.ct, uncrop) : a.ct;
  ops::SliceParams s{Shape(r), Shape(r), Dims(r)};
  for (size_t d = 0; d < r; ++d) {
    int64_t step = p.interior[d] + 1;
    Extent n = xs[d];
    s.starts[d] = max_extent(p.low[d], 0);
    s.limits[d] = s.starts[d] + max_extent(n - 1, 0) * step + min_extent(n, 1);
    s.strides[d] = step;
  }
  out[0] = emit1(OpCode::Slice, ct, s);
}

void concatenate_t(const TransposeArgs& a, std::span<Tangent> out) {
  int64_t axis = a.params<ops::AxisParams>().axis;
  const Shape& cs = a.ct.meta().shape;
  size_t r = cs.size();
  Extent offset = 0;
  for (size_t i = 0; i < a.x.size(); ++i) {
    Extent len = a.x[i].meta().shape[static_cast<size_t>(axis)];
    if (a.linear[i]) {
      ops::SliceParams s{Shape(r, 0), cs, Dims(r, 1)};
      s.starts[static_cast<size_t>(axis)] = offset;
      s.limits[static_cast<size_t>(axis)] = offset + len;
      out[i] = emit1(OpCode::Slice, a.ct, s);
    }
    offset = offset + len;
  }
}

void dynamic_slice_t(const TransposeArgs& a, std::span<Tangent> out) {
  out[0] = emit3(OpCode::DynamicUpdateSlice, zeros_like(a.x[0]), a.ct, a.x[1]);
}

void dynamic_update_slice_t(const TransposeArgs& a, std::span<Tangent> out) {
  if (a.linear[0]) out[0] = emit3(OpCode::DynamicUpdateSlice, a.ct, zeros_like(a.x[1]), a.x[2]);
  if (a.linear[1])
    out[1] =
        emit2(OpCode::DynamicSlice, a.ct, a.x[2], ops::DynamicSliceParams{a.x[1].meta().shape});
}

void gather_t(const TransposeArgs& a, std::span<Tangent> out) {
  std::array<Value, 3> in{zeros_like(a.x[0]), a.x[1], a.ct};
  out[0] = graph::emit(OpCode::Scatter, in, a.node.params);
}

void scatter_t(const TransposeArgs& a, std::span<Tangent> out) {
  if (a.linear[0]) out[0] = a.ct;
  if (a.linear[2]) out[2] = emit2(OpCode::Gather, a.ct, a.x[1], a.node.params);
}

} // namespace tfe::ad::rules
