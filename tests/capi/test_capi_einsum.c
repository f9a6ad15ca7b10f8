/* tfe_einsum and tfe_einsum_path through the C ABI: results against closed forms and tfe_matmul,
 * the companions tfe_tensordot, tfe_outer, tfe_kron and tfe_trace against loops,
 * every error (status, message naming tfe_einsum and the subscripts, NULL output), the path and
 * its cache statistics (TFE_CACHE_EINSUM), and derivatives in every engine: eager backward,
 * a traced program, and a dataflow context. */
#include <stdio.h>
#include <stdlib.h>

#include "eager_testing.h"

/* Compares two tensors of F64 values of n elements. */
static void expect_same(const tfe_tensor* a, const tfe_tensor* b, int64_t n) {
  double want[64];
  assert_true(n <= 64);
  read_into(b, want, n * (int64_t)sizeof(double));
  expect_doubles(a, want, n);
}

static int contains(const char* s, const char* part) { return strstr(s, part) != NULL; }

/* A = [[1,2,3],[4,5,6]] (2x3), B = 3x2 values 1..6 column-major. */
static const int64_t k23[] = {2, 3}, k32[] = {3, 2}, k33[] = {3, 3};
static const double kA[] = {1, 4, 2, 5, 3, 6}, kB[] = {1, 2, 3, 4, 5, 6};

static void test_results(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  tfe_tensor* a = f64(ctx, 2, k23, kA);
  tfe_tensor* b = f64(ctx, 2, k32, kB);
  tfe_tensor *ab = NULL, *mm = NULL, *ab_implicit = NULL, *tr = NULL, *diag = NULL, *tsum = NULL;
  tfe_tensor* xs[] = {a, b};
  TFE_OK_OR_FAIL(tfe_einsum(&ab, "ij,jk->ik", 2, xs));
  TFE_OK_OR_FAIL(tfe_matmul(&mm, a, b));
  expect_same(ab, mm, 4);
  TFE_OK_OR_FAIL(tfe_einsum(&ab_implicit, "ij,jk", 2, xs));
  expect_same(ab_implicit, mm, 4);

  const double sq[] = {1, 2, 3, 4, 5, 6, 7, 8, 9}; /* column-major: diagonal 1, 5, 9 */
  tfe_tensor* s = f64(ctx, 2, k33, sq);
  TFE_OK_OR_FAIL(tfe_einsum(&tr, "ii->", 1, &s));
  const double trace = 15, d[] = {1, 5, 9}, total = 45;
  expect_doubles(tr, &trace, 1);
  TFE_OK_OR_FAIL(tfe_einsum(&diag, "ii->i", 1, &s));
  expect_doubles(diag, d, 3);
  TFE_OK_OR_FAIL(tfe_einsum(&tsum, "ij->", 1, &s));
  expect_doubles(tsum, &total, 1);

  /* A batched product: ij...,jk...->ik... is tfe_matmul's [M,K,B] x [K,N,B]. */
  const int64_t ab_shape[] = {2, 3, 4}, bb_shape[] = {3, 2, 4};
  double av[24], bv[24];
  for (int i = 0; i < 24; ++i) av[i] = 0.5 * i - 3, bv[i] = 1.0 / (i + 1);
  tfe_tensor* ba = f64(ctx, 3, ab_shape, av);
  tfe_tensor* bb = f64(ctx, 3, bb_shape, bv);
  tfe_tensor *be = NULL, *bm = NULL;
  tfe_tensor* bxs[] = {ba, bb};
  TFE_OK_OR_FAIL(tfe_einsum(&be, "ij...,jk...->ik...", 2, bxs));
  TFE_OK_OR_FAIL(tfe_matmul(&bm, ba, bb));
  expect_same(be, bm, 16);

  /* Mixed dtypes promote: I32 x F64 -> F64. */
  tfe_tensor *ai = NULL, *mixed = NULL;
  TFE_OK_OR_FAIL(tfe_cast(&ai, a, TFE_I32));
  tfe_tensor* mxs[] = {ai, b};
  TFE_OK_OR_FAIL(tfe_einsum(&mixed, "ij,jk->ik", 2, mxs));
  int32_t dt = 0;
  TFE_OK_OR_FAIL(tfe_tensor_dtype(mixed, &dt));
  assert_int_equal(dt, TFE_F64);
  expect_same(mixed, mm, 4);

  tfe_tensor* all[] = {a, b, ab, mm, ab_implicit, tr, diag, tsum, s, ba, bb, be, bm, ai, mixed};
  release_all(all, 15);
  tfe_context_release(ctx);
}

