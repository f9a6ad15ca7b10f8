/* Program AD through the C ABI: the closed forms of docs/design/ad-contract.md (sum of squares,
 * matmul VJP/JVP, HVP both ways, complex |z|^2 and exp), a third derivative against its closed
 * form, multi-input transforms with an unreachable input, and the derivative cache. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>

#include "capi_testing.h"

static tfe_tensor* symbolic(tfe_context* ctx, int32_t dtype, int32_t ndim, const int64_t* shape) {
  tfe_tensor* t = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_symbolic(&t, ctx, dtype, ndim, shape));
  return t;
}

/* Calls f and copies output `index` (F64) into dst. */
static void call_f64(const tfe_function* f, int32_t n, tfe_tensor* const* args, int32_t index,
                     double* dst, int64_t count) {
  tfe_results* r = NULL;
  TFE_OK_OR_FAIL(tfe_function_call(&r, f, n, args));
  tfe_tensor* t = NULL;
  TFE_OK_OR_FAIL(tfe_results_get(&t, r, index));
  TFE_OK_OR_FAIL(tfe_tensor_to_data(t, dst, count * (int64_t)sizeof(double)));
  tfe_tensor_release(t);
  tfe_results_release(r);
}

static void assert_near(double a, double b) { assert_true(fabs(a - b) <= 1e-12 * (1 + fabs(b))); }
#define ASSERT_NEAR(a, b) assert_near((a), (double)(b))

/* x = [1,2,3]; y = sum(x*x) = 14; grad = [2,4,6]; JVP along [0.1, 1, -2] = -7.8. */
static void test_sum_of_squares(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t n[] = {-1};
  tfe_tensor* x = symbolic(ctx, TFE_F64, 1, n);
  tfe_tensor *sq = NULL, *y = NULL;
  TFE_OK_OR_FAIL(tfe_mul(&sq, x, x));
  TFE_OK_OR_FAIL(tfe_sum(&y, sq, 0, NULL));
  tfe_function *f = NULL, *g = NULL, *j = NULL;
  TFE_OK_OR_FAIL(tfe_function_create(&f, 1, &x, 1, &y));
  TFE_OK_OR_FAIL(tfe_function_grad(&g, f, 0, NULL));
  TFE_OK_OR_FAIL(tfe_function_jvp(&j, f, 0, NULL));
  const int64_t three[] = {3};
  const double xv[] = {1, 2, 3}, tv[] = {0.1, 1, -2};
  tfe_tensor *xt = f64(ctx, 1, three, xv), *tt = f64(ctx, 1, three, tv);
  double value = 0, grad[3], jv = 0;
  call_f64(f, 1, &xt, 0, &value, 1);
  call_f64(g, 1, &xt, 0, grad, 3);
  tfe_tensor* jargs[] = {xt, tt};
  call_f64(j, 2, jargs, 1, &jv, 1);
  ASSERT_NEAR(value, 14);
  ASSERT_NEAR(grad[0], 2);
  ASSERT_NEAR(grad[1], 4);
  ASSERT_NEAR(grad[2], 6);
  ASSERT_NEAR(jv, -7.8);
  tfe_tensor* all[] = {x, sq, y, xt, tt};
  for (int i = 0; i < 5; ++i) tfe_tensor_release(all[i]);
  tfe_function_release(f);
  tfe_function_release(g);
  tfe_function_release(j);
  tfe_context_release(ctx);
}

