// The linalg surface for the three value types: eager tensors, traced values and recorded
// eager values (one definition, surface_impl.hpp).
#include "ad/recording/recorded.hpp"
#include "linalg/surface_impl.hpp"

namespace tfe::linalg::api {
TFE_LINALG_SURFACE_INSTANCES(Tensor, )
TFE_LINALG_SURFACE_INSTANCES(graph::Value, )
TFE_LINALG_SURFACE_INSTANCES(ad::recording::Recorded, )
} // namespace tfe::linalg::api
