/* NumPy's shape helpers, linspace/logspace, the *_like constructors and the linalg companions
 * matrix_rank, logdet and cholesky_solve through the C API: values against index arithmetic done
 * here (column-major, dim 0 fastest), eager derivatives, and the errors. */
#include "eager_testing.h"

static void expect_shape(const tfe_tensor* t, int32_t ndim, const int64_t* shape) {
  int32_t got = -1;
  TFE_OK_OR_FAIL(tfe_tensor_ndim(t, &got));
  assert_int_equal(got, ndim);
  int64_t dims[8] = {0};
  TFE_OK_OR_FAIL(tfe_tensor_shape(t, dims));
  for (int32_t i = 0; i < ndim; ++i) assert_int_equal(dims[i], shape[i]);
}

/* x[i, j] = 10 i + j + 1 on [2,3], column-major. */
static tfe_tensor* grid23(tfe_context* ctx, double* v) {
  const int64_t s[] = {2, 3};
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 2; ++i) v[i + 2 * j] = 10 * i + j + 1;
  return f64(ctx, 2, s, v);
}

static void test_views(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t s1213[] = {1, 2, 1, 3};
  double v[6];
  for (int i = 0; i < 6; ++i) v[i] = i + 1;
  tfe_tensor* x = f64(ctx, 4, s1213, v);
  tfe_tensor *sq = NULL, *sq2 = NULL, *ex = NULL, *mv = NULL, *sw = NULL, *fl = NULL;
  TFE_OK_OR_FAIL(tfe_squeeze(&sq, x, 0, NULL));
  const int64_t s23[] = {2, 3}, s2113[] = {2, 1, 3}, a2[] = {-2};
  expect_shape(sq, 2, s23);
  expect_doubles(sq, v, 6);
  TFE_OK_OR_FAIL(tfe_squeeze(&sq2, x, 1, a2));
  const int64_t s123[] = {1, 2, 3};
  expect_shape(sq2, 3, s123);
  const int64_t at[] = {1};
  TFE_OK_OR_FAIL(tfe_expand_dims(&ex, sq, 1, at));
  expect_shape(ex, 3, s2113);
  const int64_t src[] = {0}, dst[] = {-1};
  TFE_OK_OR_FAIL(tfe_moveaxis(&mv, ex, 1, src, dst));
  const int64_t s132[] = {1, 3, 2};
  expect_shape(mv, 3, s132);
  TFE_OK_OR_FAIL(tfe_swapaxes(&sw, sq, 0, 1));
  const int64_t s32[] = {3, 2};
  expect_shape(sw, 2, s32);
  double want[6];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) want[j + 3 * i] = v[i + 2 * j];
  expect_doubles(sw, want, 6);
  TFE_OK_OR_FAIL(tfe_flatten(&fl, sw));
  const int64_t s6[] = {6};
  expect_shape(fl, 1, s6);
  expect_doubles(fl, want, 6);
  tfe_tensor* out = NULL;
  const int64_t bad[] = {1};
  EXPECT_STATUS(tfe_squeeze(&out, x, 1, bad), TFE_ERR_INVALID_ARGUMENT, "tfe_squeeze");
  assert_null(out);
  const int64_t twice[] = {0, 0};
  EXPECT_STATUS(tfe_expand_dims(&out, x, 2, twice), TFE_ERR_INVALID_ARGUMENT, "tfe_expand_dims");
  EXPECT_STATUS(tfe_swapaxes(&out, x, 0, 4), TFE_ERR_INVALID_ARGUMENT, "tfe_swapaxes");
  assert_null(out);
  tfe_tensor* all[] = {x, sq, sq2, ex, mv, sw, fl};
  release_all(all, 7);
  tfe_context_release(ctx);
}

