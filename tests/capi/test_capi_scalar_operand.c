/* Host scalars as weak operands: tfe_weak_scalar's dtype rule (NumPy 2's rule for Python scalars),
 * tfe_binary_scalar against the two-step call it saves, its derivative, and its refusals. */
#include <math.h>
#include <stdlib.h>

#include "binary_ops.h"
#include "capi_testing.h"

static const int32_t all_dtypes[] = {TFE_BOOL, TFE_I32, TFE_I64, TFE_F32,
                                     TFE_F64,  TFE_C32, TFE_C64};

/* The rule as the header states it: the scalar's kind decides, the operand's precision wins
 * within a kind. */
static int32_t expected_dtype(int32_t like, int32_t kind) {
  int inexact = like == TFE_F32 || like == TFE_F64 || like == TFE_C32 || like == TFE_C64;
  switch (kind) {
  case TFE_SCALAR_BOOL: return like;
  case TFE_SCALAR_INT: return like == TFE_BOOL ? TFE_I64 : like;
  case TFE_SCALAR_FLOAT: return inexact ? like : TFE_F64;
  default: return like == TFE_F32 || like == TFE_C32 ? TFE_C32 : TFE_C64;
  }
}

static void test_weak_scalar_dtypes(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t shape[] = {3};
  for (size_t d = 0; d < sizeof all_dtypes / sizeof all_dtypes[0]; ++d) {
    tfe_tensor* x = make_tensor(ctx, all_dtypes[d], 1, shape);
    for (int32_t kind = TFE_SCALAR_BOOL; kind <= TFE_SCALAR_COMPLEX; ++kind) {
      tfe_tensor* s = NULL;
      TFE_OK_OR_FAIL(tfe_weak_scalar(&s, ctx, all_dtypes[d], kind, 1, 1.0, 0.0));
      int32_t dt = -1, nd = -1;
      TFE_OK_OR_FAIL(tfe_tensor_dtype(s, &dt));
      TFE_OK_OR_FAIL(tfe_tensor_ndim(s, &nd));
      assert_int_equal(dt, expected_dtype(all_dtypes[d], kind));
      assert_int_equal(nd, 0);
      tfe_tensor_release(s);
    }
    tfe_tensor_release(x);
  }
  tfe_context_release(ctx);
}

/* Every op, both operand orders, on the dtypes it accepts: tfe_binary_scalar gives the bytes of
 * tfe_weak_scalar followed by the tensor function. */
static void check_same(tfe_status s1, tfe_tensor* y1, tfe_status s2, tfe_tensor* y2) {
  assert_int_equal(s1, s2);
  if (s1 != TFE_OK) {
    assert_null(y1);
    assert_null(y2);
    return;
  }
  int32_t d1 = -1, d2 = -2;
  TFE_OK_OR_FAIL(tfe_tensor_dtype(y1, &d1));
  TFE_OK_OR_FAIL(tfe_tensor_dtype(y2, &d2));
  assert_int_equal(d1, d2);
  int64_t n1 = 0, n2 = 0;
  unsigned char* b1 = tensor_bytes(y1, &n1);
  unsigned char* b2 = tensor_bytes(y2, &n2);
  assert_int_equal(n1, n2);
  assert_memory_equal(b1, b2, (size_t)n1);
  free(b1);
  free(b2);
}

static void test_binary_scalar_matches_two_steps(void** state) {
  (void)state;
  static const struct {
    int32_t kind;
    int64_t i;
    double re, im;
  } scalars[] = {{TFE_SCALAR_BOOL, 1, 0, 0},
                 {TFE_SCALAR_INT, 3, 0, 0},
                 {TFE_SCALAR_FLOAT, 0, 0.75, 0},
                 {TFE_SCALAR_COMPLEX, 0, 0.5, -2.0}};
  tfe_context* ctx = new_ctx();
  const int64_t shape[] = {2, 3};
  int compared = 0;
  for (size_t d = 0; d < sizeof all_dtypes / sizeof all_dtypes[0]; ++d) {
    tfe_tensor* x = make_tensor(ctx, all_dtypes[d], 2, shape);
    for (size_t o = 0; o < sizeof binary_ops / sizeof binary_ops[0]; ++o)
      for (size_t k = 0; k < sizeof scalars / sizeof scalars[0]; ++k)
        for (int first = 0; first <= 1; ++first) {
          tfe_tensor* s = NULL;
          TFE_OK_OR_FAIL(tfe_weak_scalar(&s, ctx, all_dtypes[d], scalars[k].kind, scalars[k].i,
                                         scalars[k].re, scalars[k].im));
          tfe_tensor *y1 = NULL, *y2 = (tfe_tensor*)&y1; /* y2 must be cleared on failure */
          tfe_status s1 = first ? binary_ops[o].fn(&y1, s, x) : binary_ops[o].fn(&y1, x, s);
          tfe_status s2 = tfe_binary_scalar(&y2, binary_ops[o].op, x, scalars[k].kind, scalars[k].i,
                                            scalars[k].re, scalars[k].im, first);
          check_same(s1, y1, s2, y2);
          compared += s1 == TFE_OK;
          tfe_tensor_release(y1);
          tfe_tensor_release(y2);
          tfe_tensor_release(s);
        }
    tfe_tensor_release(x);
  }
  assert_true(compared > 200); /* most combinations are accepted ones */
  tfe_context_release(ctx);
}

