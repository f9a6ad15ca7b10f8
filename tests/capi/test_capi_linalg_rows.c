/* Every linalg row (src/ops/defs/linalg.hpp) through its C entry point: each runs on a sample in
 * every dtype it accepts and gives finite outputs, rejects a dtype it does not accept with
 * TFE_ERR_DTYPE_MISMATCH naming itself (outputs left NULL), and tfe_op_count/tfe_op_name list the
 * rows after the core ops, in the rows' order. The calls of Plain and Options rows are expanded
 * from the rows; an Args row needs its call_<name> below, or this file does not compile. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "capi_testing.h"
#include "ops/defs/linalg.hpp" /* the op registry's linalg rows */

#define MAX_IO 4

/* ---- samples ----------------------------------------------------------------------------- */

static tfe_tensor* sample_tensor(tfe_context* ctx, int32_t dtype, int32_t ndim,
                                 const int64_t* shape, const double* v) {
  tfe_tensor *t = f64(ctx, ndim, shape, v), *out = NULL;
  TFE_OK_OR_FAIL(tfe_cast(&out, t, dtype));
  tfe_tensor_release(t);
  return out;
}

/* Symmetric and diagonally dominant: positive definite, distinct real eigenvalues. */
static const double kSpd[] = {4, 1, 0.5, 1, 3, 0.2, 0.5, 0.2, 2};
static const double kRhs[] = {1, 2, 3, -1, 0.5, 2};
static const double kTall[] = {1, 2, 0, 1, 0, 1, 3, 1, 2, -1, 1, 4}; /* [4,3], rank 3 */
static const int64_t kSquareShape[] = {3, 3}, kRhsShape[] = {3, 2}, kTallShape[] = {4, 3};

static int sample_Square(tfe_context* ctx, int32_t d, tfe_tensor** in) {
  in[0] = sample_tensor(ctx, d, 2, kSquareShape, kSpd);
  return 1;
}
static int sample_Spd(tfe_context* ctx, int32_t d, tfe_tensor** in) {
  return sample_Square(ctx, d, in);
}
static int sample_Matrix(tfe_context* ctx, int32_t d, tfe_tensor** in) {
  in[0] = sample_tensor(ctx, d, 2, kTallShape, kTall);
  return 1;
}
static int sample_System(tfe_context* ctx, int32_t d, tfe_tensor** in) {
  in[0] = sample_tensor(ctx, d, 2, kSquareShape, kSpd);
  in[1] = sample_tensor(ctx, d, 2, kRhsShape, kRhs);
  return 2;
}

/* ---- the calls of the Args rows --------------------------------------------------------- */

static tfe_status call_lu_solve(tfe_context* ctx, int32_t d, tfe_tensor** in, tfe_tensor** out) {
  sample_System(ctx, d, in);
  tfe_tensor *lu = NULL, *piv = NULL, *info = NULL;
  if (d != TFE_F32 && d != TFE_F64 && d != TFE_C32 && d != TFE_C64) {
    /* lu_factor rejects the operand already: give lu_solve integer factors instead. */
    return tfe_linalg_lu_solve(&out[0], in[0], in[0], in[1], NULL);
  }
  TFE_OK_OR_FAIL(tfe_linalg_lu_factor(&lu, &piv, &info, in[0]));
  tfe_status s = tfe_linalg_lu_solve(&out[0], lu, piv, in[1], NULL);
  tfe_tensor_release(lu);
  tfe_tensor_release(piv);
  tfe_tensor_release(info);
  return s;
}
static tfe_status call_lstsq(tfe_context* ctx, int32_t d, tfe_tensor** in, tfe_tensor** out) {
  static const int64_t b_shape[] = {4, 2};
  sample_Matrix(ctx, d, in);
  in[1] = sample_tensor(ctx, d, 2, b_shape, kTall);
  return tfe_linalg_lstsq(&out[0], in[0], in[1], NULL);
}
static tfe_status call_matrix_norm(tfe_context* ctx, int32_t d, tfe_tensor** in, tfe_tensor** out) {
  sample_Matrix(ctx, d, in);
  return tfe_linalg_matrix_norm(&out[0], in[0], TFE_NORM_NUC);
}
static tfe_status call_vector_norm(tfe_context* ctx, int32_t d, tfe_tensor** in, tfe_tensor** out) {
  static const int64_t shape[] = {6};
  in[0] = sample_tensor(ctx, d, 1, shape, kRhs);
  return tfe_linalg_vector_norm(&out[0], in[0], 3.0, 0, NULL);
}
static tfe_status call_cond(tfe_context* ctx, int32_t d, tfe_tensor** in, tfe_tensor** out) {
  sample_Square(ctx, d, in);
  return tfe_linalg_cond(&out[0], in[0], TFE_NORM_2);
}
static tfe_status call_matrix_power(tfe_context* ctx, int32_t d, tfe_tensor** in,
                                    tfe_tensor** out) {
  sample_Square(ctx, d, in);
  return tfe_linalg_matrix_power(&out[0], in[0], -3);
}
static tfe_status call_multi_dot(tfe_context* ctx, int32_t d, tfe_tensor** in, tfe_tensor** out) {
  static const int64_t vec[] = {3};
  sample_Matrix(ctx, d, in);
  in[1] = sample_tensor(ctx, d, 2, kSquareShape, kSpd);
  in[2] = sample_tensor(ctx, d, 1, vec, kRhs);
  return tfe_linalg_multi_dot(&out[0], 3, in);
}
static tfe_status call_vecdot(tfe_context* ctx, int32_t d, tfe_tensor** in, tfe_tensor** out) {
  sample_System(ctx, d, in);
  return tfe_linalg_vecdot(&out[0], in[1], in[1], 1);
}
static tfe_status call_vander(tfe_context* ctx, int32_t d, tfe_tensor** in, tfe_tensor** out) {
  static const int64_t shape[] = {3, 2};
  in[0] = sample_tensor(ctx, d, 2, shape, kRhs);
  return tfe_linalg_vander(&out[0], in[0], 4);
}
/* [2,2,4]: the 4x4 matrix diag(4,3,2,1) plus ones above the diagonal, seen as [2,2] x [4]. */
static tfe_tensor* tensor_operand(tfe_context* ctx, int32_t d) {
  static const int64_t shape[] = {2, 2, 4};
  double v[16] = {0};
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i <= j; ++i) v[j * 4 + i] = i == j ? 4.0 - i : 1.0;
  return sample_tensor(ctx, d, 3, shape, v);
}
static tfe_status call_tensorinv(tfe_context* ctx, int32_t d, tfe_tensor** in, tfe_tensor** out) {
  in[0] = tensor_operand(ctx, d);
  return tfe_linalg_tensorinv(&out[0], in[0], 2);
}
static tfe_status call_tensorsolve(tfe_context* ctx, int32_t d, tfe_tensor** in, tfe_tensor** out) {
  static const int64_t shape[] = {2, 2};
  in[0] = tensor_operand(ctx, d);
  in[1] = sample_tensor(ctx, d, 2, shape, kRhs);
  return tfe_linalg_tensorsolve(&out[0], in[0], in[1]);
}

