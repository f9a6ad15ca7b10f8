// runtime::Value (value.hpp).
#include "runtime/value.hpp"

#include <memory>

namespace tfe::runtime {
namespace {

using ad::recording::Recorded;

// Fills a once-slot with make(): the first writer wins, later ones use its leaf. make runs only
// while the slot is empty (an op on a plain operand must not allocate a leaf per call).
template <class Make> const Recorded& fill_once(std::atomic<Recorded*>& slot, Make make) {
  if (const Recorded* r = slot.load(std::memory_order_acquire)) return *r;
  auto fresh = std::make_unique<Recorded>(make());
  Recorded* expected = nullptr;
  if (slot.compare_exchange_strong(expected, fresh.get(), std::memory_order_acq_rel))
    return *fresh.release();
  return *expected;
}

} // namespace

Value::Value(Recorded&& r)
    : rep_(r.ref ? Rep(std::in_place_type<Recorded>, std::move(r))
                 : Rep(std::in_place_type<Tensor>, std::move(r.value))) {}

Value Value::concrete(const Context& ctx, Tensor&& v) {
  if (!ctx.is_dataflow() || !v.defined()) return Value(std::move(v));
  return Value(KnownFlow{}, v);
}

Value::Value(KnownFlow, const Tensor& v) : rep_(dataflow::TensorVar(v, false)), resolved_(v) {}

Value::~Value() {
  std::unique_ptr<Recorded> constant(constant_.load(std::memory_order_acquire));
  std::unique_ptr<Recorded> captured(captured_.load(std::memory_order_acquire));
}

ops::Meta Value::meta() const {
  switch (kind()) {
  case Kind::Symbolic: return traced().meta();
  case Kind::Flow: return var().meta();
  default: return {tensor().dtype(), Shape(tensor().shape())};
  }
}

const Tensor& Value::resolved(const Context& ctx) const {
  if (!flow()) return tensor();
  std::lock_guard lock(resolve_mu_);
  if (!resolved_.defined()) {
    dataflow::ScopedScheduler scope(*ctx.scheduler);
    resolved_ = var().value_wait();
  }
  return resolved_;
}

ad::recording::RawRef Value::trace() const {
  if (const Recorded* r = std::get_if<Recorded>(&rep_)) return r->ref;
  if (const Recorded* c = captured_.load(std::memory_order_acquire)) return c->ref;
  return {};
}

const Recorded& Value::operand(bool capturing) const {
  if (const Recorded* r = std::get_if<Recorded>(&rep_)) return *r;
  if (const Recorded* c = captured_.load(std::memory_order_acquire)) return *c;
  const Tensor& v = tensor();
  if (capturing)
    return fill_once(captured_, [&] { return Recorded{v, ad::recording::captured_leaf(v)}; });
  return fill_once(constant_, [&] { return Recorded{v, ad::recording::constant_leaf(v)}; });
}

graph::Value Value::as_traced(const Context& ctx) const {
  return symbolic() ? traced() : graph::captured(resolved(ctx));
}

void Value::set_trace(ad::recording::RawRef ref) {
  Tensor v = tensor();
  std::unique_ptr<Recorded> captured(captured_.exchange(nullptr, std::memory_order_acq_rel));
  if (ref)
    rep_ = Recorded{std::move(v), std::move(ref)};
  else
    rep_ = std::move(v);
}

void Value::set_concrete(const Context& ctx, Tensor v) {
  if (ctx.is_dataflow()) {
    rep_ = dataflow::TensorVar(v, false);
    std::lock_guard lock(resolve_mu_);
    resolved_ = std::move(v);
  } else {
    rep_ = std::move(v);
  }
}

} // namespace tfe::runtime
