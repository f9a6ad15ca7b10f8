/* The inverse trigonometric and hyperbolic functions, exp2/log2/log10, erfc and trunc through the
 * C ABI: values against C's <math.h>/<complex.h>, eager derivatives against the closed forms,
 * and the dtype contract (rejected dtypes leave the output NULL and name the C function). */
#include <complex.h>
#include <math.h>

#include "eager_testing.h"

typedef tfe_status (*unary_fn)(tfe_tensor**, const tfe_tensor*);

struct real_case {
  const char* name;
  unary_fn fn;
  double (*value)(double);
  double (*derivative)(double); /* NULL: piecewise constant */
  double x[4];                  /* inside the real domain */
};

static double d_asin(double x) { return 1 / sqrt(1 - x * x); }
static double d_acos(double x) { return -1 / sqrt(1 - x * x); }
static double d_atan(double x) { return 1 / (1 + x * x); }
static double d_asinh(double x) { return 1 / sqrt(x * x + 1); }
static double d_acosh(double x) { return 1 / sqrt(x * x - 1); }
static double d_atanh(double x) { return 1 / (1 - x * x); }
static double d_exp2(double x) { return exp2(x) * log(2.0); }
static double d_log2(double x) { return 1 / (x * log(2.0)); }
static double d_log10(double x) { return 1 / (x * log(10.0)); }
static double d_erfc(double x) { return -2 / sqrt(acos(-1.0)) * exp(-x * x); }

#define UNIT_X                                                                                     \
  { -0.8, -0.25, 0.1, 0.7 }
static const struct real_case kCases[] = {
    {"tfe_asin", tfe_asin, asin, d_asin, UNIT_X},
    {"tfe_acos", tfe_acos, acos, d_acos, UNIT_X},
    {"tfe_atan", tfe_atan, atan, d_atan, {-3, -0.5, 0.2, 5}},
    {"tfe_asinh", tfe_asinh, asinh, d_asinh, {-3, -0.5, 0.2, 5}},
    {"tfe_acosh", tfe_acosh, acosh, d_acosh, {1.05, 1.5, 2.5, 10}},
    {"tfe_atanh", tfe_atanh, atanh, d_atanh, UNIT_X},
    {"tfe_exp2", tfe_exp2, exp2, d_exp2, {-3, -0.5, 0.2, 5}},
    {"tfe_log2", tfe_log2, log2, d_log2, {0.1, 1, 2.5, 1024}},
    {"tfe_log10", tfe_log10, log10, d_log10, {0.1, 1, 2.5, 1000}},
    {"tfe_erfc", tfe_erfc, erfc, d_erfc, {-2, -0.3, 0.4, 6}},
    {"tfe_trunc", tfe_trunc, trunc, NULL, {-2.5, -0.3, 0.7, 3.9}},
};
#define N_CASES (sizeof kCases / sizeof kCases[0])

static void test_real_values_match_libm(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  for (size_t c = 0; c < N_CASES; ++c) {
    tfe_tensor *x = vec_f64(ctx, 4, kCases[c].x), *y = NULL;
    TFE_OK_OR_FAIL(kCases[c].fn(&y, x));
    double want[4];
    for (int i = 0; i < 4; ++i) want[i] = kCases[c].value(kCases[c].x[i]);
    expect_doubles(y, want, 4);
    tfe_tensor* all[] = {x, y};
    release_all(all, 2);
  }
  tfe_context_release(ctx);
}

/* F32 keeps its dtype and agrees with the double function at single precision. */
static void test_f32_keeps_its_dtype(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t n4 = 4;
  for (size_t c = 0; c < N_CASES; ++c) {
    float xf[4], got[4];
    for (int i = 0; i < 4; ++i) xf[i] = (float)kCases[c].x[i];
    tfe_tensor *x = NULL, *y = NULL;
    TFE_OK_OR_FAIL(tfe_tensor_from_data(&x, ctx, TFE_F32, 1, &n4, NULL, xf));
    TFE_OK_OR_FAIL(kCases[c].fn(&y, x));
    int32_t dtype = -1;
    TFE_OK_OR_FAIL(tfe_tensor_dtype(y, &dtype));
    assert_int_equal(dtype, TFE_F32);
    read_into(y, got, sizeof got);
    for (int i = 0; i < 4; ++i) {
      double want = kCases[c].value((double)xf[i]);
      if (fabs(got[i] - want) > 2e-6 * (1 + fabs(want)))
        fail_msg("%s(%g): got %.9g, want %.9g", kCases[c].name, xf[i], got[i], want);
    }
    tfe_tensor* all[] = {x, y};
    release_all(all, 2);
  }
  tfe_context_release(ctx);
}

