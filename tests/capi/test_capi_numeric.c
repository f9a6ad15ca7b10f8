/* The numeric functions of tenferro/ops_numeric.h and the gamma family through the C ABI: values
 * at the large, tiny and infinite arguments where naive formulas fail, eager derivatives against
 * closed forms, the predicates' Bool results, the reductions' shapes, and bad input (a status
 * naming the function, a NULL output). */
#include <complex.h>
#include <math.h>

#include "eager_testing.h"

static void expect_bools(const tfe_tensor* t, const unsigned char* want, int n) {
  unsigned char got[16];
  int32_t dtype = -1;
  TFE_OK_OR_FAIL(tfe_tensor_dtype(t, &dtype));
  assert_int_equal(dtype, TFE_BOOL);
  read_into(t, got, n);
  for (int i = 0; i < n; ++i)
    if (!got[i] != !want[i]) fail_msg("element %d: got %d, want %d", i, got[i], want[i]);
}

/* NaN-aware comparison: NaN matches NaN, infinities match exactly. */
static void expect_specials(const tfe_tensor* t, const double* want, int n) {
  double got[16];
  read_into(t, got, n * (int64_t)sizeof(double));
  for (int i = 0; i < n; ++i) {
    if (isnan(want[i]) ? isnan(got[i])
                       : (isinf(want[i]) ? got[i] == want[i]
                                         : fabs(got[i] - want[i]) <= 1e-13 * (1 + fabs(want[i]))))
      continue;
    fail_msg("element %d: got %.17g, want %.17g", i, got[i], want[i]);
  }
}

static void test_logaddexp_hypot_sigmoid_values(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const double inf = INFINITY;
  const double a[6] = {1000, -1000, -inf, inf, 0, 0.5}, b[6] = {1000, -1001, -inf, inf, -40, 2};
  double want[6];
  for (int i = 0; i < 6; ++i) { /* ties and infinities exactly; elsewhere the direct formula */
    double m = fmax(a[i], b[i]);
    want[i] = a[i] == b[i] ? (isinf(a[i]) ? a[i] : a[i] + log(2.0))
                           : m + log(exp(a[i] - m) + exp(b[i] - m));
  }
  want[4] = exp(-40.0); /* log(1 + e^-40): below the rounding of 1 + e^-40 */
  tfe_tensor *ta = vec_f64(ctx, 6, a), *tb = vec_f64(ctx, 6, b), *y = NULL, *h = NULL, *s = NULL;
  TFE_OK_OR_FAIL(tfe_logaddexp(&y, ta, tb));
  expect_specials(y, want, 6);

  const double ha[5] = {1e300, 3e-310, 3, inf, NAN}, hb[5] = {1e300, 4e-310, -4, NAN, inf};
  double hw[5];
  for (int i = 0; i < 5; ++i) hw[i] = hypot(ha[i], hb[i]);
  tfe_tensor *tha = vec_f64(ctx, 5, ha), *thb = vec_f64(ctx, 5, hb);
  TFE_OK_OR_FAIL(tfe_hypot(&h, tha, thb));
  expect_specials(h, hw, 5);

  /* Both tails to full relative accuracy: e^-700 is far below 1's rounding. */
  const double x[5] = {-700, -40, 0, 40, -inf};
  double sw[5];
  for (int i = 0; i < 5; ++i) sw[i] = x[i] < 0 ? exp(x[i]) / (1 + exp(x[i])) : 1 / (1 + exp(-x[i]));
  tfe_tensor* tx = vec_f64(ctx, 5, x);
  TFE_OK_OR_FAIL(tfe_sigmoid(&s, tx));
  expect_specials(s, sw, 5);
  tfe_tensor* all[] = {ta, tb, y, tha, thb, h, tx, s};
  release_all(all, 8);
  tfe_context_release(ctx);
}

/* Eager gradients: logaddexp's softmax weights (half each at a tie), hypot's a/h, sigmoid's
 * s(1 - s) (1/4 at 0), square's 2x, copysign's sign in its magnitude operand. */
