/* Eager AD through the C ABI: the closed forms of docs/design/ad-contract.md (sum of
 * squares, matmul, backward accumulation, HVP by jvp of vjp, mixed Add), scopes, seeds, detach
 * and the error contract. */
#include <pthread.h>
#include <stdlib.h>

#include "eager_testing.h"

/* x = [1,2,3]; y = sum(x*x) = 14; grad = [2,4,6]; JVP along [0.1, 1, -2] is -7.8. */
static void test_sum_of_squares(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t n3[] = {3};
  const double xv[] = {1, 2, 3}, tv[] = {0.1, 1, -2};
  tfe_tensor* x = var_f64(ctx, 1, n3, xv);
  tfe_tensor *sq = NULL, *y = NULL, *g = NULL, *j = NULL;
  TFE_OK_OR_FAIL(tfe_mul(&sq, x, x));
  TFE_OK_OR_FAIL(tfe_sum(&y, sq, 0, NULL));
  const double fourteen = 14;
  expect_doubles(y, &fourteen, 1);
  int32_t tracked = 0;
  TFE_OK_OR_FAIL(tfe_tensor_requires_grad(y, &tracked));
  assert_int_equal(tracked, 1);
  TFE_OK_OR_FAIL(tfe_backward(y, NULL));
  TFE_OK_OR_FAIL(tfe_tensor_grad(&g, x));
  const double want[] = {2, 4, 6};
  expect_doubles(g, want, 3);
  tfe_tensor* t = vec_f64(ctx, 3, tv);
  TFE_OK_OR_FAIL(tfe_jvp(&j, y, 1, &x, &t));
  const double jv = -7.8;
  expect_doubles(j, &jv, 1);
  tfe_tensor* all[] = {x, sq, y, g, t, j};
  release_all(all, 6);
  tfe_context_release(ctx);
}

/* C = A B: VJP w.r.t. A with cotangent [1,-0.5,0.25,2]; JVP w.r.t. A. B is an untracked constant.
 */
static void test_matmul_oracles(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t sa[] = {2, 3}, sb[] = {3, 2}, sc[] = {2, 2};
  const double av[] = {1, 2, 3, 4, 5, 6}, bv[] = {0.5, -1, 2, 1.5, -0.25, 3};
  const double ctv[] = {1, -0.5, 0.25, 2}, tav[] = {1, -0.5, 0.25, 0, 2, -1};
  tfe_tensor* a = var_f64(ctx, 2, sa, av);
  tfe_tensor *b = NULL, *c = NULL, *ct = NULL, *ta = NULL, *ga[1] = {NULL}, *jc = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&b, ctx, TFE_F64, 2, sb, NULL, bv));
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&ct, ctx, TFE_F64, 2, sc, NULL, ctv));
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&ta, ctx, TFE_F64, 2, sa, NULL, tav));
  TFE_OK_OR_FAIL(tfe_matmul(&c, a, b));
  TFE_OK_OR_FAIL(tfe_vjp(ga, c, 1, &a, ct));
  const double want_ga[] = {0.875, 2.75, -1.0625, 0.0, 2.75, 5.0},
               want_jc[] = {4.25, -2.25, 7.4375, -3.75};
  expect_doubles(ga[0], want_ga, 6);
  TFE_OK_OR_FAIL(tfe_jvp(&jc, c, 1, &a, &ta));
  expect_doubles(jc, want_jc, 4);
  /* vjp leaves stored gradients alone */
  tfe_tensor* none = (tfe_tensor*)(void*)&ctx;
  TFE_OK_OR_FAIL(tfe_tensor_grad(&none, a));
  assert_null(none);
  tfe_tensor* all[] = {a, b, c, ct, ta, ga[0], jc};
  release_all(all, 7);
  tfe_context_release(ctx);
}

