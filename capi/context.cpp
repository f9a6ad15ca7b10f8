// Contexts, threads, devices and op-table introspection.
#include <memory>

#include "backend/cpu/thread_budget.hpp"
#include "capi/guard.hpp"
#include "core/default_threads.hpp"
#include "dataflow/debug_scheduler.hpp"
#include "dataflow/thread_scheduler.hpp"
#include "linalg/functions.hpp"
#include "ops/op_table.hpp"

using namespace tfe;
using namespace tfe::capi;

namespace {
std::atomic<uint64_t> g_next_context_id{1};
}

extern "C" {

tfe_status tfe_context_create(tfe_context** out) {
  return guarded("tfe_context_create", [&] {
    out_slot(out);
    *out = std::make_unique<tfe_context>(g_next_context_id.fetch_add(1)).release();
  });
}

tfe_status tfe_context_create_dataflow(tfe_context** out, int32_t scheduler, int32_t threads) {
  return guarded("tfe_context_create_dataflow", [&] {
    out_slot(out);
    if (threads < 0) fail(Status::InvalidArgument, "threads %d is negative", threads);
    auto ctx = std::make_unique<tfe_context>(g_next_context_id.fetch_add(1));
    switch (scheduler) {
    case TFE_SCHEDULER_THREADS:
      ctx->scheduler = std::make_unique<dataflow::ThreadPoolScheduler>(
          threads == 0 ? cpu::thread_budget() : threads);
      break;
    case TFE_SCHEDULER_DEBUG:
      if (threads > 1)
        fail(Status::InvalidArgument,
             "threads %d with TFE_SCHEDULER_DEBUG (it runs on the waiting thread: 0 or 1)",
             threads);
      ctx->scheduler = std::make_unique<dataflow::DebugScheduler>();
      break;
    default:
      fail(Status::InvalidArgument,
           "unknown scheduler %d (TFE_SCHEDULER_THREADS 0, TFE_SCHEDULER_DEBUG 1)", scheduler);
    }
    *out = ctx.release();
  });
}

tfe_status tfe_context_mode(const tfe_context* ctx, int32_t* out) {
  return guarded("tfe_context_mode", [&] {
    *require(out, "out") =
        require(ctx, "ctx")->is_dataflow() ? TFE_CONTEXT_DATAFLOW : TFE_CONTEXT_EAGER;
  });
}

tfe_status tfe_context_retain(tfe_context* ctx) {
  return guarded("tfe_context_retain", [&] { retain(require(ctx, "ctx")); });
}

void tfe_context_release(tfe_context* ctx) {
  if (ctx && !is_live(ctx)) return report_released("tfe_context_release", "ctx");
  release(ctx);
}

tfe_status tfe_set_num_threads(int32_t threads) {
  return guarded("tfe_set_num_threads", [&] {
    if (threads < 1) fail(Status::InvalidArgument, "threads %d must be >= 1", threads);
    if (threads > max_thread_count())
      fail(Status::InvalidArgument, "threads %d exceeds the limit of %d (the hardware concurrency)",
           threads, max_thread_count());
    cpu::set_thread_budget(threads);
  });
}

tfe_status tfe_get_num_threads(int32_t* out) {
  return guarded("tfe_get_num_threads", [&] { *require(out, "out") = cpu::thread_budget(); });
}

// The core IR ops (every row but the last, Extension, which stands for the linalg kernel ops),
// then the public linalg functions (the rows of ops/defs/linalg.hpp).
constexpr int32_t kCoreOps = static_cast<int32_t>(ops::OpCode::Extension);
static_assert(kCoreOps + 1 == ops::kNumOps, "Extension is the last op code");
constexpr int32_t kListedOps = kCoreOps + linalg::kNumFunctions;

int32_t tfe_op_count(void) { return kListedOps; }

const char* tfe_op_name(int32_t i) {
  if (i < 0 || i >= kListedOps) return nullptr;
  if (i >= kCoreOps) return linalg::kFunctions[static_cast<size_t>(i - kCoreOps)].ir.data();
  return ops::kOpTable[static_cast<size_t>(i)].name.data();
}

const char* tfe_op_c_name(int32_t i) {
  if (i < 0 || i >= kListedOps) return nullptr;
  if (i >= kCoreOps) return linalg::kFunctions[static_cast<size_t>(i - kCoreOps)].c_name.data();
  return ops::kOpTable[static_cast<size_t>(i)].c_name.data();
}

} // extern "C"
