// The runtime context: everything one C context (tfe_context) owns below the ABI, and the one
// place that knows the grad mode of the calling thread.
//
// Ownership and threads (decision 0028):
// - A Context is owned by its tfe_context handle and lives until the last handle that retains it
//   is released. Its caches lock themselves and may be used from any thread.
// - `scheduler` is set once, while the context is created and before any other thread can see it;
//   it is read-only after that. A dataflow context is one with a scheduler.
// - no_grad and capture_trace depths, and device scopes, are per (thread, context): each thread
// keeps its own list,
//   keyed by the context's id (never its address, which a new context could reuse), so reading
//   them takes no lock and one thread's scope never changes another thread's ops. This file is
//   their only owner; ad::recording's capture flag is set from here (runtime/dispatch.hpp), for the
//   length of one recorded op on the calling thread.
#pragma once

#include <cstdint>
#include <memory>

#include "ad/derivative_cache.hpp"
#include "core/device.hpp"
#include "ad/vjp_kernel.hpp"
#include "dataflow/scheduler.hpp"
#include "einsum/cache.hpp"
#include "graph/compile.hpp"

namespace tfe::runtime {

// The recording scopes of the calling thread for one context; both nest.
struct RecordingState {
  int32_t no_grad = 0;
  int32_t capture = 0;
};

class Context {
public:
  explicit Context(uint64_t id_) : id(id_) {}
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  const uint64_t id; // distinguishes contexts in messages and in the per-thread scope lists
  // Compiled programs keyed by (program fingerprint, argument dtypes and shapes).
  graph::CompileCache compiled{256, int64_t{256} << 20};
  // Derivative programs keyed by (source fingerprint, transform, wrt); programs only. Shared by
  // traced functions and eager AD.
  ad::DerivativeCache derivatives{256, int64_t{64} << 20};
  // einsum plans (contraction paths) keyed by (subscripts, operand shapes).
  einsum::PlanCache einsum_plans{1024, int64_t{16} << 20};
  // The one-op VJP programs the dataflow engine's reverse tasks run, keyed by (op, params,
  // operand dtypes and shapes, placement).
  // Mutable: ops run through a const context, and the cache locks itself like the others.
  mutable ad::VjpKernelCache vjp_kernels{1024, int64_t{64} << 20};
  // Dataflow mode: the scheduler of every op of this context. Declared last: destroyed first,
  // while the caches its tasks may use still exist.
  std::unique_ptr<dataflow::Scheduler> scheduler;

  bool is_dataflow() const { return static_cast<bool>(scheduler); }

  // The calling thread's scopes for this context.
  RecordingState recording() const;
  // Whether ops on tracked values record (no no_grad scope open on this thread).
  bool grad_enabled() const { return recording().no_grad == 0; }
  // Opens or closes a no_grad (capture false) or capture_trace scope on the calling thread;
  // InvalidArgument for a close without its open.
  void enter_scope(bool capture) const;
  void exit_scope(bool capture) const;
  // The device the calling thread's creation functions make tensors on for this context: the
  // innermost open device scope's, else the host.
  Device creation_device() const;
  // Opens (d) or closes a device scope on the calling thread; InvalidArgument for a close
  // without its open.
  void enter_device_scope(Device d) const;
  void exit_device_scope() const;
};

// While alive, the dataflow ops the calling thread emits schedule on ctx's scheduler and cache
// their VJP kernels in ctx (ctx must be a dataflow context).
class DataflowScope {
public:
  explicit DataflowScope(const Context& ctx) noexcept
      : scheduler_(*ctx.scheduler), vjp_kernels_(ctx.vjp_kernels) {}

private:
  dataflow::ScopedScheduler scheduler_;
  ad::VjpKernelScope vjp_kernels_;
};

} // namespace tfe::runtime