/* x = [1,2], y = [3,4] tracked, loss = sum(x*y): backward twice accumulates, clear resets. */
static void test_backward_accumulation(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t n2[] = {2};
  const double xv[] = {1, 2}, yv[] = {3, 4};
  tfe_tensor *x = var_f64(ctx, 1, n2, xv), *y = var_f64(ctx, 1, n2, yv);
  tfe_tensor *xy = NULL, *loss = NULL, *g1 = NULL, *g2 = NULL, *g3 = NULL, *gy = NULL;
  TFE_OK_OR_FAIL(tfe_mul(&xy, x, y));
  TFE_OK_OR_FAIL(tfe_sum(&loss, xy, 0, NULL));
  TFE_OK_OR_FAIL(tfe_backward(loss, NULL));
  TFE_OK_OR_FAIL(tfe_tensor_grad(&g1, x));
  const double first[] = {3, 4}, second[] = {6, 8}, gy_want[] = {2, 4};
  expect_doubles(g1, first, 2);
  TFE_OK_OR_FAIL(tfe_backward(loss, NULL));
  TFE_OK_OR_FAIL(tfe_tensor_grad(&g2, x));
  expect_doubles(g2, second, 2);
  expect_doubles(g1, first, 2); /* a grad fetched earlier keeps its value */
  TFE_OK_OR_FAIL(tfe_tensor_grad(&gy, y));
  expect_doubles(gy, gy_want, 2);
  TFE_OK_OR_FAIL(tfe_tensor_clear_grad(x));
  tfe_tensor* cleared = (tfe_tensor*)(void*)&ctx;
  TFE_OK_OR_FAIL(tfe_tensor_grad(&cleared, x));
  assert_null(cleared);
  TFE_OK_OR_FAIL(tfe_backward(loss, NULL));
  TFE_OK_OR_FAIL(tfe_tensor_grad(&g3, x));
  expect_doubles(g3, first, 2);
  int32_t tracked = 1;
  TFE_OK_OR_FAIL(tfe_tensor_requires_grad(g3, &tracked));
  assert_int_equal(tracked, 0); /* stored grads are detached */
  tfe_tensor* all[] = {x, y, xy, loss, g1, g2, g3, gy};
  release_all(all, 8);
  tfe_context_release(ctx);
}

/* HVP as jvp of vjp: f = x^3 at 2.5 gives 15; f = x^T A x gives [6, 13]. */
static void test_hvp_by_jvp_of_vjp(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const double xv = 2.5, one = 1;
  tfe_tensor* x = var_f64(ctx, 0, NULL, &xv);
  tfe_tensor *x2 = NULL, *x3 = NULL, *g[1] = {NULL}, *h = NULL, *v = NULL;
  TFE_OK_OR_FAIL(tfe_mul(&x2, x, x));
  TFE_OK_OR_FAIL(tfe_mul(&x3, x2, x));
  TFE_OK_OR_FAIL(tfe_vjp(g, x3, 1, &x, NULL));
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&v, ctx, TFE_F64, 0, NULL, NULL, &one));
  TFE_OK_OR_FAIL(tfe_jvp(&h, g[0], 1, &x, &v));
  const double fifteen = 15;
  expect_doubles(h, &fifteen, 1);

  const int64_t s22[] = {2, 2}, s21[] = {2, 1};
  const double Av[] = {2, 0.5, 1.5, 3}, xv2[] = {1, -1}, dv[] = {0.5, 2};
  tfe_tensor* x2v = var_f64(ctx, 2, s21, xv2);
  tfe_tensor *A = NULL, *d = NULL, *Ax = NULL, *p = NULL, *q = NULL, *gq[1] = {NULL}, *hq = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&A, ctx, TFE_F64, 2, s22, NULL, Av));
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&d, ctx, TFE_F64, 2, s21, NULL, dv));
  TFE_OK_OR_FAIL(tfe_matmul(&Ax, A, x2v));
  TFE_OK_OR_FAIL(tfe_mul(&p, x2v, Ax));
  TFE_OK_OR_FAIL(tfe_sum(&q, p, 0, NULL));
  TFE_OK_OR_FAIL(tfe_vjp(gq, q, 1, &x2v, NULL));
  TFE_OK_OR_FAIL(tfe_jvp(&hq, gq[0], 1, &x2v, &d));
  const double hv[] = {6, 13};
  expect_doubles(hq, hv, 2);
  tfe_tensor* all[] = {x, x2, x3, g[0], h, v, x2v, A, d, Ax, p, q, gq[0], hq};
  release_all(all, 14);
  tfe_context_release(ctx);
}

