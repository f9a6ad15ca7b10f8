// The C ABI fuzzer's call families for the functions added after its first version (fuzz_capi.cpp
// runs the driver): elementwise extras and scalar operands, reductions, scans and sorting, the
// NumPy-style shape helpers, einsum paths and companions, linspace and the *_like creators, the
// newer linear algebra functions, devices, text outputs, typed copies, DLPack 1.0, retains, caches
// and the process-wide queries. Every call goes through the same contract checks; work a parameter
// multiplies (tile and repeat counts, linspace counts) is bounded as creation is.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "capi/dlpack_abi.hpp"
#include "fuzz_capi.hpp"
#include "tenferro/tenferro.h"

namespace tfe_fuzz {
namespace {

// CALL1 whose output slot is NULL when `nul` is set: the library must refuse it.
#define CALL1N(fn, ...)                                                                            \
  do {                                                                                             \
    tfe_tensor* o_ = sentinel<tfe_tensor>();                                                       \
    tfe_status st_ = fn(nul ? nullptr : &o_, __VA_ARGS__);                                         \
    if (nul) {                                                                                     \
      if (st_ == TFE_OK) violation(#fn, "a NULL output was accepted");                             \
      o_ = nullptr;                                                                                \
    }                                                                                              \
    check(#fn, st_, {o_});                                                                         \
    if (st_ == TFE_OK) put(s, dst, o_);                                                            \
  } while (0)

// About one call in forty passes a NULL output.
bool null_output(Bytes& in) { return in.u8() < 6; }

// A handle of a slot: not NULL, not released.
bool live(const State& s, const tfe_tensor* x) {
  return x && std::find(std::begin(s.t), std::end(s.t), x) != std::end(s.t);
}

constexpr int32_t kMaxRank = 64;

// x's shape (symbolic extents are negative); false for a handle the library refuses.
bool dims_of(const tfe_tensor* x, int32_t& rank, int64_t* shape) {
  rank = 0;
  return x && tfe_tensor_ndim(x, &rank) == TFE_OK && rank <= kMaxRank &&
         tfe_tensor_shape(x, shape) == TFE_OK;
}

// One extent of a result from two factors, or -1 when the product overflows (a count the library
// must refuse); negative factors stay negative so that fits_or_refused passes them.
int64_t times(int64_t a, int64_t b) {
  int64_t r = 0;
  return __builtin_mul_overflow(a, b, &r) ? -1 : r;
}

int32_t element_size(int32_t dtype) {
  static const int32_t size[] = {0, 1, 4, 8, 4, 8, 8, 16};
  return dtype >= 1 && dtype <= 7 ? size[dtype] : 0;
}

// Axis lists and counts as reduction_and_shape draws them: small valid values mostly, the integer
// table's extremes sometimes, a NULL array or a negative count now and then.
struct Axes {
  int64_t p[4], q[4];
  int32_t n;
  const int64_t* pp;
  explicit Axes(Bytes& in) {
    for (int i = 0; i < 4; ++i) {
      p[i] = in.u8() % 2 ? in.integer() : static_cast<int64_t>(in.pick(4)) - 1;
      q[i] = in.u8() % 2 ? in.integer() : static_cast<int64_t>(in.pick(4));
    }
    uint8_t b = in.u8();
    n = b < 8 ? -1 : static_cast<int32_t>(b % 5);
    pp = in.u8() % 16 ? p : nullptr;
  }
};

// A text output in tfe_last_error_copy's convention, checked: on success buf holds
// min(capacity - 1, needed - 1) bytes and a NUL; a bad buffer is refused; on failure nothing is
// written. `call` runs the function on (buf, capacity, needed) and returns its status.
template <class Call> tfe_status text_out(const char* fn, Bytes& in, bool quiet, Call call) {
  static const int64_t caps[] = {0, 1, 8, 65, -1, 2, 65};
  char buf[65];
  std::memset(buf, '#', sizeof buf);
  int64_t cap = caps[in.pick(7)], needed = -7;
  char* b = in.u8() % 16 ? buf : nullptr;
  int64_t* np = in.u8() % 8 ? &needed : nullptr;
  std::string before = tfe_last_error_message();
  tfe_status st = call(b, cap, np);
  if (quiet) {
    if (kTrace) std::fprintf(stderr, "%s -> %d\n", fn, static_cast<int>(st));
    if (!known_status(st) || st == TFE_ERR_INTERNAL) violation(fn, "unknown or internal status");
    if (before != tfe_last_error_message()) violation(fn, "the error state changed");
  } else {
    check(fn, st, {});
  }
  bool bad_buffer = cap < 0 || (cap > 0 && !b);
  if (bad_buffer && st == TFE_OK) violation(fn, "a bad buffer was accepted");
  if (st != TFE_OK) {
    for (char c : buf)
      if (c != '#') violation(fn, "the buffer was written by a failing call");
    if (needed != -7) violation(fn, "needed was written by a failing call");
    return st;
  }
  if (np && needed < 1) violation(fn, "needed is below 1");
  if (cap > 0) {
    const void* nul = std::memchr(buf, '\0', static_cast<size_t>(cap));
    if (!nul) violation(fn, "no NUL within capacity");
    int64_t len = static_cast<const char*>(nul) - buf;
    if (np && len != std::min(cap - 1, needed - 1)) violation(fn, "the text length disagrees");
  }
  return st;
}

} // namespace

// ---- elementwise extras, NaN tests, scalar operands ----

void numeric(State& s, Bytes& in, size_t dst) {
  tfe_tensor *a = operand(s, in), *b = operand(s, in);
  bool nul = null_output(in);
  switch (in.pick(14)) {
  case 0: CALL1N(tfe_copysign, a, b); break;
  case 1: CALL1N(tfe_hypot, a, b); break;
  case 2: CALL1N(tfe_logaddexp, a, b); break;
  case 3: CALL1N(tfe_reciprocal, a); break;
  case 4: CALL1N(tfe_sigmoid, a); break;
  case 5: CALL1N(tfe_square, a); break;
  case 6: CALL1N(tfe_angle, a, static_cast<int32_t>(in.pick(3))); break;
  case 7: CALL1N(tfe_isnan, a); break;
  case 8: CALL1N(tfe_isinf, a); break;
  case 9: CALL1N(tfe_isfinite, a); break;
  case 10: CALL1N(tfe_nan_to_num, a, in.real(), in.real(), in.real()); break;
  case 11: CALL1N(tfe_isclose, a, b, in.real(), in.real(), static_cast<int32_t>(in.pick(3))); break;
  case 12:
    CALL1N(tfe_allclose, a, b, in.real(), in.real(), static_cast<int32_t>(in.pick(3)));
    break;
  default: {
    // op -1..18 and kind -1..4: one unknown value on each side of the valid ranges.
    int32_t op = static_cast<int32_t>(in.pick(20)) - 1, kind = static_cast<int32_t>(in.pick(6)) - 1;
    int64_t iv = in.u8() % 2 ? in.integer() : static_cast<int64_t>(in.pick(3));
    double re = in.real(), im = in.real();
    CALL1N(tfe_binary_scalar, op, a, kind, iv, re, im, static_cast<int32_t>(in.pick(3)));
    break;
  }
  }
}

// ---- reductions, scans, sorting ----

void reduce_and_order(State& s, Bytes& in, size_t dst) {
  tfe_tensor* x = operand(s, in);
  Axes ax(in);
  int32_t flag = static_cast<int32_t>(in.pick(3)); // keepdims, descending, largest
  bool nul = null_output(in);
  switch (in.pick(12)) {
  case 0: CALL1N(tfe_all, x, ax.n, ax.pp, flag); break;
  case 1: CALL1N(tfe_any, x, ax.n, ax.pp, flag); break;
  case 2: CALL1N(tfe_logsumexp, x, ax.n, ax.pp, flag); break;
  case 3: CALL1N(tfe_std, x, ax.n, ax.pp, in.real(), flag); break;
  case 4: CALL1N(tfe_var, x, ax.n, ax.pp, in.real(), flag); break;
  case 5: CALL1N(tfe_cumsum, x, ax.p[0]); break;
  case 6: CALL1N(tfe_cumprod, x, ax.p[0]); break;
  case 7: CALL1N(tfe_argmax, x, ax.p[0]); break;
  case 8: CALL1N(tfe_argmin, x, ax.p[0]); break;
  case 9: CALL1N(tfe_argsort, x, ax.p[0], flag); break;
  case 10: CALL1N(tfe_sort, x, ax.p[0], flag); break;
  default: { // k <= the extent: the result is never larger than x
    tfe_tensor *v = sentinel<tfe_tensor>(), *i = sentinel<tfe_tensor>();
    tfe_tensor** ip = in.u8() % 8 ? &i : nullptr;
    tfe_status st = tfe_topk(nul ? nullptr : &v, ip, x, ax.q[0], ax.p[0], flag);
    if (nul) v = nullptr;
    if (!ip) i = nullptr;
    check("tfe_topk", st, {v, i});
    if (st != TFE_OK) break;
    if (nul || !ip) violation("tfe_topk", "a NULL output was accepted");
    put(s, dst, v);
    put(s, dst + 1, i);
    break;
  }
  }
}

// ---- shape helpers ----

void shape_helpers(State& s, Bytes& in, size_t dst) {
  tfe_tensor* x = operand(s, in);
  Axes ax(in);
  int64_t k = in.integer();
  bool nul = null_output(in);
  int32_t rank = 0;
  int64_t shape[kMaxRank];
  bool known = dims_of(x, rank, shape);
  switch (in.pick(11)) {
  case 0: CALL1N(tfe_squeeze, x, ax.n, ax.pp); break;
  case 1: CALL1N(tfe_expand_dims, x, ax.n, ax.pp); break;
  case 2: CALL1N(tfe_moveaxis, x, ax.n, ax.pp, ax.q); break;
  case 3: CALL1N(tfe_swapaxes, x, ax.p[0], ax.p[1]); break;
  case 4: CALL1N(tfe_flatten, x); break;
  case 5: CALL1N(tfe_diagonal, x, k % 4, ax.p[0], ax.p[1]); break;
  case 6: { // a vector gives a square matrix of its length plus |k|
    if (known && rank == 1) {
      int64_t side = 0, out[2];
      if (k == INT64_MIN || __builtin_add_overflow(shape[0], k < 0 ? -k : k, &side)) side = -1;
      out[0] = out[1] = side;
      if (!fits_or_refused(out, 2, kRoom)) break;
    }
    CALL1N(tfe_diag, x, k);
    break;
  }
  case 7: {
    // The result's extents: x's times reps, left-aligned (more reps add trailing dims).
    int64_t reps[4], out[kMaxRank];
    for (int i = 0; i < 4; ++i)
      reps[i] = in.u8() % 4 ? static_cast<int64_t>(in.pick(4)) : in.integer();
    int32_t n = ax.n;
    if (known && n >= 0) {
      int32_t r = std::max(rank, n);
      for (int32_t d = 0; d < r; ++d) out[d] = times(d < rank ? shape[d] : 1, d < n ? reps[d] : 1);
      if (!fits_or_refused(out, r, kRoom)) break;
    }
    CALL1N(tfe_tile, x, n, in.u8() % 16 ? reps : nullptr);
    break;
  }
  case 8: {
    // np.repeat along an axis: one count for every element or one per element.
    int64_t reps[6];
    for (int i = 0; i < 6; ++i)
      reps[i] = in.u8() % 4 ? static_cast<int64_t>(in.pick(4)) : in.integer();
    int32_t n = in.u8() % 8 ? 1 + static_cast<int32_t>(in.pick(6)) : ax.n;
    int64_t axis = ax.p[0];
    if (known && n >= 1 && axis >= -rank && axis < rank) {
      int32_t a = static_cast<int32_t>(axis < 0 ? axis + rank : axis);
      int64_t len = -1, out[kMaxRank];
      if (n == 1) {
        len = times(shape[a], reps[0]);
      } else if (n == shape[a]) {
        len = 0;
        for (int32_t i = 0; i < n && len >= 0; ++i)
          len = reps[i] < 0 || __builtin_add_overflow(len, reps[i], &len) ? -1 : len;
      }
      std::copy(shape, shape + rank, out);
      out[a] = len;
      if (!fits_or_refused(out, rank, kRoom)) break;
    }
    CALL1N(tfe_repeat, x, n, reps, axis);
    break;
  }
  case 9: CALL1N(tfe_roll, x, ax.n, ax.q, static_cast<int32_t>(in.pick(4)), ax.pp); break;
  default: { // pieces: views of x, all or none
    tfe_tensor* outs[6];
    for (tfe_tensor*& o : outs) o = sentinel<tfe_tensor>();
    int64_t points[5] = {ax.q[0], ax.q[1], ax.q[2], ax.q[3], in.integer()};
    int32_t n_outs = static_cast<int32_t>(in.pick(7)); // 0: refused
    int32_t n = in.u8() % 2 ? 0 : n_outs - 1;          // equal sections, or split points
    tfe_status st = tfe_split(nul ? nullptr : outs, n_outs, x, n, points, ax.p[0]);
    for (int32_t i = 0; i < 6; ++i) {
      if (i >= n_outs && outs[i] != sentinel<tfe_tensor>())
        violation("tfe_split", "a slot past n_outs was written");
      if (nul || i >= n_outs) outs[i] = nullptr;
    }
    check("tfe_split", st, {outs[0], outs[1], outs[2], outs[3], outs[4], outs[5]});
    if (st != TFE_OK) break;
    if (nul) violation("tfe_split", "a NULL output was accepted");
    for (int32_t i = 0; i < n_outs; ++i) put(s, dst + static_cast<size_t>(i), outs[i]);
    break;
  }
  }
}

// ---- einsum paths and the einsum companions ----

void contraction(State& s, Bytes& in, size_t dst) {
  tfe_tensor* xs[4] = {operand(s, in), operand(s, in), operand(s, in), operand(s, in)};
  Axes ax(in);
  bool nul = null_output(in);
  switch (in.pick(5)) {
  case 0: {
    static const char* const subs[] = {"ij,jk->ik", "ii->i",    "i,i->", "...i->...",
                                       "ab,ba",     "ij,jk,kl", "",      "a,b,c->abc",
                                       "ij->",      "a,,b",     "i->ii", "ab,bc,cd,da->"};
    const char* sub = subs[in.pick(12)];
    int32_t n = in.u8() % 8 ? 1 + static_cast<int32_t>(in.pick(4)) : ax.n;
    int64_t path[8];
    std::fill(std::begin(path), std::end(path), -7);
    static const int64_t caps[] = {0, 16, 48, 64, 8, -1};
    int64_t cap = caps[in.pick(6)];
    void* dstp = in.u8() % 8 ? path : nullptr;
    int32_t steps = -7, optimal = -7;
    double flops = -7, largest = -7;
    bool outs_given = in.u8() % 8;
    tfe_status st = tfe_einsum_path(sub, n, xs, dstp, cap, outs_given ? &steps : nullptr,
                                    outs_given ? &flops : nullptr, outs_given ? &largest : nullptr,
                                    outs_given ? &optimal : nullptr);
    check("tfe_einsum_path", st, {});
    if (st != TFE_OK) {
      for (int64_t v : path)
        if (v != -7) violation("tfe_einsum_path", "the path was written by a failing call");
      break;
    }
    if (cap < 0 || (cap > 0 && !dstp) || (outs_given && cap > 0 && cap < 16 * steps))
      violation("tfe_einsum_path", "a bad or too small path buffer was accepted");
    if (!outs_given) break;
    if (steps != n - 1) violation("tfe_einsum_path", "steps is not n - 1");
    if (!(flops >= 0) || !(largest >= 0) || (optimal != 0 && optimal != 1))
      violation("tfe_einsum_path", "a negative cost or an optimal flag other than 0 or 1");
    if (cap >= 16 * steps && dstp)
      for (int32_t i = 0; i < steps; ++i) { // positions in the current list of n - i operands
        int64_t l = path[2 * i], r = path[2 * i + 1];
        if (!(0 <= l && l < r && r < n - i))
          violation("tfe_einsum_path", "a step names positions outside the operand list");
      }
    break;
  }
  case 1: {
    int32_t n = in.u8() % 4 ? static_cast<int32_t>(in.pick(3)) : ax.n;
    CALL1N(tfe_tensordot, xs[0], xs[1], n, ax.pp, in.u8() % 16 ? ax.q : nullptr);
    break;
  }
  case 2: CALL1N(tfe_outer, xs[0], xs[1]); break;
  case 3: CALL1N(tfe_kron, xs[0], xs[1]); break;
  default: CALL1N(tfe_trace, xs[0], in.u8() % 2 ? ax.p[0] : in.integer()); break;
  }
}

// ---- creation: ranges, *_like, weak scalars ----

void creation_extra(State& s, Bytes& in, size_t dst) {
  tfe_context* ctx = in.u8() % 32 ? context(s, in) : nullptr;
  tfe_tensor* x = operand(s, in);
  int32_t dt = in.dtype();
  bool nul = null_output(in);
  switch (in.pick(6)) {
  case 0:
  case 1: {
    // A count beyond the cap only when the library must refuse it (negative, above 2^48).
    int64_t num = in.u8() % 2 ? in.extent() : in.integer();
    if (!fits_or_refused(&num, 1, kRoom)) break;
    double a = in.real(), ai = in.real(), b = in.real(), bi = in.real();
    int32_t endpoint = static_cast<int32_t>(in.pick(3));
    if (in.u8() % 2)
      CALL1N(tfe_linspace, ctx, dt, a, ai, b, bi, num, endpoint);
    else
      CALL1N(tfe_logspace, ctx, dt, a, ai, b, bi, num, endpoint, in.real());
    break;
  }
  case 2: CALL1N(tfe_zeros_like, x, dt); break;
  case 3: CALL1N(tfe_ones_like, x, dt); break;
  case 4: { // one element of any dtype: doubles, an integer, or a byte (Bool's 0/1 or not)
    unsigned char value[16] = {};
    switch (in.pick(3)) {
    case 0: {
      double v[2] = {in.real(), in.real()};
      std::memcpy(value, v, sizeof v);
      break;
    }
    case 1: {
      int64_t v = in.integer();
      std::memcpy(value, &v, sizeof v);
      break;
    }
    default: value[0] = in.u8() % 3; break;
    }
    CALL1N(tfe_full_like, x, dt, in.u8() % 16 ? value : nullptr);
    break;
  }
  default: {
    int32_t kind = static_cast<int32_t>(in.pick(6)) - 1;
    int64_t iv = in.u8() % 2 ? in.integer() : static_cast<int64_t>(in.pick(3));
    double re = in.real(), im = in.real();
    CALL1N(tfe_weak_scalar, ctx, dt, kind, iv, re, im);
    break;
  }
  }
}

// ---- the linalg options (the functions are called by linalg in fuzz_capi.cpp) ----

void linalg_extra(State& s, Bytes& in, size_t) {
  tfe_linalg_options* o = options_operand(s, in);
  switch (in.pick(4)) {
  case 0:
    check("tfe_linalg_options_set_cutoff", tfe_linalg_options_set_cutoff(o, in.real(), in.real()),
          {});
    return;
  case 1: {
    int64_t r = in.u8() % 2 ? in.integer() : static_cast<int64_t>(in.pick(4)) - 1;
    check("tfe_linalg_options_set_max_rank", tfe_linalg_options_set_max_rank(o, r), {});
    return;
  }
  case 2: {
    tfe_status rs = tfe_linalg_options_retain(o);
    check("tfe_linalg_options_retain", rs, {});
    if (rs == TFE_OK) tfe_linalg_options_release(o);
    return;
  }
  default: // release the options: later calls may pass the stale handle (always refused)
    if (!s.opts || s.stale_opts) return;
    tfe_linalg_options_release(s.opts);
    s.stale_opts = std::exchange(s.opts, nullptr);
    if (in.u8() % 4 == 0) tfe_linalg_options_release(s.stale_opts); // a second release: a no-op
    return;
  }
}

// ---- devices, text outputs, typed copies, DLPack 1.0 ----

void host(State& s, Bytes& in, size_t dst) {
  tfe_tensor* x = operand(s, in);
  bool nul = null_output(in);
  switch (in.pick(9)) {
  case 0: {
    int32_t kind = -7, ordinal = -7;
    tfe_status st = tfe_tensor_device(x, nul ? nullptr : &kind, in.u8() % 4 ? &ordinal : nullptr);
    check("tfe_tensor_device", st, {});
    if (st != TFE_OK) {
      if (kind != -7 || ordinal != -7) violation("tfe_tensor_device", "written by a failing call");
      break;
    }
    if (nul) violation("tfe_tensor_device", "a NULL output was accepted");
    if (kind != TFE_DEVICE_CPU && kind != TFE_DEVICE_CUDA)
      violation("tfe_tensor_device", "an unknown device kind");
    break;
  }
  case 1: {
    // No device in this process (tfe_device_count 0): a transfer to CUDA fails; CPU to CPU works
    // for every plain tensor of an eager context (tracked and traced ones are refused; a dataflow
    // tensor is waited for, and the failure of its op, if any, is reported).
    static const int32_t kinds[] = {TFE_DEVICE_CPU, TFE_DEVICE_CUDA, TFE_DEVICE_CPU, 0, 3, -1};
    int32_t kind = kinds[in.pick(6)], ordinal = static_cast<int32_t>(in.pick(4)) - 1;
    if (in.u8() % 2) ordinal = 0;
    // Asked first: a call after the transfer would replace the message a violation prints.
    int32_t devices = -1;
    if (tfe_device_count(&devices) != TFE_OK) violation("tfe_device_count", "refused");
    bool eager = false;
    if (live(s, x)) {
      tfe_context* c = nullptr;
      int32_t mode = -1;
      if (tfe_tensor_context(&c, x) == TFE_OK) {
        eager = tfe_context_mode(c, &mode) == TFE_OK && mode == TFE_CONTEXT_EAGER;
        tfe_context_release(c);
      }
    }
    tfe_tensor* o = sentinel<tfe_tensor>();
    tfe_status st = tfe_tensor_to_device(nul ? nullptr : &o, x, kind, ordinal);
    if (nul) o = nullptr;
    check("tfe_tensor_to_device", st, {o});
    if (st == TFE_OK && (nul || (kind == TFE_DEVICE_CUDA && devices == 0)))
      violation("tfe_tensor_to_device", "a NULL output or a missing device was accepted");
    if (kind == TFE_DEVICE_CPU && ordinal == 0 && !nul && eager && st != TFE_OK &&
        st != TFE_ERR_NOT_SUPPORTED)
      violation("tfe_tensor_to_device", "a transfer from the CPU to the CPU failed");
    if (kind == TFE_DEVICE_CUDA && ordinal >= 0 && !nul && live(s, x) && devices == 0 &&
        st != TFE_ERR_DEVICE && st != TFE_ERR_NOT_SUPPORTED)
      violation("tfe_tensor_to_device", "a missing device is not TFE_ERR_DEVICE");
    if (st == TFE_OK) put(s, dst, o);
    break;
  }
  case 2:
    text_out("tfe_tensor_format", in, false,
             [&](char* b, int64_t c, int64_t* n) { return tfe_tensor_format(x, b, c, n); });
    break;
  case 3:
    text_out("tfe_autograd_to_dot", in, false,
             [&](char* b, int64_t c, int64_t* n) { return tfe_autograd_to_dot(x, b, c, n); });
    break;
  case 4: {
    const tfe_function* f = s.f[in.pick(3)];
    text_out("tfe_function_to_dot", in, false,
             [&](char* b, int64_t c, int64_t* n) { return tfe_function_to_dot(f, b, c, n); });
    break;
  }
  case 5: { // a typed copy, compared with tfe_tensor_to_data's bytes
    int32_t dt = in.dtype(), xdt = 0;
    int64_t numel = 0;
    bool sized = live(s, x) && tfe_tensor_numel(x, &numel) == TFE_OK && numel >= 0 &&
                 numel <= kRoom && tfe_tensor_dtype(x, &xdt) == TFE_OK;
    int64_t exact = sized ? numel * element_size(xdt) : 0;
    std::vector<unsigned char> buf(static_cast<size_t>(kRoom) * 16, 0xa5), ref;
    const int64_t caps[] = {exact, exact, exact - 1, 0, 8, static_cast<int64_t>(buf.size()), -1};
    int64_t cap = caps[in.pick(7)];
    void* d = in.u8() % 16 ? buf.data() : nullptr;
    tfe_status st = tfe_tensor_copy_to(x, dt, d, cap);
    check("tfe_tensor_copy_to", st, {});
    if (st == TFE_ERR_DTYPE_MISMATCH)
      for (unsigned char c : buf)
        if (c != 0xa5) violation("tfe_tensor_copy_to", "dst written after a dtype mismatch");
    if (st == TFE_OK && sized && dt != xdt)
      violation("tfe_tensor_copy_to", "a copy into another dtype was accepted");
    if (st != TFE_OK || !sized || exact == 0) break;
    ref.assign(static_cast<size_t>(exact), 0);
    tfe_status rs = tfe_tensor_to_data(x, ref.data(), exact);
    check("tfe_tensor_to_data", rs, {});
    if (rs == TFE_OK && std::memcmp(ref.data(), buf.data(), ref.size()) != 0)
      violation("tfe_tensor_copy_to", "the bytes differ from tfe_tensor_to_data's");
    break;
  }
  case 6: { // export as DLPack 1.0, import the export (read-only flag, explicit strides)
    DLManagedTensorVersioned* m = sentinel<DLManagedTensorVersioned>();
    tfe_status st = tfe_tensor_to_dlpack_versioned(&m, x);
    check("tfe_tensor_to_dlpack_versioned", st, {m});
    if (st != TFE_OK) break;
    tfe_tensor* o = sentinel<tfe_tensor>();
    st = tfe_tensor_from_dlpack_versioned(nul ? nullptr : &o, context(s, in), m);
    if (nul) o = nullptr;
    check("tfe_tensor_from_dlpack_versioned", st, {o});
    if (st == TFE_OK && nul) violation("tfe_tensor_from_dlpack_versioned", "NULL output accepted");
    if (st == TFE_OK)
      put(s, dst, o);
    else
      m->deleter(m); // a failed import leaves the export to its producer
    break;
  }
  case 7: { // a DLPack 1.0 tensor built from bytes over static memory; the import owns it
    static double cells[64];
    struct Producer {
      DLManagedTensorVersioned m{};
      int64_t shape[4], strides[4];
    };
    auto p = std::make_unique<Producer>();
    int32_t rank = shape_of(in, p->shape);
    for (int32_t i = 0; i < rank; ++i) p->strides[i] = static_cast<int64_t>(in.pick(3));
    DLManagedTensorVersioned& m = p->m;
    static const uint32_t majors[] = {1, 1, 1, 0, 2};
    m.version = {majors[in.pick(5)], static_cast<uint32_t>(in.pick(3))};
    m.flags = in.pick(4); // read-only, and a flag the library does not know
    m.dl_tensor.data = in.u8() % 4 ? cells + 8 : nullptr;
    m.dl_tensor.device = {in.u8() % 8 ? kDLCPU : kDLCUDA, 0};
    m.dl_tensor.ndim = rank;
    m.dl_tensor.dtype = {static_cast<uint8_t>(in.pick(7)), static_cast<uint8_t>(8 << in.pick(5)),
                         static_cast<uint16_t>(1 + in.pick(2) * 3)};
    m.dl_tensor.shape = p->shape;
    m.dl_tensor.strides = in.u8() % 2 ? p->strides : nullptr;
    m.dl_tensor.byte_offset = static_cast<uint64_t>(in.pick(3)) * 8;
    m.manager_ctx = p.get();
    m.deleter = [](DLManagedTensorVersioned* self) {
      std::unique_ptr<Producer> owned(static_cast<Producer*>(self->manager_ctx));
    };
    if (!fits_or_refused(p->shape, rank, 4)) break;
    tfe_tensor* o = sentinel<tfe_tensor>();
    tfe_status st = tfe_tensor_from_dlpack_versioned(nul ? nullptr : &o, context(s, in), &m);
    if (nul) o = nullptr;
    check("tfe_tensor_from_dlpack_versioned", st, {o});
    if (st != TFE_OK) break; // the producer keeps it (p frees it)
    if (nul) violation("tfe_tensor_from_dlpack_versioned", "a NULL output was accepted");
    p.release(); // the tensor's storage runs the deleter
    put(s, dst, o);
    break;
  }
  default:
    text_out("tfe_last_error_copy", in, true,
             [](char* b, int64_t c, int64_t* n) { return tfe_last_error_copy(b, c, n); });
    break;
  }
}

// ---- retains, caches, process-wide queries ----

void handles(State& s, Bytes& in) {
  size_t fi = in.pick(3);
  tfe_context* ctx = in.u8() % 32 ? context(s, in) : nullptr;
  int32_t i32 = -7;
  bool nul = null_output(in);
  switch (in.pick(12)) {
  case 0: {
    tfe_status st = tfe_context_retain(ctx);
    check("tfe_context_retain", st, {});
    if (st == TFE_OK) tfe_context_release(ctx);
    break;
  }
  case 1: {
    tfe_status st = tfe_function_retain(s.f[fi]);
    check("tfe_function_retain", st, {});
    if (st == TFE_OK) tfe_function_release(s.f[fi]);
    break;
  }
  case 2: { // a second reference to results outlives the first
    tfe_tensor* args[3] = {operand(s, in), operand(s, in), operand(s, in)};
    tfe_results* r = sentinel<tfe_results>();
    tfe_status st = tfe_function_call(&r, s.f[fi], static_cast<int32_t>(in.pick(4)), args);
    check("tfe_function_call", st, {r});
    if (st != TFE_OK) r = nullptr;
    st = tfe_results_retain(r);
    check("tfe_results_retain", st, {});
    if (st != TFE_OK) break;
    tfe_results_release(r);
    int32_t n = -7;
    check("tfe_results_count", tfe_results_count(r, &n), {});
    tfe_results_release(r);
    break;
  }
  case 3: {
    tfe_status st = tfe_context_mode(ctx, nul ? nullptr : &i32);
    check("tfe_context_mode", st, {});
    int32_t want = ctx == s.ctx[0] ? TFE_CONTEXT_EAGER : TFE_CONTEXT_DATAFLOW;
    if (st == TFE_OK && (nul || i32 != want)) violation("tfe_context_mode", "a wrong mode");
    if (st != TFE_OK && i32 != -7) violation("tfe_context_mode", "written by a failing call");
    break;
  }
  case 4: {
    int64_t v[4] = {-7, -7, -7, -7};
    int32_t cache = static_cast<int32_t>(in.pick(5)) - 1;
    uint8_t mask = in.u8();
    tfe_status st =
        tfe_context_cache_stats(ctx, cache, mask & 1 ? v : nullptr, mask & 2 ? v + 1 : nullptr,
                                mask & 4 ? v + 2 : nullptr, mask & 8 ? v + 3 : nullptr);
    check("tfe_context_cache_stats", st, {});
    for (int i = 0; i < 4; ++i)
      if (st == TFE_OK ? (mask >> i & 1) && v[i] < 0 : v[i] != -7)
        violation("tfe_context_cache_stats", "a negative count, or written by a failing call");
    break;
  }
  case 5: {
    int32_t cache = static_cast<int32_t>(in.pick(5)) - 1;
    check("tfe_context_cache_clear", tfe_context_cache_clear(ctx, cache), {});
    break;
  }
  case 6: {
    int32_t cache = static_cast<int32_t>(in.pick(5)) - 1;
    int64_t entries = in.u8() % 2 ? in.integer() : static_cast<int64_t>(in.pick(3));
    int64_t bytes = in.u8() % 2 ? in.integer() : static_cast<int64_t>(in.pick(3)) << 10;
    check("tfe_context_cache_limits", tfe_context_cache_limits(ctx, cache, entries, bytes), {});
    break;
  }
  case 7: {
    const tfe_function* f = s.f[fi];
    int32_t which = static_cast<int32_t>(in.pick(3)), idx = static_cast<int32_t>(in.integer());
    tfe_status st = TFE_OK;
    const char* fn = "tfe_function_output_is_zero";
    if (which == 0)
      fn = "tfe_function_num_inputs", st = tfe_function_num_inputs(f, nul ? nullptr : &i32);
    else if (which == 1)
      fn = "tfe_function_num_outputs", st = tfe_function_num_outputs(f, nul ? nullptr : &i32);
    else
      st = tfe_function_output_is_zero(f, in.u8() % 2 ? idx : idx & 1, nul ? nullptr : &i32);
    check(fn, st, {});
    if (st == TFE_OK && (nul || i32 < 0 || (which == 2 && i32 > 1)))
      violation(fn, "a NULL output was accepted, or a value out of range");
    if (st != TFE_OK && i32 != -7) violation(fn, "written by a failing call");
    break;
  }
  case 8: {
    // The budget stays one thread (LLVMFuzzerInitialize): only refused values and 1 are set.
    static const int32_t threads[] = {1, 0, -1, INT32_MIN, INT32_MAX, 1 << 20};
    int32_t want = threads[in.pick(6)];
    tfe_status st = tfe_set_num_threads(want);
    check("tfe_set_num_threads", st, {});
    if ((st == TFE_OK) != (want == 1)) violation("tfe_set_num_threads", "a wrong budget accepted");
    st = tfe_get_num_threads(nul ? nullptr : &i32);
    check("tfe_get_num_threads", st, {});
    if (st == TFE_OK && (nul || i32 != 1)) violation("tfe_get_num_threads", "not one thread");
    break;
  }
  case 9: {
    tfe_status st = tfe_device_count(nul ? nullptr : &i32);
    check("tfe_device_count", st, {});
    if (st == TFE_OK && (nul || i32 < 0)) violation("tfe_device_count", "a negative count");
    break;
  }
  case 10: { // documented not to change the error state
    static const tfe_status codes[] = {0, 1, 5, 10, 11, 100, -1, INT32_MIN, 99, 101};
    tfe_status code = codes[in.pick(10)];
    std::string before = tfe_last_error_message();
    const char* name = tfe_status_name(code);
    if (kTrace) std::fprintf(stderr, "tfe_status_name(%d) -> %s\n", code, name ? name : "NULL");
    if (!name || std::strncmp(name, "TFE_", 4) != 0)
      violation("tfe_status_name", "NULL or a name without the TFE_ prefix");
    if (((code >= 0 && code <= 10) || code == 100) == (std::strcmp(name, "TFE_ERR_UNKNOWN") == 0))
      violation("tfe_status_name", "a known status unnamed or an unknown one named");
    if (before != tfe_last_error_message()) violation("tfe_status_name", "the error state changed");
    break;
  }
  default: {
    const char* v = tfe_version();
    if (!v || !*v) violation("tfe_version", "NULL or empty");
    if (tfe_abi_version() != TFE_ABI_VERSION) violation("tfe_abi_version", "not the header's");
    int32_t count = tfe_op_count();
    if (count < 1) violation("tfe_op_count", "no ops");
    int32_t i =
        in.u8() % 4 ? static_cast<int32_t>(in.pick(256)) : static_cast<int32_t>(in.integer());
    const char *name = tfe_op_name(i), *c_name = tfe_op_c_name(i);
    if (kTrace)
      std::fprintf(stderr, "tfe_version, tfe_abi_version, tfe_op_count, tfe_op_name(%d) -> %s\n", i,
                   name ? name : "NULL");
    bool in_range = i >= 0 && i < count;
    if (in_range != (name != nullptr) || in_range != (c_name != nullptr))
      violation("tfe_op_name", "NULL inside the range, or a name outside it");
    if (c_name && std::strncmp(c_name, "tfe_", 4) != 0)
      violation("tfe_op_c_name", "a C name without the tfe_ prefix");
    if (name && !*name) violation("tfe_op_name", "an empty name");
    break;
  }
  }
}

} // namespace tfe_fuzz
