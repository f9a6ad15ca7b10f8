// The traced instantiation of the surface (eager/surface.hpp): the same promotion, broadcasting
// and sugar, appending ops to a program instead of running them. It lives with the surface, not
// in graph/, so the program layer never includes the surface built on it.
#include <cstring>

#include "eager/surface_impl.hpp"

namespace tfe::graph {

Value literal(const Tensor& value, const Value*) {
  // The bytes of a compact copy: a view (a slice, a broadcast) is not its storage's bytes.
  Tensor compact = eager::contiguous(value);
  ops::ConstantParams p{compact.dtype(), compact.shape(), {}};
  p.bytes.resize(static_cast<size_t>(compact.nbytes()));
  if (!p.bytes.empty()) std::memcpy(p.bytes.data(), compact.raw_data(), p.bytes.size());
  return emit(ops::OpCode::Constant, {}, p);
}

} // namespace tfe::graph

namespace tfe::eager {
TFE_SURFACE_INSTANCES(graph::Value, )
} // namespace tfe::eager
