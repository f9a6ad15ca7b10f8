// The einsum plan cache (cache.hpp).
#include "einsum/cache.hpp"

#include <cstring>

namespace tfe::einsum {

namespace {

// The exact key: the subscripts' bytes packed eight to a word, then each operand's rank and
// extents. Equal keys mean equal inputs, so a hit can never return another einsum's plan.
graph::CacheKey key_of(std::string_view subscripts, std::span<const Shape> shapes) {
  graph::CacheKey key;
  key.push_back(subscripts.size());
  for (size_t i = 0; i < subscripts.size(); i += 8) {
    uint64_t w = 0;
    std::memcpy(&w, subscripts.data() + i, std::min<size_t>(8, subscripts.size() - i));
    key.push_back(w);
  }
  key.push_back(shapes.size());
  for (const Shape& s : shapes) {
    key.push_back(s.size());
    for (Extent e : s) key.push_back(static_cast<uint64_t>(e.value()));
  }
  return key;
}

bool all_const(std::span<const Shape> shapes) {
  for (const Shape& s : shapes)
    for (Extent e : s)
      if (!e.is_const()) return false;
  return true;
}

} // namespace

std::shared_ptr<const Plan> plan_cached(PlanCache* cache, std::string_view subscripts,
                                        std::span<const Shape> shapes) {
  if (!cache || !all_const(shapes))
    return std::make_shared<const Plan>(make_plan(subscripts, shapes));
  graph::CacheKey key = key_of(subscripts, shapes);
  if (std::shared_ptr<const Plan> hit = cache->find(key)) return hit;
  auto plan = std::make_shared<const Plan>(make_plan(subscripts, shapes));
  cache->insert(key, plan, plan->bytes() + static_cast<int64_t>(8 * key.size()));
  return plan;
}

} // namespace tfe::einsum
