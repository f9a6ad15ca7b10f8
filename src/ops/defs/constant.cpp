// Shape rule of Constant (constant.hpp).
#include "ops/defs/constant.hpp"

#include "ops/shape_checks.hpp"

namespace tfe::ops::rules {

Meta constant(std::span<const Meta>, const Params& params) {
  const auto& p = std::get<ConstantParams>(params);
  require_valid_shape(Shape(p.shape), "shape", "C1");
  int64_t need = numel_of(p.shape) * itemsize(p.dtype);
  if (static_cast<int64_t>(p.bytes.size()) != need)
    violated(Status::InvalidArgument, "C2",
             strformat("%zu bytes given but %s tensor of shape %s needs %lld", p.bytes.size(),
                       std::string(dtype_phrase(p.dtype)).c_str(), format_dims(p.shape).c_str(),
                       (long long)need));
  return {p.dtype, p.shape};
}

} // namespace tfe::ops::rules