/* One failing call: the status, the message prefix and a fragment, and a NULL output. */
static void expect_error(const char* subscripts, int32_t n, tfe_tensor* const* xs,
                         tfe_status status, const char* part) {
  tfe_tensor* out = (tfe_tensor*)(void*)&out; /* garbage: must become NULL */
  tfe_status s = tfe_einsum(&out, subscripts, n, xs);
  if (s != status)
    fail_msg("\"%s\" -> %s (expected %s): %s", subscripts ? subscripts : "(null)",
             tfe_status_name(s), tfe_status_name(status), tfe_last_error_message());
  assert_null(out);
  const char* m = tfe_last_error_message();
  assert_true(strncmp(m, "tfe_einsum", 10) == 0);
  if (!contains(m, part)) fail_msg("message \"%s\" lacks \"%s\"", m, part);
}

static void test_errors(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  tfe_context* other = new_ctx();
  tfe_tensor* a = f64(ctx, 2, k23, kA);
  tfe_tensor* b = f64(ctx, 2, k32, kB);
  tfe_tensor* c = f64(other, 2, k32, kB);
  tfe_tensor* ab[] = {a, b};
  tfe_tensor* aa[] = {a, a};
  tfe_tensor* ac[] = {a, c};
  tfe_tensor* anull[] = {a, NULL};

  EXPECT_STATUS(tfe_einsum(NULL, "ij", 1, &a), TFE_ERR_INVALID_ARGUMENT, "tfe_einsum");
  expect_error(NULL, 1, &a, TFE_ERR_INVALID_ARGUMENT, "'subscripts' is NULL");
  expect_error("", 0, NULL, TFE_ERR_INVALID_ARGUMENT, "n 0 is outside 1..64");
  expect_error("ij", 65, ab, TFE_ERR_INVALID_ARGUMENT, "n 65 is outside 1..64");
  expect_error("ij", 1, NULL, TFE_ERR_INVALID_ARGUMENT, "'operands' is NULL");
  expect_error("ij,jk", 2, anull, TFE_ERR_INVALID_ARGUMENT, "operands[1] is NULL");
  expect_error("ij,jk", 2, ac, TFE_ERR_INVALID_ARGUMENT, "different contexts");
  /* malformed strings */
  expect_error("ij", 2, ab, TFE_ERR_INVALID_ARGUMENT, "subscripts \"ij\" have 1 input term but 2");
  expect_error("ij,jk->ik->i", 2, ab, TFE_ERR_INVALID_ARGUMENT, "more than one \"->\"");
  expect_error("i2,jk", 2, ab, TFE_ERR_INVALID_ARGUMENT, "invalid character '2'");
  expect_error("i.j,jk", 2, ab, TFE_ERR_INVALID_ARGUMENT, "not part of \"...\"");
  expect_error("...i...,jk", 2, ab, TFE_ERR_INVALID_ARGUMENT, "two \"...\"");
  expect_error("ij,jk->ii", 2, ab, TFE_ERR_INVALID_ARGUMENT, "output index 'i' appears twice");
  expect_error("ij,jk->iz", 2, ab, TFE_ERR_INVALID_ARGUMENT, "output index 'z' is in no input");
  expect_error("ij,jk->i,k", 2, ab, TFE_ERR_INVALID_ARGUMENT, "has a ','");
  /* shapes */
  expect_error("ij,jk->ik", 2, aa, TFE_ERR_SHAPE_MISMATCH,
               "subscripts \"ij,jk->ik\": operand 1 (term \"jk\", shape [2,3]) gives index 'j' "
               "the extent 2, but operand 0 gives it 3");
  expect_error("ijk,jk", 2, ab, TFE_ERR_INVALID_ARGUMENT,
               "operand 0 (term \"ijk\", shape [2,3]) has rank 2 but its term names 3 dims");
  expect_error("ii", 1, &a, TFE_ERR_SHAPE_MISMATCH, "repeats index 'i'");
  expect_error("...i,...j->ij", 2, aa, TFE_ERR_INVALID_ARGUMENT, "has no \"...\"");

  /* inputs unchanged: a still reads its values */
  expect_doubles(a, kA, 6);
  tfe_tensor* all[] = {a, b, c};
  release_all(all, 3);
  tfe_context_release(ctx);
  tfe_context_release(other);
}

