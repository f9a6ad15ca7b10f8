// The per-thread scope state of a context (context.hpp).
#include "runtime/context.hpp"

#include <vector>

#include "core/error.hpp"

namespace tfe::runtime {
namespace {

struct Entry {
  uint64_t ctx;
  RecordingState state;
};
// Only contexts with an open scope have an entry, so the common case is an empty list.
thread_local std::vector<Entry> t_scopes;

Entry* find(uint64_t id) {
  for (Entry& e : t_scopes)
    if (e.ctx == id) return &e;
  return nullptr;
}

} // namespace

RecordingState Context::recording() const {
  if (t_scopes.empty()) return {};
  Entry* e = find(id);
  return e ? e->state : RecordingState{};
}

void Context::enter_scope(bool capture) const {
  Entry* e = find(id);
  if (!e) {
    t_scopes.push_back({id, {}});
    e = &t_scopes.back();
  }
  ++(capture ? e->state.capture : e->state.no_grad);
}

void Context::exit_scope(bool capture) const {
  Entry* e = find(id);
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

} // namespace tfe::runtime
