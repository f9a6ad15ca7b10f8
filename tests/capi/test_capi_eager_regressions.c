/* Eager derivative requests that the traced engine could always answer: each reproducer of the
 * "eager AD refuses shapes" report, through the C ABI, as a named test. Each gradient is checked
 * against central finite differences of the same computation; the cache test shows that eager
 * derivative programs are shared by shapes that take the same decisions (5x3 and 7x4 QR) and not
 * by shapes that do not (5x3 and 3x5). */
#include <math.h>
#include <stdlib.h>

#include "eager_testing.h"

/* A scalar (one-element, real) function of x, built with ops on x; NULL on failure. */
typedef tfe_tensor* (*loss_fn)(tfe_context* ctx, tfe_tensor* x);

static tfe_tensor* sum_all(tfe_tensor* t) {
  tfe_tensor* s = NULL;
  TFE_OK_OR_FAIL(tfe_sum(&s, t, 0, NULL));
  return s;
}

static tfe_tensor* constant(tfe_context* ctx, int32_t ndim, const int64_t* shape, double scale) {
  int64_t n = 1;
  for (int32_t i = 0; i < ndim; ++i) n *= shape[i];
  double* v = malloc((size_t)n * sizeof(double));
  for (int64_t i = 0; i < n; ++i) v[i] = scale * (1.0 + 0.25 * (double)((i * 7) % 5));
  tfe_tensor* t = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&t, ctx, TFE_F64, ndim, shape, NULL, v));
  free(v);
  return t;
}

static double value_of(const tfe_tensor* t) {
  double v = 0;
  TFE_OK_OR_FAIL(tfe_tensor_to_data(t, &v, sizeof v));
  return v;
}

/* A variable of dtype (F64, or C64 with n complex values as 2n doubles) and shape. */
static tfe_tensor* variable(tfe_context* ctx, int32_t dtype, int32_t ndim, const int64_t* shape,
                            const double* data) {
  tfe_tensor* t = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&t, ctx, dtype, ndim, shape, NULL, data));
  TFE_OK_OR_FAIL(tfe_tensor_set_requires_grad(t, 1));
  return t;
}

/* backward of f at x0 against central differences in every real coordinate (the gradient of a
 * complex leaf holds dL/dRe + i dL/dIm). */
static void check_gradient(loss_fn f, int32_t dtype, int32_t ndim, const int64_t* shape,
                           const double* x0) {
  tfe_context* ctx = NULL;
  TFE_OK_OR_FAIL(tfe_context_create(&ctx));
  int64_t n = 1;
  for (int32_t i = 0; i < ndim; ++i) n *= shape[i];
  int64_t reals = dtype == TFE_C64 ? 2 * n : n;
  tfe_tensor* x = variable(ctx, dtype, ndim, shape, x0);
  tfe_tensor* loss = f(ctx, x);
  assert_non_null(loss);
  TFE_OK_OR_FAIL(tfe_backward(loss, NULL));
  tfe_tensor* g = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_grad(&g, x));
  assert_non_null(g);
  double* got = malloc((size_t)reals * sizeof(double));
  double* probe = malloc((size_t)reals * sizeof(double));
  TFE_OK_OR_FAIL(tfe_tensor_to_data(g, got, reals * (int64_t)sizeof(double)));
  const double h = 1e-6;
  for (int64_t k = 0; k < reals; ++k) {
    double fd = 0;
    for (int side = -1; side <= 1; side += 2) {
      memcpy(probe, x0, (size_t)reals * sizeof(double));
      probe[k] += side * h;
      tfe_tensor* xp = variable(ctx, dtype, ndim, shape, probe);
      tfe_tensor* lp = f(ctx, xp);
      fd += side * value_of(lp) / (2 * h);
      tfe_tensor_release(lp);
      tfe_tensor_release(xp);
    }
    if (fabs(fd - got[k]) > 1e-5 * (1 + fabs(fd)))
      fail_msg("coordinate %lld: backward %.10g, finite differences %.10g", (long long)k, got[k],
               fd);
  }
  free(probe);
  free(got);
  tfe_tensor_release(g);
  tfe_tensor_release(loss);
  tfe_tensor_release(x);
  tfe_context_release(ctx);
}

