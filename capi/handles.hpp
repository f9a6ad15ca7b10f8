// The handle structs behind the opaque C types, and the live-object counter. Each handle is
// reference counted by hand (the C ABI's retain/release); the C++ values inside are ordinary
// RAII types.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <type_traits>

#include <vector>

#include "core/tensor.hpp"
#include "graph/program.hpp"
#include "runtime/context.hpp"
#include "runtime/value.hpp"
#include "tenferro/tenferro.h"

struct tfe_context;
struct tfe_tensor;
struct tfe_function;
struct tfe_results;

namespace tfe::capi {

// Counts live handles for tfe_debug_live_objects.
std::atomic<int64_t>& live_objects();

// The first word of every handle: which kind of handle it is while it lives, kReleased after its
// last release. Entry points compare it before any other use, so a released handle (or a handle
// of another kind) is an InvalidArgument instead of a read of freed memory (docs/reliability.md).
enum HandleMagic : uint32_t {
  kReleased = 0xdead7fe0u,
  kAnyHandle = 0x7fe10000u, // kinds without their own word (linalg options)
  kContextMagic = 0x7fe10001u,
  kTensorMagic = 0x7fe10002u,
  kFunctionMagic = 0x7fe10003u,
  kResultsMagic = 0x7fe10004u,
};

// A freed handle's memory is not given back at once: each thread keeps its last kQuarantine freed
// handles, so the magic word of a recently released handle still reads kReleased. The oldest is
// freed when a newer one arrives (see handles.cpp).
inline constexpr size_t kQuarantine = 1024;
void quarantine(void* p) noexcept;

struct Counted {
  explicit Counted(uint32_t kind = kAnyHandle) : magic(kind) {
    live_objects().fetch_add(1, std::memory_order_relaxed);
  }
  Counted(const Counted&) = delete;
  Counted& operator=(const Counted&) = delete;
  ~Counted() {
    // An atomic store: not a dead store the compiler may drop before the memory is quarantined.
    magic.store(kReleased, std::memory_order_release);
    live_objects().fetch_sub(1, std::memory_order_relaxed);
  }
  // Every handle type is deleted through here (unique_ptr<T> finds it by lookup in T).
  static void operator delete(void* p) noexcept { quarantine(p); }
  static void operator delete(void* p, size_t) noexcept { quarantine(p); }

  std::atomic<uint32_t> magic;
  // Release decrements with acq_rel so the deleting thread sees every write made through
  // other references (the usual shared_ptr ordering).
  std::atomic<int64_t> refs{1};
};

template <class T> constexpr uint32_t magic_of() {
  if constexpr (std::is_same_v<T, tfe_context>)
    return kContextMagic;
  else if constexpr (std::is_same_v<T, tfe_tensor>)
    return kTensorMagic;
  else if constexpr (std::is_same_v<T, tfe_function>)
    return kFunctionMagic;
  else if constexpr (std::is_same_v<T, tfe_results>)
    return kResultsMagic;
  else
    return kAnyHandle;
}

// True while p is a live handle of kind T (p non-null).
template <class T> bool is_live(const T* p) {
  return p->magic.load(std::memory_order_acquire) == magic_of<std::remove_cv_t<T>>();
}

// Records "fn: argument 'name' was already released" as the thread's message (release functions
// return nothing, so the message is how a second release is reported).
void report_released(const char* fn, const char* name) noexcept;

template <class T> constexpr const char* release_name() {
  if constexpr (std::is_same_v<T, tfe_function>)
    return "tfe_function_release";
  else if constexpr (std::is_same_v<T, tfe_results>)
    return "tfe_results_release";
  else
    return "tfe_linalg_options_release"; // the one kind without its own magic word
}

// Drops one reference of a handle; the last one frees it. A released handle is left alone.
template <class T>
void release_counted(T* p, const char* fn = release_name<T>(), const char* name = "handle") {
  if (!p) return;
  if (!is_live(p)) {
    report_released(fn, name);
    return;
  }
  if (p->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) std::unique_ptr<T> owned(p);
}

} // namespace tfe::capi

// A context handle: the runtime context (caches, scheduler, scope state; runtime/context.hpp)
// behind a reference count.
struct tfe_context : tfe::capi::Counted, tfe::runtime::Context {
  explicit tfe_context(uint64_t id_) : Counted(tfe::capi::kContextMagic), Context(id_) {}
};

struct tfe_function : tfe::capi::Counted {
  tfe_context* ctx; // retained
  tfe::graph::ProgramPtr program;
  std::vector<tfe::Tensor> bindings;   // values of program->captured, in order
  std::vector<bool> structurally_zero; // per output
  tfe_function(tfe_context* c, tfe::graph::ProgramPtr p, std::vector<tfe::Tensor> b,
               std::vector<bool> zero);
  ~tfe_function();
};

struct tfe_results : tfe::capi::Counted {
  tfe_context* ctx; // retained
  std::vector<tfe::Tensor> values;
  tfe_results(tfe_context* c, std::vector<tfe::Tensor> v);
  ~tfe_results();
};

namespace tfe::capi {
void retain(tfe_context* ctx);
void release(tfe_context* ctx);
} // namespace tfe::capi

// A tensor handle: one runtime value (runtime/value.hpp) of its context, behind a reference count.
struct tfe_tensor : tfe::capi::Counted {
  tfe_context* ctx; // retained
  tfe::runtime::Value value;
  // From an rvalue of one of the representations (a Tensor is made a leaf of a dataflow context).
  tfe_tensor(tfe_context* c, tfe::Tensor&& v);
  template <class V>
  requires(!std::is_lvalue_reference_v<V>) tfe_tensor(tfe_context* c, V&& v)
      : Counted(tfe::capi::kTensorMagic), ctx(c), value(std::move(v)) {
    tfe::capi::retain(ctx);
  }
  ~tfe_tensor();
  tfe::ops::Meta meta() const { return value.meta(); }
};

namespace tfe::capi {

// A new handle holding value (any representation of runtime::Value), retaining ctx.
// Moves an rvalue in (results pass through without a copy), copies an lvalue.
template <class V> tfe_tensor* new_tensor(tfe_context* ctx, V&& value) {
  if constexpr (std::is_lvalue_reference_v<V>) {
    std::decay_t<V> copy(value);
    return std::make_unique<tfe_tensor>(ctx, std::move(copy)).release();
  } else {
    return std::make_unique<tfe_tensor>(ctx, std::move(value)).release();
  }
}
// The value of a handle as a traced value: its own, or a captured constant for a concrete one.
graph::Value as_traced(const tfe_tensor* t);
// The concrete value; InvalidArgument naming `name` for a symbolic tensor.
const Tensor& concrete_value(const tfe_tensor* t, const char* name);
// The concrete value of a host tensor; a Device error for one on an accelerator (its elements are
// not addressable here).
const Tensor& host_value(const tfe_tensor* t, const char* name);

} // namespace tfe::capi
