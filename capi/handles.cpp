// Handle lifetimes (handles.hpp).
#include "capi/handles.hpp"

#include <array>
#include <memory>
#include <new>
#include <utility>

#include "capi/guard.hpp"

namespace tfe::capi {

std::atomic<int64_t>& live_objects() {
  static std::atomic<int64_t> count{0};
  return count;
}

namespace {

// One thread's recently freed handles, oldest first out. Thread-local: no lock on the release
// path (the one-element op pays a handful of instructions); a handle released on one thread and
// used on another is still caught while it sits in the releasing thread's ring.
class Quarantine {
public:
  Quarantine() = default;
  Quarantine(const Quarantine&) = delete;
  Quarantine& operator=(const Quarantine&) = delete;
  ~Quarantine() {
    for (void* p : slots_) ::operator delete(p);
  }
  void push(void* p) noexcept {
    void* oldest = std::exchange(slots_[next_], p);
    next_ = (next_ + 1) % slots_.size();
    ::operator delete(oldest); // NULL until the ring has filled once
  }

private:
  std::array<void*, kQuarantine> slots_{};
  size_t next_ = 0;
};

} // namespace

void quarantine(void* p) noexcept {
  // Freed during or after this thread's exit (a handle dropped from a destructor of another
  // thread_local): no ring any more, the memory goes back at once.
  // The ring is made before the flag, so the flag's destructor (alive = false) runs first.
  static thread_local bool alive = true;
  static thread_local Quarantine ring;
  struct Flag {
    ~Flag() { alive = false; }
  };
  static thread_local Flag flag;
  (void)flag;
  if (!alive) {
    ::operator delete(p);
    return;
  }
  ring.push(p);
}

// Handles are allocated by plain new: no over-aligned kind, so the unsized ::operator delete the
// quarantine ends with matches.
static_assert(alignof(tfe_context) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__ &&
              alignof(tfe_tensor) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__ &&
              alignof(tfe_function) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__ &&
              alignof(tfe_results) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);

void report_released(const char* fn, const char* name) noexcept {
  set_error(fn, TFE_ERR_INVALID_ARGUMENT,
            std::string("argument '") + name + "' was already released");
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
  require(t, name);
  if (t->is_traced())
    fail(Status::InvalidArgument, "'%s' is a symbolic tensor (a traced value has no data)", name);
  return t->resolved_value();
}

} // namespace tfe::capi

tfe_tensor::tfe_tensor(tfe_context* c, tfe::Tensor v)
    : Counted(tfe::capi::kTensorMagic), ctx(c), eager{std::move(v), {}} {
  tfe::capi::retain(ctx);
  if (ctx->is_dataflow() && value.defined()) flow = tfe::dataflow::TensorVar(value, false);
}

tfe_tensor::tfe_tensor(tfe_context* c, tfe::dataflow::TensorVar v)
    : Counted(tfe::capi::kTensorMagic), ctx(c), flow(std::move(v)) {
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

tfe_tensor::tfe_tensor(tfe_context* c, tfe::graph::Value v)
    : Counted(tfe::capi::kTensorMagic), ctx(c), traced(std::move(v)) {
  tfe::capi::retain(ctx);
}

tfe_tensor::tfe_tensor(tfe_context* c, tfe::ad::eager::Recorded v)
    : Counted(tfe::capi::kTensorMagic), ctx(c), eager(std::move(v)) {
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
    : Counted(tfe::capi::kFunctionMagic), ctx(c), program(std::move(p)), bindings(std::move(b)),
      structurally_zero(std::move(zero)) {
  tfe::capi::retain(ctx);
}
tfe_function::~tfe_function() { tfe::capi::release(ctx); }

tfe_results::tfe_results(tfe_context* c, std::vector<tfe::Tensor> v)
    : Counted(tfe::capi::kResultsMagic), ctx(c), values(std::move(v)) {
  tfe::capi::retain(ctx);
}
tfe_results::~tfe_results() { tfe::capi::release(ctx); }