/* C = A B with A 2x3, B 3x2: VJP and JVP w.r.t. A (docs/design/ad-contract.md). */
static void test_matmul_oracles(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t sa[] = {2, 3}, sb[] = {3, 2}, sc[] = {2, 2};
  tfe_tensor* a = symbolic(ctx, TFE_F64, 2, sa);
  tfe_tensor* b = symbolic(ctx, TFE_F64, 2, sb);
  tfe_tensor* c = NULL;
  TFE_OK_OR_FAIL(tfe_matmul(&c, a, b));
  tfe_tensor* ins[] = {a, b};
  tfe_function *f = NULL, *v = NULL, *j = NULL;
  TFE_OK_OR_FAIL(tfe_function_create(&f, 2, ins, 1, &c));
  const int64_t wrt_a[] = {0};
  TFE_OK_OR_FAIL(tfe_function_vjp(&v, f, 1, wrt_a));
  TFE_OK_OR_FAIL(tfe_function_jvp(&j, f, 1, wrt_a));
  const double av[] = {1, 2, 3, 4, 5, 6}, bv[] = {0.5, -1, 2, 1.5, -0.25, 3};
  const double ct[] = {1, -0.5, 0.25, 2}, ta[] = {1, -0.5, 0.25, 0, 2, -1};
  tfe_tensor *at = f64(ctx, 2, sa, av), *bt = f64(ctx, 2, sb, bv), *ctt = f64(ctx, 2, sc, ct),
             *tat = f64(ctx, 2, sa, ta);
  double ga[6], jc[4];
  tfe_tensor* vargs[] = {at, bt, ctt};
  call_f64(v, 3, vargs, 1, ga, 6);
  tfe_tensor* jargs[] = {at, bt, tat};
  call_f64(j, 3, jargs, 1, jc, 4);
  const double want_ga[] = {0.875, 2.75, -1.0625, 0.0, 2.75, 5.0},
               want_jc[] = {4.25, -2.25, 7.4375, -3.75};
  for (int i = 0; i < 6; ++i) ASSERT_NEAR(ga[i], want_ga[i]);
  for (int i = 0; i < 4; ++i) ASSERT_NEAR(jc[i], want_jc[i]);
  tfe_tensor* all[] = {a, b, c, at, bt, ctt, tat};
  for (int i = 0; i < 7; ++i) tfe_tensor_release(all[i]);
  tfe_function_release(f);
  tfe_function_release(v);
  tfe_function_release(j);
  tfe_context_release(ctx);
}

/* HVP: x^3 at 2.5 gives 15; x^T A x with A = [2,0.5,1.5,3], x = [1,-1], v = [0.5,2] gives [6,13].
 */
static void test_hvp_oracles(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  for (int32_t mode = TFE_HVP_FORWARD_OVER_REVERSE; mode <= TFE_HVP_REVERSE_OVER_REVERSE; ++mode) {
    tfe_tensor* x = symbolic(ctx, TFE_F64, 0, NULL);
    tfe_tensor *x2 = NULL, *x3 = NULL;
    TFE_OK_OR_FAIL(tfe_mul(&x2, x, x));
    TFE_OK_OR_FAIL(tfe_mul(&x3, x2, x));
    tfe_function *f = NULL, *h = NULL;
    TFE_OK_OR_FAIL(tfe_function_create(&f, 1, &x, 1, &x3));
    TFE_OK_OR_FAIL(tfe_function_hvp(&h, f, 0, NULL, mode));
    const double xv = 2.5, one = 1;
    tfe_tensor *xt = f64(ctx, 0, NULL, &xv), *vt = f64(ctx, 0, NULL, &one);
    tfe_tensor* args[] = {xt, vt};
    double hv = 0;
    call_f64(h, 2, args, 0, &hv, 1);
    ASSERT_NEAR(hv, 15);

    const int64_t s2[] = {2, 2}, s21[] = {2, 1};
    tfe_tensor* A = symbolic(ctx, TFE_F64, 2, s2);
    tfe_tensor* v = symbolic(ctx, TFE_F64, 2, s21);
    tfe_tensor *av = NULL, *p = NULL, *q = NULL;
    TFE_OK_OR_FAIL(tfe_matmul(&av, A, v));
    TFE_OK_OR_FAIL(tfe_mul(&p, v, av));
    TFE_OK_OR_FAIL(tfe_sum(&q, p, 0, NULL));
    tfe_tensor* ins[] = {v, A};
    tfe_function *g = NULL, *hg = NULL;
    TFE_OK_OR_FAIL(tfe_function_create(&g, 2, ins, 1, &q));
    const int64_t wrt[] = {0};
    TFE_OK_OR_FAIL(tfe_function_hvp(&hg, g, 1, wrt, mode));
    const double Av[] = {2, 0.5, 1.5, 3}, xv2[] = {1, -1}, dv[] = {0.5, 2};
    tfe_tensor *At = f64(ctx, 2, s2, Av), *xt2 = f64(ctx, 2, s21, xv2), *dt = f64(ctx, 2, s21, dv);
    tfe_tensor* hargs[] = {xt2, At, dt};
    double hv2[2];
    call_f64(hg, 3, hargs, 0, hv2, 2);
    ASSERT_NEAR(hv2[0], 6);
    ASSERT_NEAR(hv2[1], 13);
    tfe_tensor* all[] = {x, x2, x3, xt, vt, A, v, av, p, q, At, xt2, dt};
    for (int i = 0; i < 13; ++i) tfe_tensor_release(all[i]);
    tfe_function_release(f);
    tfe_function_release(h);
    tfe_function_release(g);
    tfe_function_release(hg);
  }
  tfe_context_release(ctx);
}

