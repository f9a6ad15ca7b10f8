/* Running sums and products, sorting, top-k and arg-reductions (tenferro/ops_order.h): values
 * against straightforward loops, ties and NaN, the int64 accumulation of small integers,
 * cumprod's gradient with zeros, sort/topk gradients eagerly and in a dataflow context, a traced
 * program, and the errors. */
#include "eager_testing.h"

/* x = [[3, 1, 2], [1, NaN, 1]] stored column-major as a 2x3 tensor: lanes along axis 1 are the
 * rows. */
static const int64_t k23[] = {2, 3};

static void expect_i64(const tfe_tensor* t, const int64_t* want, int64_t n) {
  int64_t got[64];
  assert_true(n <= 64);
  read_into(t, got, n * (int64_t)sizeof(int64_t));
  for (int64_t i = 0; i < n; ++i)
    if (got[i] != want[i])
      fail_msg("element %lld: got %lld, want %lld", (long long)i, (long long)got[i],
               (long long)want[i]);
}

static void test_scans(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const double v[] = {1, 2, 3, 4, 5, 6}; /* [[1,3,5],[2,4,6]] */
  tfe_tensor *x = f64(ctx, 2, k23, v), *s0 = NULL, *s1 = NULL, *p1 = NULL;
  TFE_OK_OR_FAIL(tfe_cumsum(&s0, x, 0));
  TFE_OK_OR_FAIL(tfe_cumsum(&s1, x, -1));
  TFE_OK_OR_FAIL(tfe_cumprod(&p1, x, 1));
  double want0[6], want1[6], wantp[6];
  for (int j = 0; j < 3; ++j) {
    want0[2 * j] = v[2 * j];
    want0[2 * j + 1] = v[2 * j] + v[2 * j + 1];
  }
  for (int i = 0; i < 2; ++i) {
    double s = 0, p = 1;
    for (int j = 0; j < 3; ++j) {
      s += v[i + 2 * j];
      p *= v[i + 2 * j];
      want1[i + 2 * j] = s;
      wantp[i + 2 * j] = p;
    }
  }
  expect_doubles(s0, want0, 6);
  expect_doubles(s1, want1, 6);
  expect_doubles(p1, wantp, 6);
  /* I32 accumulates in I64 (NumPy): no wrap at 2^31. */
  const int32_t big[] = {2000000000, 2000000000};
  const int64_t n2[] = {2};
  tfe_tensor *xi = NULL, *si = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&xi, ctx, TFE_I32, 1, n2, NULL, big));
  TFE_OK_OR_FAIL(tfe_cumsum(&si, xi, 0));
  int32_t dt = -1;
  TFE_OK_OR_FAIL(tfe_tensor_dtype(si, &dt));
  assert_int_equal(dt, TFE_I64);
  const int64_t wanti[] = {2000000000, 4000000000};
  expect_i64(si, wanti, 2);
  tfe_tensor* all[] = {x, s0, s1, p1, xi, si};
  release_all(all, 6);
  tfe_context_release(ctx);
}

