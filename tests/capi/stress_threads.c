/* Concurrency stress over the C ABI: several threads share one context, shared input tensors and
 * shared tracked leaves, and at once run eager ops, record and differentiate their own losses
 * (backward into the shared leaves, and functional vjp), call one shared traced function for
 * shapes that grow the context's compile cache (one thread clears it now and then: eviction), and
 * release everything they made. Meant to run under ThreadSanitizer; without it, it still checks
 * every status and the values that the threads' interleaving cannot change.
 *   capi_stress_threads [threads] [iterations] */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tenferro/tenferro.h>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    tfe_status s_ = (call);                                                                        \
    if (s_ != TFE_OK) {                                                                            \
      fprintf(stderr, "%s:%d: %s -> %s: %s\n", __FILE__, __LINE__, #call, tfe_status_name(s_),     \
              tfe_last_error_message());                                                           \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

struct shared {
  tfe_context* ctx;
  tfe_tensor* x;  /* [4, 3] constant */
  tfe_tensor* w;  /* [3, 1] tracked leaf: every thread's loss depends on it */
  tfe_tensor* w2; /* [4, 1] tracked leaf */
  tfe_function* f;
  int iterations;
};

struct worker {
  struct shared* s;
  int index;
  int failed;
};

static double scalar(const tfe_tensor* t) {
  double v = 0;
  CHECK(tfe_tensor_to_data(t, &v, sizeof v));
  return v;
}

/* [n] (column 0) or [n, 1] (column 1) with values scale * (1..n). */
static tfe_tensor* vec(tfe_context* ctx, int64_t n, double scale, int column) {
  double v[64];
  for (int64_t i = 0; i < n; ++i) v[i] = scale * (double)(i + 1);
  const int64_t shape[] = {n, 1};
  tfe_tensor* t = NULL;
  CHECK(tfe_tensor_from_data(&t, ctx, TFE_F64, column ? 2 : 1, shape, NULL, v));
  return t;
}

/* loss = sum(sin(x @ w) * w2 * scale): depends on both shared leaves. */
static tfe_tensor* loss_of(struct shared* s, double scale) {
  tfe_tensor *xw = NULL, *sn = NULL, *m = NULL, *c = NULL, *mc = NULL, *l = NULL;
  CHECK(tfe_matmul(&xw, s->x, s->w));
  CHECK(tfe_sin(&sn, xw));
  CHECK(tfe_mul(&m, sn, s->w2));
  CHECK(tfe_full(&c, s->ctx, TFE_F64, 0, NULL, &scale));
  CHECK(tfe_mul(&mc, m, c));
  CHECK(tfe_sum(&l, mc, 0, NULL));
  tfe_tensor_release(mc);
  tfe_tensor_release(c);
  tfe_tensor_release(m);
  tfe_tensor_release(sn);
  tfe_tensor_release(xw);
  return l;
}

static void* run(void* arg) {
  struct worker* wk = arg;
  struct shared* s = wk->s;
  double expected_single = 0;
  {
    tfe_tensor* l = loss_of(s, 1.0);
    expected_single = scalar(l);
    tfe_tensor_release(l);
  }
  for (int it = 0; it < s->iterations; ++it) {
    /* Eager ops on shared tensors: the same value whatever the other threads do. */
    tfe_tensor* l = loss_of(s, 1.0);
    if (fabs(scalar(l) - expected_single) > 1e-12) wk->failed = 1;
    /* Backward of this thread's loss into the shared leaves (accumulation is the library's). */
    CHECK(tfe_backward(l, NULL));
    /* Functional vjp: no shared state written. */
    tfe_tensor *g[2] = {NULL, NULL}, *leaves[2] = {s->w, s->w2};
    CHECK(tfe_vjp(g, l, 2, leaves, NULL));
    if (!g[0] || !g[1]) wk->failed = 1;
    tfe_tensor_release(g[0]);
    tfe_tensor_release(g[1]);
    tfe_tensor_release(l);
    /* The shared function for a shape of this thread and iteration: compile cache growth. */
    tfe_tensor* a = vec(s->ctx, 1 + (wk->index * 7 + it) % 48, 0.5, 0);
    tfe_tensor* out = NULL;
    CHECK(tfe_function_call1(&out, s->f, 1, &a));
    tfe_tensor_release(out);
    tfe_tensor_release(a);
    /* Eviction while others compile and run. */
    if (wk->index == 0 && it % 5 == 4) CHECK(tfe_context_cache_clear(s->ctx, TFE_CACHE_COMPILED));
    if (wk->index == 1 && it % 7 == 6) CHECK(tfe_context_cache_clear(s->ctx, TFE_CACHE_DERIVATIVE));
    /* Reading a shared leaf's gradient while others accumulate into it. */
    tfe_tensor* grad = NULL;
    CHECK(tfe_tensor_grad(&grad, s->w));
    tfe_tensor_release(grad);
  }
  return NULL;
}

int main(int argc, char** argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 4;
  int iterations = argc > 2 ? atoi(argv[2]) : 20;
  if (threads < 1 || threads > 64 || iterations < 1) {
    fprintf(stderr, "usage: capi_stress_threads [threads 1..64] [iterations >= 1]\n");
    return 2;
  }
  int64_t live_at_start = tfe_debug_live_objects();
  struct shared s = {0};
  s.iterations = iterations;
  CHECK(tfe_context_create(&s.ctx));
  const int64_t xs[] = {4, 3};
  double xv[12];
  for (int i = 0; i < 12; ++i) xv[i] = 0.1 * (double)(i + 1);
  CHECK(tfe_tensor_from_data(&s.x, s.ctx, TFE_F64, 2, xs, NULL, xv));
  s.w = vec(s.ctx, 3, 0.3, 1);
  s.w2 = vec(s.ctx, 4, 0.2, 1);
  CHECK(tfe_tensor_set_requires_grad(s.w, 1));
  CHECK(tfe_tensor_set_requires_grad(s.w2, 1));
  /* f(a) = sum(exp(a) * a): one symbolic extent, so every length is a new compilation. */
  const int64_t sym[] = {-1};
  tfe_tensor *a = NULL, *e = NULL, *ea = NULL, *r = NULL;
  CHECK(tfe_tensor_symbolic(&a, s.ctx, TFE_F64, 1, sym));
  CHECK(tfe_exp(&e, a));
  CHECK(tfe_mul(&ea, e, a));
  CHECK(tfe_sum(&r, ea, 0, NULL));
  CHECK(tfe_function_create(&s.f, 1, &a, 1, &r));
  tfe_tensor_release(r);
  tfe_tensor_release(ea);
  tfe_tensor_release(e);
  tfe_tensor_release(a);

  pthread_t tids[64];
  struct worker workers[64];
  for (int i = 0; i < threads; ++i) {
    workers[i] = (struct worker){&s, i, 0};
    if (pthread_create(&tids[i], NULL, run, &workers[i]) != 0) {
      fprintf(stderr, "pthread_create failed\n");
      return 1;
    }
  }
  int failed = 0;
  for (int i = 0; i < threads; ++i) {
    pthread_join(tids[i], NULL);
    failed |= workers[i].failed;
  }
  /* Every backward added the same gradient: the stored one is threads * iterations times it. */
  tfe_tensor *one = loss_of(&s, 1.0), *g[1] = {NULL}, *leaf[1] = {s.w}, *stored = NULL;
  CHECK(tfe_vjp(g, one, 1, leaf, NULL));
  CHECK(tfe_tensor_grad(&stored, s.w));
  double gv[3], sv[3];
  CHECK(tfe_tensor_to_data(g[0], gv, sizeof gv));
  CHECK(tfe_tensor_to_data(stored, sv, sizeof sv));
  double n = (double)threads * (double)iterations;
  for (int i = 0; i < 3; ++i)
    if (fabs(sv[i] - n * gv[i]) > 1e-9 * (1.0 + fabs(n * gv[i]))) {
      fprintf(stderr, "grad[%d] = %.17g, expected %g * %.17g\n", i, sv[i], n, gv[i]);
      failed = 1;
    }
  tfe_tensor_release(stored);
  tfe_tensor_release(g[0]);
  tfe_tensor_release(one);
  tfe_function_release(s.f);
  tfe_tensor_release(s.w2);
  tfe_tensor_release(s.w);
  tfe_tensor_release(s.x);
  tfe_context_release(s.ctx);
  if (tfe_debug_live_objects() != live_at_start) {
    fprintf(stderr, "%lld handles still live\n",
            (long long)(tfe_debug_live_objects() - live_at_start));
    failed = 1;
  }
  if (failed) {
    fprintf(stderr, "capi_stress_threads: FAILED\n");
    return 1;
  }
  printf("capi_stress_threads: %d threads x %d iterations passed\n", threads, iterations);
  return 0;
}
