/* Dataflow contexts through the C ABI (tfe_context_create_dataflow): the same op functions
 * schedule and return at once; validation errors come from the op, forward errors from the first
 * read; backward seeds once; grad waits and seals; sealed tensors feed new ops (an optimiser step);
 * no_grad; vjp/jvp/capture_trace are NOT_SUPPORTED; a deadlock-free misuse report; both
 * schedulers give the same bits; and eager and dataflow contexts give the same gradients. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "eager_testing.h"

static tfe_context* dataflow_ctx(int32_t scheduler, int32_t threads) {
  tfe_context* ctx = NULL;
  TFE_OK_OR_FAIL(tfe_context_create_dataflow(&ctx, scheduler, threads));
  return ctx;
}

/* loss = sum(sin(x) * x + exp(x) * w) for a variable x and a constant w; returns dloss/dx. */
static void sin_exp_grad(tfe_context* ctx, double* out) {
  const int64_t n4[] = {4};
  const double xv[] = {0.1, -0.7, 1.3, 2.0}, wv[] = {0.5, 1.5, -2.0, 0.25};
  tfe_tensor* x = var_f64(ctx, 1, n4, xv);
  tfe_tensor* w = vec_f64(ctx, 4, wv);
  tfe_tensor *s = NULL, *sx = NULL, *e = NULL, *ew = NULL, *t = NULL, *loss = NULL, *g = NULL;
  TFE_OK_OR_FAIL(tfe_sin(&s, x));
  TFE_OK_OR_FAIL(tfe_mul(&sx, s, x));
  TFE_OK_OR_FAIL(tfe_exp(&e, x));
  TFE_OK_OR_FAIL(tfe_mul(&ew, e, w));
  TFE_OK_OR_FAIL(tfe_add(&t, sx, ew));
  TFE_OK_OR_FAIL(tfe_sum(&loss, t, 0, NULL));
  TFE_OK_OR_FAIL(tfe_backward(loss, NULL));
  TFE_OK_OR_FAIL(tfe_tensor_grad(&g, x));
  assert_non_null(g);
  read_into(g, out, 4 * (int64_t)sizeof(double));
  tfe_tensor* all[] = {x, w, s, sx, e, ew, t, loss, g};
  release_all(all, 9);
}

static void test_gradients_match_eager(void** state) {
  (void)state;
  const double xv[] = {0.1, -0.7, 1.3, 2.0}, wv[] = {0.5, 1.5, -2.0, 0.25};
  double want[4];
  for (int i = 0; i < 4; ++i) want[i] = sin(xv[i]) + xv[i] * cos(xv[i]) + exp(xv[i]) * wv[i];
  tfe_context* eager = NULL;
  TFE_OK_OR_FAIL(tfe_context_create(&eager));
  tfe_context* pool = dataflow_ctx(TFE_SCHEDULER_THREADS, 2);
  tfe_context* debug = dataflow_ctx(TFE_SCHEDULER_DEBUG, 0);
  int32_t mode = -1;
  TFE_OK_OR_FAIL(tfe_context_mode(pool, &mode));
  assert_int_equal(mode, TFE_CONTEXT_DATAFLOW);
  TFE_OK_OR_FAIL(tfe_context_mode(eager, &mode));
  assert_int_equal(mode, TFE_CONTEXT_EAGER);
  double ge[4], gp[4], gd[4];
  sin_exp_grad(eager, ge);
  sin_exp_grad(pool, gp);
  sin_exp_grad(debug, gd);
  for (int i = 0; i < 4; ++i) {
    assert_true(fabs(ge[i] - want[i]) < 1e-12);
    assert_true(fabs(gp[i] - ge[i]) < 1e-14);
    assert_memory_equal(&gp[i], &gd[i], sizeof(double)); /* same bits under both schedulers */
  }
  tfe_context_release(eager);
  tfe_context_release(pool);
  tfe_context_release(debug);
}