static void test_split(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  double v[6];
  tfe_tensor* x = grid23(ctx, v);
  tfe_tensor* parts[3] = {NULL, NULL, NULL};
  TFE_OK_OR_FAIL(tfe_split(parts, 3, x, 0, NULL, 1));
  const int64_t s21[] = {2, 1};
  for (int k = 0; k < 3; ++k) {
    expect_shape(parts[k], 2, s21);
    expect_doubles(parts[k], v + 2 * k, 2);
    tfe_tensor_release(parts[k]);
  }
  /* Points 1 and -1 of extent 3: [0:1], [1:2], [2:3]; point 5 clamps to the end. */
  const int64_t pts[] = {1, 5};
  tfe_tensor* two[3] = {NULL, NULL, NULL};
  TFE_OK_OR_FAIL(tfe_split(two, 3, x, 2, pts, -1));
  const int64_t s22[] = {2, 2}, s20[] = {2, 0};
  expect_shape(two[1], 2, s22);
  expect_doubles(two[1], v + 2, 4);
  expect_shape(two[2], 2, s20);
  release_all(two, 3);
  tfe_tensor* keep[2] = {x, x}; /* overwritten with NULL on failure */
  EXPECT_STATUS(tfe_split(keep, 2, x, 0, NULL, 1), TFE_ERR_INVALID_ARGUMENT, "tfe_split");
  assert_null(keep[0]);
  assert_null(keep[1]);
  EXPECT_STATUS(tfe_split(keep, 2, x, 2, pts, 1), TFE_ERR_INVALID_ARGUMENT, "tfe_split");
  tfe_tensor_release(x);
  tfe_context_release(ctx);
}

static void test_tile_repeat_roll(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  double v[6];
  tfe_tensor* x = grid23(ctx, v);
  tfe_tensor *t = NULL, *r1 = NULL, *r2 = NULL, *ro = NULL, *rf = NULL;
  const int64_t reps[] = {2, 1, 2};
  TFE_OK_OR_FAIL(tfe_tile(&t, x, 3, reps));
  const int64_t s432[] = {4, 3, 2};
  expect_shape(t, 3, s432);
  double want[24];
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 4; ++i) want[i + 4 * j + 12 * k] = v[i % 2 + 2 * j];
  expect_doubles(t, want, 24);
  const int64_t three[] = {3}, counts[] = {0, 2, 1};
  TFE_OK_OR_FAIL(tfe_repeat(&r1, x, 1, three, 0));
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 6; ++i) want[i + 6 * j] = v[i / 3 + 2 * j];
  expect_doubles(r1, want, 18);
  TFE_OK_OR_FAIL(tfe_repeat(&r2, x, 3, counts, 1));
  const int64_t s23[] = {2, 3};
  expect_shape(r2, 2, s23);
  const int cols[] = {1, 1, 2};
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 2; ++i) want[i + 2 * j] = v[i + 2 * cols[j]];
  expect_doubles(r2, want, 6);
  const int64_t sh[] = {1}, ax[] = {1};
  TFE_OK_OR_FAIL(tfe_roll(&ro, x, 1, sh, 1, ax));
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 2; ++i) want[i + 2 * ((j + 1) % 3)] = v[i + 2 * j];
  expect_doubles(ro, want, 6);
  const int64_t back[] = {-2};
  TFE_OK_OR_FAIL(tfe_roll(&rf, x, 1, back, 0, NULL));
  for (int i = 0; i < 6; ++i) want[(i + 4) % 6] = v[i];
  expect_doubles(rf, want, 6);
  tfe_tensor* out = NULL;
  const int64_t two[] = {1, 2};
  EXPECT_STATUS(tfe_repeat(&out, x, 2, two, 1), TFE_ERR_INVALID_ARGUMENT, "tfe_repeat");
  EXPECT_STATUS(tfe_roll(&out, x, 2, two, 1, ax), TFE_ERR_INVALID_ARGUMENT, "tfe_roll");
  const int64_t neg[] = {-1};
  EXPECT_STATUS(tfe_tile(&out, x, 1, neg), TFE_ERR_INVALID_ARGUMENT, "tfe_tile");
  assert_null(out);
  tfe_tensor* all[] = {x, t, r1, r2, ro, rf};
  release_all(all, 6);
  tfe_context_release(ctx);
}