static void test_weak_precision_kept(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t shape[] = {2};
  tfe_tensor* x = make_tensor(ctx, TFE_F32, 1, shape);
  tfe_tensor* y = NULL;
  TFE_OK_OR_FAIL(tfe_binary_scalar(&y, TFE_BINOP_MUL, x, TFE_SCALAR_FLOAT, 0, 2.0, 0, 0));
  int32_t dt = -1;
  TFE_OK_OR_FAIL(tfe_tensor_dtype(y, &dt));
  assert_int_equal(dt, TFE_F32);
  float v[2];
  TFE_OK_OR_FAIL(tfe_tensor_copy_to(y, TFE_F32, v, sizeof v));
  assert_true(v[0] == 2.0f && v[1] == 2.5f); /* make_tensor: 1 + i / 4 */
  tfe_tensor_release(y);
  /* 1e300 as F32 is inf, as NumPy's cast */
  TFE_OK_OR_FAIL(tfe_binary_scalar(&y, TFE_BINOP_ADD, x, TFE_SCALAR_FLOAT, 0, 1e300, 0, 1));
  TFE_OK_OR_FAIL(tfe_tensor_copy_to(y, TFE_F32, v, sizeof v));
  assert_true(v[0] > 3.4e38f);
  tfe_tensor_release(y);
  tfe_tensor_release(x);
  tfe_context_release(ctx);
}

static void test_refusals(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t shape[] = {2};
  tfe_tensor* x = make_tensor(ctx, TFE_I32, 1, shape);
  tfe_tensor* y = (tfe_tensor*)&y;
  EXPECT_STATUS(tfe_binary_scalar(&y, TFE_BINOP_ADD, x, TFE_SCALAR_INT, INT64_C(1) << 40, 0, 0, 0),
                TFE_ERR_INVALID_ARGUMENT, "tfe_binary_scalar");
  assert_null(y);
  assert_non_null(strstr(tfe_last_error_message(), "1099511627776"));
  y = (tfe_tensor*)&y;
  EXPECT_STATUS(tfe_binary_scalar(&y, 99, x, TFE_SCALAR_INT, 1, 0, 0, 0), TFE_ERR_INVALID_ARGUMENT,
                "tfe_binary_scalar");
  assert_null(y);
  EXPECT_STATUS(tfe_binary_scalar(&y, TFE_BINOP_ADD, x, 7, 1, 0, 0, 0), TFE_ERR_INVALID_ARGUMENT,
                "tfe_binary_scalar");
  EXPECT_STATUS(tfe_weak_scalar(&y, ctx, TFE_I32, TFE_SCALAR_BOOL, 2, 0, 0),
                TFE_ERR_INVALID_ARGUMENT, "tfe_weak_scalar");
  EXPECT_STATUS(tfe_weak_scalar(&y, ctx, 42, TFE_SCALAR_INT, 2, 0, 0), TFE_ERR_INVALID_ARGUMENT,
                "tfe_weak_scalar");
  EXPECT_STATUS(tfe_binary_scalar(&y, TFE_BINOP_DIV_TRUNC, x, TFE_SCALAR_FLOAT, 0, 2.0, 0, 0),
                TFE_ERR_DTYPE_MISMATCH, "tfe_binary_scalar");
  EXPECT_STATUS(tfe_binary_scalar(NULL, TFE_BINOP_ADD, x, TFE_SCALAR_INT, 1, 0, 0, 0),
                TFE_ERR_INVALID_ARGUMENT, "tfe_binary_scalar");
  EXPECT_STATUS(tfe_binary_scalar(&y, TFE_BINOP_ADD, NULL, TFE_SCALAR_INT, 1, 0, 0, 0),
                TFE_ERR_INVALID_ARGUMENT, "tfe_binary_scalar");
  EXPECT_STATUS(tfe_weak_scalar(&y, NULL, TFE_I32, TFE_SCALAR_INT, 1, 0, 0),
                TFE_ERR_INVALID_ARGUMENT, "tfe_weak_scalar");
  tfe_tensor_release(x);
  EXPECT_STATUS(tfe_binary_scalar(&y, TFE_BINOP_ADD, x, TFE_SCALAR_INT, 1, 0, 0, 0),
                TFE_ERR_INVALID_ARGUMENT, "tfe_binary_scalar");
  assert_null(y);
  tfe_context_release(ctx);
}

