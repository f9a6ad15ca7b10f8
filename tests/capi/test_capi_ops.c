/* The C API op matrix: one row per entry point. Each row is called with valid input, with NULL
 * for its output slot and for every handle, with an unaccepted dtype, with mismatched shapes,
 * with a bad parameter and with tensors of two contexts; failures must set the output to NULL,
 * leave the inputs unchanged and name the function in the message; nothing may leak. A final
 * test checks that every op of the library's op table has a row here. */
#include <stdlib.h>

#include "capi_testing.h"
#include "ops/defs/analytic.hpp" /* the op registry's rows */
#include "ops/defs/arithmetic.hpp"
#include "ops/defs/complex_parts.hpp"
#include "ops/defs/logical.hpp"

typedef tfe_status (*op_fn)(tfe_tensor** out, tfe_context* ctx, tfe_tensor* const* in);

typedef struct {
  int32_t dtype;
  int32_t ndim;
  int64_t shape[4];
} operand;

typedef struct {
  const char* c_name;
  op_fn call;
  int n_inputs;
  operand in[3];
  int32_t bad_dtype; /* 0: no such case; else given to the operands in bad_dtype_mask */
  int bad_dtype_mask;
  int has_bad_shape;
  operand bad_shape[3];
  op_fn bad_call; /* optional: same inputs, a bad parameter */
  tfe_status bad_call_status;
} op_row;

#define OP(dt, nd, ...)                                                                            \
  {                                                                                                \
    dt, nd, { __VA_ARGS__ }                                                                        \
  }

static const int64_t ax1[] = {1};
static const int64_t ax5[] = {5};

/* ---- adapters: one line each ---- */
#define BIN(name)                                                                                  \
  static tfe_status a_##name(tfe_tensor** o, tfe_context* c, tfe_tensor* const* x) {               \
    (void)c;                                                                                       \
    return tfe_##name(o, x[0], x[1]);                                                              \
  }
#define UN(name)                                                                                   \
  static tfe_status a_##name(tfe_tensor** o, tfe_context* c, tfe_tensor* const* x) {               \
    (void)c;                                                                                       \
    return tfe_##name(o, x[0]);                                                                    \
  }
#define TER(name)                                                                                  \
  static tfe_status a_##name(tfe_tensor** o, tfe_context* c, tfe_tensor* const* x) {               \
    (void)c;                                                                                       \
    return tfe_##name(o, x[0], x[1], x[2]);                                                        \
  }
#define RED(name)                                                                                  \
  static tfe_status a_##name(tfe_tensor** o, tfe_context* c, tfe_tensor* const* x) {               \
    (void)c;                                                                                       \
    return tfe_##name(o, x[0], 1, ax1);                                                            \
  }                                                                                                \
  static tfe_status b_##name(tfe_tensor** o, tfe_context* c, tfe_tensor* const* x) {               \
    (void)c;                                                                                       \
    return tfe_##name(o, x[0], 1, ax5);                                                            \
  }
#define FN(name, body)                                                                             \
  static tfe_status name(tfe_tensor** o, tfe_context* c, tfe_tensor* const* x) {                   \
    (void)c;                                                                                       \
    (void)x;                                                                                       \
    return body;                                                                                   \
  }

// The analytic functions: one entry and one row per row of the op registry, each rejecting a
// dtype outside its set (Bool, which no analytic row accepts).
#define ANALYTIC_FN_1(name) UN(name)
#define ANALYTIC_FN_2(name) BIN(name)
#define ANALYTIC_FN(Code, name, arity, ...) ANALYTIC_FN_##arity(name)
TFE_ANALYTIC_OPS(ANALYTIC_FN)