static void test_eager_derivatives(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t n3 = 3;
  const double a[3] = {1.5, -2, 0}, b[3] = {1.5, 3, -1};
  tfe_tensor *ta = var_f64(ctx, 1, &n3, a), *tb = var_f64(ctx, 1, &n3, b);
  tfe_status (*fns[4])(tfe_tensor**, const tfe_tensor*,
                       const tfe_tensor*) = {tfe_logaddexp, tfe_hypot, tfe_copysign, NULL};
  for (int f = 0; fns[f]; ++f) {
    tfe_tensor *y = NULL, *s = NULL, *ga = NULL;
    TFE_OK_OR_FAIL(fns[f](&y, ta, tb));
    TFE_OK_OR_FAIL(tfe_sum(&s, y, 0, NULL));
    tfe_tensor* xs[] = {ta};
    TFE_OK_OR_FAIL(tfe_vjp(&ga, s, 1, xs, NULL));
    double want[3];
    for (int i = 0; i < 3; ++i) {
      if (f == 0) want[i] = 1 / (1 + exp(b[i] - a[i]));
      if (f == 1) want[i] = a[i] / hypot(a[i], b[i]);
      if (f == 2) want[i] = (double)((a[i] > 0) - (a[i] < 0)) * (b[i] < 0 ? -1 : 1);
    }
    expect_doubles(ga, want, 3);
    tfe_tensor* all[] = {y, s, ga};
    release_all(all, 3);
  }
  tfe_tensor *s = NULL, *sum = NULL, *g = NULL;
  TFE_OK_OR_FAIL(tfe_sigmoid(&s, ta));
  TFE_OK_OR_FAIL(tfe_sum(&sum, s, 0, NULL));
  tfe_tensor* xs[] = {ta};
  TFE_OK_OR_FAIL(tfe_vjp(&g, sum, 1, xs, NULL));
  double want[3];
  for (int i = 0; i < 3; ++i) {
    double e = 1 / (1 + exp(-a[i]));
    want[i] = e * (1 - e);
  }
  expect_doubles(g, want, 3);
  tfe_tensor* all[] = {ta, tb, s, sum, g};
  release_all(all, 5);
  tfe_context_release(ctx);
}

static void test_predicates_and_closeness(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const double x[5] = {1, NAN, INFINITY, -INFINITY, -0.0};
  tfe_tensor *t = vec_f64(ctx, 5, x), *p = NULL;
  TFE_OK_OR_FAIL(tfe_isnan(&p, t));
  expect_bools(p, (const unsigned char[]){0, 1, 0, 0, 0}, 5);
  tfe_tensor_release(p);
  TFE_OK_OR_FAIL(tfe_isinf(&p, t));
  expect_bools(p, (const unsigned char[]){0, 0, 1, 1, 0}, 5);
  tfe_tensor_release(p);
  TFE_OK_OR_FAIL(tfe_isfinite(&p, t));
  expect_bools(p, (const unsigned char[]){1, 0, 0, 0, 1}, 5);
  tfe_tensor_release(p);
  /* An infinity is close only to itself (the bound atol + rtol |b| is infinite too). */
  const double a[4] = {1, INFINITY, NAN, 1}, b[4] = {INFINITY, INFINITY, NAN, 1 + 1e-9};
  tfe_tensor *ta = vec_f64(ctx, 4, a), *tb = vec_f64(ctx, 4, b), *c = NULL, *all_close = NULL;
  TFE_OK_OR_FAIL(tfe_isclose(&c, ta, tb, 1e-5, 1e-8, 0));
  expect_bools(c, (const unsigned char[]){0, 1, 0, 1}, 4);
  tfe_tensor_release(c);
  TFE_OK_OR_FAIL(tfe_isclose(&c, ta, tb, 1e-5, 1e-8, 1));
  expect_bools(c, (const unsigned char[]){0, 1, 1, 1}, 4);
  TFE_OK_OR_FAIL(tfe_allclose(&all_close, ta, ta, 1e-5, 1e-8, 1));
  int32_t ndim = -1;
  TFE_OK_OR_FAIL(tfe_tensor_ndim(all_close, &ndim));
  assert_int_equal(ndim, 0);
  expect_bools(all_close, (const unsigned char[]){1}, 1);
  /* nan_to_num with the defaults (NaN arguments) and explicit values. */
  tfe_tensor *n = NULL, *m = NULL;
  TFE_OK_OR_FAIL(tfe_nan_to_num(&n, t, 0.0, NAN, NAN));
  expect_doubles(n, (const double[]){1, 0, 1.7976931348623157e308, -1.7976931348623157e308, 0}, 5);
  TFE_OK_OR_FAIL(tfe_nan_to_num(&m, t, 7.0, 1.0, -2.0));
  expect_doubles(m, (const double[]){1, 7, 1, -2, 0}, 5);
  tfe_tensor* all[] = {t, ta, tb, c, all_close, n, m};
  release_all(all, 7);
  tfe_context_release(ctx);
}

