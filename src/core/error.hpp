// Typed errors of the core: a status kind (same values as the public TFE_ERR_* codes) and a
// one-line message. The C layer's guard turns them into a status and prefixes the entry point.
#pragma once

#include <cstdint>
#include <exception>
#include <span>
#include <string>

namespace tfe {

enum class Status : int32_t {
  Ok = 0,
  InvalidArgument = 1,
  ShapeMismatch = 2,
  DtypeMismatch = 3,
  OutOfMemory = 4,
  NotSupported = 5,
  Device = 6,
  NotDifferentiable = 7,
  Singular = 8,
  NonConvergence = 9,
  Numerical = 10,
  Internal = 100,
};

class Error : public std::exception {
public:
  Error(Status status, std::string message) : status_(status), message_(std::move(message)) {}
  Status status() const noexcept { return status_; }
  const char* what() const noexcept override { return message_.c_str(); }
  const std::string& message() const noexcept { return message_; }

private:
  Status status_;
  std::string message_;
};

// printf-style formatting into a std::string (GCC 12 has no <format>).
std::string strformat(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

// Throws Error(status, formatted message).
[[noreturn]] void fail(Status status, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

// "1 input", "3 inputs": a count with its noun in the right number.
std::string count_of(long long n, const char* noun);

// "[2,3,4]" for a list of extents, axes or strides.
std::string format_dims(std::span<const int64_t> dims);

} // namespace tfe
