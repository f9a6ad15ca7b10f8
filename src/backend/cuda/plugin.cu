// The plugin table (backend/device/plugin_abi.h) and its memory entries; the one exported symbol
// is tfe_device_plugin_v1 (plugin.map).
#include "backend/cuda/device_state.cuh"
#include "backend/cuda/elementwise.cuh"
#include "backend/cuda/entries.cuh"
#include "backend/cuda/status.cuh"
#include "backend/device/plugin_abi.h"

namespace tfe::cuda {
namespace {

const char* last_error() { return last_error_message(); }

int32_t device_count(int32_t* out) {
  if (out == nullptr) return fail(TFE_ERR_INVALID_ARGUMENT, "cuda device_count: NULL output");
  return count_devices(out);
}

int32_t allocate(int32_t device, size_t bytes, void** out) {
  if (out == nullptr) return fail(TFE_ERR_INVALID_ARGUMENT, "cuda allocate: NULL output");
  *out = nullptr;
  DeviceState* s = nullptr;
  TFE_CUDA_CHECK(bind_device(device, &s));
  return s->allocator.allocate(bytes, out);
}

void release(int32_t device, void* ptr, size_t bytes) {
  DeviceState* s = nullptr;
  if (ptr == nullptr || device_state(device, &s) != 0) return;
  s->allocator.release(ptr, bytes);
}

int32_t copy(int32_t device, void* dst, const void* src, size_t bytes, cudaMemcpyKind kind,
             bool wait, const char* what) {
  if (bytes == 0) return 0;
  if (dst == nullptr || src == nullptr)
    return fail(TFE_ERR_INVALID_ARGUMENT, "cuda %s: NULL pointer", what);
  DeviceState* s = nullptr;
  TFE_CUDA_CHECK(bind_device(device, &s));
  TFE_CUDA_TRY(device, cudaMemcpyAsync(dst, src, bytes, kind, s->stream), what);
  if (wait) TFE_CUDA_TRY(device, cudaStreamSynchronize(s->stream), what);
  return 0;
}

// The host buffer may be released as soon as the call returns (a pinned one would still be read
// by the queued copy), so uploads wait for their copy.
int32_t copy_to_device(int32_t device, void* dst, const void* host_src, size_t bytes) {
  return copy(device, dst, host_src, bytes, cudaMemcpyHostToDevice, true, "copy_to_device");
}
int32_t copy_to_host(int32_t device, void* host_dst, const void* src, size_t bytes) {
  return copy(device, host_dst, src, bytes, cudaMemcpyDeviceToHost, true, "copy_to_host");
}
int32_t copy_on_device(int32_t device, void* dst, const void* src, size_t bytes) {
  return copy(device, dst, src, bytes, cudaMemcpyDeviceToDevice, false, "copy_on_device");
}

int32_t synchronize(int32_t device) {
  DeviceState* s = nullptr;
  TFE_CUDA_CHECK(bind_device(device, &s));
  TFE_CUDA_TRY(device, cudaStreamSynchronize(s->stream), "synchronize");
  return 0;
}

constexpr tfe_device_plugin kPlugin = {
    TFE_DEVICE_PLUGIN_ABI,
    sizeof(tfe_device_plugin),
    "cuda",
    &last_error,
    &device_count,
    &allocate,
    &release,
    &copy_to_device,
    &copy_to_host,
    &copy_on_device,
    &synchronize,
    &elementwise_lookup,
    &elementwise_run,
    &copy_strided,
    &fill,
    &reduce,
    &gemm,
    &triangle,
    &potrf,
    &getrf,
    &getrs,
    &trsm,
    &geqrf,
    &orgqr,
    &syevd,
    &gesvd,
    &geev,
    &gather,
    &scatter,
    &scan,
    &arg_extremum,
    &argsort,
};

} // namespace
} // namespace tfe::cuda

extern "C" __attribute__((visibility("default"))) const tfe_device_plugin*
tfe_device_plugin_v1(void) {
  return &tfe::cuda::kPlugin;
}