/* grad(sum |z|^2) = 2z; grad(Re sum exp(z)) = conj(exp(z)) (PyTorch's numbers). */
static void test_complex_gradients(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t n[] = {2};
  tfe_tensor* z = symbolic(ctx, TFE_C64, 1, n);
  tfe_tensor *az = NULL, *sq = NULL, *s = NULL, *ez = NULL, *se = NULL;
  TFE_OK_OR_FAIL(tfe_abs(&az, z));
  TFE_OK_OR_FAIL(tfe_mul(&sq, az, az));
  TFE_OK_OR_FAIL(tfe_sum(&s, sq, 0, NULL));
  TFE_OK_OR_FAIL(tfe_exp(&ez, z));
  TFE_OK_OR_FAIL(tfe_sum(&se, ez, 0, NULL));
  tfe_function *f1 = NULL, *f2 = NULL, *g1 = NULL, *g2 = NULL;
  TFE_OK_OR_FAIL(tfe_function_create(&f1, 1, &z, 1, &s));
  TFE_OK_OR_FAIL(tfe_function_create(&f2, 1, &z, 1, &se));
  TFE_OK_OR_FAIL(tfe_function_grad(&g1, f1, 0, NULL));
  TFE_OK_OR_FAIL(tfe_function_grad(&g2, f2, 0, NULL));
  const double complex zv[] = {1.5 - 2.5 * I, -0.25 + 0.75 * I};
  tfe_tensor* zt = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&zt, ctx, TFE_C64, 1, n, NULL, zv));
  double complex d1[2], d2[2];
  tfe_results* r = NULL;
  tfe_tensor* t = NULL;
  TFE_OK_OR_FAIL(tfe_function_call(&r, g1, 1, &zt));
  TFE_OK_OR_FAIL(tfe_results_get(&t, r, 0));
  TFE_OK_OR_FAIL(tfe_tensor_to_data(t, d1, sizeof d1));
  tfe_tensor_release(t);
  tfe_results_release(r);
  TFE_OK_OR_FAIL(tfe_function_call1(&t, g2, 1, &zt));
  TFE_OK_OR_FAIL(tfe_tensor_to_data(t, d2, sizeof d2));
  tfe_tensor_release(t);
  for (int i = 0; i < 2; ++i) {
    assert_true(cabs(d1[i] - 2 * zv[i]) <= 1e-12);
    assert_true(cabs(d2[i] - conj(cexp(zv[i]))) <= 1e-12 * cabs(cexp(zv[i])));
  }
  tfe_tensor* all[] = {z, az, sq, s, ez, se, zt};
  for (int i = 0; i < 7; ++i) tfe_tensor_release(all[i]);
  tfe_function_release(f1);
  tfe_function_release(f2);
  tfe_function_release(g1);
  tfe_function_release(g2);
  tfe_context_release(ctx);
}

/* d^3/dx^3 (x sin x) = -3 sin x - x cos x, by three nested grads. */
static void test_third_order(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  tfe_tensor* x = symbolic(ctx, TFE_F64, 0, NULL);
  tfe_tensor *s = NULL, *f = NULL;
  TFE_OK_OR_FAIL(tfe_sin(&s, x));
  TFE_OK_OR_FAIL(tfe_mul(&f, s, x));
  tfe_function *f0 = NULL, *f1 = NULL, *f2 = NULL, *f3 = NULL;
  TFE_OK_OR_FAIL(tfe_function_create(&f0, 1, &x, 1, &f));
  TFE_OK_OR_FAIL(tfe_function_grad(&f1, f0, 0, NULL));
  TFE_OK_OR_FAIL(tfe_function_grad(&f2, f1, 0, NULL));
  TFE_OK_OR_FAIL(tfe_function_grad(&f3, f2, 0, NULL));
  for (double xv = -2.0; xv <= 2.0; xv += 0.75) {
    tfe_tensor* xt = f64(ctx, 0, NULL, &xv);
    double d3 = 0, d2 = 0;
    call_f64(f3, 1, &xt, 0, &d3, 1);
    call_f64(f2, 1, &xt, 0, &d2, 1);
    ASSERT_NEAR(d3, -3 * sin(xv) - xv * cos(xv));
    ASSERT_NEAR(d2, 2 * cos(xv) - xv * sin(xv));
    tfe_tensor_release(xt);
  }
  tfe_tensor_release(x);
  tfe_tensor_release(s);
  tfe_tensor_release(f);
  tfe_function_release(f0);
  tfe_function_release(f1);
  tfe_function_release(f2);
  tfe_function_release(f3);
  tfe_context_release(ctx);
}