static double x53[15], x35[15], x236[36], x342[24], x24[24], x3[3], xc44[32], x33[9];

static void fill(double* v, int64_t n, double shift_diag, int64_t rows) {
  for (int64_t i = 0; i < n; ++i) v[i] = sin(1.0 + 0.7 * (double)i) + 0.1 * cos(3.0 * (double)i);
  if (shift_diag != 0)
    for (int64_t i = 0; i < rows && i * rows + i < n; ++i) v[i * rows + i] += shift_diag;
}

static int setup(void** state) {
  fill(x53, 15, 2.0, 5);
  fill(x35, 15, 2.0, 3);
  fill(x236, 36, 0, 6);
  for (int i = 0; i < 6; ++i) x236[i * 6 + i] += 3.0; /* a well-conditioned 6x6 reshaped */
  fill(x342, 24, 0, 3);
  fill(x24, 24, 0, 2);
  fill(x3, 3, 0, 3);
  fill(xc44, 32, 0, 4);
  fill(x33, 9, 1.0, 3);
  return leak_setup(state);
}

/* ---- the reproducers ---- */

static tfe_tensor* qr_r(tfe_context* ctx, tfe_tensor* x) {
  (void)ctx;
  tfe_tensor *q = NULL, *r = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_qr(&q, &r, x));
  tfe_tensor* s = sum_all(r);
  tfe_tensor_release(q);
  tfe_tensor_release(r);
  return s;
}
static void qr_of_a_tall_matrix(void** state) {
  (void)state;
  const int64_t shape[] = {5, 3};
  check_gradient(qr_r, TFE_F64, 2, shape, x53);
}
static void qr_of_a_wide_matrix(void** state) {
  (void)state;
  const int64_t shape[] = {3, 5};
  check_gradient(qr_r, TFE_F64, 2, shape, x35);
}

static tfe_tensor* lu_factor_lu(tfe_context* ctx, tfe_tensor* x) {
  (void)ctx;
  tfe_tensor *lu = NULL, *piv = NULL, *info = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_lu_factor(&lu, &piv, &info, x));
  tfe_tensor* s = sum_all(lu);
  tfe_tensor* all[] = {lu, piv, info};
  release_all(all, 3);
  return s;
}
static void lu_factor_of_a_tall_matrix(void** state) {
  (void)state;
  const int64_t shape[] = {5, 3};
  check_gradient(lu_factor_lu, TFE_F64, 2, shape, x53);
}

static tfe_tensor* lu_u(tfe_context* ctx, tfe_tensor* x) {
  (void)ctx;
  tfe_tensor *p = NULL, *l = NULL, *u = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_lu(&p, &l, &u, x));
  tfe_tensor* s = sum_all(u);
  tfe_tensor* all[] = {p, l, u};
  release_all(all, 3);
  return s;
}
static void lu_of_a_wide_matrix_third_output(void** state) {
  (void)state;
  const int64_t shape[] = {3, 5};
  check_gradient(lu_u, TFE_F64, 2, shape, x35);
}

static tfe_tensor* pinv_sum(tfe_context* ctx, tfe_tensor* x) {
  (void)ctx;
  tfe_tensor* p = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_pinv(&p, x, NULL));
  tfe_tensor* s = sum_all(p);
  tfe_tensor_release(p);
  return s;
}
static void pinv_of_a_tall_matrix(void** state) {
  (void)state;
  const int64_t shape[] = {5, 3};
  check_gradient(pinv_sum, TFE_F64, 2, shape, x53);
}

static tfe_tensor* lstsq_sum(tfe_context* ctx, tfe_tensor* x) {
  const int64_t bshape[] = {5, 2};
  tfe_tensor* b = constant(ctx, 2, bshape, 1.0);
  tfe_tensor* sol = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_lstsq(&sol, x, b, NULL));
  tfe_tensor* s = sum_all(sol);
  tfe_tensor_release(sol);
  tfe_tensor_release(b);
  return s;
}
static void lstsq_of_a_tall_matrix(void** state) {
  (void)state;
  const int64_t shape[] = {5, 3};
  check_gradient(lstsq_sum, TFE_F64, 2, shape, x53);
}