// The Regular rows of the arithmetic, logical and complex-parts lists: one entry and one row
// each, on operands of a dtype the row accepts, rejecting one it does not (BASIC_OK_k... and
// BASIC_BAD_k...: a row with a new dtype set does not compile until both are given).
#define BASIC_FN_Regular_1(c_stem) UN(c_stem)
#define BASIC_FN_Regular_2(c_stem) BIN(c_stem)
#define BASIC_FN_Custom_1(c_stem)
#define BASIC_FN_Custom_2(c_stem)
#define BASIC_FN(Code, name, c_stem, entry, arity, ...) BASIC_FN_##entry##_##arity(c_stem)
TFE_ARITHMETIC_OPS(BASIC_FN)
TFE_LOGICAL_OPS(BASIC_FN)
TFE_COMPLEX_PARTS_OPS(BASIC_FN)
// clang-format off
BIN(div) BIN(div_trunc) BIN(matmul)
TER(select) TER(clamp)
RED(sum) RED(prod) RED(mean) RED(reduce_sum) RED(reduce_prod) RED(reduce_max) RED(reduce_min)
static const int64_t perm10[] = {1, 0}, perm00[] = {0, 0}, shape32[] = {3, 2}, shape42[] = {4, 2};
// clang-format on
static const int64_t shape23[] = {2, 3}, dims0[] = {0}, dims1[] = {1}, ax0[] = {0}, ax3[] = {3};
static const int64_t st10[] = {1, 0}, lim32[] = {3, 2}, lim52[] = {5, 2}, sz22[] = {2, 2};
static const int64_t low10[] = {1, 0}, high01[] = {0, 1}, intneg[] = {-1, 0};
static const int64_t c1[] = {1}, c0[] = {0};
static const double one = 1.0;

