// CPU kernels of the indexing group (ops/defs/indexing.hpp). Index operands are read and checked
// in full before the first write, so an out-of-range index leaves nothing half-done.
#include <cstring>
#include <vector>

#include "backend/cpu/kernels/elementwise.hpp"
#include "backend/cpu/kernels/kernels.hpp"
#include "backend/cpu/kernels/scalar_math.hpp"

namespace tfe::cpu::kernels {
namespace {

using ops::OpCode;

// The values of an integer tensor in column-major order, as int64.
std::vector<int64_t> read_indices(const Tensor& t) {
  Tensor c = convert_to(t, DType::I64);
  const int64_t* p = c.data<int64_t>();
  return std::vector<int64_t>(p, p + c.numel());
}

// Start indices clamped so that the block [start, start + size) fits (StableHLO semantics).
Dims clamped_starts(const Tensor& starts, const Dims& shape, const Dims& sizes) {
  std::vector<int64_t> s = read_indices(starts);
  Dims out(shape.size());
  for (size_t d = 0; d < shape.size(); ++d)
    out[d] = std::clamp<int64_t>(s[d], 0, shape[d] - sizes[d]);
  return out;
}

Tensor block_view(const Tensor& t, const Dims& starts, const Dims& sizes) {
  Dims limits(starts.size()), steps(starts.size(), 1);
  for (size_t d = 0; d < starts.size(); ++d) limits[d] = starts[d] + sizes[d];
  return t.sliced(starts, limits, steps);
}

Tensor compact_copy(const Tensor& t) {
  Tensor out = Tensor::empty(t.dtype(), t.shape());
  copy_into(out, t);
  return out;
}

Tensor compact(const Tensor& t) { return t.is_compact() ? t : compact_copy(t); }

struct AxisSplit {
  int64_t inner = 1, extent = 1, outer = 1; // dims before axis, the axis, dims after
};
AxisSplit split_at(const Dims& shape, int64_t axis) {
  AxisSplit s;
  std::span<const int64_t> all(shape);
  size_t a = static_cast<size_t>(axis);
  s.inner = numel_of(all.first(a));
  s.extent = shape[a];
  s.outer = numel_of(all.subspan(a + 1));
  // Without elements on either side, neither side is iterated: the other may be huge (its
  // product is then not even representable), and loops over it would never end.
  if (s.inner == 0 || s.outer == 0) s.inner = s.outer = 0;
  return s;
}

std::vector<int64_t> checked_indices(const Tensor& indices, int64_t extent) {
  std::vector<int64_t> idx = read_indices(indices);
  for (size_t i = 0; i < idx.size(); ++i)
    if (idx[i] < 0 || idx[i] >= extent)
      fail(Status::InvalidArgument, "index %lld at position %zu is out of range [0, %lld)",
           (long long)idx[i], i, (long long)extent);
  return idx;
}

} // namespace

Tensor slice(Operands in, const ops::Params& p, const ops::ConcreteMeta&) {
  const auto& sp = std::get<ops::SliceParams>(p);
  return in[0].sliced(ops::concrete_dims(sp.starts), ops::concrete_dims(sp.limits), sp.strides);
}

Tensor dynamic_slice(Operands in, const ops::Params& p, const ops::ConcreteMeta&) {
  const Dims sizes = ops::concrete_dims(std::get<ops::DynamicSliceParams>(p).sizes);
  return block_view(in[0], clamped_starts(in[1], in[0].shape(), sizes), sizes);
}

Tensor dynamic_update_slice(Operands in, const ops::Params&, const ops::ConcreteMeta&) {
  Dims starts = clamped_starts(in[2], in[0].shape(), in[1].shape());
  Tensor out = compact_copy(in[0]);
  copy_into(block_view(out, starts, in[1].shape()), in[1]);
  return out;
}

Tensor gather(Operands in, const ops::Params& p, const ops::ConcreteMeta& m) {
  int64_t axis = std::get<ops::AxisParams>(p).axis;
  AxisSplit s = split_at(in[0].shape(), axis);
  std::vector<int64_t> idx = checked_indices(in[1], s.extent);
  Tensor x = compact(in[0]);
  Tensor out = Tensor::empty(m.dtype, m.shape);
  // An empty result copies nothing, and the extents after the axis may then multiply past
  // int64 (a [0, INT64_MAX] operand); a result with elements bounds them all by its count.
  if (out.numel() == 0) return out;
  int64_t isz = itemsize(m.dtype);
  size_t block = static_cast<size_t>(s.inner * isz);
  const std::byte* src = x.raw_data();
  std::byte* dst = out.raw_data();
  int64_t ni = static_cast<int64_t>(idx.size());
  for (int64_t c = 0; c < s.outer; ++c)
    for (int64_t i = 0; i < ni; ++i)
      if (block)
        std::memcpy(dst + (c * ni + i) * s.inner * isz,
                    src + (c * s.extent + idx[static_cast<size_t>(i)]) * s.inner * isz, block);
  return out;
}

Tensor scatter(Operands in, const ops::Params& p, const ops::ConcreteMeta&) {
  int64_t axis = std::get<ops::AxisParams>(p).axis;
  AxisSplit s = split_at(in[0].shape(), axis);
  std::vector<int64_t> idx = checked_indices(in[1], s.extent);
  Tensor out = compact_copy(in[0]);
  Tensor upd = compact(in[2]);
  int64_t ni = static_cast<int64_t>(idx.size());
  dispatch_accepted<OpCode::Scatter>(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = out.data<T>();
    const T* u = upd.data<T>();
    for (int64_t c = 0; c < s.outer; ++c)
      for (int64_t i = 0; i < ni; ++i) {
        T* orow = o + (c * s.extent + idx[static_cast<size_t>(i)]) * s.inner;
        const T* urow = u + (c * ni + i) * s.inner;
        for (int64_t a = 0; a < s.inner; ++a) {
          if constexpr (std::is_same_v<T, bool>)
            orow[a] = orow[a] || urow[a];
          else
            orow[a] = wrap_add(orow[a], urow[a]);
        }
      }
  });
  return out;
}

