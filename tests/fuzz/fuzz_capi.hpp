// The pieces every call family of the C ABI fuzzer shares (fuzz_capi.cpp, fuzz_capi_extra.cpp):
// reading the input, the per-call contract check, the state of one input and its element cap.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <utility>
#include <vector>

#include "tenferro/tenferro.h"

namespace tfe_fuzz {

// ---- reading the input ----

class Bytes {
public:
  Bytes(const uint8_t* p, size_t n) : p_(p), n_(n) {}
  bool empty() const { return n_ == 0; }
  uint8_t u8() {
    if (n_ == 0) return 0;
    --n_;
    return *p_++;
  }
  size_t pick(size_t n) { return n == 0 ? 0 : u8() % n; }
  // Small values mostly; the extremes the contract must survive sometimes. Never a medium
  // size: a non-empty tensor is either tiny or beyond the limit of 2^48 elements (a legal
  // tensor of 2^40 elements would be legal work of hours, not a finding).
  int64_t extent() {
    static const int64_t table[] = {
        0, 1, 2, 3, 4, 1, 2, 0, 5, 3, INT64_MAX, int64_t{1} << 62, int64_t{1} << 50, 1, 2};
    return table[pick(sizeof table / sizeof table[0])];
  }
  int64_t integer() {
    static const int64_t table[] = {0,
                                    1,
                                    2,
                                    3,
                                    -1,
                                    -2,
                                    4,
                                    -3,
                                    INT64_MAX,
                                    INT64_MIN,
                                    INT64_MIN + 1,
                                    5,
                                    7,
                                    int64_t{1} << 31,
                                    -(int64_t{1} << 40),
                                    1};
    return table[pick(sizeof table / sizeof table[0])];
  }
  double real() {
    static const double table[] = {0.0,   1.0,    -1.0,   0.5,      3.0,       2.0, -0.25,
                                   1e300, -1e300, 1e-300, INFINITY, -INFINITY, NAN, 7.0};
    return table[pick(sizeof table / sizeof table[0])];
  }
  int32_t dtype() {
    uint8_t b = u8();
    return b < 250 ? static_cast<int32_t>(b % 7) : (b % 2 ? 7 : -1); // sometimes unknown
  }

private:
  const uint8_t* p_;
  size_t n_;
};

[[noreturn]] inline void violation(const char* fn, const char* what) {
  std::fprintf(stderr, "contract violation in %s: %s (message: '%s')\n", fn, what,
               tfe_last_error_message());
  std::abort();
}

// TFE_FUZZ_TRACE=1 prints every checked call and its status (to find the call of a slow or
// failing input).
inline const bool kTrace = std::getenv("TFE_FUZZ_TRACE") != nullptr;

inline bool known_status(tfe_status s) { return (s >= 0 && s <= 10) || s == TFE_ERR_INTERNAL; }

// Checks one call: status, handle outputs on failure, message prefix.
inline void check(const char* fn, tfe_status s, std::initializer_list<void*> outs) {
  if (kTrace) std::fprintf(stderr, "%s -> %d\n", fn, static_cast<int>(s));
  if (!known_status(s)) violation(fn, "unknown status");
  if (s == TFE_ERR_INTERNAL) violation(fn, "internal error");
  if (s == TFE_OK) return;
  for (void* o : outs)
    if (o) violation(fn, "a handle output is not NULL after a failure");
  const char* msg = tfe_last_error_message();
  size_t n = std::strlen(fn);
  if (std::strncmp(msg, fn, n) != 0 || msg[n] != ':')
    violation(fn, "the message does not start with the function's name");
}

// A stale value written into output slots before a call: a failure must overwrite it with NULL.
template <class T> inline T* sentinel() { return reinterpret_cast<T*>(uintptr_t{0x10}); }

// ---- the state of one input ----

constexpr size_t kSlots = 12;

// The most elements a tensor the target keeps for later calls may have. Legal work is not a
// finding, but it multiplies: an outer product and a gather of kept tensors reach 5^11
// elements, and a broadcast view of 2^31 elements costs nothing to make; reducing either takes
// seconds to minutes under the sanitizers. With kept operands of at most 2^12 elements, one
// call does at most about 2^24 elements of work. A larger broadcast view only reaches a call
// that allocates its size, which the run's allocation cap refuses at once (run.sh).
constexpr int64_t kRoom = int64_t{1} << 12;

struct State {
  tfe_context* ctx[2] = {nullptr, nullptr}; // eager, dataflow (debug scheduler)
  tfe_tensor* t[kSlots] = {};
  tfe_function* f[3] = {};
  tfe_linalg_options* opts = nullptr;
  tfe_linalg_options* stale_opts = nullptr; // released in this input (quarantined)
  std::vector<tfe_tensor*> stale; // released in this input: still in the release quarantine
  int no_grad[2] = {0, 0}, capture[2] = {0, 0}, device_scopes[2] = {0, 0};
  int releases = 0;

