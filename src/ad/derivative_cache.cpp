// Implementation of the derivative cache (derivative_cache.hpp).
#include "ad/derivative_cache.hpp"

namespace tfe::ad {

std::shared_ptr<const CachedDerivative> transform_cached(DerivativeCache& cache,
                                                         const graph::Program& p, Transform kind,
                                                         const std::vector<int64_t>& wrt) {
  graph::CacheKey key{p.fingerprint, p.fingerprint2, static_cast<uint64_t>(kind)};
  for (int64_t i : wrt) key.push_back(static_cast<uint64_t>(i));
  if (auto hit = cache.find(key)) return hit;
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
  entry->program = graph::without_data(*r.program);
  entry->structurally_zero = r.structurally_zero;
  int64_t bytes =
      static_cast<int64_t>(sizeof(CachedDerivative) + entry->program->order.size() * 256);
  cache.insert(key, entry, bytes);
  return entry;
}

} // namespace tfe::ad
