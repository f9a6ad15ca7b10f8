// The shape helpers (eager/shape_extra.hpp), the linalg companions (linalg/derived.hpp) and the
// truncated factorisations (linalg/truncated.hpp) for dataflow tensors: instantiated here because
// the dataflow layer sits above eager and linalg.
#include "dataflow/tensor/surface.hpp"
#include "eager/shape_extra_impl.hpp"
#include "linalg/derived_impl.hpp"
#include "linalg/truncated_impl.hpp"

namespace tfe::eager {
TFE_SHAPE_EXTRA_INSTANCES(dataflow::TensorVar)
} // namespace tfe::eager

namespace tfe::linalg::api {
TFE_DERIVED_INSTANCES(dataflow::TensorVar)
TFE_LINALG_TRUNCATED_INSTANCES(dataflow::TensorVar, )
} // namespace tfe::linalg::api
