/* Helpers for the eager-AD cmocka suites. */
#ifndef TFE_EAGER_TESTING_H
#define TFE_EAGER_TESTING_H

#include <complex.h>
#include <math.h>

#include "capi_testing.h"

static inline tfe_tensor* vec_f64(tfe_context* ctx, int64_t n, const double* v) {
  tfe_tensor* t = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&t, ctx, TFE_F64, 1, &n, NULL, v));
  return t;
}

static inline tfe_tensor* var_f64(tfe_context* ctx, int32_t ndim, const int64_t* shape,
                                  const double* v) {
  tfe_tensor* t = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&t, ctx, TFE_F64, ndim, shape, NULL, v));
  TFE_OK_OR_FAIL(tfe_tensor_set_requires_grad(t, 1));
  return t;
}

/* Copies t (any dtype) into a freshly malloc'ed buffer of count elements of size elem. */
static inline void read_into(const tfe_tensor* t, void* dst, int64_t bytes) {
  TFE_OK_OR_FAIL(tfe_tensor_to_data(t, dst, bytes));
}

static inline void expect_doubles(const tfe_tensor* t, const double* want, int64_t n) {
  double got[64];
  assert_true(n <= 64);
  read_into(t, got, n * (int64_t)sizeof(double));
  for (int64_t i = 0; i < n; ++i)
    if (fabs(got[i] - want[i]) > 1e-12 * (1 + fabs(want[i])))
      fail_msg("element %lld: got %.17g, want %.17g", (long long)i, got[i], want[i]);
}

static inline void expect_complex(const tfe_tensor* t, const double complex* want, int64_t n) {
  double complex got[64];
  assert_true(n <= 64);
  read_into(t, got, n * (int64_t)sizeof(double complex));
  for (int64_t i = 0; i < n; ++i)
    if (cabs(got[i] - want[i]) > 1e-12 * (1 + cabs(want[i])))
      fail_msg("element %lld: got %g%+gi, want %g%+gi", (long long)i, creal(got[i]), cimag(got[i]),
               creal(want[i]), cimag(want[i]));
}

static inline void release_all(tfe_tensor** ts, int n) {
  for (int i = 0; i < n; ++i) tfe_tensor_release(ts[i]);
}

#endif
