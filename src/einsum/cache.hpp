// The per-context cache of einsum plans, keyed by the exact subscripts and the operands' shapes
// (TFE_CACHE_EINSUM). Plans for symbolic shapes are made afresh: tracing runs once per program.
#pragma once

#include <memory>
#include <span>
#include <string_view>

#include "einsum/plan.hpp"
#include "graph/lru_cache.hpp"

namespace tfe::einsum {

using PlanCache = graph::LruCache<Plan>;

// The plan from the cache (a hit) or made and stored (a miss); cache may be null. Malformed
// subscripts and mismatched shapes throw and store nothing.
std::shared_ptr<const Plan> plan_cached(PlanCache* cache, std::string_view subscripts,
                                        std::span<const Shape> shapes);

} // namespace tfe::einsum