static void test_path_and_cache(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  /* ij,jk,kl->il with extents 2, 3, 40, 5: contracting jk with kl first is cheapest. */
  const int64_t s0[] = {2, 3}, s1[] = {3, 40}, s2[] = {40, 5};
  double v[200];
  for (int i = 0; i < 200; ++i) v[i] = 0.01 * i;
  tfe_tensor* x0 = f64(ctx, 2, s0, v);
  tfe_tensor* x1 = f64(ctx, 2, s1, v);
  tfe_tensor* x2 = f64(ctx, 2, s2, v);
  tfe_tensor* xs[] = {x0, x1, x2};
  int64_t pairs[4] = {-1, -1, -1, -1};
  int32_t steps = 0, optimal = 0;
  double flops = 0, largest = 0;
  TFE_OK_OR_FAIL(
      tfe_einsum_path("ij,jk,kl->il", 3, xs, NULL, 0, &steps, &flops, &largest, &optimal));
  assert_int_equal(steps, 2);
  assert_int_equal(pairs[0], -1); /* a query writes no pairs */
  TFE_OK_OR_FAIL(tfe_einsum_path("ij,jk,kl->il", 3, xs, pairs, (int64_t)sizeof(pairs), &steps,
                                 &flops, &largest, &optimal));
  assert_int_equal(pairs[0], 1);
  assert_int_equal(pairs[1], 2);
  assert_int_equal(pairs[2], 0);
  assert_int_equal(pairs[3], 1);
  assert_true(flops == 2.0 * 3 * 40 * 5 + 2.0 * 2 * 3 * 5);
  assert_true(largest == 15);
  assert_int_equal(optimal, 1);
  EXPECT_STATUS(
      tfe_einsum_path("ij,jk,kl->il", 3, xs, pairs, 8, &steps, &flops, &largest, &optimal),
      TFE_ERR_INVALID_ARGUMENT, "tfe_einsum_path");
  assert_true(contains(tfe_last_error_message(), "capacity_bytes 8 is below the 32"));
  EXPECT_STATUS(tfe_einsum_path("ij,jk->il", 3, xs, NULL, 0, &steps, &flops, &largest, &optimal),
                TFE_ERR_INVALID_ARGUMENT, "tfe_einsum_path");
  EXPECT_STATUS(tfe_einsum_path("ij,jk,kl->il", 3, xs, NULL, 0, NULL, &flops, &largest, &optimal),
                TFE_ERR_INVALID_ARGUMENT, "tfe_einsum_path");

  /* The path queries and the einsums share one plan: one miss, then hits (the malformed
   * subscripts were looked up too, a second miss, but stored nothing). */
  int64_t hits = 0, misses = 0, entries = 0, bytes = 0;
  TFE_OK_OR_FAIL(tfe_context_cache_stats(ctx, TFE_CACHE_EINSUM, &hits, &misses, &entries, &bytes));
  assert_int_equal(misses, 2);
  assert_int_equal(hits, 2);
  assert_int_equal(entries, 1);
  assert_true(bytes > 0);
  tfe_tensor *r1 = NULL, *r2 = NULL;
  TFE_OK_OR_FAIL(tfe_einsum(&r1, "ij,jk,kl->il", 3, xs));
  TFE_OK_OR_FAIL(tfe_einsum(&r2, "ij,jk,kl->il", 3, xs));
  TFE_OK_OR_FAIL(tfe_context_cache_stats(ctx, TFE_CACHE_EINSUM, &hits, &misses, &entries, NULL));
  assert_int_equal(hits, 4);
  assert_int_equal(misses, 2);
  TFE_OK_OR_FAIL(tfe_context_cache_clear(ctx, TFE_CACHE_EINSUM));
  TFE_OK_OR_FAIL(tfe_context_cache_stats(ctx, TFE_CACHE_EINSUM, NULL, NULL, &entries, NULL));
  assert_int_equal(entries, 0);
  TFE_OK_OR_FAIL(tfe_context_cache_limits(ctx, TFE_CACHE_EINSUM, 4, 1 << 20));

  /* The result equals the naive order (x0 x1) x2. */
  tfe_tensor *m01 = NULL, *naive = NULL;
  TFE_OK_OR_FAIL(tfe_matmul(&m01, x0, x1));
  TFE_OK_OR_FAIL(tfe_matmul(&naive, m01, x2));
  double got[10], want[10];
  read_into(r1, got, sizeof(got));
  read_into(naive, want, sizeof(want));
  for (int i = 0; i < 10; ++i) assert_true(fabs(got[i] - want[i]) < 1e-9 * (1 + fabs(want[i])));
  tfe_tensor* all[] = {x0, x1, x2, r1, r2, m01, naive};
  release_all(all, 7);
  tfe_context_release(ctx);
}

