// Shape rules of the order group (order.hpp).
#include "ops/defs/order.hpp"

#include "ops/shape_checks.hpp"

namespace tfe::ops::rules {

namespace {
int64_t axis_of(const Params& params) {
  if (const auto* s = std::get_if<SortParams>(&params)) return s->axis;
  return std::get<AxisParams>(params).axis;
}
} // namespace

Meta scan(std::span<const Meta> in, const Params& params) {
  require_axis(axis_of(params), static_cast<int64_t>(in[0].shape.size()), "axis", "C1");
  return in[0];
}

Meta argsort(std::span<const Meta> in, const Params& params) {
  require_axis(axis_of(params), static_cast<int64_t>(in[0].shape.size()), "axis", "C1");
  return {DType::I64, in[0].shape};
}

Meta arg_extremum(std::span<const Meta> in, const Params& params) {
  const Meta& x = in[0];
  int64_t axis = require_axis(axis_of(params), static_cast<int64_t>(x.shape.size()), "axis", "C1");
  Meta out{DType::I64, {}};
  for (size_t d = 0; d < x.shape.size(); ++d)
    if (static_cast<int64_t>(d) != axis) out.shape.push_back(x.shape[d]);
  return out;
}

} // namespace tfe::ops::rules