/* r F64 + c C64 (the mixed-dtype closed form), both operand orders, in double and single precision:
 * the real leaf receives the real projection; an untracked operand stores nothing. */
static void test_mixed_add(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t n2[] = {2};
  for (int single = 0; single <= 1; ++single)
    for (int order = 0; order <= 1; ++order) {
      int32_t rdt = single ? TFE_F32 : TFE_F64, cdt = single ? TFE_C32 : TFE_C64;
      const double rv64[] = {1.25, -2.5};
      const double complex cv64[] = {3 + 0.5 * I, -4 - 1.25 * I},
                           ctv64[] = {0.5 + 0.75 * I, -1.25 - 0.25 * I};
      const float rv32[] = {1.25f, -2.5f};
      const float complex cv32[] = {3 + 0.5f * I, -4 - 1.25f * I},
                          ctv32[] = {0.5f + 0.75f * I, -1.25f - 0.25f * I};
      tfe_tensor *r = NULL, *c = NULL, *ct = NULL, *sum = NULL, *g[2] = {NULL, NULL};
      TFE_OK_OR_FAIL(tfe_tensor_from_data(&r, ctx, rdt, 1, n2, NULL,
                                          single ? (const void*)rv32 : (const void*)rv64));
      TFE_OK_OR_FAIL(tfe_tensor_from_data(&c, ctx, cdt, 1, n2, NULL,
                                          single ? (const void*)cv32 : (const void*)cv64));
      TFE_OK_OR_FAIL(tfe_tensor_from_data(&ct, ctx, cdt, 1, n2, NULL,
                                          single ? (const void*)ctv32 : (const void*)ctv64));
      TFE_OK_OR_FAIL(tfe_tensor_set_requires_grad(r, 1));
      TFE_OK_OR_FAIL(tfe_tensor_set_requires_grad(c, 1));
      TFE_OK_OR_FAIL(order ? tfe_add(&sum, c, r) : tfe_add(&sum, r, c));
      int32_t dt = 0;
      TFE_OK_OR_FAIL(tfe_tensor_dtype(sum, &dt));
      assert_int_equal(dt, cdt);
      tfe_tensor* xs[] = {r, c};
      TFE_OK_OR_FAIL(tfe_vjp(g, sum, 2, xs, ct));
      TFE_OK_OR_FAIL(tfe_tensor_dtype(g[0], &dt));
      assert_int_equal(dt, rdt); /* a real leaf gets a real gradient */
      tfe_tensor *g0 = NULL, *g1 = NULL;
      TFE_OK_OR_FAIL(tfe_cast(&g0, g[0], TFE_F64));
      TFE_OK_OR_FAIL(tfe_cast(&g1, g[1], TFE_C64));
      const double want_r[] = {0.5, -1.25};
      expect_doubles(g0, want_r, 2);
      expect_complex(g1, ctv64, 2);
      /* JVP w.r.t. the real operand: its real tangent is cast up */
      const double tr[] = {1, -2};
      tfe_tensor *t64 = vec_f64(ctx, 2, tr), *t = NULL, *j = NULL, *j64 = NULL;
      TFE_OK_OR_FAIL(tfe_cast(&t, t64, rdt));
      TFE_OK_OR_FAIL(tfe_jvp(&j, sum, 1, &r, &t));
      TFE_OK_OR_FAIL(tfe_cast(&j64, j, TFE_C64));
      const double complex want_j[] = {1, -2};
      expect_complex(j64, want_j, 2);
      /* backward with only c tracked: the untracked real operand stores no gradient */
      TFE_OK_OR_FAIL(tfe_tensor_set_requires_grad(r, 0));
      tfe_tensor *s2 = NULL, *re = NULL, *loss = NULL, *none = NULL, *gc = NULL;
      TFE_OK_OR_FAIL(order ? tfe_add(&s2, c, r) : tfe_add(&s2, r, c));
      TFE_OK_OR_FAIL(tfe_real(&re, s2));
      TFE_OK_OR_FAIL(tfe_sum(&loss, re, 0, NULL));
      TFE_OK_OR_FAIL(tfe_backward(loss, NULL));
      TFE_OK_OR_FAIL(tfe_tensor_grad(&none, r));
      assert_null(none);
      TFE_OK_OR_FAIL(tfe_tensor_grad(&gc, c));
      assert_non_null(gc);
      tfe_tensor* all[] = {r, c, ct, sum, g[0], g[1], g0, g1, t64, t, j, j64, s2, re, loss, gc};
      release_all(all, 16);
    }
  tfe_context_release(ctx);
}

