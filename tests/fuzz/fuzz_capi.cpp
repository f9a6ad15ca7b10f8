// libFuzzer target over the C ABI: the input bytes are a program of calls (creation with every
// dtype, ranks 0-4 with zero and huge extents, caller buffers and DLPack with odd strides, the
// elementwise, analytic, shape and linear algebra ops with arbitrary parameters, eager AD with
// no_grad and capture scopes, traced programs and their transforms, a dataflow context; the
// families of the functions added later are in fuzz_capi_extra.cpp). After every call the
// contract is checked: a known status; on failure every handle output NULL and a message that
// starts with the function's name; at the end of an input, no live handle. A violation aborts
// with the function's name, so libFuzzer keeps the input as a crash.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <utility>
#include <vector>

#include "capi/dlpack_abi.hpp"
#include "fuzz_capi.hpp"
#include "linalg_calls.hpp"
#include "ops/defs/analytic.hpp"
#include "ops/defs/arithmetic.hpp"
#include "ops/defs/complex_parts.hpp"
#include "ops/defs/logical.hpp"
#include "tenferro/tenferro.h"

namespace {

using namespace tfe_fuzz;

// ---- the calls ----

void create(State& s, Bytes& in, size_t dst) {
  int64_t shape[4];
  tfe_context* ctx = context(s, in);
  int32_t dt = in.dtype();
  int32_t rank = shape_of(in, shape);
  switch (in.pick(9)) {
  case 0: CALL1(tfe_zeros, ctx, dt, rank, shape); break;
  case 1: CALL1(tfe_ones, ctx, dt, rank, shape); break;
  case 2: {
    double v[2] = {in.real(), in.real()};
    CALL1(tfe_full, ctx, dt, rank, shape, v);
    break;
  }
  case 3: CALL1(tfe_eye, ctx, dt, in.extent(), in.extent()); break;
  case 4: CALL1(tfe_arange, ctx, dt, in.real(), in.real(), in.real()); break;
  case 5: CALL1(tfe_random_uniform, ctx, dt, rank, shape, in.u8(), in.real(), in.real()); break;
  case 6: CALL1(tfe_random_normal, ctx, dt, rank, shape, in.u8()); break;
  case 7: CALL1(tfe_iota, ctx, dt, rank, shape, static_cast<int64_t>(in.pick(5))); break;
  default: { // from caller data with odd strides (negative, zero, larger than compact)
    int64_t strides[4], span = 1;
    bool small = true;
    for (int32_t i = 0; i < rank; ++i) small &= shape[i] <= 8;
    for (int32_t i = 0; i < rank; ++i) {
      static const int64_t choice[] = {1, 2, 0, -1, 3};
      strides[i] = small ? choice[in.pick(5)] * span : in.integer();
      if (small) span *= shape[i] + 1;
    }
    // 16 bytes per element (the widest dtype), element (0,..,0) in the middle: any of the
    // strides above stays inside.
    std::vector<unsigned char> data(small ? static_cast<size_t>(16 * (8 * span + 8)) : 16, 0x3c);
    const unsigned char* base = data.data() + (small ? 16 * (4 * span + 4) : 0);
    bool compact = in.u8() % 2;
    // A huge shape is only passed when nothing may be read: no elements, or a count the library
    // must refuse first (the caller's memory is what the shape claims).
    if (!small && !fits_or_refused(shape, rank, 0)) break;
    CALL1(tfe_tensor_from_data, ctx, dt, rank, shape, compact ? nullptr : strides, base);
    break;
  }
  }
}

void symbolic(State& s, Bytes& in, size_t dst) {
  int64_t shape[4];
  int32_t rank = static_cast<int32_t>(in.pick(5));
  for (int32_t i = 0; i < rank; ++i) shape[i] = in.u8() % 3 == 0 ? in.integer() : -1 - in.pick(2);
  CALL1(tfe_tensor_symbolic, context(s, in), in.dtype(), rank, shape);
}

// Every generated C function of the op registry's rows (arithmetic, logical, complex parts and
// analytic), by index, so that a new row is fuzzed without an edit here.
#define FUZZ_ROW_1(c_stem)                                                                         \
  [](tfe_tensor** o, tfe_tensor* a, tfe_tensor*) { return tfe_##c_stem(o, a); }
#define FUZZ_ROW_2(c_stem)                                                                         \
  [](tfe_tensor** o, tfe_tensor* a, tfe_tensor* b) { return tfe_##c_stem(o, a, b); }
#define FUZZ_ANALYTIC(Code, name, arity, ...) {"tfe_" #name, FUZZ_ROW_##arity(name)},
#define FUZZ_BASIC_Regular(c_stem, arity) {"tfe_" #c_stem, FUZZ_ROW_##arity(c_stem)},
#define FUZZ_BASIC_Custom(c_stem, arity)
#define FUZZ_BASIC(Code, name, c_stem, entry, arity, ...) FUZZ_BASIC_##entry(c_stem, arity)
struct RowCall {
  const char* name;
  tfe_status (*call)(tfe_tensor**, tfe_tensor*, tfe_tensor*);
};
const RowCall kRows[] = {TFE_ARITHMETIC_OPS(FUZZ_BASIC) TFE_LOGICAL_OPS(FUZZ_BASIC)
                             TFE_COMPLEX_PARTS_OPS(FUZZ_BASIC) TFE_ANALYTIC_OPS(FUZZ_ANALYTIC)};

void row_op(State& s, Bytes& in, size_t dst) {
  const RowCall& row = kRows[in.pick(sizeof kRows / sizeof kRows[0])];
  tfe_tensor *a = operand(s, in), *b = operand(s, in), *o = sentinel<tfe_tensor>();
  tfe_status st = row.call(&o, a, b);
  check(row.name, st, {o});
  if (st == TFE_OK) put(s, dst, o);
}

// The elementwise functions written by hand (checks or parameters of their own).
void elementwise(State& s, Bytes& in, size_t dst) {
  tfe_tensor *a = operand(s, in), *b = operand(s, in), *c = operand(s, in);
  switch (in.pick(6)) {
  case 0: CALL1(tfe_div, a, b); break;
  case 1: CALL1(tfe_div_trunc, a, b); break;
  case 2: CALL1(tfe_compare, a, b, static_cast<int32_t>(in.pick(8))); break;
  case 3: CALL1(tfe_select, a, b, c); break;
  case 4: CALL1(tfe_clamp, a, b, c); break;
  default: CALL1(tfe_matmul, a, b); break;
  }
}

void reduction_and_shape(State& s, Bytes& in, size_t dst) {
  tfe_tensor *x = operand(s, in), *y = operand(s, in), *z = operand(s, in);
  int64_t p[4], q[4], r[4];
  int32_t n = static_cast<int32_t>(in.pick(5));
  for (int i = 0; i < 4; ++i) {
    p[i] = in.u8() % 2 ? in.integer() : static_cast<int64_t>(in.pick(4));
    q[i] = in.u8() % 2 ? in.integer() : in.extent();
    r[i] = in.u8() % 2 ? in.integer() : 1 + static_cast<int64_t>(in.pick(3));
  }
  int64_t k = in.integer();
  int32_t dt = in.dtype();
  size_t which = in.pick(30);
  switch (which) {
  case 0: CALL1(tfe_sum, x, n, p); break;
  case 1: CALL1(tfe_prod, x, n, p); break;
  case 2: CALL1(tfe_mean, x, n, p); break;
  case 3: CALL1(tfe_reduce_sum, x, n, p); break;
  case 4: CALL1(tfe_reduce_prod, x, n, p); break;
  case 5: CALL1(tfe_reduce_max, x, n, p); break;
  case 6: CALL1(tfe_reduce_min, x, n, p); break;
  case 7: CALL1(tfe_convert, x, dt); break;
  case 8: CALL1(tfe_cast, x, dt); break;
  case 9: CALL1(tfe_transpose, x, n, p); break;
  case 10: CALL1(tfe_reshape, x, n, q); break;
  case 11:
  case 12: {
    tfe_tensor* v = sentinel<tfe_tensor>();
    tfe_status st = TFE_OK;
    const char* fn = "tfe_broadcast_to";
    if (which == 11)
      fn = "tfe_broadcast_in_dim", st = tfe_broadcast_in_dim(&v, x, n, q, n, p);
    else
      st = tfe_broadcast_to(&v, x, n, q);
    check(fn, st, {v});
    if (st != TFE_OK) break;
    if (fits_or_refused(q, n, kRoom)) {
      put(s, dst, v);
      break;
    }
    // Too large to keep (kRoom): only its allocating use, which must fail cleanly or succeed.
    tfe_tensor* o = sentinel<tfe_tensor>();
    st = tfe_neg(&o, v);
    check("tfe_neg", st, {o});
    tfe_tensor_release(o);
    tfe_tensor_release(v);
    break;
  }
  case 13: CALL1(tfe_reverse, x, n, p); break;
  case 14: CALL1(tfe_extract_diag, x, p[0], p[1]); break;
  case 15: CALL1(tfe_embed_diag, x, p[0], p[1]); break;
  case 16: CALL1(tfe_tril, x, k); break;
  case 17: CALL1(tfe_triu, x, k); break;
  case 18: CALL1(tfe_slice, x, n, p, q, r); break;
  case 19: CALL1(tfe_dynamic_slice, x, y, n, q); break;
  case 20: CALL1(tfe_dynamic_update_slice, x, y, z); break;
  case 21: CALL1(tfe_gather, x, y, p[0]); break;
  case 22: CALL1(tfe_scatter, x, y, z, p[0]); break;
  case 23: CALL1(tfe_pad, x, n, p, r, p); break;
  case 24: {
    tfe_tensor* xs[3] = {x, y, z};
    CALL1(tfe_concatenate, 1 + static_cast<int32_t>(in.pick(3)), xs, k % 5);
    break;
  }
  case 25: {
    tfe_tensor* xs[3] = {x, y, z};
    CALL1(tfe_stack, 1 + static_cast<int32_t>(in.pick(3)), xs, k % 5);
    break;
  }
  case 26: CALL1(tfe_dot_general, x, y, n, p, r, 0, nullptr, nullptr); break;
  case 27: CALL1(tfe_tensor_contiguous, x); break;
  case 28: {
    static const char* const subs[] = {"ij,jk->ik", "ii->i", "i,i->", "...i->...", "ab,ba",
                                       "i->ii",     "",      "ij->",  ",->",       "a,b->ab"};
    tfe_tensor* xs[2] = {x, y};
    CALL1(tfe_einsum, subs[in.pick(10)], 1 + static_cast<int32_t>(in.pick(2)), xs);
    break;
  }
  default: CALL1(tfe_tensor_detach, x); break;
  }
}

// One call of a regular linalg function (linalg_calls.hpp, generated from the header): its
// operands, scalars and options drawn before the call; the first output slot NULL now and then
// (must be refused), a later one too (must be refused as well: every output is wanted).
struct LinalgCall {
  State& s;
  size_t dst;
  tfe_tensor* operands[3];
  tfe_linalg_options* options;
  int32_t ints32[2];
  int64_t ints64[2];
  double reals[2];
  bool null_first, null_later;
  tfe_tensor* outs[3] = {sentinel<tfe_tensor>(), sentinel<tfe_tensor>(), sentinel<tfe_tensor>()};
  int n_outs = 0;

  LinalgCall(State& st, Bytes& bytes, size_t d)
      : s(st), dst(d), operands{operand(st, bytes), operand(st, bytes), operand(st, bytes)},
        options(options_operand(st, bytes)), ints32{static_cast<int32_t>(bytes.pick(9)),
                                                    static_cast<int32_t>(bytes.integer())},
        ints64{bytes.integer(), bytes.integer()}, reals{bytes.real(), bytes.real()},
        null_first(bytes.u8() % 16 == 0), null_later(bytes.u8() % 16 == 0) {}

  tfe_tensor** out(int i) {
    n_outs = std::max(n_outs, i + 1);
    return passed_null(i) ? nullptr : &outs[i];
  }
  bool passed_null(int i) const { return i == 0 ? null_first : (i == 1 && null_later); }
  tfe_tensor* t(int i) const { return operands[i]; }
  int32_t i32(int k) const { return ints32[k]; }
  int64_t i64(int k) const { return ints64[k]; }
  double real(int k) const { return reals[k]; }
  tfe_linalg_options* opts() const { return options; }

  void done(const char* fn, tfe_status st) {
    tfe_tensor* got[3] = {};
    bool any_null = false;
    for (int i = 0; i < n_outs; ++i) {
      any_null = any_null || passed_null(i);
      got[i] = passed_null(i) ? nullptr : outs[i];
    }
    check(fn, st, {got[0], got[1], got[2]});
    if (st != TFE_OK) return;
    if (any_null) violation(fn, "a NULL output was accepted");
    for (int i = 0; i < n_outs; ++i) put(s, dst + static_cast<size_t>(i), got[i]);
  }
};

// Linear algebra: every regular function through the generated table, and the two that take
// arrays.
void linalg(State& s, Bytes& in, size_t dst) {
  size_t which = in.pick(kRegularLinalg + 2);
  if (which < static_cast<size_t>(kRegularLinalg)) {
    LinalgCall call(s, in, dst);
    call_regular_linalg(static_cast<int>(which), call);
    return;
  }
  tfe_tensor *a = operand(s, in), *b = operand(s, in), *c = operand(s, in);
  if (which == static_cast<size_t>(kRegularLinalg)) {
    int64_t k = in.integer();
    CALL1(tfe_linalg_vector_norm, a, in.real(), static_cast<int32_t>(in.pick(2)), &k);
    return;
  }
  tfe_tensor* xs[3] = {a, b, c};
  CALL1(tfe_linalg_multi_dot, 1 + static_cast<int32_t>(in.pick(3)), xs);
}

void options(State& s, Bytes& in) {
  if (!s.opts) {
    tfe_linalg_options* o = sentinel<tfe_linalg_options>();
    tfe_status st = tfe_linalg_options_create(&o);
    check("tfe_linalg_options_create", st, {o});
    s.opts = o;
    return;
  }
  int32_t v = static_cast<int32_t>(in.integer());
  switch (in.pick(9)) {
  case 0: check("tfe_linalg_options_set_upper", tfe_linalg_options_set_upper(s.opts, v), {}); break;
  case 1: check("tfe_linalg_options_set_left", tfe_linalg_options_set_left(s.opts, v), {}); break;
  case 2:
    check("tfe_linalg_options_set_unit_diagonal", tfe_linalg_options_set_unit_diagonal(s.opts, v),
          {});
    break;
  case 3:
    check("tfe_linalg_options_set_transpose", tfe_linalg_options_set_transpose(s.opts, v), {});
    break;
  case 4:
    check("tfe_linalg_options_set_full_matrices", tfe_linalg_options_set_full_matrices(s.opts, v),
          {});
    break;
  case 5:
    check("tfe_linalg_options_set_positive_diagonal",
          tfe_linalg_options_set_positive_diagonal(s.opts, v), {});
    break;
  case 6:
    check("tfe_linalg_options_set_derivative_eps",
          tfe_linalg_options_set_derivative_eps(s.opts, in.real()), {});
    break;
  case 7:
    check("tfe_linalg_options_set_rtol", tfe_linalg_options_set_rtol(s.opts, in.real()), {});
    break;
  default:
    check("tfe_linalg_options_set_hermitian", tfe_linalg_options_set_hermitian(s.opts, v), {});
    break;
  }
}

void autodiff(State& s, Bytes& in, size_t dst) {
  tfe_tensor *x = operand(s, in), *y = operand(s, in), *z = operand(s, in);
  int c = in.u8() % 2;
  switch (in.pick(14)) {
  case 0:
    check("tfe_tensor_set_requires_grad",
          tfe_tensor_set_requires_grad(x, static_cast<int32_t>(in.pick(3))), {});
    break;
  case 1: check("tfe_backward", tfe_backward(x, in.u8() % 2 ? y : nullptr), {}); break;
  case 2: {
    tfe_tensor* o = sentinel<tfe_tensor>();
    tfe_status st = tfe_tensor_grad(&o, x);
    check("tfe_tensor_grad", st, {o});
    if (st == TFE_OK && o) put(s, dst, o);
    break;
  }
  case 3: check("tfe_tensor_clear_grad", tfe_tensor_clear_grad(x), {}); break;
  case 4: {
    tfe_tensor *g[2] = {sentinel<tfe_tensor>(), sentinel<tfe_tensor>()}, *xs[2] = {y, z};
    int32_t n = 1 + static_cast<int32_t>(in.pick(2));
    tfe_status st = tfe_vjp(g, x, n, xs, in.u8() % 3 ? nullptr : y);
    check("tfe_vjp", st, {g[0], n > 1 ? g[1] : nullptr});
    if (st != TFE_OK) break;
    put(s, dst, g[0]);
    if (n > 1) put(s, dst + 1, g[1]);
    break;
  }
  case 5: {
    tfe_tensor *o = sentinel<tfe_tensor>(), *xs[1] = {y}, *ts[1] = {z};
    tfe_status st = tfe_jvp(&o, x, 1, xs, ts);
    check("tfe_jvp", st, {o});
    if (st == TFE_OK) put(s, dst, o);
    break;
  }
  case 6:
    if (tfe_no_grad_enter(s.ctx[c]) == TFE_OK) ++s.no_grad[c];
    break;
  case 7: {
    tfe_status st = tfe_no_grad_exit(s.ctx[c]);
    check("tfe_no_grad_exit", st, {});
    if (st == TFE_OK) --s.no_grad[c];
    break;
  }
  case 8:
    if (tfe_capture_trace_enter(s.ctx[c]) == TFE_OK) ++s.capture[c];
    break;
  case 9: {
    tfe_status st = tfe_capture_trace_exit(s.ctx[c]);
    check("tfe_capture_trace_exit", st, {});
    if (st == TFE_OK) --s.capture[c];
    break;
  }
  case 10: {
    // Creation on a device: no device exists in this process, so only the host opens a scope.
    static const int32_t kinds[] = {TFE_DEVICE_CPU, TFE_DEVICE_CUDA, 0, 9};
    int32_t kind = kinds[in.pick(4)], ordinal = static_cast<int32_t>(in.pick(3)) - 1;
    tfe_status st = tfe_device_scope_enter(in.u8() % 16 ? s.ctx[c] : nullptr, kind, ordinal);
    check("tfe_device_scope_enter", st, {});
    if (st == TFE_OK && !(kind == TFE_DEVICE_CPU && ordinal == 0))
      violation("tfe_device_scope_enter", "a missing device or a bad ordinal was accepted");
    if (st == TFE_OK) ++s.device_scopes[c];
    break;
  }
  case 11: {
    tfe_status st = tfe_device_scope_exit(s.ctx[c]);
    check("tfe_device_scope_exit", st, {});
    if ((st == TFE_OK) != (s.device_scopes[c] > 0))
      violation("tfe_device_scope_exit", "closed a scope that was not open, or refused one");
    if (st == TFE_OK) --s.device_scopes[c];
    break;
  }
  default: {
    int32_t flag = -1;
    check("tfe_tensor_requires_grad", tfe_tensor_requires_grad(x, &flag), {});
    break;
  }
  }
}

void program(State& s, Bytes& in, size_t dst) {
  size_t fi = in.pick(3);
  switch (in.pick(6)) {
  case 0: {
    tfe_tensor *ins[2] = {operand(s, in), operand(s, in)},
               *outs[2] = {operand(s, in), operand(s, in)};
    tfe_function* f = sentinel<tfe_function>();
    tfe_status st = tfe_function_create(&f, static_cast<int32_t>(in.pick(3)), ins,
                                        1 + static_cast<int32_t>(in.pick(2)), outs);
    check("tfe_function_create", st, {f});
    if (st != TFE_OK) break;
    tfe_function_release(s.f[fi]);
    s.f[fi] = f;
    break;
  }
  case 1: {
    tfe_tensor* args[3] = {operand(s, in), operand(s, in), operand(s, in)};
    tfe_results* r = sentinel<tfe_results>();
    tfe_status st = tfe_function_call(&r, s.f[fi], static_cast<int32_t>(in.pick(4)), args);
    check("tfe_function_call", st, {r});
    if (st != TFE_OK) break;
    int32_t n = 0;
    check("tfe_results_count", tfe_results_count(r, &n), {});
    for (int32_t i = 0; i < n && i < 2; ++i) {
      tfe_tensor* o = sentinel<tfe_tensor>();
      tfe_status gs = tfe_results_get(&o, r, i);
      check("tfe_results_get", gs, {o});
      if (gs == TFE_OK) put(s, dst + static_cast<size_t>(i), o);
    }
    tfe_results_release(r);
    break;
  }
  case 2: {
    tfe_tensor* args[2] = {operand(s, in), operand(s, in)};
    CALL1(tfe_function_call1, s.f[fi], static_cast<int32_t>(in.pick(3)), args);
    break;
  }
  default: {
    int64_t wrt[2] = {static_cast<int64_t>(in.pick(3)), in.integer()};
    int32_t n_wrt = static_cast<int32_t>(in.pick(3));
    tfe_function* g = sentinel<tfe_function>();
    tfe_status st = TFE_OK;
    const char* fn = "";
    switch (in.pick(4)) {
    case 0: fn = "tfe_function_jvp", st = tfe_function_jvp(&g, s.f[fi], n_wrt, wrt); break;
    case 1: fn = "tfe_function_vjp", st = tfe_function_vjp(&g, s.f[fi], n_wrt, wrt); break;
    case 2: fn = "tfe_function_grad", st = tfe_function_grad(&g, s.f[fi], n_wrt, wrt); break;
    default:
      fn = "tfe_function_hvp";
      st = tfe_function_hvp(&g, s.f[fi], n_wrt, wrt, static_cast<int32_t>(in.pick(3)));
      break;
    }
    check(fn, st, {g});
    if (st != TFE_OK) break;
    size_t to = in.pick(3);
    tfe_function_release(s.f[to]);
    s.f[to] = g;
    break;
  }
  }
}

void noop_deleter(void*, void*) {}

void interop(State& s, Bytes& in, size_t dst) {
  tfe_tensor* x = operand(s, in);
  switch (in.pick(4)) {
  case 0: { // export, then import the export into a context (strides as exported)
    DLManagedTensor* m = sentinel<DLManagedTensor>();
    tfe_status st = tfe_tensor_to_dlpack(&m, x);
    check("tfe_tensor_to_dlpack", st, {m});
    if (st != TFE_OK) break;
    tfe_tensor* o = sentinel<tfe_tensor>();
    st = tfe_tensor_from_dlpack(&o, context(s, in), m);
    check("tfe_tensor_from_dlpack", st, {o});
    if (st == TFE_OK)
      put(s, dst, o);
    else
      m->deleter(m); // a failed import leaves the export to its producer
    break;
  }
  case 1: {
    DLManagedTensorVersioned* m = sentinel<DLManagedTensorVersioned>();
    tfe_status st = tfe_tensor_to_dlpack_versioned(&m, x);
    check("tfe_tensor_to_dlpack_versioned", st, {m});
    if (st == TFE_OK) m->deleter(m);
    break;
  }
  case 2: { // a DLPack tensor built from bytes over static memory; the import owns it
    static double cells[64];
    struct Producer {
      DLManagedTensor m{};
      int64_t shape[4], strides[4];
    };
    auto p = std::make_unique<Producer>();
    int32_t rank = shape_of(in, p->shape);
    for (int32_t i = 0; i < rank; ++i) p->strides[i] = static_cast<int64_t>(in.pick(3));
    DLManagedTensor& m = p->m;
    m.dl_tensor.data = in.u8() % 4 ? cells + 8 : nullptr;
    m.dl_tensor.device = {kDLCPU, 0};
    m.dl_tensor.ndim = rank;
    m.dl_tensor.dtype = {static_cast<uint8_t>(in.pick(6)), static_cast<uint8_t>(8 << in.pick(5)),
                         static_cast<uint16_t>(1 + in.pick(2) * 3)};
    m.dl_tensor.shape = p->shape;
    m.dl_tensor.strides = in.u8() % 2 ? p->strides : nullptr;
    m.dl_tensor.byte_offset = static_cast<uint64_t>(in.pick(3)) * 8;
    m.manager_ctx = p.get();
    m.deleter = [](DLManagedTensor* self) {
      std::unique_ptr<Producer> owned(static_cast<Producer*>(self->manager_ctx));
    };
    if (!fits_or_refused(p->shape, rank, 4)) break;
    tfe_tensor* o = sentinel<tfe_tensor>();
    tfe_status st = tfe_tensor_from_dlpack(&o, context(s, in), &m);
    check("tfe_tensor_from_dlpack", st, {o});
    if (st != TFE_OK) break; // the producer keeps it (p frees it)
    p.release();             // the tensor's storage runs the deleter
    put(s, dst, o);
    break;
  }
  default: { // a caller buffer with odd strides
    static double cells[64];
    int64_t shape[4], strides[4];
    int32_t rank = shape_of(in, shape);
    for (int32_t i = 0; i < rank; ++i) strides[i] = static_cast<int64_t>(in.pick(2));
    if (!fits_or_refused(shape, rank, 4)) break;
    CALL1(tfe_tensor_from_buffer, context(s, in), in.dtype(), rank, shape,
          in.u8() % 2 ? strides : nullptr, cells + 8, noop_deleter, nullptr);
    break;
  }
  }
}

void inspect(State& s, Bytes& in) {
  tfe_tensor* x = operand(s, in);
  int32_t i32 = 0;
  int64_t shape[8], i64 = 0;
  switch (in.pick(10)) {
  case 0: check("tfe_tensor_dtype", tfe_tensor_dtype(x, &i32), {}); break;
  case 1: check("tfe_tensor_ndim", tfe_tensor_ndim(x, &i32), {}); break;
  case 2: {
    tfe_status st = tfe_tensor_ndim(x, &i32);
    if (st == TFE_OK && i32 <= 8) check("tfe_tensor_shape", tfe_tensor_shape(x, shape), {});
    break;
  }
  case 3: check("tfe_tensor_numel", tfe_tensor_numel(x, &i64), {}); break;
  case 4: check("tfe_tensor_stride", tfe_tensor_stride(x, in.integer(), &i64), {}); break;
  case 5: {
    const void* p = nullptr;
    tfe_status st = tfe_tensor_data(x, &p);
    check("tfe_tensor_data", st, {});
    if (st == TFE_OK && tfe_tensor_numel(x, &i64) == TFE_OK && i64 == 0 && p)
      violation("tfe_tensor_data", "an empty tensor's data pointer is not NULL");
    break;
  }
  case 6: {
    unsigned char buf[64 * 16];
    check("tfe_tensor_to_data", tfe_tensor_to_data(x, buf, static_cast<int64_t>(in.pick(3)) * 512),
          {});
    break;
  }
  case 7: {
    char text[32];
    int64_t needed = 0;
    check("tfe_tensor_extent_text",
          tfe_tensor_extent_text(x, in.integer() % 5, text, static_cast<int64_t>(in.pick(33)),
                                 &needed),
          {});
    break;
  }
  case 8: {
    tfe_context* c = sentinel<tfe_context>();
    tfe_status st = tfe_tensor_context(&c, x);
    check("tfe_tensor_context", st, {c});
    if (st == TFE_OK) tfe_context_release(c);
    break;
  }
  default: check("tfe_tensor_is_symbolic", tfe_tensor_is_symbolic(x, &i32), {}); break;
  }
}

void lifetime(State& s, Bytes& in) {
  size_t slot = in.pick(kSlots);
  tfe_tensor* x = s.t[slot];
  if (!x) return;
  if (in.u8() % 2) { // retain, then drop the extra reference
    check("tfe_tensor_retain", tfe_tensor_retain(x), {});
    tfe_tensor_release(x);
    return;
  }
  // Release and remember: later calls may pass the stale handle (always refused).
  s.t[slot] = nullptr;
  tfe_tensor_release(x);
  ++s.releases;
  bool still_live = false;
  for (tfe_tensor* y : s.t) still_live |= y == x;
  if (!still_live) s.stale.push_back(x);
  if (in.u8() % 4 == 0 && s.releases < 1000) tfe_tensor_release(x); // a second release: a no-op
}

} // namespace

// One kernel thread: the tensors of an input hold at most a few thousand elements, rarely enough
// for a kernel to split its work, so more threads would add only their wake-ups and hand-offs
// (the thread tests under ThreadSanitizer cover the parallel paths).
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (tfe_set_num_threads(1) != TFE_OK) violation("tfe_set_num_threads", "one thread refused");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const int64_t live_at_start = tfe_debug_live_objects();
  Bytes in(data, size);
  {
    State s;
    tfe_context* c = sentinel<tfe_context>();
    check("tfe_context_create", tfe_context_create(&c), {});
    s.ctx[0] = c;
    c = sentinel<tfe_context>();
    check("tfe_context_create_dataflow", tfe_context_create_dataflow(&c, TFE_SCHEDULER_DEBUG, 0),
          {});
    s.ctx[1] = c;
    for (int step = 0; step < 48 && !in.empty(); ++step) {
      size_t dst = in.pick(kSlots);
      uint8_t family = in.u8();
      // Bytes from 160 choose the families of fuzz_capi_extra.cpp; below 160 a byte chooses the
      // family it chose before they existed, so older corpora keep most of their meaning.
      if (family >= 160) {
        switch ((family - 160) % 8) {
        case 0: numeric(s, in, dst); break;
        case 1: reduce_and_order(s, in, dst); break;
        case 2: shape_helpers(s, in, dst); break;
        case 3: contraction(s, in, dst); break;
        case 4: creation_extra(s, in, dst); break;
        case 5: linalg_extra(s, in, dst); break;
        case 6: host(s, in, dst); break;
        default: handles(s, in); break;
        }
        continue;
      }
      switch (family % 16) {
      case 0:
      case 1:
      case 2: create(s, in, dst); break;
      case 3: symbolic(s, in, dst); break;
      case 4:
      case 5: elementwise(s, in, dst); break;
      case 6: row_op(s, in, dst); break;
      case 7:
      case 8: reduction_and_shape(s, in, dst); break;
      case 9: linalg(s, in, dst); break;
      case 10: options(s, in); break;
      case 11: autodiff(s, in, dst); break;
      case 12: program(s, in, dst); break;
      case 13: interop(s, in, dst); break;
      case 14: inspect(s, in); break;
      default: lifetime(s, in); break;
      }
    }
  }
  if (tfe_debug_live_objects() != live_at_start)
    violation("LLVMFuzzerTestOneInput", "handles are still live after every release");
  return 0;
}
