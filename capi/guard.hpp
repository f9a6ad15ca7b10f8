// The error guard every entry point runs its body in, the thread-local message, and the
// argument helpers that turn bad input into typed errors before any work is done.
#pragma once

#include <initializer_list>
#include <new>
#include <span>
#include <string>
#include <vector>

#include "capi/handles.hpp"
#include "core/error.hpp"

namespace tfe::capi {

void set_error(const char* fn, tfe_status status, const std::string& message) noexcept;
void clear_error() noexcept;

// Runs body; maps tfe::Error, std::bad_alloc, std::exception and anything else to a status and a
// message starting with fn. Clears the message on success.
template <class Body> tfe_status guarded(const char* fn, Body&& body) noexcept {
  try {
    body();
    clear_error();
    return TFE_OK;
  } catch (const Error& e) {
    set_error(fn, static_cast<tfe_status>(e.status()), e.message());
    return static_cast<tfe_status>(e.status());
  } catch (const std::bad_alloc&) {
    set_error(fn, TFE_ERR_OUT_OF_MEMORY, "out of memory");
    return TFE_ERR_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    set_error(fn, TFE_ERR_INTERNAL, std::string("internal error: ") + e.what());
    return TFE_ERR_INTERNAL;
  } catch (...) {
    set_error(fn, TFE_ERR_INTERNAL, "internal error: unknown exception");
    return TFE_ERR_INTERNAL;
  }
}

// InvalidArgument "argument 'name' is NULL" unless p is non-null; for a handle also
// "argument 'name' was already released" unless it is a live handle of its kind.
template <class T> T* require(T* p, const char* name) {
  if (!p) fail(Status::InvalidArgument, "argument '%s' is NULL", name);
  if constexpr (std::is_base_of_v<Counted, std::remove_cv_t<T>>)
    if (!is_live(p)) fail(Status::InvalidArgument, "argument '%s' was already released", name);
  return p;
}

// Checks an output slot and clears it, so it reads NULL if the call fails later.
template <class T> T** out_slot(T** out, const char* name = "out") {
  require(out, name);
  *out = nullptr;
  return out;
}

// An array of n entries (NULL allowed when n == 0); InvalidArgument for n < 0 or NULL.
std::span<const int64_t> int64_array(const int64_t* p, int64_t n, const char* name);
DType require_dtype(int32_t dtype);
// A shape argument: ndim >= 0, entries >= 0, element count within int64.
Dims shape_arg(int32_t ndim, const int64_t* shape, const char* name = "shape");

// dtype, shape and strides of caller memory (strides NULL: compact column-major).
struct Layout {
  DType dtype;
  Dims shape, strides;
};
Layout layout_arg(int32_t dtype, int32_t ndim, const int64_t* shape, const int64_t* strides);

// The one context of the given tensors (InvalidArgument naming the arguments when they differ).
tfe_context* common_context(std::initializer_list<std::pair<const tfe_tensor*, const char*>> args);
tfe_context* common_context(std::span<tfe_tensor* const> xs, const char* name);

} // namespace tfe::capi
