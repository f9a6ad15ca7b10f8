// The handle structs behind the opaque C types, and the live-object counter. Each handle is
// reference counted by hand (the C ABI's retain/release); the C++ values inside are ordinary
// RAII types.
#pragma once

#include <atomic>
#include <cstdint>

#include "core/tensor.hpp"
#include "tenferro/tenferro.h"

namespace tfe::capi {

// Counts live handles for tfe_debug_live_objects.
std::atomic<int64_t>& live_objects();

struct Counted {
  Counted() { live_objects().fetch_add(1, std::memory_order_relaxed); }
  Counted(const Counted&) = delete;
  Counted& operator=(const Counted&) = delete;
  ~Counted() { live_objects().fetch_sub(1, std::memory_order_relaxed); }
  // Release decrements with acq_rel so the deleting thread sees every write made through
  // other references (the usual shared_ptr ordering).
  std::atomic<int64_t> refs{1};
};

} // namespace tfe::capi

struct tfe_context : tfe::capi::Counted {
  uint64_t id; // distinguishes contexts in messages
  explicit tfe_context(uint64_t id_) : id(id_) {}
};

struct tfe_tensor : tfe::capi::Counted {
  tfe_context* ctx; // retained
  tfe::Tensor value;
  tfe_tensor(tfe_context* c, tfe::Tensor v);
  ~tfe_tensor();
};

namespace tfe::capi {

void retain(tfe_context* ctx);
void release(tfe_context* ctx);
// A new handle holding value, retaining ctx.
tfe_tensor* new_tensor(tfe_context* ctx, Tensor value);

} // namespace tfe::capi
