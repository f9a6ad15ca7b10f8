// The op surface (eager/surface.hpp, linalg/surface.hpp) over TensorVar: every surface op,
// scheduled on the dataflow engine. Instantiated once in surface_instances.cpp.
#pragma once

#include "dataflow/tensor/tensor_var.hpp"
#include "eager/surface.hpp"
#include "linalg/surface.hpp"

namespace tfe::eager {
TFE_SURFACE_INSTANCES(dataflow::TensorVar, extern)
} // namespace tfe::eager

namespace tfe::linalg::api {
TFE_LINALG_SURFACE_INSTANCES(dataflow::TensorVar, extern)
} // namespace tfe::linalg::api
