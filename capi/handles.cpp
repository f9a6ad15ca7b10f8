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

graph::Value as_traced(const tfe_tensor* t) {
  return t->value.symbolic() ? t->value.traced() : graph::captured(concrete_value(t, "operand"));
}

const Tensor& concrete_value(const tfe_tensor* t, const char* name) {
  require(t, name);
  if (t->value.symbolic())
    fail(Status::InvalidArgument, "'%s' is a symbolic tensor (a traced value has no data)", name);
  return t->value.resolved(*t->ctx);
}

const Tensor& host_value(const tfe_tensor* t, const char* name) {
  const Tensor& v = concrete_value(t, name);
  if (!v.device().is_cpu())
    fail(Status::Device,
         "'%s' is on %s; the host reads elements only of host tensors (move it with "
         "tfe_tensor_to_device first)",
         name, device_name(v.device()).c_str());
  return v;
}

} // namespace tfe::capi

tfe_tensor::tfe_tensor(tfe_context* c, tfe::Tensor&& v)
    : Counted(tfe::capi::kTensorMagic), ctx(c),
      value(tfe::runtime::Value::concrete(*c, std::move(v))) {
  tfe::capi::retain(ctx);
}

tfe_tensor::~tfe_tensor() { tfe::capi::release(ctx); }

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
