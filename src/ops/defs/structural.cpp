// Shape rules of the structural group (structural.hpp).
#include "ops/defs/structural.hpp"

#include "ops/shape_checks.hpp"

namespace tfe::ops::rules {

Meta transpose(std::span<const Meta> in, const Params& params) {
  const auto& p = std::get<TransposeParams>(params);
  const Meta& x = in[0];
  if (p.perm.size() != x.shape.size() || !is_permutation(p.perm))
    violated(Status::InvalidArgument, "C1",
             strformat("perm %s is not a permutation of 0..%zu for operand %s",
                       format_dims(p.perm).c_str(), x.shape.size() ? x.shape.size() - 1 : 0,
                       format_shape(x.shape).c_str()));
  Meta out{x.dtype, Dims(p.perm.size())};
  for (size_t i = 0; i < p.perm.size(); ++i) out.shape[i] = x.shape[static_cast<size_t>(p.perm[i])];
  return out;
}

Meta reshape(std::span<const Meta> in, const Params& params) {
  const auto& p = std::get<ReshapeParams>(params);
  require_valid_shape(p.shape, "shape", "C1");
  auto count = [](const Shape& s) {
    Extent n = 1;
    for (Extent e : s) n = n * e;
    return n;
  };
  Extent from = count(in[0].shape), to = count(p.shape);
  if (from.is_const() && to.is_const() && from.value() != to.value())
    violated(Status::ShapeMismatch, "C2",
             strformat("cannot reshape %s (%lld elements) to %s (%lld elements)",
                       format_shape(in[0].shape).c_str(), (long long)from.value(),
                       format_shape(p.shape).c_str(), (long long)to.value()));
  require_eq(from, to, Status::ShapeMismatch, "C2",
             "element counts of " + format_shape(in[0].shape) + " and " + format_shape(p.shape));
  return {in[0].dtype, p.shape};
}

// C1 one dim per operand dim; C2 dims distinct and in range of the output rank; C3 each operand
// extent is 1 or equals its output extent; C4 the output shape is valid.
Meta broadcast_in_dim(std::span<const Meta> in, const Params& params) {
  const auto& p = std::get<BroadcastInDimParams>(params);
  const Meta& x = in[0];
  require_valid_shape(p.shape, "shape", "C4");
  if (p.dims.size() != x.shape.size())
    violated(Status::ShapeMismatch, "C1",
             strformat("dims %s has %zu entries but the operand %s has rank %zu",
                       format_dims(p.dims).c_str(), p.dims.size(), format_shape(x.shape).c_str(),
                       x.shape.size()));
  Dims dims = require_axes(p.dims, static_cast<int64_t>(p.shape.size()), "dims", "C2");
  for (size_t i = 0; i < dims.size(); ++i) {
    Extent e = x.shape[i], t = p.shape[static_cast<size_t>(dims[i])];
    if (e == Extent(1) || e == t) continue;
    if (e.is_const() && t.is_const())
      violated(Status::ShapeMismatch, "C3",
               strformat("operand %s does not broadcast to %s along dims %s",
                         format_shape(x.shape).c_str(), format_shape(p.shape).c_str(),
                         format_dims(p.dims).c_str()));
    require_eq(e, t, Status::ShapeMismatch, "C3",
               strformat("dim %zu of operand %s broadcast to %s", i, format_shape(x.shape).c_str(),
                         format_shape(p.shape).c_str()));
  }
  return {x.dtype, p.shape};
}

Meta convert(std::span<const Meta> in, const Params& params) {
  DType d = std::get<ConvertParams>(params).dtype;
  if (!is_valid_dtype(static_cast<int32_t>(d)))
    violated(Status::InvalidArgument, "C1", strformat("unknown dtype %d", static_cast<int>(d)));
  return {d, in[0].shape};
}

// Where the operand is, and that it is on `from`, is the executor's to check: metadata carries no
// device.
Meta transfer(std::span<const Meta> in, const Params&) { return in[0]; }

Meta reverse(std::span<const Meta> in, const Params& params) {
  require_axes(std::get<AxesParams>(params).axes, static_cast<int64_t>(in[0].shape.size()), "axes",
               "C1");
  return in[0];
}

namespace {
void require_diag_axes(const DiagParams& p, int64_t rank, const char* label) {
  Dims ab{p.axis_a, p.axis_b};
  if (rank < 2)
    violated(Status::ShapeMismatch, label,
             strformat("needs rank >= 2, got rank %lld", (long long)rank));
  require_axes(ab, rank, "axes", label);
}
} // namespace

Meta extract_diag(std::span<const Meta> in, const Params& params) {
  const auto& p = std::get<DiagParams>(params);
  const Meta& x = in[0];
  require_diag_axes(p, static_cast<int64_t>(x.shape.size()), "C1");
  size_t a = static_cast<size_t>(p.axis_a), b = static_cast<size_t>(p.axis_b);
  Meta out{x.dtype, {}};
  for (size_t d = 0; d < x.shape.size(); ++d) {
    if (d == b) continue;
    out.shape.push_back(d == a ? min_extent(x.shape[a], x.shape[b]) : x.shape[d]);
  }
  return out;
}

Meta embed_diag(std::span<const Meta> in, const Params& params) {
  const auto& p = std::get<DiagParams>(params);
  const Meta& x = in[0];
  int64_t out_rank = static_cast<int64_t>(x.shape.size()) + 1;
  require_diag_axes(p, out_rank, "C1");
  size_t a_in = static_cast<size_t>(p.axis_a - (p.axis_b < p.axis_a ? 1 : 0));
  Extent n = x.shape[a_in];
  Meta out{x.dtype, x.shape};
  out.shape.insert(out.shape.begin() + p.axis_b, n);
  return out;
}

Meta triangle(std::span<const Meta> in, const Params&) {
  if (in[0].shape.size() < 2)
    violated(Status::ShapeMismatch, "C1",
             strformat("needs a matrix (rank >= 2), got %s", format_shape(in[0].shape).c_str()));
  return in[0];
}

Meta iota(std::span<const Meta>, const Params& params) {
  const auto& p = std::get<IotaParams>(params);
  require_valid_shape(p.shape, "shape", "C1");
  require_axis(p.axis, static_cast<int64_t>(p.shape.size()), "axis", "C2");
  if (!is_valid_dtype(static_cast<int32_t>(p.dtype)) || p.dtype == DType::Bool)
    violated(Status::DtypeMismatch, "C3",
             strformat("dtype %d is not a numeric dtype", static_cast<int>(p.dtype)));
  return {p.dtype, p.shape};
}

} // namespace tfe::ops::rules
