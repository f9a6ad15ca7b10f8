// svd_truncated and qr_pivoted for the value types of this layer and below (the dataflow tensor's
// instances are in the dataflow layer).
#include "linalg/truncated_impl.hpp"

namespace tfe::linalg::api {
TFE_LINALG_TRUNCATED_INSTANCES(Tensor, )
TFE_LINALG_TRUNCATED_INSTANCES(graph::Value, )
TFE_LINALG_TRUNCATED_INSTANCES(ad::recording::Recorded, )
} // namespace tfe::linalg::api
