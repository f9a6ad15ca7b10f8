/* tfe_binary_scalar's eager host path (no tensor for the scalar) against the general path it
 * replaces, bit for bit: the weak scalar's rank-0 tensor followed by the tensor function, and
 * tfe_binary_scalar itself on a tracked operand (which records, so it takes the general path).
 * Every op code, every dtype, each scalar kind, both operand orders, on edge values (signed
 * zeros, NaN, infinities, integer extremes, zero divisors) and on layouts that exercise the
 * kernel's runs: empty, one element, more than one vector block, a transposed and a sliced view,
 * a broadcast view, and enough elements to be split over threads. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "binary_ops.h"
#include "capi_testing.h"

static const int32_t all_dtypes[] = {TFE_BOOL, TFE_I32, TFE_I64, TFE_F32,
                                     TFE_F64,  TFE_C32, TFE_C64};

typedef struct {
  int32_t kind;
  int64_t i;
  double re, im;
} scalar;

static const scalar scalars[] = {
    {TFE_SCALAR_BOOL, 0, 0, 0},         {TFE_SCALAR_BOOL, 1, 0, 0},
    {TFE_SCALAR_INT, 0, 0, 0},          {TFE_SCALAR_INT, 3, 0, 0},
    {TFE_SCALAR_INT, -2, 0, 0},         {TFE_SCALAR_INT, INT64_C(1) << 40, 0, 0},
    {TFE_SCALAR_FLOAT, 0, 0.75, 0},     {TFE_SCALAR_FLOAT, 0, -0.0, 0},
    {TFE_SCALAR_FLOAT, 0, NAN, 0},      {TFE_SCALAR_FLOAT, 0, 1e300, 0},
    {TFE_SCALAR_COMPLEX, 0, 0.5, -2.0}, {TFE_SCALAR_COMPLEX, 0, -INFINITY, NAN}};

/* Element i of a pattern rich in edge values. */
static double real_value(int64_t i) {
  static const double v[] = {0.0,   -0.0, 1.0,  -1.5, 2.5,   NAN,  INFINITY, -INFINITY,
                             1e-40, 3.25, 1e30, -7.0, 0.375, 1e-8, -2.0,     9.0};
  return v[i % 16] + (i >= 16 ? (double)(i % 97) / 8 : 0.0);
}
static int64_t int_value(int64_t i) {
  static const int64_t v[] = {0, 1, -1, 2, -3, INT32_MIN, INT32_MAX, 7, -8, 3, INT64_MIN, 5};
  return v[i % 12] + (i >= 12 ? i % 5 : 0);
}

static int every_third(int64_t i) { return i % 3 == 1; }
static double shifted_real_value(int64_t i) { return real_value(i + 5); }

/* Edge values in every dtype (the imaginary part is the real pattern shifted by 5). */
static tfe_tensor* pattern(tfe_context* ctx, int32_t dtype, int32_t ndim, const int64_t* shape) {
  static const struct value_pattern edges = {every_third, int_value, real_value,
                                             shifted_real_value};
  return tensor_of_pattern(ctx, dtype, ndim, shape, &edges);
}

enum layout { COMPACT, TRANSPOSED, SLICED, BROADCAST };

/* A tensor of `dtype` in the given layout; tracked (a variable, or a view of one) when asked and
 * the dtype can be; NULL when it cannot. */
static tfe_tensor* operand(tfe_context* ctx, int32_t dtype, enum layout l, int64_t n, int tracked) {
  int64_t shape2[2] = {5, 3}, shape1[1] = {n}, one[1] = {1};
  tfe_tensor* base = l == TRANSPOSED  ? pattern(ctx, dtype, 2, shape2)
                     : l == SLICED    ? pattern(ctx, dtype, 1, (int64_t[]){41})
                     : l == BROADCAST ? pattern(ctx, dtype, 1, one)
                                      : pattern(ctx, dtype, 1, shape1);
  if (tracked && tfe_tensor_set_requires_grad(base, 1) != TFE_OK) {
    tfe_tensor_release(base);
    return NULL;
  }
  tfe_tensor* v = NULL;
  switch (l) {
  case TRANSPOSED: TFE_OK_OR_FAIL(tfe_transpose(&v, base, 2, (int64_t[]){1, 0})); break;
  case SLICED:
    TFE_OK_OR_FAIL(tfe_slice(&v, base, 1, (int64_t[]){3}, (int64_t[]){40}, (int64_t[]){2}));
    break;
  case BROADCAST:
    TFE_OK_OR_FAIL(tfe_broadcast_in_dim(&v, base, 2, (int64_t[]){4, 3}, 1, (int64_t[]){0}));
    break;
  default: return base;
  }
  tfe_tensor_release(base);
  return v;
}