/* The companions against loops over column-major data: tensordot, outer, kron and trace. */
static void test_companions(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  /* tensordot: a [2,3,4], b [4,3,5]; axes (1,2) of a with (1,0) of b -> [2,5]. */
  const int64_t sa[] = {2, 3, 4}, sb[] = {4, 3, 5};
  double av[24], bv[60];
  for (int i = 0; i < 24; ++i) av[i] = 0.25 * i - 2;
  for (int i = 0; i < 60; ++i) bv[i] = 1.0 / (i + 1) - 0.1;
  tfe_tensor* a = f64(ctx, 3, sa, av);
  tfe_tensor* b = f64(ctx, 3, sb, bv);
  const int64_t axes_a[] = {1, -1}, axes_b[] = {1, 0};
  tfe_tensor *td = NULL, *op = NULL, *kr = NULL, *kv = NULL, *tr = NULL, *tr_up = NULL,
             *tr_low = NULL, *tr_far = NULL;
  TFE_OK_OR_FAIL(tfe_tensordot(&td, a, b, 2, axes_a, axes_b));
  double want_td[10];
  for (int i = 0; i < 2; ++i)
    for (int l = 0; l < 5; ++l) {
      double sum = 0;
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 4; ++k) sum += av[i + 2 * j + 6 * k] * bv[k + 4 * j + 12 * l];
      want_td[i + 2 * l] = sum;
    }
  expect_doubles(td, want_td, 10);

  /* outer of a [2,3] matrix and a [3] vector: [2,3,3], out[i,j,k] = m[i,j] v[k]. */
  const int64_t s23[] = {2, 3}, s3[] = {3}, s22[] = {2, 2};
  const double mv[] = {1, -1, 2, 0.5, 3, -2}, vv[] = {2, 5, -1}, cv[] = {1, 2, 3, 4};
  tfe_tensor* m = f64(ctx, 2, s23, mv);
  tfe_tensor* v = f64(ctx, 1, s3, vv);
  tfe_tensor* c = f64(ctx, 2, s22, cv);
  TFE_OK_OR_FAIL(tfe_outer(&op, m, v));
  double want_op[18];
  for (int i = 0; i < 6; ++i)
    for (int k = 0; k < 3; ++k) want_op[i + 6 * k] = mv[i] * vv[k];
  expect_doubles(op, want_op, 18);

  /* kron(m [2,3], c [2,2]) = [4,6]: element (i*2+k, j*2+l) = m[i,j] c[k,l]. */
  TFE_OK_OR_FAIL(tfe_kron(&kr, m, c));
  int32_t nd = 0;
  int64_t shape[4];
  TFE_OK_OR_FAIL(tfe_tensor_ndim(kr, &nd));
  TFE_OK_OR_FAIL(tfe_tensor_shape(kr, shape));
  assert_int_equal(nd, 2);
  assert_int_equal(shape[0], 4);
  assert_int_equal(shape[1], 6);
  double want_kr[24];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 2; ++k)
        for (int l = 0; l < 2; ++l)
          want_kr[(i * 2 + k) + 4 * (j * 2 + l)] = mv[i + 2 * j] * cv[k + 2 * l];
  expect_doubles(kr, want_kr, 24);
  /* kron(c [2,2], v [3]): v is a column [3,1] -> [6,2]. */
  TFE_OK_OR_FAIL(tfe_kron(&kv, c, v));
  TFE_OK_OR_FAIL(tfe_tensor_shape(kv, shape));
  assert_int_equal(shape[0], 6);
  assert_int_equal(shape[1], 2);
  double want_kv[12];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 3; ++k) want_kv[(i * 3 + k) + 6 * j] = cv[i + 2 * j] * vv[k];
  expect_doubles(kv, want_kv, 12);

  /* trace of a [2,3,4] batch (4 matrices 2x3): diagonal (0,0),(1,1); offset 1: (0,1),(1,2);
   * offset -1: (1,0); offset 5: nothing. */
  TFE_OK_OR_FAIL(tfe_trace(&tr, a, 0));
  TFE_OK_OR_FAIL(tfe_trace(&tr_up, a, 1));
  TFE_OK_OR_FAIL(tfe_trace(&tr_low, a, -1));
  TFE_OK_OR_FAIL(tfe_trace(&tr_far, a, 5));
  double want_tr[4], want_up[4], want_low[4], zeros[4] = {0, 0, 0, 0};
  for (int bt = 0; bt < 4; ++bt) {
    const double* x = av + 6 * bt; /* x[i + 2 j] */
    want_tr[bt] = x[0] + x[1 + 2];
    want_up[bt] = x[0 + 2] + x[1 + 4];
    want_low[bt] = x[1];
  }
  expect_doubles(tr, want_tr, 4);
  expect_doubles(tr_up, want_up, 4);
  expect_doubles(tr_low, want_low, 4);
  expect_doubles(tr_far, zeros, 4);

  /* errors: the public name, the offending values, NULL outputs, inputs unchanged */
  tfe_tensor* out = (tfe_tensor*)(void*)&out;
  const int64_t bad_b[] = {0, 1};
  EXPECT_STATUS(tfe_tensordot(&out, a, b, 2, axes_a, bad_b), TFE_ERR_SHAPE_MISMATCH,
                "tfe_tensordot: axis 1 of a has extent 3 but axis 0 of b has 4");
  assert_null(out);
  const int64_t twice[] = {1, 1};
  out = (tfe_tensor*)(void*)&out;
  EXPECT_STATUS(tfe_tensordot(&out, a, b, 2, twice, axes_b), TFE_ERR_INVALID_ARGUMENT,
                "tfe_tensordot: axis 1 of a is listed twice");
  assert_null(out);
  EXPECT_STATUS(tfe_tensordot(&out, a, b, -1, axes_a, axes_b), TFE_ERR_INVALID_ARGUMENT,
                "tfe_tensordot");
  EXPECT_STATUS(tfe_tensordot(&out, a, b, 1, NULL, axes_b), TFE_ERR_INVALID_ARGUMENT,
                "tfe_tensordot");
  assert_true(contains(tfe_last_error_message(), "'axes_a' is NULL"));
  const int64_t far[] = {7};
  EXPECT_STATUS(tfe_tensordot(&out, a, b, 1, far, axes_b), TFE_ERR_INVALID_ARGUMENT,
                "tfe_tensordot");
  assert_true(contains(tfe_last_error_message(), "axis 7 is out of range for rank 3"));
  EXPECT_STATUS(tfe_trace(&out, v, 0), TFE_ERR_INVALID_ARGUMENT,
                "tfe_trace: x has rank 1; the trace needs the two matrix dims");
  assert_null(out);
  EXPECT_STATUS(tfe_kron(NULL, a, b), TFE_ERR_INVALID_ARGUMENT, "tfe_kron");
  EXPECT_STATUS(tfe_outer(&out, a, NULL), TFE_ERR_INVALID_ARGUMENT, "tfe_outer");
  assert_null(out);
  expect_doubles(a, av, 24);

  tfe_tensor* all[] = {a, b, m, v, c, td, op, kr, kv, tr, tr_up, tr_low, tr_far};
  release_all(all, 13);
  tfe_context_release(ctx);
}

