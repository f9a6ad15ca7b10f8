// The device plugin as the library sees it: loaded once on first use (dlopen, never linked), its
// devices counted, its memory owned by Storage, its failures turned into the library's errors.
// Everything above this file speaks Device and Tensor; only this layer touches the C table.
#pragma once

#include <string>

#include "backend/device/plugin_abi.h"
#include "core/device.hpp"
#include "core/tensor.hpp"

namespace tfe::device {

// The loaded plugin, or null when none could be loaded (why_unavailable() says why). Thread-safe;
// the first call loads. TFE_CUDA_PLUGIN=<path> names the plugin file (tests load a host-memory
// double this way); otherwise libtenferro_cuda.so next to libtenferro, then the loader's search.
const tfe_device_plugin* plugin();
const std::string& why_unavailable();

// Number of CUDA devices: 0 without a plugin, a driver or a device (never an error).
int32_t cuda_device_count();

// The plugin serving d (a CUDA device that exists), or Device error naming d and the reason.
const tfe_device_plugin& serving(Device d);

// Throws the plugin's status with its message when status != 0; `what` says what was attempted.
void check(const tfe_device_plugin& api, int32_t status, const char* what);

// Uninitialised compact column-major memory on d.
Tensor empty(Device d, DType dtype, const Dims& shape);

// The one explicit transfer: t's elements on `to`, compact. The same tensor when it is already
// there. Host to device and back copy bytes once (a strided source is made compact first).
Tensor to_device(const Tensor& t, Device to);

// The plugin's view of t (pointers into t's metadata: t must outlive the view).
tfe_dev_view view_of(const Tensor& t);

} // namespace tfe::device
