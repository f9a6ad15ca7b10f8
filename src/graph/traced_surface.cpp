// The traced instantiation of the surface (eager/surface.hpp): the same promotion, broadcasting
// and sugar, appending ops to a program instead of running them.
#include <cstring>

#include "eager/surface_impl.hpp"

namespace tfe::graph {

Value literal(const Tensor& value, const Value*) {
  ops::ConstantParams p{value.dtype(), value.shape(), {}};
  p.bytes.resize(static_cast<size_t>(value.nbytes()));
  if (!p.bytes.empty()) std::memcpy(p.bytes.data(), value.raw_data(), p.bytes.size());
  return emit(ops::OpCode::Constant, {}, p);
}

} // namespace tfe::graph

namespace tfe::eager {
TFE_SURFACE_INSTANCES(graph::Value, )
} // namespace tfe::eager
