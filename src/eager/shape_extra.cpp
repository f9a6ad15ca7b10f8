// The shape helpers and *_like constructors (shape_extra.hpp) for eager tensors and traced
// values; the recorded and dataflow value types are instantiated in their own layers.
#include "eager/shape_extra_impl.hpp"

namespace tfe::eager {
TFE_SHAPE_EXTRA_INSTANCES(Tensor)
TFE_SHAPE_EXTRA_INSTANCES(graph::Value)
} // namespace tfe::eager
