// The entries of the regular C linalg functions (entries.hpp) for eager tensors, traced values and
// recorded eager values; dataflow tensors are instantiated in the dataflow layer.
#include "ad/recording/recorded.hpp"
#include "linalg/entries_impl.hpp"

namespace tfe::linalg::entry {
TFE_LINALG_ENTRY_INSTANCES(Tensor);
TFE_LINALG_ENTRY_INSTANCES(graph::Value);
TFE_LINALG_ENTRY_INSTANCES(ad::recording::Recorded);
} // namespace tfe::linalg::entry