static tfe_tensor* weighted_svdvals(tfe_context* ctx, tfe_tensor* x) {
  const double w[] = {1, 2, 3};
  tfe_tensor* wt = vec_f64(ctx, 3, w);
  tfe_tensor *s = NULL, *sw = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_svdvals(&s, x));
  TFE_OK_OR_FAIL(tfe_mul(&sw, s, wt));
  tfe_tensor* total = sum_all(sw);
  tfe_tensor* all[] = {wt, s, sw};
  release_all(all, 3);
  return total;
}
static void weighted_svdvals_of_a_tall_matrix(void** state) {
  (void)state;
  const int64_t shape[] = {5, 3};
  check_gradient(weighted_svdvals, TFE_F64, 2, shape, x53);
}

static void vjp_of_svdvals_of_a_wide_matrix(void** state) {
  (void)state;
  /* The seed [3] binds the output extent min(3, 5): it once failed as "already bound to 5". */
  tfe_context* ctx = NULL;
  TFE_OK_OR_FAIL(tfe_context_create(&ctx));
  const int64_t shape[] = {3, 5};
  tfe_tensor* y = variable(ctx, TFE_F64, 2, shape, x35);
  tfe_tensor* s = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_svdvals(&s, y));
  const double ones[] = {1, 1, 1};
  tfe_tensor* seed = vec_f64(ctx, 3, ones);
  tfe_tensor* g = NULL;
  TFE_OK_OR_FAIL(tfe_vjp(&g, s, 1, &y, seed));
  assert_non_null(g);
  tfe_tensor* total = sum_all(s);
  TFE_OK_OR_FAIL(tfe_backward(total, NULL));
  tfe_tensor* b = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_grad(&b, y));
  double gv[15], bv[15];
  read_into(g, gv, sizeof gv);
  read_into(b, bv, sizeof bv);
  for (int i = 0; i < 15; ++i) assert_true(fabs(gv[i] - bv[i]) < 1e-12 * (1 + fabs(bv[i])));
  tfe_tensor* all[] = {y, s, seed, g, total, b};
  release_all(all, 6);
  tfe_context_release(ctx);
  check_gradient(weighted_svdvals, TFE_F64, 2, shape, x35);
}

static tfe_tensor* tensorinv_sum(tfe_context* ctx, tfe_tensor* x) {
  (void)ctx;
  tfe_tensor* inv = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_tensorinv(&inv, x, 2));
  tfe_tensor* s = sum_all(inv);
  tfe_tensor_release(inv);
  return s;
}
static void tensorinv_of_a_rank_3_tensor(void** state) {
  (void)state;
  const int64_t shape[] = {2, 3, 6};
  check_gradient(tensorinv_sum, TFE_F64, 3, shape, x236);
}

static tfe_tensor* batched_matmul_b(tfe_context* ctx, tfe_tensor* b) {
  /* a [3,4,2] (tracked too, from the same data each time) @ b [4,5] */
  const int64_t ashape[] = {3, 4, 2};
  tfe_tensor* a = variable(ctx, TFE_F64, 3, ashape, x342);
  tfe_tensor* p = NULL;
  TFE_OK_OR_FAIL(tfe_matmul(&p, a, b));
  tfe_tensor* s = sum_all(p);
  tfe_tensor_release(p);
  tfe_tensor_release(a);
  return s;
}
static void batched_matmul_with_broadcasting_both_tracked(void** state) {
  (void)state;
  const int64_t shape[] = {4, 5};
  double b[20];
  fill(b, 20, 0, 4);
  check_gradient(batched_matmul_b, TFE_F64, 2, shape, b);
}