std::optional<std::pair<Tensor, Tensor>> pad_placement(const Tensor& out, const Tensor& x,
                                                       const ops::PadParams& pp) {
  size_t r = out.shape().size();
  Dims src_start(r), src_limit(r), src_step(r, 1), dst_start(r), dst_limit(r), dst_step(r);
  for (size_t d = 0; d < r; ++d) {
    int64_t n = x.dim(static_cast<int64_t>(d)), step = pp.interior[d] + 1, lo = pp.low[d].value();
    int64_t extent = out.dim(static_cast<int64_t>(d));
    // Operand index i lands at lo + i * step; keep those inside [0, out extent).
    int64_t first = lo >= 0 ? 0 : (-lo + step - 1) / step;
    int64_t last = n - 1;
    int64_t over = lo + last * step - (extent - 1);
    if (over > 0) last -= (over + step - 1) / step;
    if (first > last || n == 0) return std::nullopt;
    src_start[d] = first;
    src_limit[d] = last + 1;
    dst_start[d] = lo + first * step;
    dst_limit[d] = lo + last * step + 1;
    dst_step[d] = step;
  }
  return std::pair{out.sliced(dst_start, dst_limit, dst_step),
                   x.sliced(src_start, src_limit, src_step)};
}

Tensor pad(Operands in, const ops::Params& p, const ops::ConcreteMeta& m) {
  Tensor out = Tensor::zeros(m.dtype, m.shape);
  if (auto place = pad_placement(out, in[0], std::get<ops::PadParams>(p)))
    copy_into(place->first, place->second);
  return out;
}

Tensor concatenate(Operands in, const ops::Params& p, const ops::ConcreteMeta& m) {
  int64_t axis = std::get<ops::AxisParams>(p).axis;
  Tensor out = Tensor::empty(m.dtype, m.shape);
  size_t r = m.shape.size();
  Dims starts(r, 0), limits = m.shape, steps(r, 1);
  int64_t offset = 0;
  for (const Tensor& t : in) {
    int64_t len = t.dim(axis);
    starts[static_cast<size_t>(axis)] = offset;
    limits[static_cast<size_t>(axis)] = offset + len;
    if (len > 0) copy_into(out.sliced(starts, limits, steps), t);
    offset += len;
  }
  return out;
}

} // namespace tfe::cpu::kernels