/* Complex convention: grad of sum |z|^2 is 2z; real(z) seeded 2 and imag(z) seeded 3 gives 2+3i. */
static int64_t vjp_kernel_entries(tfe_context* ctx, int64_t* hits) {
  int64_t misses = 0, entries = 0, bytes = 0;
  TFE_OK_OR_FAIL(
      tfe_context_cache_stats(ctx, TFE_CACHE_VJP_KERNEL, hits, &misses, &entries, &bytes));
  return entries;
}

/* Each context owns the one-op derivative programs its reverse work compiles: a second backward
 * in the same context hits them, another context starts empty, and clearing one context's cache
 * leaves the other's. */
static void test_vjp_kernels_belong_to_the_context(void** state) {
  (void)state;
  tfe_context* a = dataflow_ctx(TFE_SCHEDULER_DEBUG, 0);
  tfe_context* b = dataflow_ctx(TFE_SCHEDULER_THREADS, 2);
  int64_t hits_a = 0, hits_b = 0;
  assert_int_equal(vjp_kernel_entries(a, &hits_a), 0);
  double g1[4], g2[4];
  sin_exp_grad(a, g1);
  int64_t after_first = vjp_kernel_entries(a, &hits_a);
  assert_true(after_first >= 4); /* sin, mul, exp, add and sum */
  assert_int_equal(vjp_kernel_entries(b, &hits_b), 0);
  int64_t hits_before = hits_a;
  sin_exp_grad(a, g2);
  assert_int_equal(vjp_kernel_entries(a, &hits_a), after_first);
  assert_true(hits_a >= hits_before + 4);
  assert_memory_equal(g1, g2, sizeof g1);
  sin_exp_grad(b, g2);
  assert_int_equal(vjp_kernel_entries(b, &hits_b), after_first);
  TFE_OK_OR_FAIL(tfe_context_cache_clear(a, TFE_CACHE_VJP_KERNEL));
  assert_int_equal(vjp_kernel_entries(a, &hits_a), 0);
  assert_int_equal(vjp_kernel_entries(b, &hits_b), after_first);
  TFE_OK_OR_FAIL(tfe_context_cache_limits(b, TFE_CACHE_VJP_KERNEL, 2, 1 << 20));
  sin_exp_grad(b, g2);
  assert_true(vjp_kernel_entries(b, &hits_b) <= 2);
  assert_memory_equal(g1, g2, sizeof g1);
  tfe_context_release(a);
  tfe_context_release(b);
}

static void test_complex_convention(void** state) {
  (void)state;
  tfe_context* ctx = dataflow_ctx(TFE_SCHEDULER_THREADS, 0);
  const int64_t n2[] = {2};
  const double complex zv[] = {1.5 - 2.5 * I, -0.5 + 1.0 * I};
  tfe_tensor *z = NULL, *cz = NULL, *p = NULL, *re = NULL, *loss = NULL, *g = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&z, ctx, TFE_C64, 1, n2, NULL, zv));
  TFE_OK_OR_FAIL(tfe_tensor_set_requires_grad(z, 1));
  TFE_OK_OR_FAIL(tfe_conj(&cz, z));
  TFE_OK_OR_FAIL(tfe_mul(&p, z, cz));
  TFE_OK_OR_FAIL(tfe_real(&re, p));
  TFE_OK_OR_FAIL(tfe_sum(&loss, re, 0, NULL));
  TFE_OK_OR_FAIL(tfe_backward(loss, NULL));
  TFE_OK_OR_FAIL(tfe_tensor_grad(&g, z));
  const double complex want[] = {2 * zv[0], 2 * zv[1]};
  expect_complex(g, want, 2);

  tfe_tensor *z1 = NULL, *r = NULL, *im = NULL, *s2 = NULL, *s3 = NULL, *g1 = NULL;
  const double complex one = 1.5 - 2.5 * I;
  const double two = 2, three = 3;
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&z1, ctx, TFE_C64, 0, NULL, NULL, &one));
  TFE_OK_OR_FAIL(tfe_tensor_set_requires_grad(z1, 1));
  TFE_OK_OR_FAIL(tfe_real(&r, z1));
  TFE_OK_OR_FAIL(tfe_imag(&im, z1));
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&s2, ctx, TFE_F64, 0, NULL, NULL, &two));
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&s3, ctx, TFE_F64, 0, NULL, NULL, &three));
  TFE_OK_OR_FAIL(tfe_backward(im, s3)); /* imag first: order does not matter */
  TFE_OK_OR_FAIL(tfe_backward(r, s2));
  TFE_OK_OR_FAIL(tfe_tensor_grad(&g1, z1));
  const double complex want1 = 2 + 3 * I;
  expect_complex(g1, &want1, 1);
  tfe_tensor* all[] = {z, cz, p, re, loss, g, z1, r, im, s2, s3, g1};
  release_all(all, 12);
  tfe_context_release(ctx);
}

