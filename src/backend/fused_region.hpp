// A fused elementwise region in backend-neutral terms: what graph::compile hands a backend to
// bind (backend.hpp, Backend::fuse) in place of several elementwise instructions. graph/fusion.hpp
// forms the regions; decision 0027 gives the design.
#pragma once

#include <vector>

#include "core/dtype.hpp"
#include "core/shape.hpp"
#include "ops/op_table.hpp"

namespace tfe::backend {

// One op of a region. An operand k >= 0 is the result of step k; k < 0 is region input ~k.
struct FusedStep {
  ops::OpCode op;
  ops::Params params; // concrete
  DType dtype;        // of the result
  SmallVector<int32_t, 3> operands;
  // Where the result lives while a block is computed: region output `output` when >= 0 (it is
  // written straight into that tensor), else scratch buffer `buffer`. Buffers are reused once
  // their value is dead, never by a step that reads them.
  int32_t output = -1;
  int32_t buffer = -1;
};

struct FusedRegion {
  Dims shape;                        // every step's result has this shape
  std::vector<DType> input_dtypes;   // one per region input (the instruction's input slots)
  std::vector<FusedStep> steps;      // in an order that respects their operands
  std::vector<int32_t> output_steps; // the step behind each region output
  int32_t num_buffers = 0;
};

} // namespace tfe::backend