FN(a_compare, tfe_compare(o, x[0], x[1], TFE_CMP_LT))
FN(b_compare, tfe_compare(o, x[0], x[1], 17))
FN(a_dot_general, tfe_dot_general(o, x[0], x[1], 1, c1, c0, 0, NULL, NULL))
FN(b_dot_general, tfe_dot_general(o, x[0], x[1], 1, c1, ax5, 0, NULL, NULL))
FN(a_convert, tfe_convert(o, x[0], TFE_F64))
FN(b_convert, tfe_convert(o, x[0], 99))
FN(a_cast, tfe_cast(o, x[0], TFE_I32))
FN(b_cast, tfe_cast(o, x[0], 0))
FN(a_to_device, tfe_tensor_to_device(o, x[0], TFE_DEVICE_CPU, 0))
FN(b_to_device, tfe_tensor_to_device(o, x[0], 7, 0))
FN(a_transpose, tfe_transpose(o, x[0], 2, perm10))
FN(b_transpose, tfe_transpose(o, x[0], 2, perm00))
FN(a_reshape, tfe_reshape(o, x[0], 2, shape32))
FN(b_reshape, tfe_reshape(o, x[0], 2, shape42))
FN(a_broadcast_in_dim, tfe_broadcast_in_dim(o, x[0], 2, shape23, 1, dims0))
FN(b_broadcast_in_dim, tfe_broadcast_in_dim(o, x[0], 2, shape23, 1, dims1))
FN(a_broadcast_to, tfe_broadcast_to(o, x[0], 2, shape23))
FN(b_broadcast_to, tfe_broadcast_to(o, x[0], 2, shape32))
FN(a_reverse, tfe_reverse(o, x[0], 1, ax0))
FN(b_reverse, tfe_reverse(o, x[0], 1, ax3))
FN(a_extract_diag, tfe_extract_diag(o, x[0], 0, 1))
FN(b_extract_diag, tfe_extract_diag(o, x[0], 0, 0))
FN(a_embed_diag, tfe_embed_diag(o, x[0], 0, 1))
FN(b_embed_diag, tfe_embed_diag(o, x[0], 1, 1))
FN(a_tril, tfe_tril(o, x[0], 0))
FN(a_triu, tfe_triu(o, x[0], 1))
FN(a_iota, tfe_iota(o, c, TFE_F64, 2, shape23, 1))
FN(b_iota, tfe_iota(o, c, TFE_BOOL, 2, shape23, 1))
FN(a_slice, tfe_slice(o, x[0], 2, st10, lim32, NULL))
FN(b_slice, tfe_slice(o, x[0], 2, st10, lim52, NULL))
FN(a_dynamic_slice, tfe_dynamic_slice(o, x[0], x[1], 2, sz22))
FN(b_dynamic_slice, tfe_dynamic_slice(o, x[0], x[1], 2, lim52))
FN(a_dynamic_update_slice, tfe_dynamic_update_slice(o, x[0], x[1], x[2]))
FN(a_gather, tfe_gather(o, x[0], x[1], 0))
FN(b_gather, tfe_gather(o, x[0], x[1], 2))
FN(a_scatter, tfe_scatter(o, x[0], x[1], x[2], 0))
FN(b_scatter, tfe_scatter(o, x[0], x[1], x[2], 4))
FN(a_pad, tfe_pad(o, x[0], 2, low10, high01, NULL))
FN(a_cumsum, tfe_cumsum(o, x[0], -1))
FN(b_cumsum, tfe_cumsum(o, x[0], 2))
FN(a_cumprod, tfe_cumprod(o, x[0], 0))
FN(b_cumprod, tfe_cumprod(o, x[0], -3))
FN(a_argsort, tfe_argsort(o, x[0], 1, 1))
FN(b_argsort, tfe_argsort(o, x[0], 2, 0))
FN(a_argmax, tfe_argmax(o, x[0], 0))
FN(b_argmax, tfe_argmax(o, x[0], 2))
FN(a_argmin, tfe_argmin(o, x[0], -1))
FN(b_argmin, tfe_argmin(o, x[0], 5))
FN(b_pad, tfe_pad(o, x[0], 2, low10, high01, intneg))
FN(a_concatenate, tfe_concatenate(o, 2, x, 1))
FN(b_concatenate, tfe_concatenate(o, 2, x, 3))
FN(a_stack, tfe_stack(o, 2, x, -1))
FN(b_stack, tfe_stack(o, 2, x, 4))
FN(a_contiguous, tfe_tensor_contiguous(o, x[0]))
FN(a_zeros, tfe_zeros(o, c, TFE_F64, 2, shape23))
FN(b_zeros, tfe_zeros(o, c, 42, 2, shape23))
FN(a_ones, tfe_ones(o, c, TFE_C32, 2, shape23))
FN(b_ones, tfe_ones(o, c, TFE_F64, 2, NULL))
FN(a_full, tfe_full(o, c, TFE_F64, 2, shape23, &one))
FN(b_full, tfe_full(o, c, TFE_F64, 2, shape23, NULL))
FN(a_eye, tfe_eye(o, c, TFE_I32, 3, 2))
FN(b_eye, tfe_eye(o, c, TFE_I32, -3, 2))
FN(a_arange, tfe_arange(o, c, TFE_F64, 0, 5, 0.5))
FN(b_arange, tfe_arange(o, c, TFE_F64, 0, 5, 0))
FN(a_random_uniform, tfe_random_uniform(o, c, TFE_F32, 2, shape23, 7, -1, 1))
FN(b_random_uniform, tfe_random_uniform(o, c, TFE_I32, 2, shape23, 7, -1, 1))
FN(a_random_normal, tfe_random_normal(o, c, TFE_C64, 2, shape23, 7))
FN(b_random_normal, tfe_random_normal(o, c, TFE_F64, -1, shape23, 7))

#define M23 OP(TFE_F64, 2, 2, 3)
#define V2 OP(TFE_F64, 1, 2)
#define V3 OP(TFE_F64, 1, 3)
#define NOSHAPE                                                                                    \
  0, {                                                                                             \
    { 0 }                                                                                          \
  }
