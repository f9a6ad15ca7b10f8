/* tfe_linalg_svd_truncated, tfe_linalg_qr_pivoted and their option setters through the C ABI:
 * kept ranks (max_rank, relative and absolute cutoff), A[:, perm] = Q R, every error (status,
 * message naming the public function, NULL outputs), and the derivative of a loss of the kept
 * factors eagerly (against central differences), in a dataflow context and in a traced
 * function. */
#include <math.h>
#include <stdio.h>

#include "eager_testing.h"

static const int64_t k43[] = {4, 3};
/* A full-rank 4x3 matrix with well separated singular values, column-major. */
static const double kA[] = {2.0, -1.0, 0.5, 1.0, 0.3, 1.5, -0.7, 2.2, -1.2, 0.4, 0.9, -0.1};
static const double kW[] = {0.3, -1.0, 0.8, 0.2, 1.1, -0.4, 0.6, 0.9, -0.5, 0.7, -0.2, 1.3};

static tfe_linalg_options* options(int64_t max_rank, double rtol, double atol) {
  tfe_linalg_options* o = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_options_create(&o));
  TFE_OK_OR_FAIL(tfe_linalg_options_set_max_rank(o, max_rank));
  TFE_OK_OR_FAIL(tfe_linalg_options_set_cutoff(o, rtol, atol));
  return o;
}

static int64_t kept(tfe_tensor* a, int64_t max_rank, double rtol, double atol) {
  tfe_linalg_options* o = options(max_rank, rtol, atol);
  tfe_tensor *u = NULL, *s = NULL, *vh = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_svd_truncated(&u, &s, &vh, a, o));
  int64_t n = 0;
  TFE_OK_OR_FAIL(tfe_tensor_shape(s, &n));
  tfe_tensor* all[] = {u, s, vh};
  release_all(all, 3);
  tfe_linalg_options_release(o);
  return n;
}

static void test_kept_rank(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t k44[] = {4, 4};
  double d[16] = {0};
  d[0] = 8, d[5] = 4, d[10] = 2, d[15] = 1;
  tfe_tensor* a = f64(ctx, 2, k44, d);
  assert_int_equal(kept(a, -1, 0, 0), 4);
  assert_int_equal(kept(a, 3, 0, 0), 3);
  assert_int_equal(kept(a, -1, 0.3, 0), 2); /* s > 2.4 */
  assert_int_equal(kept(a, -1, 0, 1.5), 3); /* s > 1.5 */
  assert_int_equal(kept(a, 1, 0, 1.5), 1);
  assert_int_equal(kept(a, -1, 0, 10), 0);
  /* the kept values are the leading ones of tfe_linalg_svd */
  tfe_tensor* b = f64(ctx, 2, k43, kA);
  tfe_linalg_options* o = options(2, 0, 0);
  tfe_tensor *u = NULL, *s = NULL, *vh = NULL, *fu = NULL, *fs = NULL, *fvh = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_svd_truncated(&u, &s, &vh, b, o));
  TFE_OK_OR_FAIL(tfe_linalg_svd(&fu, &fs, &fvh, b));
  double full[3];
  read_into(fs, full, sizeof full);
  expect_doubles(s, full, 2);
  tfe_linalg_options_release(o);
  tfe_tensor* all[] = {a, b, u, s, vh, fu, fs, fvh};
  release_all(all, 8);
  tfe_context_release(ctx);
}

static void test_pivoted_qr(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  /* column norms 1, 2, 10: geqp3 takes column 2 first */
  const double v[] = {1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 6, 8};
  tfe_tensor* a = f64(ctx, 2, k43, v);
  tfe_tensor *q = NULL, *r = NULL, *perm = NULL, *qr = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_qr_pivoted(&q, &r, &perm, a, NULL));
  int32_t dt = 0;
  TFE_OK_OR_FAIL(tfe_tensor_dtype(perm, &dt));
  assert_int_equal(dt, TFE_I64);
  int64_t p[3];
  read_into(perm, p, sizeof p);
  assert_int_equal(p[0], 2);
  assert_int_equal(p[1], 1);
  assert_int_equal(p[2], 0);
  TFE_OK_OR_FAIL(tfe_matmul(&qr, q, r));
  double got[12];
  read_into(qr, got, sizeof got);
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 4; ++i) assert_true(fabs(got[i + 4 * j] - v[i + 4 * p[j]]) < 1e-12);
  tfe_tensor* all[] = {a, q, r, perm, qr};
  release_all(all, 5);
  tfe_context_release(ctx);
}