/* One VJP for several inputs; an input the output does not depend on gets "no gradient"; an
 * integer input is never active. Transforming a structurally equal function hits the cache. */
static void test_multi_input_and_cache(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t n[] = {-1};
  tfe_tensor* a = symbolic(ctx, TFE_F64, 1, n);
  tfe_tensor* b = symbolic(ctx, TFE_F64, 1, n);
  tfe_tensor* unused = symbolic(ctx, TFE_F64, 1, n);
  tfe_tensor* k = symbolic(ctx, TFE_I64, 1, n);
  tfe_tensor *ab = NULL, *abk = NULL, *y = NULL;
  TFE_OK_OR_FAIL(tfe_mul(&ab, a, b));
  TFE_OK_OR_FAIL(tfe_mul(&abk, ab, k)); /* promotes k to F64 */
  TFE_OK_OR_FAIL(tfe_sum(&y, abk, 0, NULL));
  tfe_tensor* ins[] = {b, unused, a, k};
  tfe_function *f = NULL, *g = NULL, *g2 = NULL, *f2 = NULL;
  TFE_OK_OR_FAIL(tfe_function_create(&f, 4, ins, 1, &y));
  const int64_t wrt[] = {2, 0, 1, 3}; /* request order: a, b, unused, k */
  int64_t hits0 = 0, misses0 = 0;
  TFE_OK_OR_FAIL(tfe_context_cache_stats(ctx, TFE_CACHE_DERIVATIVE, &hits0, &misses0, NULL, NULL));
  TFE_OK_OR_FAIL(tfe_function_grad(&g, f, 4, wrt));
  int32_t zero = -1;
  TFE_OK_OR_FAIL(tfe_function_output_is_zero(g, 0, &zero));
  assert_int_equal(zero, 0);
  TFE_OK_OR_FAIL(tfe_function_output_is_zero(g, 2, &zero));
  assert_int_equal(zero, 1);
  TFE_OK_OR_FAIL(tfe_function_output_is_zero(g, 3, &zero));
  assert_int_equal(zero, 1);
  const int64_t three[] = {3};
  const double av[] = {1, 2, 3}, bv[] = {4, 5, 6};
  const int64_t kv[] = {2, 2, -1};
  tfe_tensor *at = f64(ctx, 1, three, av), *bt = f64(ctx, 1, three, bv),
             *ut = f64(ctx, 1, three, av), *kt = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&kt, ctx, TFE_I64, 1, three, NULL, kv));
  tfe_tensor* args[] = {bt, ut, at, kt};
  double ga[3], gb[3], gu[3];
  call_f64(g, 4, args, 0, ga, 3);
  call_f64(g, 4, args, 1, gb, 3);
  call_f64(g, 4, args, 2, gu, 3);
  for (int i = 0; i < 3; ++i) {
    ASSERT_NEAR(ga[i], bv[i] * (double)kv[i]);
    ASSERT_NEAR(gb[i], av[i] * (double)kv[i]);
    ASSERT_NEAR(gu[i], 0);
  }
  /* a second, separately traced but structurally equal function: the derivative cache hits */
  tfe_tensor *ab2 = NULL, *abk2 = NULL, *y2 = NULL;
  TFE_OK_OR_FAIL(tfe_mul(&ab2, a, b));
  TFE_OK_OR_FAIL(tfe_mul(&abk2, ab2, k));
  TFE_OK_OR_FAIL(tfe_sum(&y2, abk2, 0, NULL));
  TFE_OK_OR_FAIL(tfe_function_create(&f2, 4, ins, 1, &y2));
  TFE_OK_OR_FAIL(tfe_function_grad(&g2, f2, 4, wrt));
  int64_t hits = 0, misses = 0, entries = 0;
  TFE_OK_OR_FAIL(
      tfe_context_cache_stats(ctx, TFE_CACHE_DERIVATIVE, &hits, &misses, &entries, NULL));
  assert_int_equal(misses - misses0, 1);
  assert_int_equal(hits - hits0, 1);
  assert_true(entries >= 1);
  double ga2[3];
  call_f64(g2, 4, args, 0, ga2, 3);
  for (int i = 0; i < 3; ++i) ASSERT_NEAR(ga2[i], ga[i]);
  /* a bad wrt list */
  tfe_function* bad = NULL;
  const int64_t dup[] = {0, 0}, out_of_range[] = {9};
  EXPECT_STATUS(tfe_function_vjp(&bad, f, 2, dup), TFE_ERR_INVALID_ARGUMENT, "tfe_function_vjp");
  EXPECT_STATUS(tfe_function_jvp(&bad, f, 1, out_of_range), TFE_ERR_INVALID_ARGUMENT,
                "tfe_function_jvp");
  assert_null(bad);
  /* grad needs a one-element output */
  tfe_function* vec = NULL;
  TFE_OK_OR_FAIL(tfe_function_create(&vec, 4, ins, 1, &abk));
  EXPECT_STATUS(tfe_function_grad(&bad, vec, 0, NULL), TFE_ERR_INVALID_ARGUMENT,
                "tfe_function_grad");
  tfe_tensor* all[] = {a, b, unused, k, ab, abk, y, at, bt, ut, kt, ab2, abk2, y2};
  for (int i = 0; i < 14; ++i) tfe_tensor_release(all[i]);
  tfe_function* fs[] = {f, g, g2, f2, vec};
  for (int i = 0; i < 5; ++i) tfe_function_release(fs[i]);
  tfe_context_release(ctx);
}