/* d/dA sum(W * kron(A, B)) eagerly and in a dataflow context: W's blocks dotted with B. */
static void kron_grad(tfe_context* ctx, double* ga) {
  const int64_t s22[] = {2, 2}, s44[] = {4, 4};
  const double av[] = {1, 2, 3, 4}, bv[] = {0.5, -1, 2, 1.5};
  double wv[16];
  for (int i = 0; i < 16; ++i) wv[i] = 0.1 * i - 0.7;
  tfe_tensor* a = var_f64(ctx, 2, s22, av);
  tfe_tensor* b = f64(ctx, 2, s22, bv);
  tfe_tensor* w = f64(ctx, 2, s44, wv);
  tfe_tensor *k = NULL, *t = NULL, *loss = NULL, *da = NULL;
  TFE_OK_OR_FAIL(tfe_kron(&k, a, b));
  TFE_OK_OR_FAIL(tfe_mul(&t, k, w));
  TFE_OK_OR_FAIL(tfe_sum(&loss, t, 0, NULL));
  TFE_OK_OR_FAIL(tfe_backward(loss, NULL));
  TFE_OK_OR_FAIL(tfe_tensor_grad(&da, a));
  read_into(da, ga, 4 * (int64_t)sizeof(double));
  tfe_tensor* all[] = {a, b, w, k, t, loss, da};
  release_all(all, 7);
}