static void test_sorting(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const double v[] = {3, 1, 1, NAN, 2, 1}; /* rows [3,1,2] and [1,NaN,1] */
  tfe_tensor *x = f64(ctx, 2, k23, v), *asc = NULL, *desc = NULL, *sorted = NULL;
  TFE_OK_OR_FAIL(tfe_argsort(&asc, x, 1, 0));
  TFE_OK_OR_FAIL(tfe_argsort(&desc, x, 1, 1));
  TFE_OK_OR_FAIL(tfe_sort(&sorted, x, 1, 0));
  /* row 0: 1,2,3 -> 1,2,0; row 1: 1,1,NaN -> 0,2,1 (stable, NaN last) */
  const int64_t want_asc[] = {1, 0, 2, 2, 0, 1};
  /* descending: row 0: 3,2,1 -> 0,2,1; row 1: 1,1,NaN -> 0,2,1 (NaN still last) */
  const int64_t want_desc[] = {0, 0, 2, 2, 1, 1};
  expect_i64(asc, want_asc, 6);
  expect_i64(desc, want_desc, 6);
  double got[6];
  read_into(sorted, got, sizeof got);
  assert_true(got[0] == 1 && got[2] == 2 && got[4] == 3);
  assert_true(got[1] == 1 && got[3] == 1 && isnan(got[5]));

  tfe_tensor *vals = NULL, *idx = NULL, *amax = NULL, *amin = NULL;
  TFE_OK_OR_FAIL(tfe_topk(&vals, &idx, x, 2, -1, 1));
  const int64_t want_idx[] = {0, 0, 2, 2};
  expect_i64(idx, want_idx, 4);
  double tv[4];
  read_into(vals, tv, sizeof tv);
  assert_true(tv[0] == 3 && tv[1] == 1 && tv[2] == 2 && tv[3] == 1);
  TFE_OK_OR_FAIL(tfe_argmax(&amax, x, 1));
  TFE_OK_OR_FAIL(tfe_argmin(&amin, x, 1));
  const int64_t want_max[] = {0, 1}, want_min[] = {1, 1}; /* the NaN wins both in row 1 */
  expect_i64(amax, want_max, 2);
  expect_i64(amin, want_min, 2);
  tfe_tensor* all[] = {x, asc, desc, sorted, vals, idx, amax, amin};
  release_all(all, 8);
  tfe_context_release(ctx);
}

/* d sum(w * cumprod(x)) / dx with zeros in x, against the product rule written out. */
static void test_cumprod_gradient_with_zeros(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const double cases[3][5] = {{0.5, -2, 0, 3, 1.5}, {0.5, 0, 2, 0, 1.5}, {0, 2, -1, 0.5, 3}};
  const double w[] = {1, -1, 2, 0.5, 3};
  const int64_t n5[] = {5};
  for (int c = 0; c < 3; ++c) {
    tfe_tensor *x = var_f64(ctx, 1, n5, cases[c]), *wt = vec_f64(ctx, 5, w);
    tfe_tensor *y = NULL, *t = NULL, *loss = NULL, *g = NULL;
    TFE_OK_OR_FAIL(tfe_cumprod(&y, x, 0));
    TFE_OK_OR_FAIL(tfe_mul(&t, y, wt));
    TFE_OK_OR_FAIL(tfe_sum(&loss, t, 0, NULL));
    TFE_OK_OR_FAIL(tfe_backward(loss, NULL));
    TFE_OK_OR_FAIL(tfe_tensor_grad(&g, x));
    double want[5];
    for (int j = 0; j < 5; ++j) {
      want[j] = 0;
      for (int i = j; i < 5; ++i) {
        double p = 1;
        for (int k = 0; k <= i; ++k)
          if (k != j) p *= cases[c][k];
        want[j] += w[i] * p;
      }
    }
    expect_doubles(g, want, 5);
    tfe_tensor* all[] = {x, wt, y, t, loss, g};
    release_all(all, 6);
  }
  tfe_context_release(ctx);
}

/* d sum(w * topk(x, 2).values) / dx: w lands on the positions of the two largest. */
static void topk_grad(tfe_context* ctx, double* g) {
  const double xv[] = {0.5, 3, -1, 2, 7};
  const double wv[] = {10, 20};
  const int64_t n5[] = {5};
  tfe_tensor *x = var_f64(ctx, 1, n5, xv), *w = vec_f64(ctx, 2, wv);
  tfe_tensor *vals = NULL, *idx = NULL, *t = NULL, *loss = NULL, *gx = NULL;
  TFE_OK_OR_FAIL(tfe_topk(&vals, &idx, x, 2, 0, 1));
  TFE_OK_OR_FAIL(tfe_mul(&t, vals, w));
  TFE_OK_OR_FAIL(tfe_sum(&loss, t, 0, NULL));
  TFE_OK_OR_FAIL(tfe_backward(loss, NULL));
  TFE_OK_OR_FAIL(tfe_tensor_grad(&gx, x));
  read_into(gx, g, 5 * (int64_t)sizeof(double));
  tfe_tensor* all[] = {x, w, vals, idx, t, loss, gx};
  release_all(all, 7);
}