static void test_scopes_detach_and_errors(void** state) {
  (void)state;
  tfe_context *ctx = new_ctx(), *other = new_ctx();
  const int64_t n2[] = {2};
  const double v[] = {1, 2};
  tfe_tensor* x = var_f64(ctx, 1, n2, v);
  tfe_tensor *y = NULL, *d = NULL, *z = NULL, *w = NULL;
  int32_t tracked = 0;
  /* no_grad: nothing recorded */
  TFE_OK_OR_FAIL(tfe_no_grad_enter(ctx));
  TFE_OK_OR_FAIL(tfe_mul(&y, x, x));
  TFE_OK_OR_FAIL(tfe_no_grad_exit(ctx));
  TFE_OK_OR_FAIL(tfe_tensor_requires_grad(y, &tracked));
  assert_int_equal(tracked, 0);
  EXPECT_STATUS(tfe_no_grad_exit(ctx), TFE_ERR_INVALID_ARGUMENT, "tfe_no_grad_exit");
  EXPECT_STATUS(tfe_capture_trace_exit(ctx), TFE_ERR_INVALID_ARGUMENT, "tfe_capture_trace_exit");
  /* detach */
  TFE_OK_OR_FAIL(tfe_mul(&z, x, x));
  TFE_OK_OR_FAIL(tfe_tensor_detach(&d, z));
  TFE_OK_OR_FAIL(tfe_tensor_requires_grad(d, &tracked));
  assert_int_equal(tracked, 0);
  /* a loss with no tracked dependency */
  tfe_tensor* sd = NULL;
  TFE_OK_OR_FAIL(tfe_sum(&sd, d, 0, NULL));
  EXPECT_STATUS(tfe_backward(sd, NULL), TFE_ERR_NOT_DIFFERENTIABLE, "tfe_backward");
  /* seeds: implicit needs one element; complex seed for a real output */
  EXPECT_STATUS(tfe_backward(z, NULL), TFE_ERR_INVALID_ARGUMENT, "tfe_backward");
  tfe_tensor* cseed = NULL;
  TFE_OK_OR_FAIL(tfe_cast(&cseed, d, TFE_C64));
  EXPECT_STATUS(tfe_backward(z, cseed), TFE_ERR_DTYPE_MISMATCH, "tfe_backward");
  tfe_tensor* x_no = NULL; /* nothing stored by the failing calls */
  TFE_OK_OR_FAIL(tfe_tensor_grad(&x_no, x));
  assert_null(x_no);
  /* set_requires_grad: leaves only, float or complex only */
  EXPECT_STATUS(tfe_tensor_set_requires_grad(z, 1), TFE_ERR_INVALID_ARGUMENT,
                "tfe_tensor_set_requires_grad");
  const int32_t iv[] = {1, 2};
  tfe_tensor* k = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&k, ctx, TFE_I32, 1, n2, NULL, iv));
  EXPECT_STATUS(tfe_tensor_set_requires_grad(k, 1), TFE_ERR_DTYPE_MISMATCH,
                "tfe_tensor_set_requires_grad");
  /* two contexts */
  tfe_tensor* o = vec_f64(other, 2, v);
  EXPECT_STATUS(tfe_mul(&w, x, o), TFE_ERR_INVALID_ARGUMENT, "tfe_mul");
  tfe_tensor* g[1] = {(tfe_tensor*)(void*)&ctx};
  EXPECT_STATUS(tfe_vjp(g, z, 1, &o, d), TFE_ERR_INVALID_ARGUMENT, "tfe_vjp");
  assert_null(g[0]);
  /* vjp of an inactive x: NULL, status OK */
  TFE_OK_OR_FAIL(tfe_vjp(g, z, 1, &d, d));
  assert_null(g[0]);
  tfe_tensor* all[] = {x, y, d, z, sd, cseed, k, o};
  release_all(all, 8);
  tfe_context_release(other);
  tfe_context_release(ctx);
}

