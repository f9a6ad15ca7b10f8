// The thread-local error message and argument helpers (guard.hpp).
#include "capi/guard.hpp"

namespace tfe::capi {
namespace {
thread_local std::string t_message;
} // namespace

const char* last_message() noexcept { return t_message.c_str(); }

void set_error(const char* fn, tfe_status, const std::string& message) noexcept {
  try {
    t_message.assign(fn);
    t_message.append(": ");
    t_message.append(message);
    for (char& c : t_message)
      if (c == '\n') c = ' ';
  } catch (...) {
    t_message.clear(); // no memory for the message; the status still tells the kind
  }
}

void clear_error() noexcept { t_message.clear(); }

std::span<const int64_t> int64_array(const int64_t* p, int64_t n, const char* name) {
  if (n < 0) fail(Status::InvalidArgument, "count %lld of '%s' is negative", (long long)n, name);
  if (n == 0) return {};
  require(p, name);
  return {p, static_cast<size_t>(n)};
}

DType require_dtype(int32_t dtype) {
  if (!is_valid_dtype(dtype)) fail(Status::InvalidArgument, "unknown dtype %d", dtype);
  return static_cast<DType>(dtype);
}

Dims shape_arg(int32_t ndim, const int64_t* shape, const char* name) {
  auto s = int64_array(shape, ndim, name);
  Dims dims(s.begin(), s.end());
  checked_numel(dims);
  return dims;
}

Layout layout_arg(int32_t dtype, int32_t ndim, const int64_t* shape, const int64_t* strides) {
  DType dt = require_dtype(dtype);
  if (ndim < 0) fail(Status::InvalidArgument, "ndim %d is negative", ndim);
  Dims dims = shape_arg(ndim, shape);
  Dims st = strides ? Dims(strides, strides + ndim) : compact_strides(dims);
  return {dt, std::move(dims), std::move(st)};
}

tfe_context* common_context(std::initializer_list<std::pair<const tfe_tensor*, const char*>> args) {
  tfe_context* ctx = nullptr;
  const char* first = nullptr;
  for (auto [t, name] : args) {
    require(t, name);
    if (!ctx) {
      ctx = t->ctx;
      first = name;
    } else if (t->ctx != ctx) {
      fail(Status::InvalidArgument, "'%s' and '%s' belong to different contexts", first, name);
    }
  }
  return ctx;
}

tfe_context* common_context(std::span<tfe_tensor* const> xs, const char* name) {
  tfe_context* ctx = nullptr;
  for (size_t i = 0; i < xs.size(); ++i) {
    if (!xs[i]) fail(Status::InvalidArgument, "%s[%zu] is NULL", name, i);
    if (!is_live(xs[i])) fail(Status::InvalidArgument, "%s[%zu] was already released", name, i);
    if (!ctx)
      ctx = xs[i]->ctx;
    else if (xs[i]->ctx != ctx)
      fail(Status::InvalidArgument, "%s[0] and %s[%zu] belong to different contexts", name, name,
           i);
  }
  return ctx;
}

} // namespace tfe::capi
