// Implementation of the derivative cache (derivative_cache.hpp).
#include "ad/derivative_cache.hpp"

#include <unordered_map>

namespace tfe::ad {

std::shared_ptr<const CachedDerivative> transform_cached(DerivativeCache& cache,
                                                         const graph::Program& p, Transform kind,
                                                         const std::vector<int64_t>& wrt) {
  graph::CacheKey key{p.fingerprint, p.fingerprint2, static_cast<uint64_t>(kind)};
  for (int64_t i : wrt) key.push_back(static_cast<uint64_t>(i));
  ops::ShapeWitness* witness = ops::ShapeWitness::current();
  auto valid_here = [witness](const CachedDerivative& d) {
    return witness ? witness->satisfies(d.decisions) : d.decisions.empty();
  };
  if (auto hit = cache.find_if(key, valid_here)) return hit;
  Derivative r;
  switch (kind) {
  case Transform::Jvp: r = jvp(p, wrt); break;
  case Transform::Vjp: r = vjp(p, wrt); break;
  case Transform::Grad: r = grad(p, wrt); break;
  case Transform::HvpForwardOverReverse: r = hvp(p, wrt, HvpMode::ForwardOverReverse); break;
  case Transform::HvpReverseOverReverse: r = hvp(p, wrt, HvpMode::ReverseOverReverse); break;
  }
  auto entry = std::make_shared<CachedDerivative>();
  for (const graph::Value& c : r.program->captured) {
    size_t k = 0;
    while (k < p.captured.size() && p.captured[k].node != c.node) ++k;
    if (k == p.captured.size())
      fail(Status::Internal, "a derivative program reads a constant its source does not have");
    entry->source_index.push_back(k);
  }
  // without_data keeps node creation order, so order positions carry over to the copy.
  std::unordered_map<const graph::Node*, int32_t> source_position;
  for (size_t k = 0; k < p.order.size(); ++k)
    source_position.emplace(p.order[k].get(), static_cast<int32_t>(k));
  for (size_t k = 0; k < r.program->order.size(); ++k)
    if (auto it = source_position.find(r.program->order[k].get()); it != source_position.end())
      entry->primal.push_back({static_cast<int32_t>(k), it->second});
  entry->program = graph::without_data(*r.program);
  entry->structurally_zero = r.structurally_zero;
  if (witness) entry->decisions = witness->decisions();
  int64_t bytes =
      static_cast<int64_t>(sizeof(CachedDerivative) + entry->program->order.size() * 256);
  cache.insert_variant(key, entry, bytes);
  return entry;
}

} // namespace tfe::ad