/* var/std over one axis of a [2,3] tensor with ddof and keepdims; logsumexp of huge values. */
static void test_reductions(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t shape[2] = {2, 3}, axis1 = 1, axis0 = -2;
  const double v[6] = {1, 4, 2, 8, 3, 9}; /* column-major: rows (1,2,3) and (4,8,9) */
  tfe_tensor *x = NULL, *var = NULL, *sd = NULL, *lse = NULL, *any = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&x, ctx, TFE_F64, 2, shape, NULL, v));
  TFE_OK_OR_FAIL(tfe_var(&var, x, 1, &axis1, 1.0, 1));
  int64_t got_shape[2] = {0, 0};
  TFE_OK_OR_FAIL(tfe_tensor_shape(var, got_shape));
  assert_int_equal(got_shape[0], 2);
  assert_int_equal(got_shape[1], 1);
  double want[2];
  for (int r = 0; r < 2; ++r) {
    double m = (v[r] + v[r + 2] + v[r + 4]) / 3, s = 0;
    for (int c = 0; c < 3; ++c) s += (v[r + 2 * c] - m) * (v[r + 2 * c] - m);
    want[r] = s / 2;
  }
  expect_doubles(var, want, 2);
  TFE_OK_OR_FAIL(tfe_std(&sd, x, 1, &axis1, 1.0, 0));
  for (int r = 0; r < 2; ++r) want[r] = sqrt(want[r]);
  expect_doubles(sd, want, 2);
  const double big[6] = {1000, 1000, 999, -INFINITY, 0, -INFINITY};
  tfe_tensor* xb = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&xb, ctx, TFE_F64, 2, shape, NULL, big));
  TFE_OK_OR_FAIL(tfe_logsumexp(&lse, xb, 1, &axis0, 0));
  expect_doubles(lse, (const double[]){1000 + log(2.0), 999, 0}, 3);
  TFE_OK_OR_FAIL(tfe_any(&any, xb, 0, NULL, 0));
  expect_bools(any, (const unsigned char[]){1}, 1);
  tfe_tensor* all[] = {x, var, sd, xb, lse, any};
  release_all(all, 6);
  tfe_context_release(ctx);
}

/* lgamma, digamma and polygamma against known values: lgamma(1/2) = log sqrt(pi), psi(1) = -gamma,
 * psi(1/2) = -gamma - 2 log 2, psi'(1) = pi^2/6, psi''(1) = -2 zeta(3); and the gradient chain. */