static tfe_status call_matrix_rank(tfe_context* ctx, int32_t d, tfe_tensor** in, tfe_tensor** out) {
  sample_Matrix(ctx, d, in);
  return tfe_linalg_matrix_rank(&out[0], in[0], 0.0, NULL);
}
/* The factor first (the square sample's lower triangle), then B. */
static tfe_status call_cholesky_solve(tfe_context* ctx, int32_t d, tfe_tensor** in,
                                      tfe_tensor** out) {
  sample_System(ctx, d, in);
  return tfe_linalg_cholesky_solve(&out[0], in[0], in[1], NULL);
}
/* ---- the calls of the Plain and Options rows, expanded from the rows -------------------- */

#define OUTS_1 &out[0]
#define OUTS_2 &out[0], &out[1]
#define OUTS_3 &out[0], &out[1], &out[2]
#define INS_1 in[0]
#define INS_2 in[0], in[1]
#define ARGS_Plain(outputs, inputs) OUTS_##outputs, INS_##inputs
#define ARGS_Options(outputs, inputs) OUTS_##outputs, INS_##inputs, NULL
#define CALL_Plain(name, inputs, outputs, sample)                                                  \
  EXPANDED_CALL(name, Plain, inputs, outputs, sample)
#define CALL_Options(name, inputs, outputs, sample)                                                \
  EXPANDED_CALL(name, Options, inputs, outputs, sample)
#define CALL_Args(name, inputs, outputs, sample) /* written above */
#define EXPANDED_CALL(name, call, inputs, outputs, sample)                                         \
  static tfe_status call_##name(tfe_context* ctx, int32_t d, tfe_tensor** in, tfe_tensor** out) {  \
    sample_##sample(ctx, d, in);                                                                   \
    return tfe_linalg_##name(ARGS_##call(outputs, inputs));                                        \
  }
#define ROW_CALL(name, python, inputs, outputs, call, sample, accepts, ad, since, shapes, summary) \
  CALL_##call(name, inputs, outputs, sample)
TFE_LINALG_OPS(ROW_CALL)

/* ---- the table -------------------------------------------------------------------------- */

typedef tfe_status (*row_call)(tfe_context* ctx, int32_t d, tfe_tensor** in, tfe_tensor** out);
typedef struct {
  const char* name;
  const char* c_name;
  int outputs;
  unsigned accepts; /* bit (1 << dtype) */
  row_call call;
} linalg_row;

