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

tfe_tensor* new_tensor(tfe_context* ctx, dataflow::TensorVar value) {
  return std::make_unique<tfe_tensor>(ctx, std::move(value)).release();
}

graph::Value as_traced(const tfe_tensor* t) {
  return t->is_traced() ? t->traced : graph::captured(concrete_value(t, "operand"));
}

const Tensor& concrete_value(const tfe_tensor* t, const char* name) {
  if (!t) fail(Status::InvalidArgument, "argument '%s' is NULL", name);
  if (t->is_traced())
    fail(Status::InvalidArgument, "'%s' is a symbolic tensor (a traced value has no data)", name);
  return t->resolved_value();
}

} // namespace tfe::capi

tfe_tensor::tfe_tensor(tfe_context* c, tfe::Tensor v) : ctx(c), eager{std::move(v), {}} {
  tfe::capi::retain(ctx);
  if (ctx->is_dataflow() && value.defined()) flow = tfe::dataflow::TensorVar(value, false);
}

tfe_tensor::tfe_tensor(tfe_context* c, tfe::dataflow::TensorVar v) : ctx(c), flow(std::move(v)) {
  tfe::capi::retain(ctx);
}

void tfe_tensor::set_value(tfe::Tensor v) {
  value = std::move(v);
  if (ctx->is_dataflow()) flow = tfe::dataflow::TensorVar(value, false);
}

const tfe::Tensor& tfe_tensor::resolved_value() const {
  if (!is_dataflow()) return value;
  std::lock_guard lock(resolve_mu_);
  if (!value.defined()) {
    tfe::dataflow::ScopedScheduler scope(*ctx->scheduler);
    const_cast<tfe::Tensor&>(value) = flow.value_wait();
  }
  return value;
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
  if (is_dataflow()) return flow.meta();
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