/* The derivative is the tensor function's through eager recording and through
 * a traced function. */
static void test_derivative_eager_and_traced(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t shape[] = {2};
  const double xv[] = {0.5, 2.0};
  tfe_tensor* x = f64(ctx, 1, shape, xv);
  TFE_OK_OR_FAIL(tfe_tensor_set_requires_grad(x, 1));
  tfe_tensor *a = NULL, *b = NULL, *total = NULL;
  /* f = sum(3 / x + x ^ 2) ; df/dx = -3 / x^2 + 2 x */
  TFE_OK_OR_FAIL(tfe_binary_scalar(&a, TFE_BINOP_DIV, x, TFE_SCALAR_INT, 3, 0, 0, 1));
  TFE_OK_OR_FAIL(tfe_binary_scalar(&b, TFE_BINOP_POW, x, TFE_SCALAR_FLOAT, 0, 2.0, 0, 0));
  tfe_tensor* s = NULL;
  TFE_OK_OR_FAIL(tfe_add(&s, a, b));
  TFE_OK_OR_FAIL(tfe_sum(&total, s, 0, NULL));
  TFE_OK_OR_FAIL(tfe_backward(total, NULL));
  tfe_tensor* g = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_grad(&g, x));
  double gv[2];
  TFE_OK_OR_FAIL(tfe_tensor_copy_to(g, TFE_F64, gv, sizeof gv));
  for (int i = 0; i < 2; ++i)
    assert_true(fabs(gv[i] - (-3.0 / (xv[i] * xv[i]) + 2.0 * xv[i])) < 1e-12);
  tfe_tensor_release(g);
  tfe_tensor_release(s);
  tfe_tensor_release(total);
  tfe_tensor_release(a);
  tfe_tensor_release(b);
  tfe_tensor_release(x);

  /* traced: a symbolic input, then the function's gradient at xv */
  tfe_tensor* xs = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_symbolic(&xs, ctx, TFE_F64, 1, shape));
  tfe_tensor *ys = NULL, *ysum = NULL;
  TFE_OK_OR_FAIL(tfe_binary_scalar(&ys, TFE_BINOP_MUL, xs, TFE_SCALAR_FLOAT, 0, 1.5, 0, 1));
  TFE_OK_OR_FAIL(tfe_sum(&ysum, ys, 0, NULL));
  tfe_function* fn = NULL;
  TFE_OK_OR_FAIL(tfe_function_create(&fn, 1, &xs, 1, &ysum));
  tfe_function* grad = NULL;
  TFE_OK_OR_FAIL(tfe_function_grad(&grad, fn, 0, NULL));
  tfe_tensor* xin = f64(ctx, 1, shape, xv);
  tfe_results* r = NULL;
  TFE_OK_OR_FAIL(tfe_function_call(&r, grad, 1, &xin));
  tfe_tensor* gx = NULL;
  TFE_OK_OR_FAIL(tfe_results_get(&gx, r, 0));
  TFE_OK_OR_FAIL(tfe_tensor_copy_to(gx, TFE_F64, gv, sizeof gv));
  assert_true(gv[0] == 1.5 && gv[1] == 1.5);
  tfe_tensor_release(gx);
  tfe_results_release(r);
  tfe_tensor_release(xin);
  tfe_function_release(grad);
  tfe_function_release(fn);
  tfe_tensor_release(ysum);
  tfe_tensor_release(ys);
  tfe_tensor_release(xs);
  tfe_context_release(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_weak_scalar_dtypes, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_binary_scalar_matches_two_steps, leak_setup,
                                      leak_teardown),
      cmocka_unit_test_setup_teardown(test_weak_precision_kept, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_refusals, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_derivative_eager_and_traced, leak_setup, leak_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
