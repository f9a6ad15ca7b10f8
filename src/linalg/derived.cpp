// matrix_rank, logdet and cholesky_solve (derived.hpp) for eager tensors, traced values and
// recorded eager values; dataflow tensors are instantiated in the dataflow layer.
#include "ad/recording/recorded.hpp"
#include "linalg/derived_impl.hpp"

namespace tfe::linalg::api {
TFE_DERIVED_INSTANCES(Tensor)
TFE_DERIVED_INSTANCES(graph::Value)
TFE_DERIVED_INSTANCES(ad::recording::Recorded)
} // namespace tfe::linalg::api