static void test_diagonals(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const double d[] = {1, 2, 3};
  tfe_tensor *v = vec_f64(ctx, 3, d), *m = NULL, *back = NULL, *dg = NULL, *bt = NULL;
  TFE_OK_OR_FAIL(tfe_diag(&m, v, -1));
  const int64_t s44[] = {4, 4};
  expect_shape(m, 2, s44);
  double want[16] = {0};
  for (int i = 0; i < 3; ++i) want[(i + 1) + 4 * i] = d[i];
  expect_doubles(m, want, 16);
  TFE_OK_OR_FAIL(tfe_diag(&back, m, -1));
  expect_doubles(back, d, 3);
  /* [2,3,2]: the offset-1 diagonal of each matrix, as dim 0 of [2,2]. */
  const int64_t s232[] = {2, 3, 2};
  double b[12];
  for (int i = 0; i < 12; ++i) b[i] = i;
  tfe_tensor* x = f64(ctx, 3, s232, b);
  TFE_OK_OR_FAIL(tfe_diagonal(&dg, x, 1, 0, 1));
  const int64_t s22[] = {2, 2};
  expect_shape(dg, 2, s22);
  for (int k = 0; k < 2; ++k)
    for (int i = 0; i < 2; ++i) want[i + 2 * k] = b[i + 2 * (i + 1) + 6 * k];
  expect_doubles(dg, want, 4);
  /* Dims (1, 2) with dim 0 as batch: the diagonal moves to dim 0, the batch dim after it. */
  TFE_OK_OR_FAIL(tfe_diagonal(&bt, x, 0, 1, 2));
  expect_shape(bt, 2, s22);
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 2; ++k) want[i + 2 * k] = b[k + 2 * i + 6 * i];
  expect_doubles(bt, want, 4);
  tfe_tensor* out = NULL;
  EXPECT_STATUS(tfe_diagonal(&out, x, 0, 1, -2), TFE_ERR_INVALID_ARGUMENT, "tfe_diagonal");
  EXPECT_STATUS(tfe_diag(&out, x, 0), TFE_ERR_INVALID_ARGUMENT, "tfe_diag");
  assert_null(out);
  tfe_tensor* all[] = {v, m, back, x, dg, bt};
  release_all(all, 6);
  tfe_context_release(ctx);
}

/* d sum(w * tile(x)) and d sum(w * roll(x)) by backward against the index maps. */
static void test_derivatives(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t s23[] = {2, 3};
  double v[6];
  for (int i = 0; i < 6; ++i) v[i] = 0.5 * i - 1;
  tfe_tensor* x = var_f64(ctx, 2, s23, v);
  tfe_tensor *t = NULL, *r = NULL, *rp = NULL, *st = NULL, *sr = NULL, *srp = NULL, *a = NULL,
             *loss = NULL, *g = NULL;
  const int64_t reps[] = {1, 2}, sh[] = {1}, ax[] = {0}, counts[] = {3, 0, 1};
  TFE_OK_OR_FAIL(tfe_tile(&t, x, 2, reps));
  TFE_OK_OR_FAIL(tfe_roll(&r, x, 1, sh, 1, ax));
  TFE_OK_OR_FAIL(tfe_repeat(&rp, x, 3, counts, 1));
  TFE_OK_OR_FAIL(tfe_sum(&st, t, 0, NULL));
  TFE_OK_OR_FAIL(tfe_mul(&sr, r, r)); /* sum(roll(x)^2) = sum(x^2): gradient 2x */
  tfe_tensor* ssr = NULL;
  TFE_OK_OR_FAIL(tfe_sum(&ssr, sr, 0, NULL));
  TFE_OK_OR_FAIL(tfe_sum(&srp, rp, 0, NULL));
  TFE_OK_OR_FAIL(tfe_add(&a, st, ssr));
  TFE_OK_OR_FAIL(tfe_add(&loss, a, srp));
  TFE_OK_OR_FAIL(tfe_backward(loss, NULL));
  TFE_OK_OR_FAIL(tfe_tensor_grad(&g, x));
  double want[6];
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 2; ++i) want[i + 2 * j] = 2 + 2 * v[i + 2 * j] + (double)counts[j];
  expect_doubles(g, want, 6);
  tfe_tensor* all[] = {x, t, r, rp, st, sr, ssr, srp, a, loss, g};
  release_all(all, 11);
  tfe_context_release(ctx);
}

