// Shape rule of the reductions (reduce.hpp).
#include "ops/defs/reduce.hpp"

#include "ops/shape_checks.hpp"

namespace tfe::ops::rules {

Meta reduce(std::span<const Meta> in, const Params& params) {
  const auto& p = std::get<AxesParams>(params);
  const Meta& x = in[0];
  Dims axes = require_axes(p.axes, static_cast<int64_t>(x.shape.size()), "axes", "C1");
  Meta out{x.dtype, {}};
  for (size_t d = 0; d < x.shape.size(); ++d) {
    bool reduced = false;
    for (int64_t a : axes) reduced |= (a == static_cast<int64_t>(d));
    if (!reduced) out.shape.push_back(x.shape[d]);
  }
  return out;
}

} // namespace tfe::ops::rules