#define BIT(d) (1u << (d))
#define kInexact (BIT(TFE_F32) | BIT(TFE_F64) | BIT(TFE_C32) | BIT(TFE_C64))
#define kRealFloat (BIT(TFE_F32) | BIT(TFE_F64))
#define kNumeric (kInexact | BIT(TFE_I32) | BIT(TFE_I64))
#define ROW_ENTRY(name, python, inputs, outputs, call, sample, accepts, ad, since, shapes,         \
                  summary)                                                                         \
  {#name, "tfe_linalg_" #name, outputs, accepts, call_##name},
static const linalg_row rows[] = {TFE_LINALG_OPS(ROW_ENTRY)};
#define N_ROWS ((int)(sizeof rows / sizeof rows[0]))

/* ---- checks ----------------------------------------------------------------------------- */

static int all_finite(const tfe_tensor* t) {
  int32_t dtype = -1;
  TFE_OK_OR_FAIL(tfe_tensor_dtype(t, &dtype));
  if (dtype != TFE_F32 && dtype != TFE_F64 && dtype != TFE_C32 && dtype != TFE_C64) return 1;
  int64_t n = 0;
  unsigned char* bytes = tensor_bytes(t, &n);
  int ok = 1;
  if (dtype == TFE_F32 || dtype == TFE_C32)
    for (int64_t i = 0; i < n / 4; ++i) ok &= isfinite(((const float*)bytes)[i]) != 0;
  else
    for (int64_t i = 0; i < n / 8; ++i) ok &= isfinite(((const double*)bytes)[i]) != 0;
  free(bytes);
  return ok;
}

static void release_all(tfe_tensor** t, int n) {
  for (int i = 0; i < n; ++i) {
    tfe_tensor_release(t[i]);
    t[i] = NULL;
  }
}

static void test_row(void** state) {
  const linalg_row* r = (const linalg_row*)*state;
  tfe_context* ctx = new_ctx();
  static const int32_t dtypes[] = {TFE_I32, TFE_I64, TFE_F32, TFE_F64, TFE_C32, TFE_C64};
  int ran = 0;
  for (int k = 0; k < 6; ++k) {
    int32_t d = dtypes[k];
    if (!(r->accepts & BIT(d))) continue;
    tfe_tensor *in[MAX_IO] = {NULL}, *out[MAX_IO] = {NULL};
    tfe_status s = r->call(ctx, d, in, out);
    if (s != TFE_OK)
      fail_msg("%s (dtype %d) -> %s: %s", r->c_name, d, tfe_status_name(s),
               tfe_last_error_message());
    for (int o = 0; o < r->outputs; ++o) {
      assert_non_null(out[o]);
      if (!all_finite(out[o])) fail_msg("%s (dtype %d): output %d not finite", r->c_name, d, o);
    }
    assert_null(out[r->outputs]); /* the row's output count is the function's */
    release_all(in, MAX_IO);
    release_all(out, MAX_IO);
    ++ran;
  }
  assert_true(ran > 0);
  /* a dtype the row does not accept: a status that names the function, no output set */
  int32_t bad = r->accepts & BIT(TFE_I32) ? TFE_BOOL : TFE_I32;
  tfe_tensor *in[MAX_IO] = {NULL}, *out[MAX_IO] = {NULL};
  tfe_status s = r->call(ctx, bad, in, out);
  if (s != TFE_ERR_DTYPE_MISMATCH)
    fail_msg("%s on dtype %d -> %s (expected TFE_ERR_DTYPE_MISMATCH): %s", r->c_name, bad,
             tfe_status_name(s), tfe_last_error_message());
  assert_true(strncmp(tfe_last_error_message(), r->c_name, strlen(r->c_name)) == 0);
  for (int o = 0; o < MAX_IO; ++o) assert_null(out[o]);
  release_all(in, MAX_IO);
  tfe_context_release(ctx);
}

/* tfe_op_count lists the core ops, then every row in order. */
static void test_rows_are_listed(void** state) {
  (void)state;
  int32_t count = tfe_op_count();
  int32_t first = count - N_ROWS;
  assert_true(first > 50);
  for (int32_t i = 0; i < first; ++i) {
    const char* c_name = tfe_op_c_name(i);
    assert_non_null(c_name);
    assert_true(strncmp(c_name, "tfe_linalg_", 11) != 0);
  }
  for (int k = 0; k < N_ROWS; ++k) {
    char ir[64];
    snprintf(ir, sizeof ir, "linalg.%s", rows[k].name);
    assert_string_equal(tfe_op_c_name(first + k), rows[k].c_name);
    assert_string_equal(tfe_op_name(first + k), ir);
  }
  assert_null(tfe_op_name(count));
  assert_null(tfe_op_c_name(count));
}

int main(void) {
  struct CMUnitTest tests[N_ROWS + 1];
  for (int k = 0; k < N_ROWS; ++k) {
    struct CMUnitTest t = {rows[k].c_name, test_row, leak_setup, leak_teardown, (void*)&rows[k]};
    tests[k] = t;
  }
  struct CMUnitTest listed = {"rows_are_listed", test_rows_are_listed, NULL, NULL, NULL};
  tests[N_ROWS] = listed;
  return _cmocka_run_group_tests("capi_linalg_rows", tests, N_ROWS + 1, NULL, NULL);
}