static void test_creation(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const double a = -1, b = 2;
  tfe_tensor *l = NULL, *lo = NULL, *lc = NULL, *lg = NULL;
  TFE_OK_OR_FAIL(tfe_linspace(&l, ctx, TFE_F64, a, 0, b, 0, 7, 1));
  double want[8];
  for (int i = 0; i < 7; ++i) want[i] = a + i * (b - a) / 6;
  want[6] = b;
  expect_doubles(l, want, 7);
  TFE_OK_OR_FAIL(tfe_linspace(&lo, ctx, TFE_F64, a, 0, b, 0, 3, 0));
  for (int i = 0; i < 3; ++i) want[i] = a + i * (b - a) / 3;
  expect_doubles(lo, want, 3);
  TFE_OK_OR_FAIL(tfe_linspace(&lc, ctx, TFE_C64, 0, 1, 2, -1, 3, 1));
  const double complex wz[] = {I, 1.0, 2.0 - I};
  expect_complex(lc, wz, 3);
  TFE_OK_OR_FAIL(tfe_logspace(&lg, ctx, TFE_F64, a, 0, b, 0, 4, 1, 2.0));
  for (int i = 0; i < 4; ++i) want[i] = pow(2.0, a + i);
  expect_doubles(lg, want, 4);
  tfe_tensor* out = NULL;
  EXPECT_STATUS(tfe_linspace(&out, ctx, TFE_I32, a, 0, b, 0, 3, 1), TFE_ERR_DTYPE_MISMATCH,
                "tfe_linspace");
  EXPECT_STATUS(tfe_linspace(&out, ctx, TFE_F64, a, 0, b, 0, -1, 1), TFE_ERR_INVALID_ARGUMENT,
                "tfe_linspace");
  EXPECT_STATUS(tfe_logspace(&out, ctx, TFE_F64, a, 0, b, 0, 3, 2, 10), TFE_ERR_INVALID_ARGUMENT,
                "tfe_logspace");
  assert_null(out);

  double v[6];
  tfe_tensor* x = grid23(ctx, v);
  tfe_tensor *z = NULL, *o = NULL, *f = NULL;
  TFE_OK_OR_FAIL(tfe_zeros_like(&z, x, -1));
  TFE_OK_OR_FAIL(tfe_ones_like(&o, x, TFE_I32));
  const float seven = 7;
  TFE_OK_OR_FAIL(tfe_full_like(&f, x, TFE_F32, &seven));
  const int64_t s23[] = {2, 3};
  expect_shape(z, 2, s23);
  expect_shape(f, 2, s23);
  int32_t dt = -1;
  TFE_OK_OR_FAIL(tfe_tensor_dtype(o, &dt));
  assert_int_equal(dt, TFE_I32);
  int32_t ones[6];
  read_into(o, ones, sizeof ones);
  float sevens[6];
  read_into(f, sevens, sizeof sevens);
  for (int i = 0; i < 6; ++i) want[i] = 0;
  expect_doubles(z, want, 6);
  for (int i = 0; i < 6; ++i) {
    assert_int_equal(ones[i], 1);
    assert_true(sevens[i] == 7.0f);
  }
  EXPECT_STATUS(tfe_full_like(&out, x, -1, NULL), TFE_ERR_INVALID_ARGUMENT, "tfe_full_like");
  EXPECT_STATUS(tfe_zeros_like(&out, x, 99), TFE_ERR_INVALID_ARGUMENT, "tfe_zeros_like");
  assert_null(out);
  tfe_tensor* all[] = {l, lo, lc, lg, x, z, o, f};
  release_all(all, 8);
  tfe_context_release(ctx);
}