  ~State() {
    for (int c = 0; c < 2; ++c) {
      for (; no_grad[c] > 0; --no_grad[c]) check("tfe_no_grad_exit", tfe_no_grad_exit(ctx[c]), {});
      for (; capture[c] > 0; --capture[c])
        check("tfe_capture_trace_exit", tfe_capture_trace_exit(ctx[c]), {});
      for (; device_scopes[c] > 0; --device_scopes[c])
        check("tfe_device_scope_exit", tfe_device_scope_exit(ctx[c]), {});
    }
    for (tfe_tensor*& x : t) tfe_tensor_release(std::exchange(x, nullptr));
    for (tfe_function*& g : f) tfe_function_release(std::exchange(g, nullptr));
    tfe_linalg_options_release(opts);
    for (tfe_context* c : ctx) tfe_context_release(c);
  }
};

inline void put(State& s, size_t slot, tfe_tensor* x) {
  int64_t n = 0;
  if (x && tfe_tensor_numel(x, &n) == TFE_OK && n > kRoom) { // legal, too large to keep
    tfe_tensor_release(x);
    return;
  }
  if (kTrace) {
    int32_t rank = 0;
    int64_t shape[32] = {};
    if (x && tfe_tensor_ndim(x, &rank) == TFE_OK && rank <= 32 &&
        tfe_tensor_shape(x, shape) == TFE_OK) {
      std::fprintf(stderr, "  slot %zu: [", slot % kSlots);
      for (int32_t i = 0; i < rank; ++i)
        std::fprintf(stderr, "%s%lld", i ? ", " : "", static_cast<long long>(shape[i]));
      std::fprintf(stderr, "]\n");
    }
  }
  tfe_tensor_release(s.t[slot % kSlots]);
  s.t[slot % kSlots] = x;
}

// An operand: a slot (possibly empty: NULL), now and then a handle released in this input.
inline tfe_tensor* operand(State& s, Bytes& in) {
  uint8_t b = in.u8();
  if (b >= 248 && !s.stale.empty() && s.releases < 1000) return s.stale[b % s.stale.size()];
  return s.t[b % kSlots];
}

// Linalg options: the input's object or NULL, now and then a released one.
inline tfe_linalg_options* options_operand(State& s, Bytes& in) {
  uint8_t b = in.u8();
  if (b % 2) return s.opts;
  return b >= 250 ? s.stale_opts : nullptr;
}

inline tfe_context* context(State& s, Bytes& in) {
  uint8_t b = in.u8();
  return b < 200 ? s.ctx[0] : s.ctx[1];
}

inline int32_t shape_of(Bytes& in, int64_t* shape) {
  int32_t rank = static_cast<int32_t>(in.pick(5));
  for (int32_t i = 0; i < rank; ++i) shape[i] = in.extent();
  return rank;
}

// True for a shape of at most `room` elements, or one whose count the library must refuse (an
// overflow, or more than the documented limit of 2^48 elements).
inline bool fits_or_refused(const int64_t* shape, int32_t rank, int64_t room) {
  for (int32_t i = 0; i < rank; ++i)
    if (shape[i] == 0) return true;
  uint64_t n = 1;
  for (int32_t i = 0; i < rank; ++i)
    if (__builtin_mul_overflow(n, static_cast<uint64_t>(shape[i]), &n)) return true;
  return n <= static_cast<uint64_t>(room) || n > (uint64_t{1} << 48);
}

#define CALL1(fn, ...)                                                                             \
  do {                                                                                             \
    tfe_tensor* o_ = sentinel<tfe_tensor>();                                                       \
    tfe_status st_ = fn(&o_, __VA_ARGS__);                                                         \
    check(#fn, st_, {o_});                                                                         \
    if (st_ == TFE_OK) put(s, dst, o_);                                                            \
  } while (0)

// ---- the call families of fuzz_capi_extra.cpp ----

void numeric(State& s, Bytes& in, size_t dst);          // elementwise extras, NaN tests, scalars
void reduce_and_order(State& s, Bytes& in, size_t dst); // reductions, scans, sorting
void shape_helpers(State& s, Bytes& in, size_t dst);    // NumPy-style shape helpers, split
void contraction(State& s, Bytes& in, size_t dst);      // einsum_path, tensordot, outer, kron
void creation_extra(State& s, Bytes& in, size_t dst);   // linspace, logspace, *_like, scalars
void linalg_extra(State& s, Bytes& in, size_t dst);     // linalg options: setters, retain, release
void host(State& s, Bytes& in, size_t dst);             // devices, text, copies, DLPack 1.0
void handles(State& s, Bytes& in);                      // retains, caches, process queries

} // namespace tfe_fuzz
