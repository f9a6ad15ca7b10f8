// no_grad and capture_trace scopes, per (thread, context) and nestable
// (docs/design/ad-contract.md). The state lives in a thread-local list keyed by the context's id
// (never its address, which a new context could reuse), so it needs no lock.
#pragma once

#include <cstdint>

struct tfe_context;

namespace tfe::capi {

struct RecordingState {
  int32_t no_grad = 0;
  int32_t capture = 0;
};

RecordingState recording_state(const tfe_context* ctx);
// Adjusts a depth; InvalidArgument (naming the call) for an exit without its enter.
void enter_scope(const tfe_context* ctx, bool capture);
void exit_scope(const tfe_context* ctx, bool capture);

} // namespace tfe::capi
