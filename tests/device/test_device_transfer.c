/* Transfers as ops and creation on a device: derivatives flow through tfe_tensor_to_device in
 * every engine (eager backward, vjp and jvp, second order, the dataflow engine), across the
 * host and two devices, and device scopes make the creation functions create on a device. Runs
 * on the device double, or with "real" on the CUDA plugin. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_testing.h"

static tfe_tensor* moved(const tfe_tensor* t, int32_t kind, int32_t ordinal) {
  tfe_tensor* out = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_to_device(&out, t, kind, ordinal));
  expect_on(out, kind, ordinal);
  return out;
}

/* got (on any device, any context) holds want's values within tol (relative to 1 + |want|). */
static void expect_values(const tfe_tensor* want, const tfe_tensor* got, double tol) {
  tfe_tensor* back = to_host(got);
  int64_t n = 0, m = 0;
  TFE_OK_OR_FAIL(tfe_tensor_numel(want, &n));
  TFE_OK_OR_FAIL(tfe_tensor_numel(back, &m));
  assert_int_equal(n, m);
  double* w = calloc((size_t)(2 * n + 1), sizeof(double));
  double* g = calloc((size_t)(2 * n + 1), sizeof(double));
  const int64_t bytes = (int64_t)sizeof(double) * 2 * n;
  tfe_tensor *wc = NULL, *gc = NULL;
  TFE_OK_OR_FAIL(tfe_cast(&wc, want, TFE_C64));
  TFE_OK_OR_FAIL(tfe_cast(&gc, back, TFE_C64));
  TFE_OK_OR_FAIL(tfe_tensor_copy_to(wc, TFE_C64, w, bytes));
  TFE_OK_OR_FAIL(tfe_tensor_copy_to(gc, TFE_C64, g, bytes));
  tfe_tensor_release(wc);
  tfe_tensor_release(gc);
  for (int64_t i = 0; i < 2 * n; ++i)
    if (!(fabs(w[i] - g[i]) <= tol * (1 + fabs(w[i]))))
      fail_msg("element %lld: want %.17g, got %.17g", (long long)(i / 2), w[i], g[i]);
  free(w);
  free(g);
  tfe_tensor_release(back);
}

/* sum(sin(a) * (a @ b)): a [3,3,2] and b [3,4,2] on one device. */
static tfe_tensor* loss_of(const tfe_tensor* a, const tfe_tensor* b) {
  tfe_tensor *s = NULL, *m = NULL, *t = NULL, *p = NULL, *l = NULL;
  TFE_OK_OR_FAIL(tfe_sin(&s, a));
  TFE_OK_OR_FAIL(tfe_matmul(&m, a, b));
  TFE_OK_OR_FAIL(tfe_sum(&t, m, 0, NULL));
  TFE_OK_OR_FAIL(tfe_mul(&p, s, t));
  TFE_OK_OR_FAIL(tfe_sum(&l, p, 0, NULL));
  tfe_tensor* objs[] = {s, m, t, p};
  release_all(objs, 4);
  return l;
}

static tfe_tensor* variable(tfe_context* c, int32_t dt, int32_t rank, const int64_t* shape) {
  tfe_tensor* x = make_tensor(c, dt, rank, shape);
  TFE_OK_OR_FAIL(tfe_tensor_set_requires_grad(x, 1));
  return x;
}

static double tol_of(int32_t dt) { return dt == TFE_F32 || dt == TFE_C32 ? 1e-4 : 1e-11; }

/* Host variables of context c (eager or dataflow) moved to device 0, a loss computed there and
 * moved back: backward gives the gradients on the host, equal to those of the host-only
 * computation in the eager context. */
