// Handle lifetimes (handles.hpp).
#include "capi/handles.hpp"

#include <memory>

namespace tfe::capi {

std::atomic<int64_t>& live_objects() {
  static std::atomic<int64_t> count{0};
  return count;
}

void retain(tfe_context* ctx) { ctx->refs.fetch_add(1, std::memory_order_relaxed); }

void release(tfe_context* ctx) {
  if (ctx && ctx->refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
    std::unique_ptr<tfe_context> owned(ctx);
}

tfe_tensor* new_tensor(tfe_context* ctx, Tensor value) {
  return std::make_unique<tfe_tensor>(ctx, std::move(value)).release();
}

} // namespace tfe::capi

tfe_tensor::tfe_tensor(tfe_context* c, tfe::Tensor v) : ctx(c), value(std::move(v)) {
  tfe::capi::retain(ctx);
}

tfe_tensor::~tfe_tensor() { tfe::capi::release(ctx); }