static void test_topk_gradient_eager_and_dataflow(void** state) {
  (void)state;
  const double want[] = {0, 20, 0, 0, 10};
  double g[5];
  tfe_context* eager = new_ctx();
  topk_grad(eager, g);
  for (int i = 0; i < 5; ++i) assert_true(g[i] == want[i]);
  tfe_context* flow = NULL;
  TFE_OK_OR_FAIL(tfe_context_create_dataflow(&flow, TFE_SCHEDULER_THREADS, 2));
  topk_grad(flow, g);
  for (int i = 0; i < 5; ++i) assert_true(g[i] == want[i]);
  tfe_context_release(eager);
  tfe_context_release(flow);
}

static void test_traced_program(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  tfe_tensor *xs = NULL, *s = NULL, *c = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_symbolic(&xs, ctx, TFE_F64, 2, k23));
  TFE_OK_OR_FAIL(tfe_sort(&s, xs, 1, 1));
  TFE_OK_OR_FAIL(tfe_cumsum(&c, s, 1));
  tfe_function* f = NULL;
  TFE_OK_OR_FAIL(tfe_function_create(&f, 1, &xs, 1, &c));
  const double v[] = {3, 1, 1, 5, 2, 4};
  tfe_tensor *x = f64(ctx, 2, k23, v), *traced = NULL;
  TFE_OK_OR_FAIL(tfe_function_call1(&traced, f, 1, &x));
  /* rows [3,1,2] -> 3,2,1 -> 3,5,6; [1,5,4] -> 5,4,1 -> 5,9,10 */
  const double want[] = {3, 5, 5, 9, 6, 10};
  expect_doubles(traced, want, 6);
  tfe_function_release(f);
  tfe_tensor* all[] = {xs, s, c, x, traced};
  release_all(all, 5);
  tfe_context_release(ctx);
}

static void test_errors(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const double v[] = {1, 2, 3, 4, 5, 6}, one = 1;
  const int64_t n0[] = {0, 3};
  tfe_tensor *x = f64(ctx, 2, k23, v), *s = f64(ctx, 0, NULL, &one), *e = NULL, *z = NULL;
  TFE_OK_OR_FAIL(tfe_zeros(&e, ctx, TFE_F64, 2, n0));
  TFE_OK_OR_FAIL(tfe_zeros(&z, ctx, TFE_C64, 2, k23));
  tfe_tensor* out = NULL;
  EXPECT_STATUS(tfe_cumsum(&out, x, 2), TFE_ERR_INVALID_ARGUMENT, "tfe_cumsum");
  assert_null(out);
  EXPECT_STATUS(tfe_cumprod(&out, s, 0), TFE_ERR_INVALID_ARGUMENT, "tfe_cumprod");
  assert_null(out);
  EXPECT_STATUS(tfe_sort(&out, z, 0, 0), TFE_ERR_DTYPE_MISMATCH, "tfe_sort");
  assert_null(out);
  assert_non_null(strstr(tfe_last_error_message(), "C64"));
  EXPECT_STATUS(tfe_argmax(&out, e, 0), TFE_ERR_INVALID_ARGUMENT, "tfe_argmax");
  assert_null(out);
  EXPECT_STATUS(tfe_argmin(&out, x, -3), TFE_ERR_INVALID_ARGUMENT, "tfe_argmin");
  assert_null(out);
  tfe_tensor *vals = x, *idx = x;
  EXPECT_STATUS(tfe_topk(&vals, &idx, x, 4, 1, 1), TFE_ERR_INVALID_ARGUMENT, "tfe_topk");
  assert_null(vals);
  assert_null(idx);
  assert_non_null(strstr(tfe_last_error_message(), "k 4"));
  EXPECT_STATUS(tfe_topk(&vals, NULL, x, 1, 1, 1), TFE_ERR_INVALID_ARGUMENT, "tfe_topk");
  assert_null(vals);
  tfe_tensor* all[] = {x, s, e, z};
  release_all(all, 4);
  tfe_context_release(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_scans, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_sorting, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_cumprod_gradient_with_zeros, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_topk_gradient_eager_and_dataflow, leak_setup,
                                      leak_teardown),
      cmocka_unit_test_setup_teardown(test_traced_program, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_errors, leak_setup, leak_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
