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

tfe_tensor* new_tensor(tfe_context* ctx, graph::Value value) {
  return std::make_unique<tfe_tensor>(ctx, std::move(value)).release();
}

tfe_tensor* new_tensor(tfe_context* ctx, ad::eager::Recorded value) {
  return std::make_unique<tfe_tensor>(ctx, std::move(value)).release();
}

graph::Value as_traced(const tfe_tensor* t) {
  return t->is_traced() ? t->traced : graph::captured(t->value);
}

const Tensor& concrete_value(const tfe_tensor* t, const char* name) {
  if (!t) fail(Status::InvalidArgument, "argument '%s' is NULL", name);
  if (t->is_traced())
    fail(Status::InvalidArgument, "'%s' is a symbolic tensor (a traced value has no data)", name);
  return t->value;
}

} // namespace tfe::capi

tfe_tensor::tfe_tensor(tfe_context* c, tfe::Tensor v) : ctx(c), eager{std::move(v), {}} {
  tfe::capi::retain(ctx);
}

tfe_tensor::tfe_tensor(tfe_context* c, tfe::graph::Value v) : ctx(c), traced(std::move(v)) {
  tfe::capi::retain(ctx);
}

tfe_tensor::tfe_tensor(tfe_context* c, tfe::ad::eager::Recorded v) : ctx(c), eager(std::move(v)) {
  tfe::capi::retain(ctx);
}

tfe_tensor::~tfe_tensor() {
  std::unique_ptr<tfe::ad::eager::Recorded> constant(constant_.load(std::memory_order_acquire));
  tfe::capi::release(ctx);
}

const tfe::ad::eager::Recorded& tfe_tensor::operand() const {
  if (is_tracked()) return eager;
  if (const tfe::ad::eager::Recorded* c = constant_.load(std::memory_order_acquire)) return *c;
  auto fresh = std::make_unique<tfe::ad::eager::Recorded>(
      tfe::ad::eager::Recorded{value, tfe::ad::eager::constant_leaf(value)});
  tfe::ad::eager::Recorded* expected = nullptr;
  if (constant_.compare_exchange_strong(expected, fresh.get(), std::memory_order_acq_rel))
    return *fresh.release();
  return *expected; // another thread made it first
}

tfe::ops::Meta tfe_tensor::meta() const {
  if (is_traced()) return traced.meta();
  return {value.dtype(), tfe::Shape(value.shape())};
}

tfe_function::tfe_function(tfe_context* c, tfe::graph::ProgramPtr p, std::vector<tfe::Tensor> b,
                           std::vector<bool> zero)
    : ctx(c), program(std::move(p)), bindings(std::move(b)), structurally_zero(std::move(zero)) {
  tfe::capi::retain(ctx);
}
tfe_function::~tfe_function() { tfe::capi::release(ctx); }

tfe_results::tfe_results(tfe_context* c, std::vector<tfe::Tensor> v)
    : ctx(c), values(std::move(v)) {
  tfe::capi::retain(ctx);
}
tfe_results::~tfe_results() { tfe::capi::release(ctx); }
