// Elementwise fusion of compiled programs. Neighbouring elementwise instructions of one shape
// form a region that a backend may run as one kernel walking the data once, keeping the values
// only the region reads in small per-block buffers instead of full tensors. The region is
// described in backend-neutral terms (ops, params, dtypes, operand positions, buffers); a
// backend binds it to its own loops (backend::Backend::fuse) or declines, and the instructions
// then run one by one as before. Fused and unfused programs give identical bits: the same scalar
// functions run on the same values in the same order per element.
#pragma once

#include <memory>
#include <vector>

#include "backend/fused_region.hpp"

namespace tfe::graph {

struct CompiledProgram;

// The region description lives with the backend interface (backend/fused_region.hpp), which
// the layers below graph/ may include.
using backend::FusedRegion;
using backend::FusedStep;

// Whether compile() fuses: on unless TFE_FUSION is "0" or "off", overridable in-process (tests and
// benchmarks compare both). Read at each compile; cached compilations keep what they were built
// with (the compile cache keys on it).
bool fusion_enabled();
void set_fusion_enabled(bool on);

// Replaces each region of two or more fusible instructions of c.code by one fused instruction,
// when c.backend binds it. Runs before liveness (free_after must be empty).
void fuse_elementwise(CompiledProgram& c);

} // namespace tfe::graph
