// Shape rules of the indexing group (indexing.hpp).
#include "ops/defs/indexing.hpp"

#include "ops/shape_checks.hpp"

namespace tfe::ops::rules {
namespace {

template <class V>
void require_rank_entries(const V& v, size_t rank, const char* what, const char* label) {
  if (v.size() != rank)
    violated(Status::ShapeMismatch, label,
             strformat("%s %s has %zu entries but the operand has rank %zu", what,
                       format_shape(Shape(v)).c_str(), v.size(), rank));
}

void require_start_indices(const Meta& starts, size_t rank, const char* label) {
  require_integer(starts, "start indices", label);
  std::string msg = strformat("start indices have shape %s but must be [%zu]",
                              format_shape(starts.shape).c_str(), rank);
  if (starts.shape.size() != 1 ||
      provably_lt(starts.shape[0], Extent(static_cast<int64_t>(rank))) ||
      provably_lt(Extent(static_cast<int64_t>(rank)), starts.shape[0]))
    violated(Status::ShapeMismatch, label, msg);
  require_eq(starts.shape[0], Extent(static_cast<int64_t>(rank)), Status::ShapeMismatch, label,
             msg);
}

bool all_const(std::initializer_list<Extent> es) {
  for (Extent e : es)
    if (!e.is_const()) return false;
  return true;
}

Shape gathered_shape(const Shape& operand, const Shape& indices, size_t axis) {
  Shape s(operand.begin(), operand.begin() + static_cast<long>(axis));
  s.insert(s.end(), indices.begin(), indices.end());
  s.insert(s.end(), operand.begin() + static_cast<long>(axis) + 1, operand.end());
  return s;
}

} // namespace

Meta slice(std::span<const Meta> in, const Params& params) {
  const auto& p = std::get<SliceParams>(params);
  const Meta& x = in[0];
  size_t r = x.shape.size();
  require_rank_entries(p.starts, r, "starts", "C1");
  require_rank_entries(p.limits, r, "limits", "C1");
  require_rank_entries(p.strides, r, "strides", "C1");
  Meta out{x.dtype, Shape(r)};
  for (size_t d = 0; d < r; ++d) {
    Extent start = p.starts[d], limit = p.limits[d], extent = x.shape[d];
    if (all_const({start, limit, extent})) {
      if (start.value() < 0 || start.value() > limit.value() || limit.value() > extent.value())
        violated(Status::InvalidArgument, "C2",
                 strformat("dim %zu: need 0 <= start %lld <= limit %lld <= extent %lld", d,
                           (long long)start.value(), (long long)limit.value(),
                           (long long)extent.value()));
    } else {
      std::string what = strformat("dim %zu of slice", d);
      require_le(0, start, Status::InvalidArgument, "C2", what);
      require_le(start, limit, Status::InvalidArgument, "C2", what);
      require_le(limit, extent, Status::InvalidArgument, "C2", what);
    }
    if (p.strides[d] < 1)
      violated(Status::InvalidArgument, "C3",
               strformat("dim %zu: stride %lld must be >= 1", d, (long long)p.strides[d]));
    // ceil((limit - start) / stride) written as floor((n - 1) / stride) + 1, which is 0 for
    // n = 0 and cannot overflow for any stride (n + stride - 1 can).
    out.shape[d] = floor_div(limit - start - 1, p.strides[d]) + 1;
  }
  return out;
}

Meta dynamic_slice(std::span<const Meta> in, const Params& params) {
  const auto& p = std::get<DynamicSliceParams>(params);
  const Meta& x = in[0];
  require_start_indices(in[1], x.shape.size(), "C1");
  require_rank_entries(p.sizes, x.shape.size(), "sizes", "C2");
  for (size_t d = 0; d < x.shape.size(); ++d) {
    Extent size = p.sizes[d], extent = x.shape[d];
    if (all_const({size, extent})) {
      if (size.value() < 0 || size.value() > extent.value())
        violated(Status::InvalidArgument, "C2",
                 strformat("sizes %s do not fit in operand %s", format_shape(p.sizes).c_str(),
                           format_shape(x.shape).c_str()));
    } else {
      require_le(0, size, Status::InvalidArgument, "C2", strformat("size %zu", d));
      require_le(size, extent, Status::InvalidArgument, "C2", strformat("size %zu", d));
    }
  }
  return {x.dtype, p.sizes};
}

Meta dynamic_update_slice(std::span<const Meta> in, const Params&) {
  const Meta& x = in[0];
  const Meta& u = in[1];
  require_start_indices(in[2], x.shape.size(), "C1");
  bool fits = u.shape.size() == x.shape.size();
  for (size_t d = 0; fits && d < x.shape.size(); ++d) fits = !provably_lt(x.shape[d], u.shape[d]);
  if (!fits)
    violated(Status::ShapeMismatch, "C2",
             strformat("update %s does not fit in operand %s", format_shape(u.shape).c_str(),
                       format_shape(x.shape).c_str()));
  for (size_t d = 0; d < x.shape.size(); ++d)
    require_le(u.shape[d], x.shape[d], Status::ShapeMismatch, "C2", strformat("update dim %zu", d));
  require_same_dtypes(in, {0, 1}, "C3");
  return x;
}

Meta gather(std::span<const Meta> in, const Params& params) {
  const Meta& x = in[0];
  require_integer(in[1], "indices", "C1");
  int64_t axis = require_axis(std::get<AxisParams>(params).axis,
                              static_cast<int64_t>(x.shape.size()), "axis", "C2");
  Meta out{x.dtype, gathered_shape(x.shape, in[1].shape, static_cast<size_t>(axis))};
  require_valid_shape(out.shape, "result shape", "C3");
  return out;
}

Meta scatter(std::span<const Meta> in, const Params& params) {
  const Meta& x = in[0];
  require_integer(in[1], "indices", "C1");
  int64_t axis = require_axis(std::get<AxisParams>(params).axis,
                              static_cast<int64_t>(x.shape.size()), "axis", "C2");
  Shape expect = gathered_shape(x.shape, in[1].shape, static_cast<size_t>(axis));
  std::string msg =
      strformat("updates have shape %s but operand %s with indices %s along axis %lld needs %s",
                format_shape(in[2].shape).c_str(), format_shape(x.shape).c_str(),
                format_shape(in[1].shape).c_str(), (long long)axis, format_shape(expect).c_str());
  if (in[2].shape.size() != expect.size()) violated(Status::ShapeMismatch, "C3", msg);
  for (size_t d = 0; d < expect.size(); ++d) {
    if (all_const({in[2].shape[d], expect[d]}) && in[2].shape[d] != expect[d])
      violated(Status::ShapeMismatch, "C3", msg);
    require_eq(in[2].shape[d], expect[d], Status::ShapeMismatch, "C3",
               strformat("updates dim %zu", d));
  }
  require_same_dtypes(in, {0, 2}, "C4");
  return x;
}

Meta pad(std::span<const Meta> in, const Params& params) {
  const auto& p = std::get<PadParams>(params);
  const Meta& x = in[0];
  size_t r = x.shape.size();
  require_rank_entries(p.low, r, "low", "C1");
  require_rank_entries(p.high, r, "high", "C1");
  require_rank_entries(p.interior, r, "interior", "C1");
  Meta out{x.dtype, Shape(r)};
  for (size_t d = 0; d < r; ++d) {
    if (p.interior[d] < 0)
      violated(Status::InvalidArgument, "C2",
               strformat("interior %s must be non-negative", format_dims(p.interior).c_str()));
    Extent n = x.shape[d];
    Extent e = p.low[d] + p.high[d] + n + max_extent(n - 1, 0) * p.interior[d];
    if (e.is_const() && e.value() < 0)
      violated(Status::ShapeMismatch, "C3",
               strformat("dim %zu: padding low %s high %s of extent %s gives %lld", d,
                         to_string(p.low[d]).c_str(), to_string(p.high[d]).c_str(),
                         to_string(n).c_str(), (long long)e.value()));
    require_le(0, e, Status::ShapeMismatch, "C3", strformat("padded dim %zu", d));
    out.shape[d] = e;
  }
  return out;
}

// C1 at least one operand, all of one rank (the arity check already rejects zero operands, so
// the rank agreement is what C1 reports in practice); C2 axis in range; C3 the other extents
// agree; C4 one dtype.
Meta concatenate(std::span<const Meta> in, const Params& params) {
  if (in.empty()) violated(Status::InvalidArgument, "C1", "needs at least one operand");
  const Meta& x = in[0];
  for (size_t i = 1; i < in.size(); ++i)
    if (in[i].shape.size() != x.shape.size())
      violated(Status::ShapeMismatch, "C1",
               strformat("operand %zu has rank %zu but operand 0 has rank %zu", i,
                         in[i].shape.size(), x.shape.size()));
  int64_t axis = require_axis(std::get<AxisParams>(params).axis,
                              static_cast<int64_t>(x.shape.size()), "axis", "C2");
  Meta out = x;
  for (size_t i = 1; i < in.size(); ++i) {
    for (size_t d = 0; d < x.shape.size(); ++d) {
      if (static_cast<int64_t>(d) == axis || in[i].shape[d] == x.shape[d]) continue;
      std::string msg = strformat(
          "operand %zu has shape %s but operand 0 has %s (only axis %lld may differ)", i,
          format_shape(in[i].shape).c_str(), format_shape(x.shape).c_str(), (long long)axis);
      if (all_const({in[i].shape[d], x.shape[d]})) violated(Status::ShapeMismatch, "C3", msg);
      require_eq(in[i].shape[d], x.shape[d], Status::ShapeMismatch, "C3", msg);
    }
    size_t a = static_cast<size_t>(axis);
    out.shape[a] = out.shape[a] + in[i].shape[a];
  }
  for (size_t i = 1; i < in.size(); ++i)
    if (in[i].dtype != x.dtype)
      violated(Status::DtypeMismatch, "C4",
               strformat("operand %zu is %s but operand 0 is %s", i,
                         std::string(dtype_name(in[i].dtype)).c_str(),
                         std::string(dtype_name(x.dtype)).c_str()));
  return out;
}

} // namespace tfe::ops::rules