/* rank of a rank-2 4x3 product, logdet against slogdet, cholesky_solve against solve. */
static void test_linalg(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t s43[] = {4, 3}, s33[] = {3, 3}, s32[] = {3, 2};
  double m[12];
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 4; ++i) m[i + 4 * j] = (i + 1.0) * (j + 1.0) + (i == 0 ? j : 0);
  tfe_tensor *a = f64(ctx, 2, s43, m), *rank = NULL, *rank_abs = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_matrix_rank(&rank, a, 0, NULL));
  int64_t got = -1;
  read_into(rank, &got, sizeof got);
  assert_int_equal(got, 2);
  TFE_OK_OR_FAIL(tfe_linalg_matrix_rank(&rank_abs, a, 1e6, NULL));
  read_into(rank_abs, &got, sizeof got);
  assert_int_equal(got, 0);

  /* L lower with a positive diagonal; A = L L^T. */
  double lv[9] = {0}, bv[6];
  for (int j = 0; j < 3; ++j)
    for (int i = j; i < 3; ++i) lv[i + 3 * j] = i == j ? 2.0 + i : 0.5 * (i - j) - 0.25;
  for (int i = 0; i < 6; ++i) bv[i] = i - 2.5;
  tfe_tensor *l = f64(ctx, 2, s33, lv), *bb = f64(ctx, 2, s32, bv), *lt = NULL, *aa = NULL,
             *x = NULL, *ref = NULL, *ld = NULL, *sign = NULL, *logabs = NULL;
  const int64_t perm[] = {1, 0};
  TFE_OK_OR_FAIL(tfe_transpose(&lt, l, 2, perm));
  TFE_OK_OR_FAIL(tfe_matmul(&aa, l, lt));
  TFE_OK_OR_FAIL(tfe_linalg_cholesky_solve(&x, l, bb, NULL));
  TFE_OK_OR_FAIL(tfe_linalg_solve(&ref, aa, bb));
  double want[6];
  read_into(ref, want, sizeof want);
  expect_doubles(x, want, 6);
  TFE_OK_OR_FAIL(tfe_linalg_logdet(&ld, aa));
  TFE_OK_OR_FAIL(tfe_linalg_slogdet(&sign, &logabs, aa));
  read_into(logabs, want, sizeof(double));
  expect_doubles(ld, want, 1);

  /* A negative determinant gives NaN (real input). */
  double neg[9] = {0};
  neg[0] = -1, neg[4] = 2, neg[8] = 3;
  tfe_tensor *n = f64(ctx, 2, s33, neg), *nl = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_logdet(&nl, n));
  double nan_value = 0;
  read_into(nl, &nan_value, sizeof nan_value);
  assert_true(isnan(nan_value));
  tfe_tensor* out = NULL;
  EXPECT_STATUS(tfe_linalg_logdet(&out, a), TFE_ERR_SHAPE_MISMATCH, "tfe_linalg_logdet");
  EXPECT_STATUS(tfe_linalg_cholesky_solve(&out, a, bb, NULL), TFE_ERR_SHAPE_MISMATCH,
                "tfe_linalg_cholesky_solve");
  EXPECT_STATUS(tfe_linalg_matrix_rank(&out, a, NAN, NULL), TFE_ERR_INVALID_ARGUMENT,
                "tfe_linalg_matrix_rank");
  assert_null(out);
  tfe_tensor* all[] = {a, rank, rank_abs, l, bb, lt, aa, x, ref, ld, sign, logabs, n, nl};
  release_all(all, 14);
  tfe_context_release(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_views, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_split, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_tile_repeat_roll, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_diagonals, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_derivatives, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_creation, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_linalg, leak_setup, leak_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
