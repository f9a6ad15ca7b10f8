// Version, status names, the thread-local error accessors and the live-object counter.
#include <cstring>

#include "capi/guard.hpp"

namespace tfe::capi {
const char* last_message() noexcept;
}

using namespace tfe::capi;

extern "C" {

const char* tfe_version(void) { return "0.1.0"; }

int32_t tfe_abi_version(void) { return TFE_ABI_VERSION; }

const char* tfe_last_error_message(void) { return last_message(); }

tfe_status tfe_last_error_copy(char* buf, int64_t capacity, int64_t* needed) {
  if (capacity < 0 || (capacity > 0 && !buf)) return TFE_ERR_INVALID_ARGUMENT;
  const char* msg = last_message();
  int64_t len = static_cast<int64_t>(std::strlen(msg));
  if (needed) *needed = len + 1;
  if (capacity > 0) {
    int64_t n = std::min(capacity - 1, len);
    std::memcpy(buf, msg, static_cast<size_t>(n));
    buf[n] = '\0';
  }
  return TFE_OK;
}

const char* tfe_status_name(tfe_status s) {
  switch (s) {
  case TFE_OK: return "TFE_OK";
  case TFE_ERR_INVALID_ARGUMENT: return "TFE_ERR_INVALID_ARGUMENT";
  case TFE_ERR_SHAPE_MISMATCH: return "TFE_ERR_SHAPE_MISMATCH";
  case TFE_ERR_DTYPE_MISMATCH: return "TFE_ERR_DTYPE_MISMATCH";
  case TFE_ERR_OUT_OF_MEMORY: return "TFE_ERR_OUT_OF_MEMORY";
  case TFE_ERR_NOT_SUPPORTED: return "TFE_ERR_NOT_SUPPORTED";
  case TFE_ERR_DEVICE: return "TFE_ERR_DEVICE";
  case TFE_ERR_NOT_DIFFERENTIABLE: return "TFE_ERR_NOT_DIFFERENTIABLE";
  case TFE_ERR_SINGULAR: return "TFE_ERR_SINGULAR";
  case TFE_ERR_NON_CONVERGENCE: return "TFE_ERR_NON_CONVERGENCE";
  case TFE_ERR_NUMERICAL: return "TFE_ERR_NUMERICAL";
  case TFE_ERR_INTERNAL: return "TFE_ERR_INTERNAL";
  default: return "TFE_ERR_UNKNOWN";
  }
}

int64_t tfe_debug_live_objects(void) { return live_objects().load(std::memory_order_relaxed); }

} // extern "C"