static int g_released;
static void count_release(void* data, void* user) {
  (void)data;
  (void)user;
  ++g_released;
}

/* f(x) = sum(c * x) with a captured constant c. A structurally equal function with another
 * constant reuses the cached derivative program but binds its own constant, and the cache
 * holds no tensor data: the first constant's buffer is freed when its function goes. */
static void test_cached_derivatives_bind_their_own_constants(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t two[] = {2};
  double c1[2] = {3, 4};
  const double c2[2] = {-1, 10};
  g_released = 0;
  tfe_tensor* k1 = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_from_buffer(&k1, ctx, TFE_F64, 1, two, NULL, c1, count_release, NULL));
  tfe_tensor* k2 = f64(ctx, 1, two, c2);
  tfe_tensor* x = symbolic(ctx, TFE_F64, 1, two);
  tfe_function *f1 = NULL, *f2 = NULL, *g1 = NULL, *g2 = NULL;
  for (int i = 0; i < 2; ++i) {
    tfe_tensor *p = NULL, *s = NULL;
    TFE_OK_OR_FAIL(tfe_mul(&p, i == 0 ? k1 : k2, x));
    TFE_OK_OR_FAIL(tfe_sum(&s, p, 0, NULL));
    TFE_OK_OR_FAIL(tfe_function_create(i == 0 ? &f1 : &f2, 1, &x, 1, &s));
    TFE_OK_OR_FAIL(tfe_function_grad(i == 0 ? &g1 : &g2, i == 0 ? f1 : f2, 0, NULL));
    tfe_tensor_release(p);
    tfe_tensor_release(s);
  }
  int64_t hits = 0;
  TFE_OK_OR_FAIL(tfe_context_cache_stats(ctx, TFE_CACHE_DERIVATIVE, &hits, NULL, NULL, NULL));
  assert_int_equal(hits, 1);
  const double xv[] = {0.5, 0.25};
  tfe_tensor* xt = f64(ctx, 1, two, xv);
  double d1[2], d2[2];
  call_f64(g1, 1, &xt, 0, d1, 2);
  call_f64(g2, 1, &xt, 0, d2, 2);
  ASSERT_NEAR(d1[0], 3);
  ASSERT_NEAR(d1[1], 4);
  ASSERT_NEAR(d2[0], -1);
  ASSERT_NEAR(d2[1], 10);
  tfe_tensor_release(k1);
  tfe_function_release(f1);
  tfe_function_release(g1);
  assert_int_equal(g_released, 1); /* the derivative cache kept the program, not the data */
  int64_t entries = 0;
  TFE_OK_OR_FAIL(tfe_context_cache_stats(ctx, TFE_CACHE_DERIVATIVE, NULL, NULL, &entries, NULL));
  assert_int_equal(entries, 1);
  tfe_tensor* all[] = {k2, x, xt};
  for (int i = 0; i < 3; ++i) tfe_tensor_release(all[i]);
  tfe_function_release(f2);
  tfe_function_release(g2);
  tfe_context_release(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_sum_of_squares, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_matmul_oracles, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_hvp_oracles, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_complex_gradients, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_third_order, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_multi_input_and_cache, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_cached_derivatives_bind_their_own_constants, leak_setup,
                                      leak_teardown),
  };
  return cmocka_run_group_tests_name("capi_ad", tests, NULL, NULL);
}
