// The handle structs behind the opaque C types, and the live-object counter. Each handle is
// reference counted by hand (the C ABI's retain/release); the C++ values inside are ordinary
// RAII types.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <type_traits>

#include "core/tensor.hpp"
#include "ad/derivative_cache.hpp"
#include "ad/eager/recorded.hpp"
#include "graph/compile.hpp"
#include "graph/lru_cache.hpp"
#include "graph/node.hpp"
#include "graph/program.hpp"
#include "dataflow/scheduler.hpp"
#include "dataflow/tensor/tensor_var.hpp"
#include "einsum/cache.hpp"
#include <vector>
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

struct tfe_context : tfe::capi::Counted {
  uint64_t id; // distinguishes contexts in messages
  // Compiled programs keyed by (program fingerprint, argument dtypes and shapes).
  tfe::graph::CompileCache compiled{256, int64_t{256} << 20};
  // Derivative programs keyed by (source fingerprint, transform, wrt); programs only. Shared by
  // traced functions and eager AD.
  tfe::ad::DerivativeCache derivatives{256, int64_t{64} << 20};
  // einsum plans (contraction paths) keyed by (subscripts, operand shapes).
  tfe::einsum::PlanCache einsum_plans{1024, int64_t{16} << 20};
  // Dataflow mode (tfe_context_create_dataflow): the scheduler of every op of this context.
  // Declared last: destroyed first, while the caches its tasks may use still exist.
  std::unique_ptr<tfe::dataflow::Scheduler> scheduler;
  bool is_dataflow() const { return static_cast<bool>(scheduler); }
  explicit tfe_context(uint64_t id_) : Counted(tfe::capi::kContextMagic), id(id_) {}
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

// A tensor handle holds a concrete value, or (a symbolic tensor) a value of a traced program.
// A concrete tensor is tracked for eager AD when `trace` is set: a tracked leaf (a variable), a
// captured leaf, or the result of a recorded op.
struct tfe_tensor : tfe::capi::Counted {
  tfe_context* ctx; // retained
  // The concrete value and its trace reference, stored as the recording value type so that a
  // recorded op reads its operands without copying them (value and trace name the two parts).
  tfe::ad::eager::Recorded eager;
  tfe::Tensor& value = eager.value;
  tfe::ad::eager::RawRef& trace = eager.ref;
  tfe::graph::Value traced;
  // In a dataflow context: the engine's tensor. Its value may still be computing; `value` holds
  // it once known (a leaf made from data, or after the first read, resolved_value()).
  tfe::dataflow::TensorVar flow;
  tfe_tensor(tfe_context* c, tfe::Tensor v);
  tfe_tensor(tfe_context* c, tfe::graph::Value v);
  tfe_tensor(tfe_context* c, tfe::ad::eager::Recorded v);
  tfe_tensor(tfe_context* c, tfe::dataflow::TensorVar v);
  ~tfe_tensor();
  bool is_dataflow() const { return static_cast<bool>(flow); }
  // Sets the value of a handle made empty (adopted buffers, DLPack), and its dataflow leaf.
  void set_value(tfe::Tensor v);
  // The concrete value; in a dataflow context waits for it (driving the context's scheduler)
  // and rethrows its failure.
  const tfe::Tensor& resolved_value() const;
  bool is_traced() const { return static_cast<bool>(traced); }
  bool is_tracked() const { return static_cast<bool>(trace); }
  const tfe::ad::eager::Recorded& recorded() const { return eager; }
  // This tensor as an operand of a recorded op: itself when tracked, else the same constant leaf
  // every time (made on first use), so recording an op with an untracked operand allocates no
  // leaf and the trace shares it. Thread-safe.
  const tfe::ad::eager::Recorded& operand() const;

private:
  mutable std::atomic<tfe::ad::eager::Recorded*> constant_{nullptr}; // owned; freed by ~tfe_tensor
  mutable std::mutex resolve_mu_; // the first read of a dataflow value

public:
  tfe::ops::Meta meta() const;
};

namespace tfe::capi {

void retain(tfe_context* ctx);
void release(tfe_context* ctx);
// A new handle holding value, retaining ctx.
tfe_tensor* new_tensor(tfe_context* ctx, Tensor value);
tfe_tensor* new_tensor(tfe_context* ctx, graph::Value value);
tfe_tensor* new_tensor(tfe_context* ctx, ad::eager::Recorded value);
tfe_tensor* new_tensor(tfe_context* ctx, dataflow::TensorVar value);
// The value of a handle as a traced value: its own, or a captured constant for a concrete one.
graph::Value as_traced(const tfe_tensor* t);
// The concrete value; InvalidArgument naming `name` for a symbolic tensor.
const Tensor& concrete_value(const tfe_tensor* t, const char* name);

} // namespace tfe::capi
