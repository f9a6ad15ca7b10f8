/* capture_trace on one shared const handle from two threads at once: the handle's captured leaf
 * is made once (whichever thread gets there first), both threads differentiate with respect to it
 * and get the right gradient, and the handle's value is untouched. Run under the sanitizer stages
 * as well (a data race or a leak of the losing thread's leaf shows there). */
#include <pthread.h>

#include "capi_testing.h"

enum { kThreads = 2, kRounds = 200 };

struct shared {
  tfe_context* ctx;
  const tfe_tensor* x; /* the const handle both threads capture */
  pthread_barrier_t* start;
};

struct outcome {
  struct shared* in;
  int failures; /* calls that did not return TFE_OK */
  int wrong;    /* gradients that differ from d(sum x*x)/dx = 2x */
  int tracked;  /* rounds where x read as tracked after the capture */
};

static int check(tfe_status s, struct outcome* o) {
  if (s != TFE_OK) ++o->failures;
  return s == TFE_OK;
}

static void* capture_once(void* arg) {
  struct outcome* o = arg;
  struct shared* in = o->in;
  pthread_barrier_wait(in->start);
  tfe_tensor *y = NULL, *loss = NULL, *g = NULL;
  if (check(tfe_capture_trace_enter(in->ctx), o)) {
    if (check(tfe_mul(&y, in->x, in->x), o) && check(tfe_sum(&loss, y, 0, NULL), o)) {
      tfe_tensor* xs[1] = {(tfe_tensor*)in->x};
      double xv[3], gv[3];
      if (check(tfe_vjp(&g, loss, 1, xs, NULL), o) && g &&
          check(tfe_tensor_to_data(in->x, xv, sizeof xv), o) &&
          check(tfe_tensor_to_data(g, gv, sizeof gv), o)) {
        for (int i = 0; i < 3; ++i)
          if (gv[i] != 2.0 * xv[i]) ++o->wrong;
      } else if (!g) {
        ++o->wrong;
      }
    }
    check(tfe_capture_trace_exit(in->ctx), o);
  }
  int32_t flag = 0;
  if (check(tfe_tensor_requires_grad(in->x, &flag), o) && flag) ++o->tracked;
  tfe_tensor_release(g);
  tfe_tensor_release(loss);
  tfe_tensor_release(y);
  return NULL;
}

static void test_capture_of_a_shared_const_handle(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t shape[] = {3};
  const double values[] = {0.5, -1.0, 3.0};
  struct outcome outcomes[kThreads];
  int rounds_failed = 0, wrong = 0, untracked = 0;
  for (int round = 0; round < kRounds; ++round) {
    /* A fresh untracked handle each round, so each round races on its first capture. */
    tfe_tensor* x = f64(ctx, 1, shape, values);
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, kThreads);
    struct shared in = {ctx, x, &start};
    pthread_t tids[kThreads];
    for (int i = 0; i < kThreads; ++i) {
      outcomes[i] = (struct outcome){&in, 0, 0, 0};
      assert_int_equal(pthread_create(&tids[i], NULL, capture_once, &outcomes[i]), 0);
    }
    for (int i = 0; i < kThreads; ++i) pthread_join(tids[i], NULL);
    pthread_barrier_destroy(&start);
    for (int i = 0; i < kThreads; ++i) {
      rounds_failed += outcomes[i].failures;
      wrong += outcomes[i].wrong;
      untracked += outcomes[i].tracked ? 0 : 1;
    }
    double after[3];
    TFE_OK_OR_FAIL(tfe_tensor_to_data(x, after, sizeof after));
    assert_memory_equal(after, values, sizeof values);
    tfe_tensor_release(x);
  }
  assert_int_equal(rounds_failed, 0);
  assert_int_equal(wrong, 0);
  /* Captured: a later derivative may name it, so it reads as tracked (tenferro/ad.h). */
  assert_int_equal(untracked, 0);
  tfe_context_release(ctx);
}

/* Outside capture_trace the same const handle is an untracked operand: nothing records. */
static void test_no_capture_records_nothing(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t shape[] = {3};
  const double values[] = {0.5, -1.0, 3.0};
  tfe_tensor* x = f64(ctx, 1, shape, values);
  tfe_tensor* y = NULL;
  TFE_OK_OR_FAIL(tfe_mul(&y, x, x));
  int32_t flag = 1;
  TFE_OK_OR_FAIL(tfe_tensor_requires_grad(x, &flag));
  assert_int_equal(flag, 0);
  TFE_OK_OR_FAIL(tfe_tensor_requires_grad(y, &flag));
  assert_int_equal(flag, 0);
  tfe_tensor_release(y);
  tfe_tensor_release(x);
  tfe_context_release(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_capture_of_a_shared_const_handle, leak_setup,
                                      leak_teardown),
      cmocka_unit_test_setup_teardown(test_no_capture_records_nothing, leak_setup, leak_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
