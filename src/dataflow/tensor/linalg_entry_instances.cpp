// The entries of the regular C linalg functions (linalg/entries.hpp) for dataflow tensors:
// instantiated here because the dataflow layer sits above linalg.
#include "dataflow/tensor/surface.hpp"
#include "linalg/entries_impl.hpp"

namespace tfe::linalg::entry {
TFE_LINALG_ENTRY_INSTANCES(dataflow::TensorVar);
} // namespace tfe::linalg::entry