/* Errors: shape errors from the op at once; a singular solve at the first read (and downstream);
 * a second seed; seeding a sealed graph; unsupported calls; an untracked loss. */
static void test_error_contract(void** state) {
  (void)state;
  tfe_context* ctx = dataflow_ctx(TFE_SCHEDULER_THREADS, 2);
  const int64_t n3[] = {3}, m22[] = {2, 2}, m21[] = {2, 1};
  const double v3[] = {1, 2, 3}, v2[] = {1, 2}, zero4[] = {0, 0, 0, 0};
  tfe_tensor* a = var_f64(ctx, 1, n3, v3);
  tfe_tensor* b = vec_f64(ctx, 2, v2);
  tfe_tensor* bad = (tfe_tensor*)1;
  assert_int_equal(tfe_add(&bad, a, b), TFE_ERR_SHAPE_MISMATCH);
  assert_null(bad);

  tfe_tensor *sing = NULL, *rhs = NULL, *x = NULL, *sx = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&sing, ctx, TFE_F64, 2, m22, NULL, zero4));
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&rhs, ctx, TFE_F64, 2, m21, NULL, v2));
  TFE_OK_OR_FAIL(tfe_linalg_solve(&x, sing, rhs)); /* returns at once */
  TFE_OK_OR_FAIL(tfe_sin(&sx, x));
  double buf[2];
  assert_int_equal(tfe_tensor_to_data(sx, buf, sizeof buf), TFE_ERR_SINGULAR);
  assert_non_null(strstr(tfe_last_error_message(), "tfe_tensor_to_data"));
  assert_int_equal(tfe_tensor_to_data(x, buf, sizeof buf), TFE_ERR_SINGULAR);

  tfe_tensor *sq = NULL, *loss = NULL, *g = NULL, *step = NULL, *cons = NULL, *closs = NULL;
  TFE_OK_OR_FAIL(tfe_mul(&sq, a, a));
  TFE_OK_OR_FAIL(tfe_sum(&loss, sq, 0, NULL));
  TFE_OK_OR_FAIL(tfe_backward(loss, NULL));
  assert_int_equal(tfe_backward(loss, NULL), TFE_ERR_INVALID_ARGUMENT);
  assert_non_null(strstr(tfe_last_error_message(), "seeded already"));
  TFE_OK_OR_FAIL(tfe_tensor_grad(&g, a)); /* seals the graph */
  const double want[] = {2, 4, 6};
  expect_doubles(g, want, 3);
  assert_int_equal(tfe_backward(loss, NULL), TFE_ERR_INVALID_ARGUMENT);
  /* An optimiser step on sealed tensors: untracked, no wait needed to build it. */
  TFE_OK_OR_FAIL(tfe_sub(&step, a, g));
  int32_t tracked = 1;
  TFE_OK_OR_FAIL(tfe_tensor_requires_grad(step, &tracked));
  assert_int_equal(tracked, 0);
  const double stepped[] = {-1, -2, -3};
  expect_doubles(step, stepped, 3);

  tfe_tensor* none[1] = {(tfe_tensor*)1};
  assert_int_equal(tfe_vjp(none, loss, 1, &a, NULL), TFE_ERR_NOT_SUPPORTED);
  assert_null(none[0]);
  tfe_tensor* j = (tfe_tensor*)1;
  assert_int_equal(tfe_jvp(&j, loss, 0, NULL, NULL), TFE_ERR_NOT_SUPPORTED);
  assert_null(j);
  assert_int_equal(tfe_capture_trace_enter(ctx), TFE_ERR_NOT_SUPPORTED);

  TFE_OK_OR_FAIL(tfe_mul(&cons, b, b));
  TFE_OK_OR_FAIL(tfe_sum(&closs, cons, 0, NULL));
  assert_int_equal(tfe_backward(closs, NULL), TFE_ERR_NOT_DIFFERENTIABLE);
  tfe_tensor* all[] = {a, b, sing, rhs, x, sx, sq, loss, g, step, cons, closs};
  release_all(all, 12);
  tfe_context_release(ctx);
}

