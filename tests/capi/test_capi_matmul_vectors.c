/* tfe_matmul with rank-1 operands, as NumPy defines them: matrix-vector, vector-matrix,
 * vector-vector and a batched matrix with a vector; eager derivatives; the shape errors. */
#include "eager_testing.h"

/* A = [[1,3,5],[2,4,6]] (2x3, column-major 1..6). */
static const double kA[] = {1, 2, 3, 4, 5, 6};
static const int64_t kA23[] = {2, 3};

static void expect_shape(const tfe_tensor* t, int32_t ndim, const int64_t* shape) {
  int32_t got = -1;
  TFE_OK_OR_FAIL(tfe_tensor_ndim(t, &got));
  assert_int_equal(got, ndim);
  int64_t dims[8] = {0};
  TFE_OK_OR_FAIL(tfe_tensor_shape(t, dims));
  for (int32_t i = 0; i < ndim; ++i) assert_int_equal(dims[i], shape[i]);
}

static void test_matrix_vector_products(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const double v[] = {1, -1, 2}, w[] = {1, 2};
  tfe_tensor *a = f64(ctx, 2, kA23, kA), *vv = vec_f64(ctx, 3, v), *ww = vec_f64(ctx, 2, w);
  tfe_tensor *av = NULL, *wa = NULL, *vdot = NULL;
  TFE_OK_OR_FAIL(tfe_matmul(&av, a, vv));
  TFE_OK_OR_FAIL(tfe_matmul(&wa, ww, a));
  TFE_OK_OR_FAIL(tfe_matmul(&vdot, vv, vv));
  const int64_t n2[] = {2}, n3[] = {3};
  expect_shape(av, 1, n2);
  expect_shape(wa, 1, n3);
  expect_shape(vdot, 0, NULL);
  double want_av[2], want_wa[3], want_dot = 0;
  for (int i = 0; i < 2; ++i) {
    want_av[i] = 0;
    for (int k = 0; k < 3; ++k) want_av[i] += kA[i + 2 * k] * v[k];
  }
  for (int j = 0; j < 3; ++j) want_wa[j] = w[0] * kA[2 * j] + w[1] * kA[2 * j + 1];
  for (int k = 0; k < 3; ++k) want_dot += v[k] * v[k];
  expect_doubles(av, want_av, 2);
  expect_doubles(wa, want_wa, 3);
  expect_doubles(vdot, &want_dot, 1);
  tfe_tensor* all[] = {a, vv, ww, av, wa, vdot};
  release_all(all, 6);
  tfe_context_release(ctx);
}

/* [2,3,2] x [3] -> [2,2]: the vector meets every batch matrix (batch dims after the matrix dims).
 */
static void test_batched_matrix_vector(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t s232[] = {2, 3, 2};
  double m[12];
  for (int i = 0; i < 12; ++i) m[i] = 0.5 * i - 2;
  const double v[] = {1, -1, 2};
  tfe_tensor *a = f64(ctx, 3, s232, m), *vv = vec_f64(ctx, 3, v), *r = NULL;
  TFE_OK_OR_FAIL(tfe_matmul(&r, a, vv));
  const int64_t s22[] = {2, 2};
  expect_shape(r, 2, s22);
  double want[4];
  for (int b = 0; b < 2; ++b)
    for (int i = 0; i < 2; ++i) {
      want[i + 2 * b] = 0;
      for (int k = 0; k < 3; ++k) want[i + 2 * b] += m[i + 2 * k + 6 * b] * v[k];
    }
  expect_doubles(r, want, 4);
  tfe_tensor* all[] = {a, vv, r};
  release_all(all, 3);
  tfe_context_release(ctx);
}

/* d sum(A v)/dv = column sums of A; d sum(w A)/dw = row sums; d (v.v)/dv = 2v. */
static void test_vector_derivatives(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t n3[] = {3}, n2[] = {2};
  const double v0[] = {1, -1, 2}, w0[] = {1, 2};
  tfe_tensor *a = f64(ctx, 2, kA23, kA), *v = var_f64(ctx, 1, n3, v0), *w = var_f64(ctx, 1, n2, w0);
  tfe_tensor *av = NULL, *wa = NULL, *vv = NULL, *s1 = NULL, *s2 = NULL, *gv = NULL, *gw = NULL;
  tfe_tensor *t = NULL, *loss = NULL;
  TFE_OK_OR_FAIL(tfe_matmul(&av, a, v));
  TFE_OK_OR_FAIL(tfe_matmul(&wa, w, a));
  TFE_OK_OR_FAIL(tfe_matmul(&vv, v, v));
  TFE_OK_OR_FAIL(tfe_sum(&s1, av, 0, NULL));
  TFE_OK_OR_FAIL(tfe_sum(&s2, wa, 0, NULL));
  TFE_OK_OR_FAIL(tfe_add(&t, s1, s2));
  TFE_OK_OR_FAIL(tfe_add(&loss, t, vv));
  TFE_OK_OR_FAIL(tfe_backward(loss, NULL));
  TFE_OK_OR_FAIL(tfe_tensor_grad(&gv, v));
  TFE_OK_OR_FAIL(tfe_tensor_grad(&gw, w));
  double want_v[3], want_w[2] = {0, 0};
  for (int k = 0; k < 3; ++k) {
    want_v[k] = kA[2 * k] + kA[2 * k + 1] + 2 * v0[k];
    want_w[0] += kA[2 * k];
    want_w[1] += kA[2 * k + 1];
  }
  expect_doubles(gv, want_v, 3);
  expect_doubles(gw, want_w, 2);
  tfe_tensor* all[] = {a, v, w, av, wa, vv, s1, s2, gv, gw, t, loss};
  release_all(all, 12);
  tfe_context_release(ctx);
}

static void test_shape_errors(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const double two[] = {1, 2}, one = 3;
  tfe_tensor *a = f64(ctx, 2, kA23, kA), *v2 = vec_f64(ctx, 2, two), *s = f64(ctx, 0, NULL, &one);
  tfe_tensor* out = NULL;
  EXPECT_STATUS(tfe_matmul(&out, a, v2), TFE_ERR_SHAPE_MISMATCH, "tfe_matmul");
  assert_null(out);
  EXPECT_STATUS(tfe_matmul(&out, v2, s), TFE_ERR_SHAPE_MISMATCH, "tfe_matmul");
  assert_null(out);
  EXPECT_STATUS(tfe_matmul(&out, s, a), TFE_ERR_SHAPE_MISMATCH, "tfe_matmul");
  assert_null(out);
  tfe_tensor* all[] = {a, v2, s};
  release_all(all, 3);
  tfe_context_release(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_matrix_vector_products, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_batched_matrix_vector, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_vector_derivatives, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_shape_errors, leak_setup, leak_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