static void test_gamma_family(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const double euler = 0.57721566490153286061, pi = acos(-1.0), zeta3 = 1.2020569031595942854;
  const double x[3] = {0.5, 1, 3};
  tfe_tensor *tx = vec_f64(ctx, 3, x), *lg = NULL, *dg = NULL, *pg = NULL, *n = NULL;
  TFE_OK_OR_FAIL(tfe_lgamma(&lg, tx));
  expect_doubles(lg, (const double[]){0.5 * log(pi), 0, log(2.0)}, 3);
  TFE_OK_OR_FAIL(tfe_digamma(&dg, tx));
  expect_doubles(dg, (const double[]){-euler - 2 * log(2.0), -euler, 1.5 - euler}, 3);
  const double orders[3] = {1, 2, 1};
  n = vec_f64(ctx, 3, orders);
  tfe_tensor* one = vec_f64(ctx, 3, (const double[]){1, 1, 0.5});
  TFE_OK_OR_FAIL(tfe_polygamma(&pg, n, one));
  expect_doubles(pg, (const double[]){pi * pi / 6, -2 * zeta3, pi * pi / 2}, 3);
  /* Poles: lgamma +inf, digamma NaN at a negative integer, -inf at +0. */
  tfe_tensor *poles = vec_f64(ctx, 3, (const double[]){0.0, -2, -0.0}), *lp = NULL, *dp = NULL;
  TFE_OK_OR_FAIL(tfe_lgamma(&lp, poles));
  expect_specials(lp, (const double[]){INFINITY, INFINITY, INFINITY}, 3);
  TFE_OK_OR_FAIL(tfe_digamma(&dp, poles));
  expect_specials(dp, (const double[]){-INFINITY, NAN, INFINITY}, 3);
  /* d lgamma = digamma. */
  const int64_t n3 = 3;
  tfe_tensor *v = var_f64(ctx, 1, &n3, x), *y = NULL, *s = NULL, *g = NULL;
  TFE_OK_OR_FAIL(tfe_lgamma(&y, v));
  TFE_OK_OR_FAIL(tfe_sum(&s, y, 0, NULL));
  tfe_tensor* xs[] = {v};
  TFE_OK_OR_FAIL(tfe_vjp(&g, s, 1, xs, NULL));
  expect_doubles(g, (const double[]){-euler - 2 * log(2.0), -euler, 1.5 - euler}, 3);
  tfe_tensor* all[] = {tx, lg, dg, pg, n, one, poles, lp, dp, v, y, s, g};
  release_all(all, 13);
  tfe_context_release(ctx);
}

static void test_bad_input(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t n2 = 2, axis = 3;
  tfe_tensor *z = make_tensor(ctx, TFE_C64, 1, &n2), *x = make_tensor(ctx, TFE_F64, 1, &n2);
  tfe_tensor* y = (tfe_tensor*)x; /* a stale value the failure must overwrite with NULL */
  EXPECT_STATUS(tfe_logaddexp(&y, z, x), TFE_ERR_DTYPE_MISMATCH, "tfe_logaddexp");
  assert_null(y);
  EXPECT_STATUS(tfe_logsumexp(&y, z, 0, NULL, 0), TFE_ERR_DTYPE_MISMATCH, "tfe_logsumexp");
  assert_null(y);
  EXPECT_STATUS(tfe_var(&y, x, 1, &axis, 0.0, 0), TFE_ERR_INVALID_ARGUMENT, "tfe_var");
  assert_null(y);
  EXPECT_STATUS(tfe_isclose(&y, x, x, -1.0, 0.0, 0), TFE_ERR_INVALID_ARGUMENT, "tfe_isclose");
  assert_null(y);
  EXPECT_STATUS(tfe_sigmoid(&y, NULL), TFE_ERR_INVALID_ARGUMENT, "tfe_sigmoid");
  assert_null(y);
  EXPECT_STATUS(tfe_lgamma(&y, z), TFE_ERR_DTYPE_MISMATCH, "tfe_lgamma");
  assert_null(y);
  tfe_tensor* all[] = {z, x};
  release_all(all, 2);
  tfe_context_release(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_logaddexp_hypot_sigmoid_values, leak_setup,
                                      leak_teardown),
      cmocka_unit_test_setup_teardown(test_eager_derivatives, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_predicates_and_closeness, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_reductions, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_gamma_family, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_bad_input, leak_setup, leak_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
