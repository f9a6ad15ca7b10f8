// Derivative programs cached by program structure (docs/design/ad-contract.md: caches hold programs
// only). Shared by traced functions and eager AD: the key is the source program's fingerprint, the
// transform and the differentiated inputs; the entry is the derivative program copied without
// tensor data, plus where each of its captured constants and recomputed primal nodes sits in the
// source program, so any structurally equal program binds its own values.
#pragma once

#include <memory>
#include <vector>

#include "ad/transforms.hpp"
#include "graph/lru_cache.hpp"

namespace tfe::ad {

enum class Transform : uint64_t {
  Jvp = 1,
  Vjp,
  Grad,
  HvpForwardOverReverse,
  HvpReverseOverReverse
};

struct PrimalNode {
  int32_t position;        // in the derivative program's order
  int32_t source_position; // in the source program's order
};

struct CachedDerivative {
  graph::ProgramPtr program;
  std::vector<size_t> source_index; // captured constant i of program = source captured[index]
  std::vector<bool> structurally_zero;
  // The primal nodes the program recomputes: (position in program->order, position in the
  // source's order). A caller that still holds those values (eager AD) binds them instead.
  std::vector<PrimalNode> primal;
  // The shape decisions the program was built under (decided at an eager request's recorded
  // extents, ops::ShapeWitness): it serves a request only when they hold for its extents too.
  std::vector<ops::ShapeGuard> decisions;
};
using DerivativeCache = graph::LruCache<CachedDerivative>;

// wrt must be normalized (normalize_wrt). Under a ShapeWitness, an entry is reused only when
// its decisions hold at the witness's extents, and a new entry records every decision the
// witness holds (those of the analysis that built p, then the transform's); without one, only
// entries built without decisions are reused. So 5x3 and 7x4 QR share a derivative program
// (both tall) while 5x3 and 3x5 get one each.
std::shared_ptr<const CachedDerivative> transform_cached(DerivativeCache& cache,
                                                         const graph::Program& p, Transform kind,
                                                         const std::vector<int64_t>& wrt);

} // namespace tfe::ad