static void round_trip_gradients(tfe_context* c) {
  const int64_t sa[3] = {3, 3, 2}, sb[3] = {3, 4, 2};
  const int32_t dts[] = {TFE_F32, TFE_F64, TFE_C64};
  for (size_t i = 0; i < sizeof dts / sizeof dts[0]; ++i) {
    tfe_tensor* ha = variable(ctx, dts[i], 3, sa);
    tfe_tensor* hb = variable(ctx, dts[i], 3, sb);
    tfe_tensor* lh = loss_of(ha, hb);
    TFE_OK_OR_FAIL(tfe_backward(lh, NULL));
    tfe_tensor* want_a = grad_of(ha);
    tfe_tensor* want_b = grad_of(hb);
    tfe_tensor* a = variable(c, dts[i], 3, sa); /* the same values (make_tensor) */
    tfe_tensor* b = variable(c, dts[i], 3, sb);
    tfe_tensor* ad = moved(a, TFE_DEVICE_CUDA, 0);
    tfe_tensor* bd = moved(b, TFE_DEVICE_CUDA, 0);
    tfe_tensor* ld = loss_of(ad, bd);
    tfe_tensor* l = moved(ld, TFE_DEVICE_CPU, 0);
    TFE_OK_OR_FAIL(tfe_backward(l, NULL));
    tfe_tensor* ga = grad_of(a);
    tfe_tensor* gb = grad_of(b);
    expect_on(ga, TFE_DEVICE_CPU, 0);
    expect_on(gb, TFE_DEVICE_CPU, 0);
    expect_values(want_a, ga, tol_of(dts[i]));
    expect_values(want_b, gb, tol_of(dts[i]));
    tfe_tensor* objs[] = {ha, hb, lh, want_a, want_b, a, b, ad, bd, ld, l, ga, gb};
    release_all(objs, sizeof objs / sizeof objs[0]);
  }
}

static void test_gradients_through_transfers(void** state) {
  (void)state;
  round_trip_gradients(ctx);
}

static void test_dataflow_gradients_through_transfers(void** state) {
  (void)state;
  const int32_t schedulers[2] = {TFE_SCHEDULER_THREADS, TFE_SCHEDULER_DEBUG};
  for (int k = 0; k < 2; ++k) {
    tfe_context* flow = NULL;
    TFE_OK_OR_FAIL(tfe_context_create_dataflow(&flow, schedulers[k], k == 0 ? 2 : 1));
    round_trip_gradients(flow);
    tfe_context_release(flow);
  }
}

/* A loss with host and device parts: sum(sin(a on device 0)) brought back, plus sum(cos(a)) on
 * the host (two rank-0 host tensors meet); and a variable of device 0 moved to the second
 * device, whose gradient comes back to device 0. */
static void test_host_and_device_parts(void** state) {
  (void)state;
  const int64_t shape[2] = {4, 3};
  tfe_tensor* a = variable(ctx, TFE_F64, 2, shape);
  tfe_tensor *ad = moved(a, TFE_DEVICE_CUDA, 0), *s = NULL, *sd = NULL, *c = NULL, *ch = NULL;
  TFE_OK_OR_FAIL(tfe_sin(&s, ad));
  TFE_OK_OR_FAIL(tfe_sum(&sd, s, 0, NULL));
  tfe_tensor* sh = moved(sd, TFE_DEVICE_CPU, 0);
  TFE_OK_OR_FAIL(tfe_cos(&c, a));
  TFE_OK_OR_FAIL(tfe_sum(&ch, c, 0, NULL));
  tfe_tensor* l = NULL;
  TFE_OK_OR_FAIL(tfe_add(&l, sh, ch));
  TFE_OK_OR_FAIL(tfe_backward(l, NULL));
  /* d/da = cos(a) - sin(a), computed on the host from a's values */
  tfe_tensor *plain = NULL, *ca = NULL, *sa = NULL, *want = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_detach(&plain, a));
  TFE_OK_OR_FAIL(tfe_cos(&ca, plain));
  TFE_OK_OR_FAIL(tfe_sin(&sa, plain));
  TFE_OK_OR_FAIL(tfe_sub(&want, ca, sa));
  tfe_tensor* g = grad_of(a);
  expect_on(g, TFE_DEVICE_CPU, 0);
  expect_values(want, g, 1e-12);

  /* device 0 -> second device: d sum(x*x) / dx = 2x lands on device 0 */
  tfe_tensor* x = moved(plain, TFE_DEVICE_CUDA, 0);
  TFE_OK_OR_FAIL(tfe_tensor_set_requires_grad(x, 1));
  tfe_tensor *x2 = moved(x, TFE_DEVICE_CUDA, g_second), *sq = NULL, *ls = NULL, *two = NULL;
  TFE_OK_OR_FAIL(tfe_mul(&sq, x2, x2));
  TFE_OK_OR_FAIL(tfe_sum(&ls, sq, 0, NULL));
  TFE_OK_OR_FAIL(tfe_backward(ls, NULL));
  tfe_tensor* gx = grad_of(x);
  expect_on(gx, TFE_DEVICE_CUDA, 0);
  TFE_OK_OR_FAIL(tfe_add(&two, plain, plain));
  expect_values(two, gx, 1e-12);
  tfe_tensor* objs[] = {a, ad, s, sd, c, ch, sh, l, plain, ca, sa, want, g, x, x2, sq, ls, two, gx};
  release_all(objs, sizeof objs / sizeof objs[0]);
}

