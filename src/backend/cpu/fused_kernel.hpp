// The CPU backend's fusion: binds a fused elementwise region (backend/fused_region.hpp) to a block
// interpreter that walks the data once in L1-sized blocks, running each step's block function
// (fused_steps.hpp) on per-thread buffers and writing only the region's outputs.
#pragma once

#include <memory>

#include "backend/backend.hpp"

namespace tfe::cpu {

// Null when a step has no fused CPU version (the region then runs unfused).
std::shared_ptr<const backend::FusedKernel> fuse(const backend::FusedRegion& region);

} // namespace tfe::cpu