#define BINARY_ROW(name, bad)                                                                      \
  { "tfe_" #name, a_##name, 2, {M23, V2}, bad, 3, 1, {M23, V3}, NULL, 0 }
#define UNARY_ROW(name, bad)                                                                       \
  { "tfe_" #name, a_##name, 1, {M23}, bad, 1, NOSHAPE, NULL, 0 }
#define RED_ROW(name, bad)                                                                         \
  { "tfe_" #name, a_##name, 1, {M23}, bad, 1, NOSHAPE, b_##name, TFE_ERR_INVALID_ARGUMENT }
#define CTX_ROW(name, status)                                                                      \
  { "tfe_" #name, a_##name, 0, {{0}}, 0, 0, NOSHAPE, b_##name, status }

#define ANALYTIC_ROW_1(name) UNARY_ROW(name, TFE_BOOL),
#define ANALYTIC_ROW_2(name) BINARY_ROW(name, TFE_BOOL),
#define ANALYTIC_ROW(Code, name, arity, ...) ANALYTIC_ROW_##arity(name)

#define BASIC_OK_kNumeric TFE_F64
#define BASIC_BAD_kNumeric TFE_BOOL
#define BASIC_OK_kRealNumeric TFE_F64
#define BASIC_BAD_kRealNumeric TFE_C64
#define BASIC_OK_kOrdered TFE_F64
#define BASIC_BAD_kOrdered TFE_C32
#define BASIC_OK_kLogical TFE_I64
#define BASIC_BAD_kLogical TFE_F64
#define BASIC_OK_kInexact TFE_F64
#define BASIC_BAD_kInexact TFE_I32
#define BASIC_OK_kRealFloat TFE_F64
#define BASIC_BAD_kRealFloat TFE_C64
#define BASIC_ROW_Regular_2(c_stem, ok, bad)                                                       \
  {"tfe_" #c_stem,                                                                                 \
   a_##c_stem,                                                                                     \
   2,                                                                                              \
   {OP(ok, 2, 2, 3), OP(ok, 1, 2)},                                                                \
   bad,                                                                                            \
   3,                                                                                              \
   1,                                                                                              \
   {OP(ok, 2, 2, 3), OP(ok, 1, 3)},                                                                \
   NULL,                                                                                           \
   0},
#define BASIC_ROW_Regular_1(c_stem, ok, bad)                                                       \
  {"tfe_" #c_stem, a_##c_stem, 1, {OP(ok, 2, 2, 3)}, bad, 1, NOSHAPE, NULL, 0},
#define BASIC_ROW_Custom_1(c_stem, ok, bad)
#define BASIC_ROW_Custom_2(c_stem, ok, bad)
#define BASIC_ROW(Code, name, c_stem, entry, arity, operands, accepts, ...)                        \
  BASIC_ROW_##entry##_##arity(c_stem, BASIC_OK_##accepts, BASIC_BAD_##accepts)

static const op_row rows[] = {
    TFE_ARITHMETIC_OPS(BASIC_ROW) TFE_LOGICAL_OPS(BASIC_ROW) TFE_COMPLEX_PARTS_OPS(BASIC_ROW)
        BINARY_ROW(div, 0),
    {"tfe_div_trunc",
     a_div_trunc,
     2,
     {OP(TFE_I32, 2, 2, 3), OP(TFE_I32, 1, 2)},
     TFE_F64,
     3,
     1,
     {OP(TFE_I32, 2, 2, 3), OP(TFE_I32, 1, 3)},
     NULL,
     0},
    {"tfe_compare",
     a_compare,
     2,
     {M23, V2},
     TFE_C64,
     3,
     1,
     {M23, V3},
     b_compare,
     TFE_ERR_INVALID_ARGUMENT},
    {"tfe_select",
     a_select,
     3,
     {OP(TFE_BOOL, 1, 2), M23, V2},
     TFE_F64,
     1,
     1,
     {OP(TFE_BOOL, 1, 3), M23, V2},
     NULL,
     0},
    {"tfe_clamp", a_clamp, 3, {M23, V2, OP(TFE_F64, 0, 0)}, TFE_C64, 7, 1, {M23, V3, V2}, NULL, 0},
    TFE_ANALYTIC_OPS(ANALYTIC_ROW){"tfe_matmul",
                                   a_matmul,
                                   2,
                                   {M23, OP(TFE_F64, 2, 3, 4)},
                                   TFE_BOOL,
                                   3,
                                   1,
                                   {M23, OP(TFE_F64, 2, 4, 2)},
                                   NULL,
                                   0},
    {"tfe_dot_general",
     a_dot_general,
     2,
     {M23, OP(TFE_F64, 2, 3, 4)},
     TFE_BOOL,
     3,
     1,
     {M23, OP(TFE_F64, 2, 4, 2)},
     b_dot_general,
     TFE_ERR_INVALID_ARGUMENT},
    RED_ROW(sum, 0),
    RED_ROW(prod, 0),
    RED_ROW(mean, 0),
    RED_ROW(reduce_sum, TFE_BOOL),
    RED_ROW(reduce_prod, TFE_BOOL),
    RED_ROW(reduce_max, TFE_C64),
    RED_ROW(reduce_min, TFE_C32),
    {"tfe_convert",
     a_convert,
     1,
     {OP(TFE_F32, 2, 2, 3)},
     TFE_C64,
     1,
     NOSHAPE,
     b_convert,
     TFE_ERR_INVALID_ARGUMENT},
    {"tfe_cast", a_cast, 1, {M23}, 0, 0, NOSHAPE, b_cast, TFE_ERR_INVALID_ARGUMENT},
    {"tfe_transpose", a_transpose, 1, {M23}, 0, 0, NOSHAPE, b_transpose, TFE_ERR_INVALID_ARGUMENT},
    {"tfe_tensor_to_device",
     a_to_device,
     1,
     {M23},
     0,
     0,
     NOSHAPE,
     b_to_device,
     TFE_ERR_INVALID_ARGUMENT},
    {"tfe_reshape", a_reshape, 1, {M23}, 0, 0, NOSHAPE, b_reshape, TFE_ERR_SHAPE_MISMATCH},
    {"tfe_broadcast_in_dim",
     a_broadcast_in_dim,
     1,
     {V2},
     0,
     0,
     NOSHAPE,
     b_broadcast_in_dim,
     TFE_ERR_SHAPE_MISMATCH},
    {"tfe_broadcast_to",
     a_broadcast_to,
     1,
     {V2},
     0,
     0,
     NOSHAPE,
     b_broadcast_to,
     TFE_ERR_SHAPE_MISMATCH},
    {"tfe_reverse", a_reverse, 1, {M23}, 0, 0, NOSHAPE, b_reverse, TFE_ERR_INVALID_ARGUMENT},
    {"tfe_extract_diag",
     a_extract_diag,
     1,
     {OP(TFE_F64, 2, 3, 3)},
     0,
     0,
     NOSHAPE,
     b_extract_diag,
     TFE_ERR_INVALID_ARGUMENT},
    {"tfe_embed_diag",
     a_embed_diag,
     1,
     {V3},
     0,
     0,
     NOSHAPE,
     b_embed_diag,
     TFE_ERR_INVALID_ARGUMENT},
    {"tfe_tril", a_tril, 1, {OP(TFE_F64, 2, 3, 3)}, 0, 0, 1, {V3}, NULL, 0},
    {"tfe_triu", a_triu, 1, {OP(TFE_C64, 3, 3, 2, 2)}, 0, 0, 1, {OP(TFE_C64, 0, 0)}, NULL, 0},
    CTX_ROW(iota, TFE_ERR_DTYPE_MISMATCH),
    {"tfe_slice",
     a_slice,
     1,
     {OP(TFE_F64, 2, 4, 3)},
     0,
     0,
     NOSHAPE,
     b_slice,
     TFE_ERR_INVALID_ARGUMENT},
    {"tfe_dynamic_slice",
     a_dynamic_slice,
     2,
     {OP(TFE_F64, 2, 4, 3), OP(TFE_I64, 1, 2)},
     TFE_F64,
     2,
     1,
     {OP(TFE_F64, 2, 4, 3), OP(TFE_I64, 1, 3)},
     b_dynamic_slice,
     TFE_ERR_INVALID_ARGUMENT},
    {"tfe_dynamic_update_slice",
     a_dynamic_update_slice,
     3,
     {OP(TFE_F64, 2, 4, 3), OP(TFE_F32, 2, 2, 2), OP(TFE_I32, 1, 2)},
     TFE_F32,
     4,
     1,
     {OP(TFE_F64, 2, 4, 3), OP(TFE_F64, 2, 5, 3), OP(TFE_I32, 1, 2)},
     NULL,
     0},
    {"tfe_gather",
     a_gather,
     2,
     {OP(TFE_F64, 2, 4, 3), OP(TFE_I64, 1, 2)},
     TFE_C32,
     2,
     NOSHAPE,
     b_gather,
     TFE_ERR_INVALID_ARGUMENT},
    {"tfe_scatter",
     a_scatter,
     3,
     {OP(TFE_F64, 2, 4, 3), OP(TFE_I64, 1, 2), OP(TFE_F64, 2, 2, 3)},
     TFE_F64,
     2,
     1,
     {OP(TFE_F64, 2, 4, 3), OP(TFE_I64, 1, 2), OP(TFE_F64, 2, 3, 3)},
     b_scatter,
     TFE_ERR_INVALID_ARGUMENT},
    {"tfe_pad", a_pad, 1, {M23}, 0, 0, NOSHAPE, b_pad, TFE_ERR_INVALID_ARGUMENT},
    {"tfe_concatenate",
     a_concatenate,
     2,
     {M23, OP(TFE_I32, 2, 2, 1)},
     0,
     0,
     1,
     {M23, OP(TFE_F64, 2, 3, 1)},
     b_concatenate,
     TFE_ERR_INVALID_ARGUMENT},
    {"tfe_stack",
     a_stack,
     2,
     {M23, OP(TFE_C32, 2, 2, 3)},
     0,
     0,
     1,
     {M23, OP(TFE_F64, 2, 2, 2)},
     b_stack,
     TFE_ERR_INVALID_ARGUMENT},
    {"tfe_tensor_contiguous", a_contiguous, 1, {M23}, 0, 0, NOSHAPE, NULL, 0},
    RED_ROW(cumsum, 0),
    RED_ROW(cumprod, 0),
    RED_ROW(argsort, TFE_C64),
    RED_ROW(argmax, TFE_C32),
    RED_ROW(argmin, TFE_C64),
    CTX_ROW(zeros, TFE_ERR_INVALID_ARGUMENT),
    CTX_ROW(ones, TFE_ERR_INVALID_ARGUMENT),
    CTX_ROW(full, TFE_ERR_INVALID_ARGUMENT),
    CTX_ROW(eye, TFE_ERR_INVALID_ARGUMENT),
    CTX_ROW(arange, TFE_ERR_INVALID_ARGUMENT),
    CTX_ROW(random_uniform, TFE_ERR_DTYPE_MISMATCH),
    CTX_ROW(random_normal, TFE_ERR_INVALID_ARGUMENT),
};
#define N_ROWS ((int)(sizeof rows / sizeof rows[0]))

static tfe_tensor* dummy_handle(void) {
  static int marker;
  return (tfe_tensor*)(void*)&marker; /* never dereferenced: failures must overwrite it with NULL */
}

static void make_inputs(tfe_context* ctx, const operand* spec, int n, tfe_tensor** in) {
  for (int i = 0; i < n; ++i) in[i] = make_tensor(ctx, spec[i].dtype, spec[i].ndim, spec[i].shape);
}

static void release_all(tfe_tensor** in, int n) {
  for (int i = 0; i < n; ++i) tfe_tensor_release(in[i]);
}

static void expect_failure(const op_row* r, tfe_context* ctx, tfe_tensor* const* in,
                           tfe_status status) {
  tfe_tensor* out = dummy_handle();
  EXPECT_STATUS(r->call(&out, ctx, in), status, r->c_name);
  assert_null(out);
}

static void test_row(void** state) {
  const op_row* r = *state;
  tfe_context *ctx = NULL, *other = NULL;
  TFE_OK_OR_FAIL(tfe_context_create(&ctx));
  TFE_OK_OR_FAIL(tfe_context_create(&other));
  tfe_tensor* in[3] = {NULL, NULL, NULL};
  make_inputs(ctx, r->in, r->n_inputs, in);
  unsigned char* before[3] = {NULL, NULL, NULL};
  int64_t sizes[3] = {0, 0, 0};
  for (int i = 0; i < r->n_inputs; ++i) before[i] = tensor_bytes(in[i], &sizes[i]);

  /* valid input */
  tfe_tensor* out = NULL;
  TFE_OK_OR_FAIL(r->call(&out, ctx, in));
  assert_non_null(out);
  assert_string_equal(tfe_last_error_message(), "");
  tfe_tensor_release(out);

  /* NULL output slot, NULL context, NULL handles */
  EXPECT_STATUS(r->call(NULL, ctx, in), TFE_ERR_INVALID_ARGUMENT, r->c_name);
  if (r->n_inputs == 0) expect_failure(r, NULL, in, TFE_ERR_INVALID_ARGUMENT);
  for (int i = 0; i < r->n_inputs; ++i) {
    tfe_tensor* with_null[3] = {in[0], in[1], in[2]};
    with_null[i] = NULL;
    expect_failure(r, ctx, with_null, TFE_ERR_INVALID_ARGUMENT);
  }

  /* an unaccepted dtype */
  if (r->bad_dtype) {
    operand spec[3];
    memcpy(spec, r->in, sizeof spec);
    for (int i = 0; i < r->n_inputs; ++i)
      if (r->bad_dtype_mask & (1 << i)) spec[i].dtype = r->bad_dtype;
    tfe_tensor* bad[3] = {NULL, NULL, NULL};
    make_inputs(ctx, spec, r->n_inputs, bad);
    expect_failure(r, ctx, bad, TFE_ERR_DTYPE_MISMATCH);
    release_all(bad, r->n_inputs);
  }

  /* mismatched shapes */
  if (r->has_bad_shape) {
    tfe_tensor* bad[3] = {NULL, NULL, NULL};
    make_inputs(ctx, r->bad_shape, r->n_inputs, bad);
    expect_failure(r, ctx, bad, TFE_ERR_SHAPE_MISMATCH);
    release_all(bad, r->n_inputs);
  }

  /* a bad parameter */
  if (r->bad_call) {
    tfe_tensor* o = dummy_handle();
    EXPECT_STATUS(r->bad_call(&o, ctx, in), r->bad_call_status, r->c_name);
    assert_null(o);
  }

  /* tensors of two contexts */
  if (r->n_inputs >= 2) {
    tfe_tensor* mixed[3] = {in[0], in[1], in[2]};
    mixed[1] = make_tensor(other, r->in[1].dtype, r->in[1].ndim, r->in[1].shape);
    expect_failure(r, ctx, mixed, TFE_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tfe_last_error_message(), "different contexts"));
    tfe_tensor_release(mixed[1]);
  }

  /* inputs unchanged by every call above */
  for (int i = 0; i < r->n_inputs; ++i) {
    int64_t n = 0;
    unsigned char* after = tensor_bytes(in[i], &n);
    assert_int_equal(n, sizes[i]);
    assert_memory_equal(before[i], after, (size_t)n);
    free(after);
    free(before[i]);
  }
  release_all(in, r->n_inputs);
  tfe_context_release(other);
  tfe_context_release(ctx);
}

/* Every op of the library's table has a row above (tfe_tensor_from_data, the C entry of the
 * Constant op, is covered by test_capi_tensor.c). */
static void test_every_op_has_a_row(void** state) {
  (void)state;
  assert_true(tfe_op_count() > 50);
  for (int32_t i = 0; i < tfe_op_count(); ++i) {
    const char* name = tfe_op_c_name(i);
    assert_non_null(name);
    if (strcmp(name, "tfe_tensor_from_data") == 0) continue;
    if (strncmp(name, "tfe_linalg_", 11) == 0) continue; /* test_capi_linalg_rows.c */
    int found = 0;
    for (int k = 0; k < N_ROWS; ++k) found |= strcmp(rows[k].c_name, name) == 0;
    if (!found) fail_msg("no C API row for op %s (%s)", tfe_op_name(i), name);
  }
  assert_null(tfe_op_name(-1));
  assert_null(tfe_op_c_name(tfe_op_count()));
}

/* tril/triu with k far outside the matrix: every k <= -rows (or >= cols) acts like the nearest
 * bound, with no overflow in between (INT64_MIN + 1 once kept the lower rows). */
static void test_tril_triu_extreme_k(void** state) {
  (void)state;
  tfe_context* ctx = NULL;
  TFE_OK_OR_FAIL(tfe_context_create(&ctx));
  const double data[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  const int64_t shape[] = {3, 3};
  tfe_tensor* x = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&x, ctx, TFE_F64, 2, shape, NULL, data));
  const struct {
    int lower;
    int64_t k;
    int keeps_all; /* else keeps nothing */
  } cases[] = {
      {1, INT64_MIN + 1, 0}, {1, INT64_MIN, 0},     {1, INT64_MAX, 1}, {1, -3, 0}, {1, 2, 1},
      {0, INT64_MIN, 1},     {0, INT64_MIN + 1, 1}, {0, INT64_MAX, 0}, {0, 3, 0},  {0, -2, 1}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    tfe_tensor* y = NULL;
    TFE_OK_OR_FAIL(cases[c].lower ? tfe_tril(&y, x, cases[c].k) : tfe_triu(&y, x, cases[c].k));
    double got[9];
    TFE_OK_OR_FAIL(tfe_tensor_to_data(y, got, sizeof got));
    for (int i = 0; i < 9; ++i) assert_true(got[i] == (cases[c].keeps_all ? data[i] : 0.0));
    tfe_tensor_release(y);
  }
  tfe_tensor_release(x);
  tfe_context_release(ctx);
}

/* A slice whose step exceeds its range is one element, for any step up to INT64_MAX (the extent
 * formula once overflowed and refused it). */
static void test_slice_huge_step(void** state) {
  (void)state;
  tfe_context* ctx = NULL;
  TFE_OK_OR_FAIL(tfe_context_create(&ctx));
  const double data[] = {4, 5, 6};
  const int64_t shape[] = {3}, start[] = {0}, limit[] = {3}, empty_limit[] = {0};
  const int64_t steps[] = {INT64_MAX, INT64_MAX - 1, 3, 2};
  const int64_t want_n[] = {1, 1, 1, 2};
  tfe_tensor* x = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&x, ctx, TFE_F64, 1, shape, NULL, data));
  for (int c = 0; c < 4; ++c) {
    tfe_tensor* y = NULL;
    TFE_OK_OR_FAIL(tfe_slice(&y, x, 1, start, limit, &steps[c]));
    int64_t n = -1;
    TFE_OK_OR_FAIL(tfe_tensor_numel(y, &n));
    assert_int_equal(n, want_n[c]);
    double got[3] = {0, 0, 0};
    TFE_OK_OR_FAIL(tfe_tensor_to_data(y, got, (size_t)n * sizeof(double)));
    assert_true(got[0] == 4 && (n == 1 || got[1] == 6));
    tfe_tensor_release(y);
  }
  tfe_tensor* e = NULL; /* an empty range stays empty */
  TFE_OK_OR_FAIL(tfe_slice(&e, x, 1, start, empty_limit, &steps[0]));
  int64_t n = -1;
  TFE_OK_OR_FAIL(tfe_tensor_numel(e, &n));
  assert_int_equal(n, 0);
  tfe_tensor_release(e);
  tfe_tensor_release(x);
  tfe_context_release(ctx);
}

int main(void) {
  struct CMUnitTest tests[N_ROWS + 3];
  for (int k = 0; k < N_ROWS; ++k) {
    struct CMUnitTest t = {rows[k].c_name, test_row, leak_setup, leak_teardown, (void*)&rows[k]};
    tests[k] = t;
  }
  struct CMUnitTest last = {"every_op_has_a_row", test_every_op_has_a_row, NULL, NULL, NULL};
  tests[N_ROWS] = last;
  struct CMUnitTest extreme = {"tril_triu_extreme_k", test_tril_triu_extreme_k, leak_setup,
                               leak_teardown, NULL};
  tests[N_ROWS + 1] = extreme;
  struct CMUnitTest huge_step = {"slice_huge_step", test_slice_huge_step, leak_setup, leak_teardown,
                                 NULL};
  tests[N_ROWS + 2] = huge_step;
  return _cmocka_run_group_tests("capi_ops", tests, N_ROWS + 3, NULL, NULL);
}