static void test_companion_gradients(void** state) {
  (void)state;
  const double bv[] = {0.5, -1, 2, 1.5};
  double want[4];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      double s = 0;
      for (int k = 0; k < 2; ++k)
        for (int l = 0; l < 2; ++l) {
          int r = i * 2 + k, col = j * 2 + l;
          s += (0.1 * (r + 4 * col) - 0.7) * bv[k + 2 * l];
        }
      want[i + 2 * j] = s;
    }
  double ga[4];
  tfe_context* eager = new_ctx();
  kron_grad(eager, ga);
  for (int i = 0; i < 4; ++i) assert_true(fabs(ga[i] - want[i]) < 1e-12);
  tfe_context* flow = NULL;
  TFE_OK_OR_FAIL(tfe_context_create_dataflow(&flow, TFE_SCHEDULER_THREADS, 2));
  kron_grad(flow, ga);
  for (int i = 0; i < 4; ++i) assert_true(fabs(ga[i] - want[i]) < 1e-12);
  tfe_context_release(eager);
  tfe_context_release(flow);
}

/* loss = sum(einsum("ij,jk->ik", A, B) * W) in ctx; writes dloss/dA (2x3) and dloss/dB (3x2). */
static void bilinear_grads(tfe_context* ctx, double* ga, double* gb) {
  const double wv[] = {1, -2, 0.5, 3};
  const int64_t k22[] = {2, 2};
  tfe_tensor* a = var_f64(ctx, 2, k23, kA);
  tfe_tensor* b = var_f64(ctx, 2, k32, kB);
  tfe_tensor* w = f64(ctx, 2, k22, wv);
  tfe_tensor *ab = NULL, *t = NULL, *loss = NULL, *da = NULL, *db = NULL;
  tfe_tensor* xs[] = {a, b};
  TFE_OK_OR_FAIL(tfe_einsum(&ab, "ij,jk->ik", 2, xs));
  TFE_OK_OR_FAIL(tfe_mul(&t, ab, w));
  TFE_OK_OR_FAIL(tfe_sum(&loss, t, 0, NULL));
  TFE_OK_OR_FAIL(tfe_backward(loss, NULL));
  TFE_OK_OR_FAIL(tfe_tensor_grad(&da, a));
  TFE_OK_OR_FAIL(tfe_tensor_grad(&db, b));
  read_into(da, ga, 6 * (int64_t)sizeof(double));
  read_into(db, gb, 6 * (int64_t)sizeof(double));
  tfe_tensor* all[] = {a, b, w, ab, t, loss, da, db};
  release_all(all, 8);
}