static void test_errors(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  tfe_linalg_options* o = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_options_create(&o));
  EXPECT_STATUS(tfe_linalg_options_set_max_rank(o, -2), TFE_ERR_INVALID_ARGUMENT,
                "tfe_linalg_options_set_max_rank");
  EXPECT_STATUS(tfe_linalg_options_set_cutoff(o, -1, 0), TFE_ERR_INVALID_ARGUMENT,
                "tfe_linalg_options_set_cutoff");
  EXPECT_STATUS(tfe_linalg_options_set_cutoff(o, 0, NAN), TFE_ERR_INVALID_ARGUMENT,
                "tfe_linalg_options_set_cutoff");
  EXPECT_STATUS(tfe_linalg_options_set_cutoff(NULL, 0, 0), TFE_ERR_INVALID_ARGUMENT,
                "tfe_linalg_options_set_cutoff");
  tfe_tensor* ints = make_tensor(ctx, TFE_I32, 2, k43);
  const int64_t k3[] = {3};
  tfe_tensor* vec = make_tensor(ctx, TFE_F64, 1, k3);
  tfe_tensor* a = f64(ctx, 2, k43, kA);
  tfe_tensor *u = (tfe_tensor*)1, *s = (tfe_tensor*)1, *vh = (tfe_tensor*)1;
  EXPECT_STATUS(tfe_linalg_svd_truncated(&u, &s, &vh, ints, o), TFE_ERR_DTYPE_MISMATCH,
                "tfe_linalg_svd_truncated");
  assert_null(u);
  assert_null(s);
  assert_null(vh);
  EXPECT_STATUS(tfe_linalg_svd_truncated(&u, &s, &vh, vec, o), TFE_ERR_SHAPE_MISMATCH,
                "tfe_linalg_svd_truncated");
  EXPECT_STATUS(tfe_linalg_svd_truncated(&u, NULL, &vh, a, o), TFE_ERR_INVALID_ARGUMENT,
                "tfe_linalg_svd_truncated");
  assert_null(u);
  EXPECT_STATUS(tfe_linalg_qr_pivoted(&u, &s, &vh, ints, NULL), TFE_ERR_DTYPE_MISMATCH,
                "tfe_linalg_qr_pivoted");
  assert_null(u);
  EXPECT_STATUS(tfe_linalg_qr_pivoted(&u, &s, &vh, vec, NULL), TFE_ERR_SHAPE_MISMATCH,
                "tfe_linalg_qr_pivoted");
  EXPECT_STATUS(tfe_linalg_qr_pivoted(&u, &s, &vh, NULL, NULL), TFE_ERR_INVALID_ARGUMENT,
                "tfe_linalg_qr_pivoted");
  tfe_linalg_options_release(o);
  tfe_tensor* all[] = {ints, vec, a};
  release_all(all, 3);
  tfe_context_release(ctx);
}

/* L(A) = sum(W * (U_r Vh_r)) + sum(S_r) for the rank-2 truncation of a 4x3 A. */
static tfe_tensor* loss(tfe_tensor* a, tfe_tensor* w) {
  tfe_linalg_options* o = options(2, 0, 0);
  tfe_tensor *u = NULL, *s = NULL, *vh = NULL, *uv = NULL, *wuv = NULL, *l1 = NULL, *l2 = NULL,
             *l = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_svd_truncated(&u, &s, &vh, a, o));
  TFE_OK_OR_FAIL(tfe_matmul(&uv, u, vh));
  TFE_OK_OR_FAIL(tfe_mul(&wuv, w, uv));
  TFE_OK_OR_FAIL(tfe_sum(&l1, wuv, 0, NULL));
  TFE_OK_OR_FAIL(tfe_sum(&l2, s, 0, NULL));
  TFE_OK_OR_FAIL(tfe_add(&l, l1, l2));
  tfe_tensor* all[] = {u, s, vh, uv, wuv, l1, l2};
  release_all(all, 7);
  tfe_linalg_options_release(o);
  return l;
}