/* vjp and jvp of y = a moved to device 0: the seed comes back to the host, the tangent goes to
 * the device. Second order: g = vjp(sum(sin(a moved)) moved back) = cos(a), recorded, then
 * d sum(g*g) / da = -2 cos(a) sin(a). */
static void test_vjp_jvp_and_second_order(void** state) {
  (void)state;
  const int64_t shape[2] = {3, 2};
  tfe_tensor* a = variable(ctx, TFE_C64, 2, shape);
  tfe_tensor* y = moved(a, TFE_DEVICE_CUDA, 0);
  tfe_tensor* seed_h = make_tensor(ctx, TFE_C64, 2, shape);
  tfe_tensor* seed = moved(seed_h, TFE_DEVICE_CUDA, 0);
  tfe_tensor* vj = NULL;
  TFE_OK_OR_FAIL(tfe_vjp(&vj, y, 1, &a, seed));
  expect_on(vj, TFE_DEVICE_CPU, 0);
  expect_values(seed_h, vj, 0);
  tfe_tensor* jv = NULL;
  TFE_OK_OR_FAIL(tfe_jvp(&jv, y, 1, &a, &seed_h));
  expect_on(jv, TFE_DEVICE_CUDA, 0);
  expect_values(seed_h, jv, 0);

  tfe_tensor* r = variable(ctx, TFE_F64, 2, shape);
  tfe_tensor *rd = moved(r, TFE_DEVICE_CUDA, 0), *s = NULL, *sd = NULL;
  TFE_OK_OR_FAIL(tfe_sin(&s, rd));
  TFE_OK_OR_FAIL(tfe_sum(&sd, s, 0, NULL));
  tfe_tensor* l = moved(sd, TFE_DEVICE_CPU, 0);
  tfe_tensor *g = NULL, *gg = NULL, *h = NULL;
  TFE_OK_OR_FAIL(tfe_vjp(&g, l, 1, &r, NULL));
  expect_on(g, TFE_DEVICE_CPU, 0);
  TFE_OK_OR_FAIL(tfe_mul(&gg, g, g));
  TFE_OK_OR_FAIL(tfe_sum(&h, gg, 0, NULL));
  TFE_OK_OR_FAIL(tfe_backward(h, NULL));
  tfe_tensor* second = grad_of(r);
  tfe_tensor *plain = NULL, *twice = NULL, *sin2 = NULL, *want = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_detach(&plain, r));
  TFE_OK_OR_FAIL(tfe_add(&twice, plain, plain));
  TFE_OK_OR_FAIL(tfe_sin(&sin2, twice));
  TFE_OK_OR_FAIL(tfe_neg(&want, sin2));
  expect_values(want, second, 1e-12);
  tfe_tensor* objs[] = {a, y, seed_h, seed, vj,     jv,    r,     rd,   s,   sd,
                        l, g, gg,     h,    second, plain, twice, sin2, want};
  release_all(objs, sizeof objs / sizeof objs[0]);
}