/* capture_trace: untracked inputs become active captured leaves for vjp/jvp. */
static void test_capture_trace(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const double v[] = {0.5, -1.5};
  tfe_tensor* x = vec_f64(ctx, 2, v);
  tfe_tensor *s = NULL, *y = NULL, *g[1] = {NULL};
  TFE_OK_OR_FAIL(tfe_capture_trace_enter(ctx));
  TFE_OK_OR_FAIL(tfe_sin(&s, x));
  TFE_OK_OR_FAIL(tfe_sum(&y, s, 0, NULL));
  TFE_OK_OR_FAIL(tfe_capture_trace_exit(ctx));
  TFE_OK_OR_FAIL(tfe_vjp(g, y, 1, &x, NULL));
  assert_non_null(g[0]);
  const double want[] = {cos(0.5), cos(-1.5)};
  expect_doubles(g[0], want, 2);
  /* no_grad wins over capture_trace */
  tfe_tensor* z = NULL;
  int32_t tracked = 1;
  TFE_OK_OR_FAIL(tfe_capture_trace_enter(ctx));
  TFE_OK_OR_FAIL(tfe_no_grad_enter(ctx));
  TFE_OK_OR_FAIL(tfe_sin(&z, x));
  TFE_OK_OR_FAIL(tfe_no_grad_exit(ctx));
  TFE_OK_OR_FAIL(tfe_capture_trace_exit(ctx));
  TFE_OK_OR_FAIL(tfe_tensor_requires_grad(z, &tracked));
  assert_int_equal(tracked, 0);
  tfe_tensor* all[] = {x, s, y, g[0], z};
  release_all(all, 5);
  tfe_context_release(ctx);
}

/* Threads recording ops that share a variable and an untracked operand, each calling backward:
 * every contribution lands (accumulation is atomic per leaf) and the shared untracked handle
 * serves all of them (its constant leaf is made once, whichever thread comes first). */
struct backward_worker {
  tfe_tensor *x, *c;
  int failures;
};

static void* backward_many(void* arg) {
  struct backward_worker* w = arg;
  for (int i = 0; i < 100; ++i) {
    tfe_tensor *y = NULL, *loss = NULL;
    if (tfe_mul(&y, w->x, w->c) != TFE_OK || tfe_sum(&loss, y, 0, NULL) != TFE_OK ||
        tfe_backward(loss, NULL) != TFE_OK)
      ++w->failures;
    tfe_tensor_release(loss);
    tfe_tensor_release(y);
  }
  return NULL;
}

static void test_concurrent_backward(void** state) {
  (void)state;
  tfe_context* ctx = NULL;
  TFE_OK_OR_FAIL(tfe_context_create(&ctx));
  const int64_t n2[] = {2};
  const double xv[] = {1, 2}, cv[] = {3, -0.5};
  tfe_tensor* x = var_f64(ctx, 1, n2, xv);
  tfe_tensor* c = vec_f64(ctx, 2, cv);
  enum { kThreads = 4 };
  struct backward_worker work[kThreads];
  pthread_t threads[kThreads];
  for (int i = 0; i < kThreads; ++i) {
    work[i] = (struct backward_worker){x, c, 0};
    assert_int_equal(pthread_create(&threads[i], NULL, backward_many, &work[i]), 0);
  }
  for (int i = 0; i < kThreads; ++i) {
    pthread_join(threads[i], NULL);
    assert_int_equal(work[i].failures, 0);
  }
  tfe_tensor* g = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_grad(&g, x));
  const double want[] = {400 * 3.0, 400 * -0.5};
  expect_doubles(g, want, 2);
  tfe_tensor* all[] = {x, c, g};
  release_all(all, 3);
  tfe_context_release(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_sum_of_squares, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_matmul_oracles, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_backward_accumulation, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_concurrent_backward, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_hvp_by_jvp_of_vjp, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_mixed_add, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_scopes_detach_and_errors, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_capture_trace, leak_setup, leak_teardown),
  };
  return cmocka_run_group_tests_name("capi_eager_ad", tests, NULL, NULL);
}