static void test_gradients_eager_and_dataflow(void** state) {
  (void)state;
  /* dL/dA = W B^T, dL/dB = A^T W, in column-major. */
  const double w[2][2] = {{1, 0.5}, {-2, 3}}; /* w[i][k] */
  double a[2][3], b[3][2], want_a[6], want_b[6];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) a[i][j] = kA[i + 2 * j];
  for (int j = 0; j < 3; ++j)
    for (int k = 0; k < 2; ++k) b[j][k] = kB[j + 3 * k];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) {
      double s = 0;
      for (int k = 0; k < 2; ++k) s += w[i][k] * b[j][k];
      want_a[i + 2 * j] = s;
    }
  for (int j = 0; j < 3; ++j)
    for (int k = 0; k < 2; ++k) {
      double s = 0;
      for (int i = 0; i < 2; ++i) s += a[i][j] * w[i][k];
      want_b[j + 3 * k] = s;
    }
  double ga[6], gb[6];
  tfe_context* eager = new_ctx();
  bilinear_grads(eager, ga, gb);
  for (int i = 0; i < 6; ++i) {
    assert_true(fabs(ga[i] - want_a[i]) < 1e-12);
    assert_true(fabs(gb[i] - want_b[i]) < 1e-12);
  }
  tfe_context* flow = NULL;
  TFE_OK_OR_FAIL(tfe_context_create_dataflow(&flow, TFE_SCHEDULER_THREADS, 2));
  bilinear_grads(flow, ga, gb);
  for (int i = 0; i < 6; ++i) {
    assert_true(fabs(ga[i] - want_a[i]) < 1e-12);
    assert_true(fabs(gb[i] - want_b[i]) < 1e-12);
  }
  tfe_context_release(eager);
  tfe_context_release(flow);
}

static void test_traced_program(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  /* A symbolic batch extent: the plan is made at trace time, shapes bind at call time. */
  const int64_t sa[] = {2, 3, -1}, sb[] = {3, 2, -1};
  tfe_tensor *xa = NULL, *xb = NULL, *y = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_symbolic(&xa, ctx, TFE_F64, 3, sa));
  TFE_OK_OR_FAIL(tfe_tensor_symbolic(&xb, ctx, TFE_F64, 3, sb));
  tfe_tensor* in[] = {xa, xb};
  TFE_OK_OR_FAIL(tfe_einsum(&y, "ij...,jk...->ki...", 2, in));
  tfe_function* f = NULL;
  TFE_OK_OR_FAIL(tfe_function_create(&f, 2, in, 1, &y));
  const int64_t ca[] = {2, 3, 4}, cb[] = {3, 2, 4};
  double av[24], bv[24];
  for (int i = 0; i < 24; ++i) av[i] = 0.25 * i, bv[i] = 2.0 - 0.125 * i;
  tfe_tensor* a = f64(ctx, 3, ca, av);
  tfe_tensor* b = f64(ctx, 3, cb, bv);
  tfe_tensor* args[] = {a, b};
  tfe_tensor *traced = NULL, *eager = NULL;
  TFE_OK_OR_FAIL(tfe_function_call1(&traced, f, 2, args));
  TFE_OK_OR_FAIL(tfe_einsum(&eager, "ij...,jk...->ki...", 2, args));
  expect_same(traced, eager, 16);
  tfe_function_release(f);
  tfe_tensor* all[] = {xa, xb, y, a, b, traced, eager};
  release_all(all, 7);
  tfe_context_release(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_results, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_errors, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_path_and_cache, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_gradients_eager_and_dataflow, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_traced_program, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_companions, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_companion_gradients, leak_setup, leak_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
