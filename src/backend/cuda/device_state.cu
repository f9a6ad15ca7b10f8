#include "backend/cuda/device_state.cuh"

#include <algorithm>
#include <array>
#include <memory>

#include "backend/cuda/status.cuh"

namespace tfe::cuda {
namespace {

constexpr int32_t kMaxDevices = 64;

// Errors of cudaGetDeviceCount that mean "this machine has no usable GPU" rather than a failure.
bool means_no_device(cudaError_t err) {
  switch (err) {
  case cudaErrorNoDevice:
  case cudaErrorInsufficientDriver:
  case cudaErrorStubLibrary:
  case cudaErrorInitializationError:
  case cudaErrorSystemDriverMismatch:
  case cudaErrorCompatNotSupportedOnDevice: return true;
  default: return false;
  }
}

struct Registry {
  std::once_flag counted;
  int32_t count = 0;
  cudaError_t count_error = cudaSuccess;
  std::mutex mutex;
  // The registry itself is never destroyed (see CachingAllocator), so neither are these.
  std::array<std::unique_ptr<DeviceState>, kMaxDevices> owned;
};

Registry& registry() {
  static Registry* r = std::make_unique<Registry>().release(); // intentionally leaked
  return *r;
}

} // namespace

int32_t count_devices(int32_t* out) {
  Registry& r = registry();
  std::call_once(r.counted, [&] {
    int n = 0;
    cudaError_t err = cudaGetDeviceCount(&n);
    if (err == cudaSuccess) {
      r.count = std::min(n, kMaxDevices);
    } else {
      (void)cudaGetLastError();
      r.count = 0;
      if (!means_no_device(err)) r.count_error = err;
    }
  });
  if (r.count_error != cudaSuccess) {
    *out = 0;
    return cuda_fail(0, r.count_error, "cudaGetDeviceCount");
  }
  *out = r.count;
  return 0;
}

int32_t device_state(int32_t device, DeviceState** out) {
  *out = nullptr;
  int32_t n = 0;
  TFE_CUDA_CHECK(count_devices(&n));
  if (device < 0 || device >= n)
    return fail(TFE_ERR_INVALID_ARGUMENT, "device cuda:%d does not exist (%d CUDA device%s)",
                static_cast<int>(device), static_cast<int>(n), n == 1 ? "" : "s");
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto& slot = r.owned[static_cast<size_t>(device)];
  if (!slot) slot = std::make_unique<DeviceState>(device);
  *out = slot.get();
  return 0;
}

int32_t bind_device(int32_t device, DeviceState** out) {
  DeviceState* s = nullptr;
  TFE_CUDA_CHECK(device_state(device, &s));
  TFE_CUDA_TRY(device, cudaSetDevice(device), "cudaSetDevice");
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (s->stream == nullptr) {
    int sms = 1;
    TFE_CUDA_TRY(device, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device),
                 "cudaDeviceGetAttribute");
    s->sm_count = std::max(sms, 1);
    cudaStream_t st = nullptr;
    TFE_CUDA_TRY(device, cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking),
                 "cudaStreamCreateWithFlags");
    s->stream = st;
  }
  *out = s;
  return 0;
}

unsigned grid_for(const DeviceState& s, int64_t n, int threads) {
  int64_t blocks = (n + threads - 1) / threads;
  int64_t cap = int64_t{s.sm_count} * 32; // enough resident blocks to saturate memory bandwidth
  return static_cast<unsigned>(std::max<int64_t>(1, std::min(blocks, cap)));
}

} // namespace tfe::cuda