/* Eager VJP of sum(f(x)): f'(x) elementwise; trunc has no derivative to propagate (zeros). */
static void test_eager_derivatives(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t n4 = 4;
  for (size_t c = 0; c < N_CASES; ++c) {
    tfe_tensor *x = var_f64(ctx, 1, &n4, kCases[c].x), *y = NULL, *s = NULL, *g = NULL;
    TFE_OK_OR_FAIL(kCases[c].fn(&y, x));
    TFE_OK_OR_FAIL(tfe_sum(&s, y, 0, NULL));
    TFE_OK_OR_FAIL(tfe_backward(s, NULL));
    TFE_OK_OR_FAIL(tfe_tensor_grad(&g, x));
    double want[4];
    for (int i = 0; i < 4; ++i)
      want[i] = kCases[c].derivative ? kCases[c].derivative(kCases[c].x[i]) : 0.0;
    if (g) {
      expect_doubles(g, want, 4);
    } else {
      assert_null(kCases[c].derivative); /* no gradient only where the derivative is zero */
    }
    tfe_tensor* all[] = {x, y, s, g};
    release_all(all, 4);
  }
  tfe_context_release(ctx);
}

/* Complex input takes the principal branch, as C99's casin etc. */
static void test_complex_principal_branches(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t n3 = 3;
  const double complex z[3] = {0.3 + 0.4 * I, -0.5 - 0.2 * I, 1.7 + 0.6 * I};
  struct {
    unary_fn fn;
    double complex (*ref)(double complex);
  } cases[] = {{tfe_asin, casin},   {tfe_acos, cacos},   {tfe_atan, catan},
               {tfe_asinh, casinh}, {tfe_acosh, cacosh}, {tfe_atanh, catanh}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    tfe_tensor *x = NULL, *y = NULL;
    TFE_OK_OR_FAIL(tfe_tensor_from_data(&x, ctx, TFE_C64, 1, &n3, NULL, z));
    TFE_OK_OR_FAIL(cases[c].fn(&y, x));
    double complex want[3];
    for (int i = 0; i < 3; ++i) want[i] = cases[c].ref(z[i]);
    expect_complex(y, want, 3);
    tfe_tensor* all[] = {x, y};
    release_all(all, 2);
  }
  /* exp2, log2, log10 of complex: through exp and log. */
  tfe_tensor *x = NULL, *e = NULL, *l2 = NULL, *l10 = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&x, ctx, TFE_C64, 1, &n3, NULL, z));
  TFE_OK_OR_FAIL(tfe_exp2(&e, x));
  TFE_OK_OR_FAIL(tfe_log2(&l2, x));
  TFE_OK_OR_FAIL(tfe_log10(&l10, x));
  double complex we[3], w2[3], w10[3];
  for (int i = 0; i < 3; ++i) {
    we[i] = cexp(z[i] * log(2.0));
    w2[i] = clog(z[i]) / log(2.0);
    w10[i] = clog(z[i]) / log(10.0);
  }
  expect_complex(e, we, 3);
  expect_complex(l2, w2, 3);
  expect_complex(l10, w10, 3);
  tfe_tensor* all[] = {x, e, l2, l10};
  release_all(all, 4);
  tfe_context_release(ctx);
}

/* Integers are rejected by every function here, complex by the real-only erfc and trunc: the
 * status names the C function and the output stays NULL. */
static void test_rejected_dtypes(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t n2 = 2;
  tfe_tensor* i = make_tensor(ctx, TFE_I32, 1, &n2);
  tfe_tensor* z = make_tensor(ctx, TFE_C64, 1, &n2);
  for (size_t c = 0; c < N_CASES; ++c) {
    tfe_tensor* y = NULL;
    EXPECT_STATUS(kCases[c].fn(&y, i), TFE_ERR_DTYPE_MISMATCH, kCases[c].name);
    assert_null(y);
  }
  tfe_tensor* y = NULL;
  EXPECT_STATUS(tfe_erfc(&y, z), TFE_ERR_DTYPE_MISMATCH, "tfe_erfc");
  assert_null(y);
  EXPECT_STATUS(tfe_trunc(&y, z), TFE_ERR_DTYPE_MISMATCH, "tfe_trunc");
  assert_null(y);
  tfe_tensor* all[] = {i, z};
  release_all(all, 2);
  tfe_context_release(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_real_values_match_libm, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_f32_keeps_its_dtype, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_eager_derivatives, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_complex_principal_branches, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_rejected_dtypes, leak_setup, leak_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
