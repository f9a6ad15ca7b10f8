// The surface templates instantiated for TensorVar (surface.hpp).
#include "dataflow/tensor/surface.hpp"
#include "linalg/surface_impl.hpp"

namespace tfe::eager {
TFE_SURFACE_INSTANCES(dataflow::TensorVar, )
} // namespace tfe::eager

namespace tfe::linalg::api {
TFE_LINALG_SURFACE_INSTANCES(dataflow::TensorVar, )
} // namespace tfe::linalg::api
