// Text outputs of the C ABI (tfe_tensor_format, the DOT printers) follow tfe_last_error_copy:
// buf receives min(capacity - 1, length) bytes and a NUL, *needed the full length + 1.
#pragma once

#include <algorithm>
#include <cstring>
#include <string>

#include "capi/guard.hpp"

namespace tfe::capi {

// Validates the buffer arguments before any work (a failure then writes nothing).
inline void require_text_buffer(const char* buf, int64_t capacity) {
  if (capacity < 0) fail(Status::InvalidArgument, "capacity %lld is negative", (long long)capacity);
  if (capacity > 0) require(buf, "buf");
}

inline void copy_text(const std::string& text, char* buf, int64_t capacity, int64_t* needed) {
  const int64_t len = static_cast<int64_t>(text.size());
  if (needed) *needed = len + 1;
  if (capacity > 0) {
    const int64_t n = std::min(capacity - 1, len);
    std::memcpy(buf, text.data(), static_cast<size_t>(n));
    buf[n] = '\0';
  }
}

} // namespace tfe::capi