static void vjp_of_pad(void** state) {
  (void)state;
  tfe_context* ctx = NULL;
  TFE_OK_OR_FAIL(tfe_context_create(&ctx));
  const int64_t shape[] = {3};
  tfe_tensor* x = variable(ctx, TFE_F64, 1, shape, x3);
  const int64_t low[] = {1}, high[] = {0}, interior[] = {0};
  tfe_tensor* y = NULL;
  TFE_OK_OR_FAIL(tfe_pad(&y, x, 1, low, high, interior));
  const double seed_v[] = {10, 1, 2, 3};
  tfe_tensor* seed = vec_f64(ctx, 4, seed_v);
  tfe_tensor* g = NULL;
  TFE_OK_OR_FAIL(tfe_vjp(&g, y, 1, &x, seed));
  const double want[] = {1, 2, 3}; /* the padded position's cotangent is dropped */
  expect_doubles(g, want, 3);
  tfe_tensor* all[] = {x, y, seed, g};
  release_all(all, 4);
  tfe_context_release(ctx);
}

static tfe_tensor* untracked_first_mul(tfe_context* ctx, tfe_tensor* x) {
  const int64_t s64[] = {6, 4};
  tfe_tensor* c = constant(ctx, 2, s64, 1.0);
  tfe_tensor *r = NULL, *p = NULL;
  TFE_OK_OR_FAIL(tfe_reshape(&r, x, 2, s64));
  TFE_OK_OR_FAIL(tfe_mul(&p, c, r)); /* the untracked operand first */
  tfe_tensor* s = sum_all(p);
  tfe_tensor* all[] = {c, r, p};
  release_all(all, 3);
  return s;
}
static void untracked_operand_first_through_reshape(void** state) {
  (void)state;
  const int64_t shape[] = {2, 3, 4};
  check_gradient(untracked_first_mul, TFE_F64, 3, shape, x24);
}

static tfe_tensor* untracked_first_concatenate(tfe_context* ctx, tfe_tensor* x) {
  const int64_t s64[] = {6, 4};
  tfe_tensor* c = constant(ctx, 2, s64, 1.0);
  tfe_tensor *r = NULL, *cat = NULL, *sq = NULL;
  TFE_OK_OR_FAIL(tfe_reshape(&r, x, 2, s64));
  tfe_tensor* parts[] = {c, r};
  TFE_OK_OR_FAIL(tfe_concatenate(&cat, 2, parts, 0));
  TFE_OK_OR_FAIL(tfe_mul(&sq, cat, cat));
  tfe_tensor* s = sum_all(sq);
  tfe_tensor* all[] = {c, r, cat, sq};
  release_all(all, 4);
  return s;
}
static void untracked_operand_first_in_concatenate(void** state) {
  (void)state;
  const int64_t shape[] = {2, 3, 4};
  check_gradient(untracked_first_concatenate, TFE_F64, 3, shape, x24);
}

static tfe_tensor* untracked_first_matmul(tfe_context* ctx, tfe_tensor* x) {
  const int64_t ms[] = {3, 3, 2}, rs[] = {3, 1, 2};
  tfe_tensor* m = constant(ctx, 3, ms, 0.5);
  tfe_tensor *r = NULL, *p = NULL;
  TFE_OK_OR_FAIL(tfe_reshape(&r, x, 3, rs));
  TFE_OK_OR_FAIL(tfe_matmul(&p, m, r));
  tfe_tensor* s = sum_all(p);
  tfe_tensor* all[] = {m, r, p};
  release_all(all, 3);
  return s;
}
static void untracked_operand_first_in_batched_matmul(void** state) {
  (void)state;
  const int64_t shape[] = {2, 3};
  double x[6];
  fill(x, 6, 0, 2);
  check_gradient(untracked_first_matmul, TFE_F64, 2, shape, x);
}

