// Where the creation functions put their tensors: the device of the calling thread's innermost
// device scope for the context (tfe_device_scope_enter), the host without one.
#pragma once

#include "backend/device/kernels.hpp"
#include "backend/device/plugin.hpp"
#include "capi/handles.hpp"

namespace tfe::capi {

// t, computed on the host (a range, random numbers, the caller's data), on ctx's creation
// device: one copy when that is a GPU. The numbers are the host's on every device.
inline Tensor on_creation_device(const tfe_context& ctx, Tensor t) {
  Device d = ctx.creation_device();
  return d.is_cpu() ? t : device::to_device(t, d);
}

} // namespace tfe::capi