static void gradient_in(tfe_context* ctx, double* g) {
  tfe_tensor* a = var_f64(ctx, 2, k43, kA);
  tfe_tensor* w = f64(ctx, 2, k43, kW);
  tfe_tensor *l = loss(a, w), *ga = NULL;
  TFE_OK_OR_FAIL(tfe_backward(l, NULL));
  TFE_OK_OR_FAIL(tfe_tensor_grad(&ga, a));
  read_into(ga, g, 12 * (int64_t)sizeof(double));
  tfe_tensor* all[] = {a, w, l, ga};
  release_all(all, 4);
}

static double loss_at(tfe_context* ctx, const double* v) {
  tfe_tensor* a = f64(ctx, 2, k43, v);
  tfe_tensor* w = f64(ctx, 2, k43, kW);
  tfe_tensor* l = loss(a, w);
  double out = 0;
  read_into(l, &out, sizeof out);
  tfe_tensor* all[] = {a, w, l};
  release_all(all, 3);
  return out;
}

static void test_gradients(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  double g[12], gf[12];
  gradient_in(ctx, g);
  for (int i = 0; i < 12; ++i) { /* central differences */
    double plus[12], minus[12], h = 1e-6;
    for (int j = 0; j < 12; ++j) plus[j] = minus[j] = kA[j];
    plus[i] += h;
    minus[i] -= h;
    double fd = (loss_at(ctx, plus) - loss_at(ctx, minus)) / (2 * h);
    if (fabs(fd - g[i]) > 1e-7 * (1 + fabs(fd)))
      fail_msg("entry %d: gradient %.12g, central difference %.12g", i, g[i], fd);
  }
  tfe_context* flow = NULL;
  TFE_OK_OR_FAIL(tfe_context_create_dataflow(&flow, TFE_SCHEDULER_THREADS, 2));
  gradient_in(flow, gf);
  for (int i = 0; i < 12; ++i) assert_true(fabs(gf[i] - g[i]) < 1e-12);
  tfe_context_release(flow);

  /* traced: the same loss as a function, its gradient program */
  tfe_tensor *xa = NULL, *xw = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_symbolic(&xa, ctx, TFE_F64, 2, k43));
  TFE_OK_OR_FAIL(tfe_tensor_symbolic(&xw, ctx, TFE_F64, 2, k43));
  tfe_tensor* y = loss(xa, xw);
  tfe_tensor* in[] = {xa, xw};
  tfe_function *f = NULL, *df = NULL;
  TFE_OK_OR_FAIL(tfe_function_create(&f, 2, in, 1, &y));
  const int64_t wrt = 0;
  TFE_OK_OR_FAIL(tfe_function_grad(&df, f, 1, &wrt));
  tfe_tensor* a = f64(ctx, 2, k43, kA);
  tfe_tensor* w = f64(ctx, 2, k43, kW);
  tfe_tensor* args[] = {a, w};
  tfe_tensor* gt = NULL;
  TFE_OK_OR_FAIL(tfe_function_call1(&gt, df, 2, args));
  double gtv[12];
  read_into(gt, gtv, sizeof gtv);
  for (int i = 0; i < 12; ++i) assert_true(fabs(gtv[i] - g[i]) < 1e-12);
  tfe_function_release(f);
  tfe_function_release(df);
  tfe_tensor* all[] = {xa, xw, y, a, w, gt};
  release_all(all, 6);
  tfe_context_release(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_kept_rank, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_pivoted_qr, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_errors, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_gradients, leak_setup, leak_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