/* Reverse over reverse: the gradient of sum Re(g) with g = vjp(f(x), x), recorded. */
static tfe_tensor* second_order(tfe_tensor* x, tfe_tensor* fx) {
  tfe_tensor* g = NULL;
  TFE_OK_OR_FAIL(tfe_vjp(&g, fx, 1, &x, NULL));
  assert_non_null(g);
  tfe_tensor* re = NULL;
  TFE_OK_OR_FAIL(tfe_real(&re, g));
  tfe_tensor* s = sum_all(re);
  tfe_tensor_release(re);
  tfe_tensor_release(g);
  tfe_tensor_release(fx);
  return s;
}
static tfe_tensor* grad_of_matrix_norm_2(tfe_context* ctx, tfe_tensor* x) {
  (void)ctx;
  tfe_tensor* n = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_matrix_norm(&n, x, TFE_NORM_2));
  return second_order(x, n);
}
static tfe_tensor* grad_of_cond_2(tfe_context* ctx, tfe_tensor* x) {
  (void)ctx;
  tfe_tensor* n = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_cond(&n, x, TFE_NORM_2));
  return second_order(x, n);
}
static tfe_tensor* grad_of_weighted_matrix_exp(tfe_context* ctx, tfe_tensor* x) {
  const int64_t s33[] = {3, 3};
  tfe_tensor* w = constant(ctx, 2, s33, 0.3);
  tfe_tensor *e = NULL, *we = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_matrix_exp(&e, x));
  TFE_OK_OR_FAIL(tfe_mul(&we, w, e));
  tfe_tensor* l = sum_all(we);
  tfe_tensor* all[] = {w, e, we};
  release_all(all, 3);
  return second_order(x, l);
}
static void reverse_over_reverse_complex_matrix_norm(void** state) {
  (void)state;
  const int64_t shape[] = {4, 4};
  check_gradient(grad_of_matrix_norm_2, TFE_C64, 2, shape, xc44);
}
static void reverse_over_reverse_complex_cond(void** state) {
  (void)state;
  const int64_t shape[] = {4, 4};
  check_gradient(grad_of_cond_2, TFE_C64, 2, shape, xc44);
}
static void reverse_over_reverse_matrix_exp(void** state) {
  (void)state;
  const int64_t shape[] = {3, 3};
  check_gradient(grad_of_weighted_matrix_exp, TFE_F64, 2, shape, x33);
}

/* ---- derivative programs are shared by shapes that take the same decisions ---- */

static int64_t derivative_entries(tfe_context* ctx) {
  int64_t hits, misses, entries, bytes;
  TFE_OK_OR_FAIL(
      tfe_context_cache_stats(ctx, TFE_CACHE_DERIVATIVE, &hits, &misses, &entries, &bytes));
  return entries;
}
static void qr_backward_of(tfe_context* ctx, int64_t m, int64_t n) {
  double data[64];
  fill(data, m * n, 2.0, m);
  const int64_t shape[] = {m, n};
  tfe_tensor* x = variable(ctx, TFE_F64, 2, shape, data);
  tfe_tensor* l = qr_r(ctx, x);
  TFE_OK_OR_FAIL(tfe_backward(l, NULL));
  tfe_tensor_release(l);
  tfe_tensor_release(x);
}
static void qr_backward_programs_shared_by_decisions(void** state) {
  (void)state;
  tfe_context* ctx = NULL;
  TFE_OK_OR_FAIL(tfe_context_create(&ctx));
  qr_backward_of(ctx, 5, 3);
  int64_t after_5x3 = derivative_entries(ctx);
  qr_backward_of(ctx, 7, 4); /* tall again: the same program */
  assert_int_equal(derivative_entries(ctx), after_5x3);
  qr_backward_of(ctx, 3, 5); /* wide: another program */
  assert_int_equal(derivative_entries(ctx), after_5x3 + 1);
  qr_backward_of(ctx, 2, 6); /* wide again */
  assert_int_equal(derivative_entries(ctx), after_5x3 + 1);
  tfe_context_release(ctx);
}

/* ---- messages name the public function and the user's values ---- */