/* A traced tensor does not move: a program runs where its arguments are. */
static void test_traced_transfer_refused(void** state) {
  (void)state;
  const int64_t shape[1] = {3};
  tfe_tensor* t = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_symbolic(&t, ctx, TFE_F64, 1, shape));
  tfe_tensor* out = (tfe_tensor*)0x1;
  EXPECT_STATUS(tfe_tensor_to_device(&out, t, TFE_DEVICE_CUDA, 0), TFE_ERR_NOT_SUPPORTED,
                "tfe_tensor_to_device");
  assert_null(out);
  tfe_tensor_release(t);
}

typedef tfe_status (*make_fn)(tfe_tensor**, tfe_context*);
static const int64_t kShape[2] = {4, 3};
static tfe_status make_zeros(tfe_tensor** o, tfe_context* c) {
  return tfe_zeros(o, c, TFE_C32, 2, kShape);
}
static tfe_status make_ones(tfe_tensor** o, tfe_context* c) {
  return tfe_ones(o, c, TFE_BOOL, 2, kShape);
}
static tfe_status make_full(tfe_tensor** o, tfe_context* c) {
  const int32_t v = -7;
  return tfe_full(o, c, TFE_I32, 2, kShape, &v);
}
static tfe_status make_eye(tfe_tensor** o, tfe_context* c) { return tfe_eye(o, c, TFE_F64, 4, 3); }
static tfe_status make_arange(tfe_tensor** o, tfe_context* c) {
  return tfe_arange(o, c, TFE_I64, 2, 11, 3);
}
static tfe_status make_linspace(tfe_tensor** o, tfe_context* c) {
  return tfe_linspace(o, c, TFE_F32, 0, 0, 1, 0, 5, 1);
}
static tfe_status make_iota(tfe_tensor** o, tfe_context* c) {
  return tfe_iota(o, c, TFE_F64, 2, kShape, 1);
}
static tfe_status make_random(tfe_tensor** o, tfe_context* c) {
  return tfe_random_normal(o, c, TFE_C64, 2, kShape, 42);
}
static tfe_status make_from_data(tfe_tensor** o, tfe_context* c) {
  const double v[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  return tfe_tensor_from_data(o, c, TFE_F64, 2, kShape, NULL, v);
}

/* In a device scope every creation function creates on that device, with the host's values;
 * scopes nest, and other contexts and ops are unaffected. */
static void test_creation_in_a_device_scope(void** state) {
  (void)state;
  const make_fn makers[] = {make_zeros,    make_ones, make_full,   make_eye,      make_arange,
                            make_linspace, make_iota, make_random, make_from_data};
  tfe_context* other = new_ctx();
  for (size_t i = 0; i < sizeof makers / sizeof makers[0]; ++i) {
    tfe_tensor *host = NULL, *dev = NULL, *inner = NULL, *elsewhere = NULL, *sum = NULL;
    TFE_OK_OR_FAIL(makers[i](&host, ctx));
    expect_on(host, TFE_DEVICE_CPU, 0);
    TFE_OK_OR_FAIL(tfe_device_scope_enter(ctx, TFE_DEVICE_CUDA, 0));
    TFE_OK_OR_FAIL(makers[i](&dev, ctx));
    TFE_OK_OR_FAIL(makers[i](&elsewhere, other));  /* another context: the host */
    TFE_OK_OR_FAIL(tfe_cast(&sum, host, TFE_C64)); /* ops run where their operands are */
    TFE_OK_OR_FAIL(tfe_device_scope_enter(ctx, TFE_DEVICE_CPU, 0));
    TFE_OK_OR_FAIL(makers[i](&inner, ctx));
    TFE_OK_OR_FAIL(tfe_device_scope_exit(ctx));
    TFE_OK_OR_FAIL(tfe_device_scope_exit(ctx));
    expect_same(host, dev, 0);
    expect_on(inner, TFE_DEVICE_CPU, 0);
    expect_on(elsewhere, TFE_DEVICE_CPU, 0);
    expect_on(sum, TFE_DEVICE_CPU, 0);
    tfe_tensor* objs[] = {host, dev, inner, elsewhere, sum};
    release_all(objs, 5);
  }
  tfe_context_release(other);
  /* after the scopes: the host again */
  tfe_tensor* z = NULL;
  TFE_OK_OR_FAIL(make_zeros(&z, ctx));
  expect_on(z, TFE_DEVICE_CPU, 0);
  tfe_tensor_release(z);
  /* a large fill is the device's own work, checked at both ends */
  const int64_t big[1] = {1 << 20};
  const double v = 0.25;
  tfe_tensor *f = NULL, *back = NULL;
  TFE_OK_OR_FAIL(tfe_device_scope_enter(ctx, TFE_DEVICE_CUDA, g_second));
  TFE_OK_OR_FAIL(tfe_full(&f, ctx, TFE_F64, 1, big, &v));
  TFE_OK_OR_FAIL(tfe_device_scope_exit(ctx));
  expect_on(f, TFE_DEVICE_CUDA, g_second);
  back = to_host(f);
  const double* p = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_data(back, (const void**)&p));
  assert_true(p[0] == 0.25 && p[(1 << 20) - 1] == 0.25);
  tfe_tensor_release(f);
  tfe_tensor_release(back);
}

