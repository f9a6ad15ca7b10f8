// The per-thread scope state (ad_scopes.hpp).
#include "capi/ad_scopes.hpp"

#include <vector>

#include "capi/handles.hpp"
#include "core/error.hpp"

namespace tfe::capi {
namespace {

struct Entry {
  uint64_t ctx;
  RecordingState state;
};
thread_local std::vector<Entry> t_scopes;

Entry* find(const tfe_context* ctx) {
  for (Entry& e : t_scopes)
    if (e.ctx == ctx->id) return &e;
  return nullptr;
}

} // namespace

RecordingState recording_state(const tfe_context* ctx) {
  if (t_scopes.empty()) return {};
  Entry* e = find(ctx);
  return e ? e->state : RecordingState{};
}

void enter_scope(const tfe_context* ctx, bool capture) {
  Entry* e = find(ctx);
  if (!e) {
    t_scopes.push_back({ctx->id, {}});
    e = &t_scopes.back();
  }
  ++(capture ? e->state.capture : e->state.no_grad);
}

void exit_scope(const tfe_context* ctx, bool capture) {
  Entry* e = find(ctx);
  int32_t* depth = e ? &(capture ? e->state.capture : e->state.no_grad) : nullptr;
  if (!depth || *depth == 0)
    fail(Status::InvalidArgument, "no matching %s enter on this thread for this context",
         capture ? "capture_trace" : "no_grad");
  --*depth;
  if (e->state.capture == 0 && e->state.no_grad == 0) {
    *e = t_scopes.back();
    t_scopes.pop_back();
  }
}

} // namespace tfe::capi