/* A pipelined optimiser: x_{k+1} = x_k - 0.1 * grad(sum(x_k^2)) with each new x a variable made
 * from a pending value; only the last value is read. x_k = 0.8^k x_0. */
static void test_pipelined_optimiser(void** state) {
  (void)state;
  tfe_context* ctx = dataflow_ctx(TFE_SCHEDULER_THREADS, 0);
  const int64_t n2[] = {2};
  const double xv[] = {1.0, -2.0}, lrv = 0.1;
  tfe_tensor* x = var_f64(ctx, 1, n2, xv);
  tfe_tensor* lr = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&lr, ctx, TFE_F64, 0, NULL, NULL, &lrv));
  for (int k = 0; k < 10; ++k) {
    tfe_tensor *sq = NULL, *loss = NULL, *g = NULL, *scaled = NULL, *next = NULL;
    TFE_OK_OR_FAIL(tfe_mul(&sq, x, x));
    TFE_OK_OR_FAIL(tfe_sum(&loss, sq, 0, NULL));
    TFE_OK_OR_FAIL(tfe_backward(loss, NULL));
    TFE_OK_OR_FAIL(tfe_tensor_grad(&g, x));
    TFE_OK_OR_FAIL(tfe_mul(&scaled, lr, g));
    TFE_OK_OR_FAIL(tfe_sub(&next, x, scaled));
    TFE_OK_OR_FAIL(tfe_tensor_set_requires_grad(next, 1));
    tfe_tensor* done[] = {sq, loss, g, scaled, x};
    release_all(done, 5);
    x = next;
  }
  const double f = pow(0.8, 10);
  const double want[] = {f * 1.0, f * -2.0};
  expect_doubles(x, want, 2);
  tfe_tensor_release(x);
  tfe_tensor_release(lr);
  tfe_context_release(ctx);
}

/* no_grad: operands enter untracked; intermediates have gradients; absent vs value. */
static void test_no_grad_and_absence(void** state) {
  (void)state;
  tfe_context* ctx = dataflow_ctx(TFE_SCHEDULER_DEBUG, 1);
  const int64_t n2[] = {2};
  const double xv[] = {0.5, 2.0};
  tfe_tensor* x = var_f64(ctx, 1, n2, xv);
  tfe_tensor* unused = var_f64(ctx, 1, n2, xv);
  tfe_tensor *c = NULL, *y = NULL, *loss = NULL, *gx = NULL, *gy = NULL, *gu = NULL, *dead = NULL;
  TFE_OK_OR_FAIL(tfe_no_grad_enter(ctx));
  TFE_OK_OR_FAIL(tfe_mul(&c, x, x));
  TFE_OK_OR_FAIL(tfe_no_grad_exit(ctx));
  int32_t tracked = 1;
  TFE_OK_OR_FAIL(tfe_tensor_requires_grad(c, &tracked));
  assert_int_equal(tracked, 0);
  TFE_OK_OR_FAIL(tfe_sin(&dead, unused)); /* never seeded: pruned */
  TFE_OK_OR_FAIL(tfe_mul(&y, c, x));
  TFE_OK_OR_FAIL(tfe_sum(&loss, y, 0, NULL));
  TFE_OK_OR_FAIL(tfe_backward(loss, NULL));
  TFE_OK_OR_FAIL(tfe_tensor_grad(&gy, y)); /* an intermediate's gradient: ones */
  const double ones[] = {1, 1};
  expect_doubles(gy, ones, 2);
  TFE_OK_OR_FAIL(tfe_tensor_grad(&gx, x));
  const double want[] = {0.25, 4.0}; /* c is a constant: d(c x)/dx = c */
  expect_doubles(gx, want, 2);
  gu = (tfe_tensor*)1;
  TFE_OK_OR_FAIL(tfe_tensor_grad(&gu, unused));
  assert_null(gu); /* absent */
  tfe_tensor* all[] = {x, unused, c, y, loss, gx, gy, dead};
  release_all(all, 8);
  tfe_context_release(ctx);
}