static void test_device_scope_errors(void** state) {
  (void)state;
  EXPECT_STATUS(tfe_device_scope_exit(ctx), TFE_ERR_INVALID_ARGUMENT, "tfe_device_scope_exit");
  EXPECT_STATUS(tfe_device_scope_enter(ctx, 7, 0), TFE_ERR_INVALID_ARGUMENT,
                "tfe_device_scope_enter");
  EXPECT_STATUS(tfe_device_scope_enter(ctx, TFE_DEVICE_CPU, 1), TFE_ERR_INVALID_ARGUMENT,
                "tfe_device_scope_enter");
  EXPECT_STATUS(tfe_device_scope_enter(ctx, TFE_DEVICE_CUDA, 99), TFE_ERR_DEVICE,
                "tfe_device_scope_enter");
  EXPECT_STATUS(tfe_device_scope_enter(NULL, TFE_DEVICE_CUDA, 0), TFE_ERR_INVALID_ARGUMENT,
                "tfe_device_scope_enter");
  /* a refused enter opened nothing */
  EXPECT_STATUS(tfe_device_scope_exit(ctx), TFE_ERR_INVALID_ARGUMENT, "tfe_device_scope_exit");
  /* a bad creation call in a scope fails as on the host and leaves the scope open */
  TFE_OK_OR_FAIL(tfe_device_scope_enter(ctx, TFE_DEVICE_CUDA, 0));
  const int64_t bad[2] = {-1, 3};
  tfe_tensor* out = (tfe_tensor*)0x1;
  EXPECT_STATUS(tfe_zeros(&out, ctx, TFE_F64, 2, bad), TFE_ERR_INVALID_ARGUMENT, "tfe_zeros");
  assert_null(out);
  const int64_t huge[2] = {INT64_C(1) << 40, INT64_C(1) << 40};
  out = (tfe_tensor*)0x1;
  assert_int_not_equal(tfe_ones(&out, ctx, TFE_F64, 2, huge), TFE_OK);
  assert_null(out);
  out = (tfe_tensor*)0x1;
  assert_int_not_equal(tfe_eye(&out, ctx, TFE_F64, INT64_C(1) << 40, INT64_C(1) << 40), TFE_OK);
  assert_null(out);
  TFE_OK_OR_FAIL(tfe_device_scope_exit(ctx));
}

int main(int argc, char** argv) {
  int start = device_suite_start(argc, argv, "the transfer suite");
  if (start >= 0) return start;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_gradients_through_transfers, device_setup,
                                      device_teardown),
      cmocka_unit_test_setup_teardown(test_dataflow_gradients_through_transfers, device_setup,
                                      device_teardown),
      cmocka_unit_test_setup_teardown(test_host_and_device_parts, device_setup, device_teardown),
      cmocka_unit_test_setup_teardown(test_vjp_jvp_and_second_order, device_setup, device_teardown),
      cmocka_unit_test_setup_teardown(test_traced_transfer_refused, device_setup, device_teardown),
      cmocka_unit_test_setup_teardown(test_creation_in_a_device_scope, device_setup,
                                      device_teardown),
      cmocka_unit_test_setup_teardown(test_device_scope_errors, device_setup, device_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
