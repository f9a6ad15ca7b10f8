// Shape rules of the elementwise groups (elementwise_rules.hpp).
#include "ops/defs/elementwise_rules.hpp"

#include "ops/shape_checks.hpp"

namespace tfe::ops::rules {

Meta same_as_operands(std::span<const Meta> in, const Params&) {
  require_same_shapes(in, "C1");
  require_same_dtypes(in, {0, 1, 2}, "C2");
  return in[0];
}

Meta real_of_operand(std::span<const Meta> in, const Params& p) {
  Meta m = same_as_operands(in, p);
  m.dtype = real_dtype(m.dtype);
  return m;
}

Meta compare(std::span<const Meta> in, const Params& p) {
  require_same_shapes(in, "C1");
  require_same_dtypes(in, {0, 1}, "C2");
  CompareDir dir = std::get<CompareParams>(p).dir;
  if (is_complex(in[0].dtype) && dir != CompareDir::Eq && dir != CompareDir::Ne)
    violated(Status::DtypeMismatch, "C3",
             strformat("direction %s is not defined for %s operands",
                       std::string(compare_dir_name(dir)).c_str(),
                       std::string(dtype_name(in[0].dtype)).c_str()));
  return {DType::Bool, in[0].shape};
}

Meta complex(std::span<const Meta> in, const Params&) {
  require_same_shapes(in, "C1");
  require_same_dtypes(in, {0, 1}, "C2");
  return {complex_dtype(in[0].dtype), in[0].shape};
}

Meta select(std::span<const Meta> in, const Params&) {
  if (in[0].dtype != DType::Bool)
    violated(Status::DtypeMismatch, "C1",
             strformat("predicate is %s, not Bool", std::string(dtype_name(in[0].dtype)).c_str()));
  require_same_shapes(in, "C2");
  require_same_dtypes(in, {1, 2}, "C3");
  return in[1];
}

} // namespace tfe::ops::rules