static int same(tfe_status s1, tfe_tensor* y1, tfe_status s2, tfe_tensor* y2) {
  if (s1 != s2) return 0;
  if (s1 != TFE_OK) return y1 == NULL && y2 == NULL;
  int32_t d1 = -1, d2 = -2;
  TFE_OK_OR_FAIL(tfe_tensor_dtype(y1, &d1));
  TFE_OK_OR_FAIL(tfe_tensor_dtype(y2, &d2));
  int64_t n1 = 0, n2 = 0;
  unsigned char* b1 = tensor_bytes(y1, &n1);
  unsigned char* b2 = tensor_bytes(y2, &n2);
  int ok = d1 == d2 && n1 == n2 && memcmp(b1, b2, (size_t)n1) == 0;
  free(b1);
  free(b2);
  return ok;
}

static void compare_paths(tfe_context* ctx, enum layout l, int64_t n, int* compared) {
  for (size_t d = 0; d < sizeof all_dtypes / sizeof all_dtypes[0]; ++d) {
    tfe_tensor* x = operand(ctx, all_dtypes[d], l, n, 0);
    tfe_tensor* xt = operand(ctx, all_dtypes[d], l, n, 1);
    for (size_t o = 0; o < sizeof binary_ops / sizeof binary_ops[0]; ++o)
      for (size_t k = 0; k < sizeof scalars / sizeof scalars[0]; ++k)
        for (int first = 0; first <= 1; ++first) {
          const scalar* c = &scalars[k];
          tfe_tensor *fast = NULL, *two = NULL, *rec = NULL, *s = NULL;
          tfe_status sf =
              tfe_binary_scalar(&fast, binary_ops[o].op, x, c->kind, c->i, c->re, c->im, first);
          char message[512] = "";
          if (sf != TFE_OK) snprintf(message, sizeof message, "%s", tfe_last_error_message());
          tfe_status st = tfe_weak_scalar(&s, ctx, all_dtypes[d], c->kind, c->i, c->re, c->im);
          if (st == TFE_OK)
            st = first ? binary_ops[o].fn(&two, s, x) : binary_ops[o].fn(&two, x, s);
          if (!same(sf, fast, st, two))
            fail_msg("layout %d n %lld dtype %d op %d scalar %zu first %d: the host path gives "
                     "%s, the two-step path %s",
                     (int)l, (long long)n, all_dtypes[d], binary_ops[o].op, k, first,
                     tfe_status_name(sf), tfe_status_name(st));
          if (xt) {
            tfe_status sr =
                tfe_binary_scalar(&rec, binary_ops[o].op, xt, c->kind, c->i, c->re, c->im, first);
            if (!same(sf, fast, sr, rec) ||
                (sr != TFE_OK && strcmp(message, tfe_last_error_message()) != 0))
              fail_msg("layout %d dtype %d op %d scalar %zu first %d: the host path gives %s "
                       "(%s), a tracked operand %s (%s)",
                       (int)l, all_dtypes[d], binary_ops[o].op, k, first, tfe_status_name(sf),
                       message, tfe_status_name(sr), tfe_last_error_message());
          }
          *compared += sf == TFE_OK;
          tfe_tensor_release(fast);
          tfe_tensor_release(two);
          tfe_tensor_release(rec);
          tfe_tensor_release(s);
        }
    tfe_tensor_release(x);
    tfe_tensor_release(xt);
  }
}

static void test_layouts(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  int compared = 0;
  const int64_t sizes[] = {0, 1, 10, 300};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i)
    compare_paths(ctx, COMPACT, sizes[i], &compared);
  compare_paths(ctx, TRANSPOSED, 0, &compared);
  compare_paths(ctx, SLICED, 0, &compared);
  compare_paths(ctx, BROADCAST, 0, &compared);
  assert_true(compared > 5000);
  tfe_context_release(ctx);
}

/* More elements than one chunk of the thread pool (kGrainCheap, and kGrainMedium for pow). */
static void test_threaded(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  int compared = 0;
  compare_paths(ctx, COMPACT, 70001, &compared);
  assert_true(compared > 1000);
  tfe_context_release(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_layouts, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_threaded, leak_setup, leak_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