static void messages_name_public_functions_and_concrete_shapes(void** state) {
  (void)state;
  tfe_context* ctx = NULL;
  TFE_OK_OR_FAIL(tfe_context_create(&ctx));
  const int64_t shape[] = {5, 3};
  tfe_tensor* x = variable(ctx, TFE_F64, 2, shape, x53);
  tfe_linalg_options* o = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_options_create(&o));
  TFE_OK_OR_FAIL(tfe_linalg_options_set_full_matrices(o, 1));
  tfe_tensor *q = NULL, *r = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_qr_ex(&q, &r, x, o));
  tfe_tensor* s = sum_all(q);
  EXPECT_STATUS(tfe_backward(s, NULL), TFE_ERR_NOT_DIFFERENTIABLE, "tfe_backward");
  const char* msg = tfe_last_error_message();
  assert_non_null(strstr(msg, "the derivative of tfe_linalg_qr"));
  assert_non_null(strstr(msg, "[5,3]")); /* the user's shape, not symbols */
  assert_null(strstr(msg, "[s1"));
  tfe_tensor* all[] = {x, q, r, s};
  release_all(all, 4);
  tfe_linalg_options_release(o);
  tfe_tensor *a = NULL, *b = NULL, *out = NULL;
  const int64_t a_shape[] = {3, 2}, b_shape[] = {2, 1};
  a = constant(ctx, 2, a_shape, 1.0);
  b = constant(ctx, 2, b_shape, 1.0);
  EXPECT_STATUS(tfe_linalg_solve(&out, a, b), TFE_ERR_SHAPE_MISMATCH, "tfe_linalg_solve: ");
  msg = tfe_last_error_message();
  assert_null(strstr(msg, "lu_factor_solve"));
  assert_null(strstr(msg, "(square)"));
  assert_null(out);
  const int64_t ints[] = {1, 2}, v_shape[] = {2};
  tfe_tensor* iv = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&iv, ctx, TFE_I64, 1, v_shape, NULL, ints));
  EXPECT_STATUS(tfe_tensor_set_requires_grad(iv, 1), TFE_ERR_DTYPE_MISMATCH,
                "tfe_tensor_set_requires_grad");
  assert_non_null(strstr(tfe_last_error_message(), "an I64 tensor"));
  tfe_tensor* rest[] = {a, b, iv};
  release_all(rest, 3);
  tfe_context_release(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(qr_of_a_tall_matrix, setup, leak_teardown),
      cmocka_unit_test_setup_teardown(qr_of_a_wide_matrix, setup, leak_teardown),
      cmocka_unit_test_setup_teardown(lu_factor_of_a_tall_matrix, setup, leak_teardown),
      cmocka_unit_test_setup_teardown(lu_of_a_wide_matrix_third_output, setup, leak_teardown),
      cmocka_unit_test_setup_teardown(pinv_of_a_tall_matrix, setup, leak_teardown),
      cmocka_unit_test_setup_teardown(lstsq_of_a_tall_matrix, setup, leak_teardown),
      cmocka_unit_test_setup_teardown(weighted_svdvals_of_a_tall_matrix, setup, leak_teardown),
      cmocka_unit_test_setup_teardown(vjp_of_svdvals_of_a_wide_matrix, setup, leak_teardown),
      cmocka_unit_test_setup_teardown(tensorinv_of_a_rank_3_tensor, setup, leak_teardown),
      cmocka_unit_test_setup_teardown(batched_matmul_with_broadcasting_both_tracked, setup,
                                      leak_teardown),
      cmocka_unit_test_setup_teardown(vjp_of_pad, setup, leak_teardown),
      cmocka_unit_test_setup_teardown(untracked_operand_first_through_reshape, setup,
                                      leak_teardown),
      cmocka_unit_test_setup_teardown(untracked_operand_first_in_concatenate, setup, leak_teardown),
      cmocka_unit_test_setup_teardown(untracked_operand_first_in_batched_matmul, setup,
                                      leak_teardown),
      cmocka_unit_test_setup_teardown(reverse_over_reverse_complex_matrix_norm, setup,
                                      leak_teardown),
      cmocka_unit_test_setup_teardown(reverse_over_reverse_complex_cond, setup, leak_teardown),
      cmocka_unit_test_setup_teardown(reverse_over_reverse_matrix_exp, setup, leak_teardown),
      cmocka_unit_test_setup_teardown(qr_backward_programs_shared_by_decisions, setup,
                                      leak_teardown),
      cmocka_unit_test_setup_teardown(messages_name_public_functions_and_concrete_shapes, setup,
                                      leak_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
