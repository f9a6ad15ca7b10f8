// The per-thread scope state of a context (context.hpp).
#include "runtime/context.hpp"

#include <vector>

#include "core/error.hpp"

namespace tfe::runtime {
namespace {

struct Entry {
  uint64_t ctx;
  RecordingState state;
  std::vector<Device> devices; // open device scopes, innermost last
};
// Only contexts with an open scope have an entry, so the common case is an empty list.
thread_local std::vector<Entry> t_scopes;

Entry* find(uint64_t id) {
  for (Entry& e : t_scopes)
    if (e.ctx == id) return &e;
  return nullptr;
}

// Keeps the list empty in the common case: an entry goes when its last scope closes.
void drop_if_unused(Entry* e) {
  if (e->state.capture != 0 || e->state.no_grad != 0 || !e->devices.empty()) return;
  if (e != &t_scopes.back()) *e = std::move(t_scopes.back());
  t_scopes.pop_back();
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
    t_scopes.push_back({id, {}, {}});
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
  drop_if_unused(e);
}

Device Context::creation_device() const {
  if (t_scopes.empty()) return {};
  Entry* e = find(id);
  return e && !e->devices.empty() ? e->devices.back() : Device{};
}

void Context::enter_device_scope(Device d) const {
  Entry* e = find(id);
  if (!e) {
    t_scopes.push_back({id, {}, {}});
    e = &t_scopes.back();
  }
  e->devices.push_back(d);
}

void Context::exit_device_scope() const {
  Entry* e = find(id);
  if (!e || e->devices.empty())
    fail(Status::InvalidArgument, "no matching device scope enter on this thread for this context");
  e->devices.pop_back();
  drop_if_unused(e);
}

} // namespace tfe::runtime
