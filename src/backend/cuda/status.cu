#include "backend/cuda/status.cuh"

#include <cstdarg>
#include <cstdio>

namespace tfe::cuda {
namespace {
// One message per thread: a caller reads it right after the failing call on the same thread.
thread_local char g_message[512] = "";
} // namespace

int32_t fail(int32_t status, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(g_message, sizeof g_message, fmt, args);
  va_end(args);
  return status;
}

int32_t cuda_fail(int32_t device, cudaError_t err, const char* what) {
  int32_t status = err == cudaErrorMemoryAllocation ? TFE_ERR_OUT_OF_MEMORY : TFE_ERR_DEVICE;
  return fail(status, "cuda:%d: %s: %s", static_cast<int>(device), what, cudaGetErrorString(err));
}

const char* last_error_message() { return g_message; }

} // namespace tfe::cuda
