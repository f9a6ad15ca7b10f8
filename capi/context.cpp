// Contexts, threads, devices and op-table introspection.
#include <memory>

#include "backend/cpu/thread_budget.hpp"
#include "capi/guard.hpp"
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

tfe_status tfe_context_retain(tfe_context* ctx) {
  return guarded("tfe_context_retain", [&] { retain(require(ctx, "ctx")); });
}

void tfe_context_release(tfe_context* ctx) { release(ctx); }

tfe_status tfe_set_num_threads(int32_t threads) {
  return guarded("tfe_set_num_threads", [&] {
    if (threads < 1) fail(Status::InvalidArgument, "threads %d must be >= 1", threads);
    cpu::set_thread_budget(threads);
  });
}

tfe_status tfe_get_num_threads(int32_t* out) {
  return guarded("tfe_get_num_threads", [&] { *require(out, "out") = cpu::thread_budget(); });
}

tfe_status tfe_device_count(int32_t* out) {
  return guarded("tfe_device_count", [&] { *require(out, "out") = 0; });
}

// The core IR ops: every row but the last, Extension, whose ops (linalg) are listed by their own
// header rather than by one table row.
constexpr int32_t kCoreOps = static_cast<int32_t>(ops::OpCode::Extension);
static_assert(kCoreOps + 1 == ops::kNumOps, "Extension is the last op code");

int32_t tfe_op_count(void) { return kCoreOps; }

const char* tfe_op_name(int32_t i) {
  if (i < 0 || i >= kCoreOps) return nullptr;
  return ops::kOpTable[static_cast<size_t>(i)].name.data();
}

const char* tfe_op_c_name(int32_t i) {
  if (i < 0 || i >= kCoreOps) return nullptr;
  return ops::kOpTable[static_cast<size_t>(i)].c_name.data();
}

} // extern "C"