static void test_bad_context_arguments(void** state) {
  (void)state;
  tfe_context* ctx = (tfe_context*)1;
  assert_int_equal(tfe_context_create_dataflow(&ctx, 7, 0), TFE_ERR_INVALID_ARGUMENT);
  assert_null(ctx);
  assert_non_null(strstr(tfe_last_error_message(), "unknown scheduler 7"));
  ctx = (tfe_context*)1;
  assert_int_equal(tfe_context_create_dataflow(&ctx, TFE_SCHEDULER_THREADS, -2),
                   TFE_ERR_INVALID_ARGUMENT);
  assert_null(ctx);
  assert_int_equal(tfe_context_create_dataflow(&ctx, TFE_SCHEDULER_DEBUG, 4),
                   TFE_ERR_INVALID_ARGUMENT);
  assert_int_equal(tfe_context_create_dataflow(NULL, TFE_SCHEDULER_DEBUG, 0),
                   TFE_ERR_INVALID_ARGUMENT);
}

/* Several threads run ops on one dataflow context with a shared leaf. */
struct worker_arg {
  tfe_context* ctx;
  tfe_tensor* shared;
  double result[3];
  int ok;
};

static void* worker(void* p) {
  struct worker_arg* a = p;
  tfe_tensor* x = NULL;
  a->ok =
      tfe_tensor_detach(&x, a->shared) == TFE_OK && tfe_tensor_set_requires_grad(x, 1) == TFE_OK;
  tfe_tensor *e = NULL, *loss = NULL, *g = NULL;
  a->ok = a->ok && tfe_exp(&e, x) == TFE_OK && tfe_sum(&loss, e, 0, NULL) == TFE_OK &&
          tfe_backward(loss, NULL) == TFE_OK && tfe_tensor_grad(&g, x) == TFE_OK &&
          tfe_tensor_to_data(g, a->result, sizeof a->result) == TFE_OK;
  tfe_tensor* all[] = {x, e, loss, g};
  release_all(all, 4);
  return NULL;
}

static void test_threads_share_a_context(void** state) {
  (void)state;
  tfe_context* ctx = dataflow_ctx(TFE_SCHEDULER_THREADS, 2);
  const double v[] = {0.5, -1, 2};
  tfe_tensor* shared = vec_f64(ctx, 3, v);
  pthread_t threads[4];
  struct worker_arg args[4];
  for (int i = 0; i < 4; ++i) {
    args[i].ctx = ctx;
    args[i].shared = shared;
    pthread_create(&threads[i], NULL, worker, &args[i]);
  }
  for (int i = 0; i < 4; ++i) {
    pthread_join(threads[i], NULL);
    assert_true(args[i].ok);
    for (int k = 0; k < 3; ++k) assert_true(fabs(args[i].result[k] - exp(v[k])) < 1e-13);
  }
  tfe_tensor_release(shared);
  tfe_context_release(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_gradients_match_eager, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_vjp_kernels_belong_to_the_context, leak_setup,
                                      leak_teardown),
      cmocka_unit_test_setup_teardown(test_complex_convention, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_error_contract, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_pipelined_optimiser, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_no_grad_and_absence, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_bad_context_arguments, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_threads_share_a_context, leak_setup, leak_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
