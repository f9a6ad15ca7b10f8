/* Linalg through the C ABI: the fixed signatures of include/tenferro/linalg.h for every float
 * dtype, batched and broadcast, the status conventions ("Small semantics pinned here"), all-or-none
 * multi-output results, and first-order derivatives through eager AD against closed forms. */
#include <stdlib.h>

#include "eager_testing.h"

static const int32_t kFloatDtypes[] = {TFE_F32, TFE_F64, TFE_C32, TFE_C64};

/* t converted to F64 (real part for complex) read into dst. */
static void read_real(const tfe_tensor* t, double* dst, int64_t n) {
  int32_t dtype = 0;
  TFE_OK_OR_FAIL(tfe_tensor_dtype(t, &dtype));
  tfe_tensor *re = NULL, *f = NULL;
  if (dtype == TFE_C32 || dtype == TFE_C64) {
    TFE_OK_OR_FAIL(tfe_real(&re, t));
    t = re;
  }
  TFE_OK_OR_FAIL(tfe_cast(&f, t, TFE_F64));
  TFE_OK_OR_FAIL(tfe_tensor_to_data(f, dst, n * (int64_t)sizeof(double)));
  tfe_tensor_release(f);
  tfe_tensor_release(re);
}

static void expect_real(const tfe_tensor* t, const double* want, int64_t n, double tol) {
  double got[64];
  assert_true(n <= 64);
  read_real(t, got, n);
  for (int64_t i = 0; i < n; ++i)
    if (fabs(got[i] - want[i]) > tol * (1 + fabs(want[i])))
      fail_msg("element %lld: got %.10g, want %.10g", (long long)i, got[i], want[i]);
}

static tfe_tensor* matrix(tfe_context* ctx, int32_t dtype, int32_t ndim, const int64_t* shape,
                          const double* v) {
  tfe_tensor *f = NULL, *t = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&f, ctx, TFE_F64, ndim, shape, NULL, v));
  TFE_OK_OR_FAIL(tfe_cast(&t, f, dtype));
  tfe_tensor_release(f);
  return t;
}

static double tol_of(int32_t dtype) { return dtype == TFE_F32 || dtype == TFE_C32 ? 1e-5 : 1e-12; }

/* A = [[4,1],[2,3]] (column-major 4,2,1,3): det 10, inv [[3,-1],[-2,4]]/10. */
static const int64_t k22[] = {2, 2};
static const double kA[] = {4, 2, 1, 3};

static void test_solve_inv_det_every_dtype(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t b_shape[] = {2, 1};
  const double bv[] = {1, 2};
  for (int k = 0; k < 4; ++k) {
    int32_t d = kFloatDtypes[k];
    tfe_tensor* a = matrix(ctx, d, 2, k22, kA);
    tfe_tensor* b = matrix(ctx, d, 2, b_shape, bv);
    tfe_tensor *x = NULL, *inv = NULL, *det = NULL, *sign = NULL, *logabs = NULL;
    TFE_OK_OR_FAIL(tfe_linalg_solve(&x, a, b));
    const double want_x[] = {0.1, 0.6};
    expect_real(x, want_x, 2, tol_of(d));
    TFE_OK_OR_FAIL(tfe_linalg_inv(&inv, a));
    const double want_inv[] = {0.3, -0.2, -0.1, 0.4};
    expect_real(inv, want_inv, 4, tol_of(d));
    TFE_OK_OR_FAIL(tfe_linalg_det(&det, a));
    const double ten = 10, one = 1, log10v = log(10.0);
    expect_real(det, &ten, 1, tol_of(d));
    TFE_OK_OR_FAIL(tfe_linalg_slogdet(&sign, &logabs, a));
    expect_real(sign, &one, 1, tol_of(d));
    expect_real(logabs, &log10v, 1, tol_of(d));
    int32_t dt = 0;
    TFE_OK_OR_FAIL(tfe_tensor_dtype(logabs, &dt));
    assert_int_equal(dt, d == TFE_F32 || d == TFE_C32 ? TFE_F32 : TFE_F64);
    TFE_OK_OR_FAIL(tfe_tensor_dtype(sign, &dt));
    assert_int_equal(dt, d);
    tfe_tensor* all[] = {a, b, x, inv, det, sign, logabs};
    release_all(all, 7);
  }
  tfe_context_release(ctx);
}

/* a [2,2,3] against b [2,1] (broadcast batch); mixed F32 a with F64 b promotes to F64. */
static void test_solve_batched_broadcast_promoted(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t a_shape[] = {2, 2, 3}, b_shape[] = {2, 1};
  const double av[] = {4, 2, 1, 3, 2, 0, 0, 2, 1, 0, 0, 4}, bv[] = {1, 2};
  tfe_tensor* a = matrix(ctx, TFE_F32, 3, a_shape, av);
  tfe_tensor* b = matrix(ctx, TFE_F64, 2, b_shape, bv);
  tfe_tensor* x = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_solve(&x, a, b));
  int64_t shape[3];
  int32_t dt = 0;
  TFE_OK_OR_FAIL(tfe_tensor_shape(x, shape));
  TFE_OK_OR_FAIL(tfe_tensor_dtype(x, &dt));
  assert_int_equal(dt, TFE_F64);
  assert_int_equal(shape[0], 2);
  assert_int_equal(shape[1], 1);
  assert_int_equal(shape[2], 3);
  const double want[] = {0.1, 0.6, 0.5, 1, 1, 0.5};
  expect_real(x, want, 6, 1e-6);
  tfe_tensor* all[] = {a, b, x};
  release_all(all, 3);
  tfe_context_release(ctx);
}

static void test_status_conventions(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t s3[] = {2, 2, 2}, b_shape[] = {2, 1};
  const double two[] = {1, 0, 0, 1, 1, 2, 2, 4}; /* batch 1 is exactly singular */
  const double bv[] = {1, 1};
  tfe_tensor* a = matrix(ctx, TFE_F64, 3, s3, two);
  tfe_tensor* b = matrix(ctx, TFE_F64, 2, b_shape, bv);
  tfe_tensor* out = b;
  EXPECT_STATUS(tfe_linalg_solve(&out, a, b), TFE_ERR_SINGULAR, "tfe_linalg_solve");
  assert_null(out);
  assert_non_null(strstr(tfe_last_error_message(), "batch 1"));
  EXPECT_STATUS(tfe_linalg_inv(&out, a), TFE_ERR_SINGULAR, "tfe_linalg_inv");
  /* det 0 and slogdet (0, -inf) for the singular matrix; det 1 for the identity */
  tfe_tensor *det = NULL, *sign = NULL, *logabs = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_det(&det, a));
  const double want_det[] = {1, 0};
  expect_real(det, want_det, 2, 1e-12);
  TFE_OK_OR_FAIL(tfe_linalg_slogdet(&sign, &logabs, a));
  double got[2];
  read_real(sign, got, 2);
  assert_true(got[0] == 1 && got[1] == 0);
  read_real(logabs, got, 2);
  assert_true(got[0] == 0 && isinf(got[1]) && got[1] < 0);
  /* not positive definite: the message names the batch and the minor */
  const double npd[] = {4, 2, 2, 3, 1, 2, 2, 1};
  tfe_tensor* c = matrix(ctx, TFE_F64, 3, s3, npd);
  EXPECT_STATUS(tfe_linalg_cholesky(&out, c), TFE_ERR_NUMERICAL, "tfe_linalg_cholesky");
  assert_non_null(strstr(tfe_last_error_message(), "batch 1"));
  /* shapes, dtypes, NULL */
  const int64_t s23[] = {2, 3};
  const double six[] = {1, 2, 3, 4, 5, 6};
  tfe_tensor* wide = matrix(ctx, TFE_F64, 2, s23, six);
  EXPECT_STATUS(tfe_linalg_cholesky(&out, wide), TFE_ERR_SHAPE_MISMATCH, "tfe_linalg_cholesky");
  EXPECT_STATUS(tfe_linalg_solve(&out, wide, b), TFE_ERR_SHAPE_MISMATCH, "tfe_linalg_solve");
  tfe_tensor* ints = matrix(ctx, TFE_I32, 2, k22, kA);
  EXPECT_STATUS(tfe_linalg_det(&out, ints), TFE_ERR_DTYPE_MISMATCH, "tfe_linalg_det");
  const int64_t n2[] = {2};
  tfe_tensor* vec = matrix(ctx, TFE_F64, 1, n2, bv);
  tfe_tensor* v_out = b;
  EXPECT_STATUS(tfe_linalg_eigh(&out, &v_out, vec), TFE_ERR_SHAPE_MISMATCH, "tfe_linalg_eigh");
  assert_null(out);
  assert_null(v_out);
  /* a NULL output slot of a multi-output function: every output stays NULL */
  tfe_tensor* q = b;
  EXPECT_STATUS(tfe_linalg_qr(&q, NULL, a), TFE_ERR_INVALID_ARGUMENT, "tfe_linalg_qr");
  assert_null(q);
  EXPECT_STATUS(tfe_linalg_qr(&q, &out, NULL), TFE_ERR_INVALID_ARGUMENT, "tfe_linalg_qr");
  /* rank-deficient QR succeeds */
  const double ones[] = {1, 1, 1, 1};
  tfe_tensor* rd = matrix(ctx, TFE_F64, 2, k22, ones);
  tfe_tensor* r = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_qr(&q, &r, rd));
  tfe_tensor* all[] = {a, b, det, sign, logabs, c, wide, ints, vec, q, r, rd};
  release_all(all, 12);
  tfe_context_release(ctx);
}

/* Decompositions of small matrices with known results, every dtype. */
static void test_decompositions_every_dtype(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const double spd[] = {4, 2, 2, 3}, sym[] = {2, 1, 1, 2}, diag[] = {3, 0, 0, -1};
  const double rot[] = {0, 1, -1, 0};
  for (int k = 0; k < 4; ++k) {
    int32_t d = kFloatDtypes[k];
    double tol = tol_of(d);
    tfe_tensor* a = matrix(ctx, d, 2, k22, spd);
    tfe_tensor *l = NULL, *w = NULL, *v = NULL, *u = NULL, *s = NULL, *vh = NULL, *q = NULL,
               *r = NULL, *qr = NULL, *ew = NULL, *ev = NULL;
    TFE_OK_OR_FAIL(tfe_linalg_cholesky(&l, a));
    const double want_l[] = {2, 1, 0, sqrt(2.0)};
    expect_real(l, want_l, 4, tol);
    tfe_tensor* h = matrix(ctx, d, 2, k22, sym);
    TFE_OK_OR_FAIL(tfe_linalg_eigh(&w, &v, h));
    const double want_w[] = {1, 3};
    expect_real(w, want_w, 2, tol);
    tfe_tensor* g = matrix(ctx, d, 2, k22, diag);
    TFE_OK_OR_FAIL(tfe_linalg_svd(&u, &s, &vh, g));
    const double want_s[] = {3, 1};
    expect_real(s, want_s, 2, tol);
    TFE_OK_OR_FAIL(tfe_linalg_qr(&q, &r, a));
    TFE_OK_OR_FAIL(tfe_matmul(&qr, q, r));
    expect_real(qr, spd, 4, tol * 10);
    tfe_tensor* rt = matrix(ctx, d, 2, k22, rot);
    TFE_OK_OR_FAIL(tfe_linalg_eig(&ew, &ev, rt));
    int32_t dt = 0;
    TFE_OK_OR_FAIL(tfe_tensor_dtype(ew, &dt));
    assert_int_equal(dt, d == TFE_F32 || d == TFE_C32 ? TFE_C32 : TFE_C64);
    tfe_tensor *im = NULL, *im64 = NULL;
    TFE_OK_OR_FAIL(tfe_imag(&im, ew));
    TFE_OK_OR_FAIL(tfe_cast(&im64, im, TFE_F64));
    double imv[2];
    TFE_OK_OR_FAIL(tfe_tensor_to_data(im64, imv, sizeof imv));
    assert_true(fabs(fabs(imv[0]) - 1) < tol && fabs(imv[0] + imv[1]) < tol);
    tfe_tensor* all[] = {a, l, w, v, h, u, s, vh, g, q, r, qr, rt, ew, ev, im, im64};
    release_all(all, 17);
  }
  tfe_context_release(ctx);
}

/* Gradients through eager AD: d det/dA = det A^-T; d logabs/dA = A^-T; d sum(solve(A, b))/db =
 * A^-T 1; d max eigenvalue / dA = v v^T for a Hermitian input; d sum(S)/dA = U Vh. */
static void test_first_order_gradients(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  tfe_tensor* a = var_f64(ctx, 2, k22, kA);
  tfe_tensor *det = NULL, *ga = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_det(&det, a));
  TFE_OK_OR_FAIL(tfe_backward(det, NULL));
  TFE_OK_OR_FAIL(tfe_tensor_grad(&ga, a));
  const double want_det[] = {3, -1, -2, 4};
  expect_doubles(ga, want_det, 4);
  tfe_tensor_release(ga);
  TFE_OK_OR_FAIL(tfe_tensor_clear_grad(a));

  tfe_tensor *sign = NULL, *logabs = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_slogdet(&sign, &logabs, a));
  TFE_OK_OR_FAIL(tfe_backward(logabs, NULL));
  TFE_OK_OR_FAIL(tfe_tensor_grad(&ga, a));
  const double want_log[] = {0.3, -0.1, -0.2, 0.4};
  expect_doubles(ga, want_log, 4);
  tfe_tensor_release(ga);

  const int64_t b_shape[] = {2, 1};
  const double bv[] = {1, 2};
  tfe_tensor* b = var_f64(ctx, 2, b_shape, bv);
  tfe_tensor *x = NULL, *sx = NULL, *gb = NULL;
  tfe_tensor* a_const = matrix(ctx, TFE_F64, 2, k22, kA);
  TFE_OK_OR_FAIL(tfe_linalg_solve(&x, a_const, b));
  TFE_OK_OR_FAIL(tfe_sum(&sx, x, 0, NULL));
  TFE_OK_OR_FAIL(tfe_backward(sx, NULL));
  TFE_OK_OR_FAIL(tfe_tensor_grad(&gb, b));
  const double want_b[] = {0.1, 0.3};
  expect_doubles(gb, want_b, 2);

  const double sym[] = {2, 1, 1, 2};
  tfe_tensor* h = var_f64(ctx, 2, k22, sym);
  tfe_tensor *w = NULL, *v = NULL, *wmax = NULL, *gh = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_eigh(&w, &v, h));
  const int64_t start[] = {1}, limit[] = {2}, step[] = {1};
  TFE_OK_OR_FAIL(tfe_slice(&wmax, w, 1, start, limit, step));
  TFE_OK_OR_FAIL(tfe_backward(wmax, NULL));
  TFE_OK_OR_FAIL(tfe_tensor_grad(&gh, h));
  const double want_h[] = {0.5, 0.5, 0.5, 0.5};
  expect_doubles(gh, want_h, 4);

  const double diag[] = {3, 0, 0, -1};
  tfe_tensor* g = var_f64(ctx, 2, k22, diag);
  tfe_tensor *u = NULL, *s = NULL, *vh = NULL, *ss = NULL, *gg = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_svd(&u, &s, &vh, g));
  TFE_OK_OR_FAIL(tfe_sum(&ss, s, 0, NULL));
  TFE_OK_OR_FAIL(tfe_backward(ss, NULL));
  TFE_OK_OR_FAIL(tfe_tensor_grad(&gg, g));
  const double want_g[] = {1, 0, 0, -1}; /* U Vh = sign(A) for a diagonal A */
  expect_doubles(gg, want_g, 4);
  /* ga was released above, after each of its two uses */
  tfe_tensor* all[] = {a, det, sign, logabs, b, x, sx, gb, a_const, h,
                       w, v,   wmax, gh,     g, u, s,  vh, ss,      gg};
  release_all(all, 20);
  tfe_context_release(ctx);
}

/* Options objects: defaults with NULL, every setter, and bad values. */
static void test_options_and_basis(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  tfe_linalg_options* o = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_options_create(&o));
  EXPECT_STATUS(tfe_linalg_options_set_transpose(o, 7), TFE_ERR_INVALID_ARGUMENT,
                "tfe_linalg_options_set_transpose");
  EXPECT_STATUS(tfe_linalg_options_set_derivative_eps(o, -1), TFE_ERR_INVALID_ARGUMENT,
                "tfe_linalg_options_set_derivative_eps");
  EXPECT_STATUS(tfe_linalg_options_set_upper(o, 2), TFE_ERR_INVALID_ARGUMENT,
                "tfe_linalg_options_set_upper");
  EXPECT_STATUS(tfe_linalg_options_set_rtol(NULL, 1), TFE_ERR_INVALID_ARGUMENT,
                "tfe_linalg_options_set_rtol");
  /* U = [[2,1],[0,4]] (column-major 2,0,1,4): U^T x = [2, 9] gives x = [1, 2] */
  const double u[] = {2, 0, 1, 4}, rhs[] = {2, 9};
  const int64_t b_shape[] = {2, 1};
  tfe_tensor* ut = matrix(ctx, TFE_F64, 2, k22, u);
  tfe_tensor* b = matrix(ctx, TFE_F64, 2, b_shape, rhs);
  tfe_tensor *x = NULL, *lu = NULL, *piv = NULL, *info = NULL, *y = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_options_set_upper(o, 1));
  TFE_OK_OR_FAIL(tfe_linalg_options_set_transpose(o, TFE_LINALG_TRANS));
  TFE_OK_OR_FAIL(tfe_linalg_solve_triangular(&x, ut, b, o));
  const double want_x[] = {1, 2};
  expect_real(x, want_x, 2, 1e-14);
  /* lu_factor + lu_solve with A^T: A = [[4,1],[2,3]], A^T y = [1, 2] gives y = [-0.1, 0.7] */
  tfe_tensor* a = matrix(ctx, TFE_F64, 2, k22, kA);
  const double ones[] = {1, 2};
  tfe_tensor* c = matrix(ctx, TFE_F64, 2, b_shape, ones);
  TFE_OK_OR_FAIL(tfe_linalg_lu_factor(&lu, &piv, &info, a));
  TFE_OK_OR_FAIL(tfe_linalg_lu_solve(&y, lu, piv, c, o));
  const double want_y[] = {-0.1, 0.7};
  expect_real(y, want_y, 2, 1e-14);
  int32_t info_v = -1;
  TFE_OK_OR_FAIL(tfe_tensor_to_data(info, &info_v, sizeof info_v));
  assert_int_equal(info_v, 0);
  /* P L U = A */
  tfe_tensor *p = NULL, *l = NULL, *uu = NULL, *pl = NULL, *plu = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_lu(&p, &l, &uu, a));
  TFE_OK_OR_FAIL(tfe_matmul(&pl, p, l));
  TFE_OK_OR_FAIL(tfe_matmul(&plu, pl, uu));
  expect_real(plu, kA, 4, 1e-14);
  /* values only */
  const double sym[] = {2, 1, 1, 2};
  tfe_tensor* h = matrix(ctx, TFE_F64, 2, k22, sym);
  tfe_tensor *wv = NULL, *sv = NULL, *ev = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_eigvalsh(&wv, h, NULL));
  TFE_OK_OR_FAIL(tfe_linalg_svdvals(&sv, h));
  TFE_OK_OR_FAIL(tfe_linalg_eigvals(&ev, h));
  const double w13[] = {1, 3}, w31[] = {3, 1};
  expect_real(wv, w13, 2, 1e-14);
  expect_real(sv, w31, 2, 1e-14);
  tfe_tensor* all[] = {ut, b, x, lu, piv, info, y, a, c, p, l, uu, pl, plu, h, wv, sv, ev};
  release_all(all, 18);
  tfe_linalg_options_release(o);
  tfe_context_release(ctx);
}

/* Composites on known values. */
static void test_composites(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const double diag[] = {3, 0, 0, -1}, zero[] = {0, 0, 0, 0};
  tfe_tensor* g = matrix(ctx, TFE_F64, 2, k22, diag);
  tfe_tensor* z = matrix(ctx, TFE_F64, 2, k22, zero);
  tfe_tensor *e = NULL, *pi = NULL, *n = NULL, *cn = NULL, *mp = NULL, *vn = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_matrix_exp(&e, z));
  const double eye[] = {1, 0, 0, 1};
  expect_real(e, eye, 4, 1e-15);
  tfe_tensor_release(e);
  TFE_OK_OR_FAIL(tfe_linalg_matrix_exp(&e, g));
  const double expd[] = {exp(3.0), 0, 0, exp(-1.0)};
  expect_real(e, expd, 4, 1e-14);
  TFE_OK_OR_FAIL(tfe_linalg_pinv(&pi, g, NULL));
  const double inv_d[] = {1.0 / 3, 0, 0, -1};
  expect_real(pi, inv_d, 4, 1e-14);
  const double fro = sqrt(10.0), nuc = 4, two = 3, three = 3;
  TFE_OK_OR_FAIL(tfe_linalg_matrix_norm(&n, g, TFE_NORM_FRO));
  expect_real(n, &fro, 1, 1e-14);
  tfe_tensor_release(n);
  TFE_OK_OR_FAIL(tfe_linalg_matrix_norm(&n, g, TFE_NORM_NUC));
  expect_real(n, &nuc, 1, 1e-14);
  tfe_tensor_release(n);
  TFE_OK_OR_FAIL(tfe_linalg_matrix_norm(&n, g, TFE_NORM_2));
  expect_real(n, &two, 1, 1e-14);
  EXPECT_STATUS(tfe_linalg_matrix_norm(&cn, g, 42), TFE_ERR_INVALID_ARGUMENT,
                "tfe_linalg_matrix_norm");
  TFE_OK_OR_FAIL(tfe_linalg_cond(&cn, g, TFE_NORM_2));
  expect_real(cn, &three, 1, 1e-14);
  TFE_OK_OR_FAIL(tfe_linalg_matrix_power(&mp, g, -2));
  const double inv_sq[] = {1.0 / 9, 0, 0, 1};
  expect_real(mp, inv_sq, 4, 1e-14);
  const int64_t axis0[] = {0};
  TFE_OK_OR_FAIL(tfe_linalg_vector_norm(&vn, g, 1.0, 1, axis0));
  const double abs_cols[] = {3, 1};
  expect_real(vn, abs_cols, 2, 1e-14);
  /* multi_dot of a row vector, a matrix and a column vector: [1,2] diag(3,-1) [1,1] = 1 */
  const int64_t n2[] = {2};
  const double v12[] = {1, 2}, v11[] = {1, 1};
  tfe_tensor* r = matrix(ctx, TFE_F64, 1, n2, v12);
  tfe_tensor* col = matrix(ctx, TFE_F64, 1, n2, v11);
  tfe_tensor *md = NULL, *vd = NULL, *vm = NULL;
  tfe_tensor* chain[] = {r, g, col};
  TFE_OK_OR_FAIL(tfe_linalg_multi_dot(&md, 3, chain));
  const double one = 1;
  expect_real(md, &one, 1, 1e-14);
  TFE_OK_OR_FAIL(tfe_linalg_vecdot(&vd, r, col, -1));
  expect_real(vd, &three, 1, 1e-14);
  TFE_OK_OR_FAIL(tfe_linalg_vander(&vm, r, 3));
  const double vander_want[] = {1, 1, 1, 2, 1, 4};
  expect_real(vm, vander_want, 6, 1e-14);
  tfe_tensor* all[] = {g, z, e, pi, n, cn, mp, vn, r, col, md, vd, vm};
  release_all(all, 13);
  tfe_context_release(ctx);
}

/* A NULL slot among the outputs of a multi-output function fails the call and leaves every other
 * slot NULL, not holding the caller's old value (which a caller might then release twice). */
static void test_multi_output_slots_all_null_on_failure(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t s2[] = {2, 2};
  const double m[] = {2, 1, 1, 3};
  tfe_tensor* a = matrix(ctx, TFE_F64, 2, s2, m);
  tfe_tensor *u = a, *vh = a, *q = a, *w = a, *p = a, *l = a, *lu = a, *info = a;
  EXPECT_STATUS(tfe_linalg_svd(&u, NULL, &vh, a), TFE_ERR_INVALID_ARGUMENT, "tfe_linalg_svd");
  assert_null(u);
  assert_null(vh);
  EXPECT_STATUS(tfe_linalg_qr(&q, NULL, a), TFE_ERR_INVALID_ARGUMENT, "tfe_linalg_qr");
  assert_null(q);
  EXPECT_STATUS(tfe_linalg_eigh(NULL, &w, a), TFE_ERR_INVALID_ARGUMENT, "tfe_linalg_eigh");
  assert_null(w);
  EXPECT_STATUS(tfe_linalg_lu(&p, &l, NULL, a), TFE_ERR_INVALID_ARGUMENT, "tfe_linalg_lu");
  assert_null(p);
  assert_null(l);
  EXPECT_STATUS(tfe_linalg_lu_factor(&lu, NULL, &info, a), TFE_ERR_INVALID_ARGUMENT,
                "tfe_linalg_lu_factor");
  assert_null(lu);
  assert_null(info);
  tfe_tensor_release(a);
  tfe_context_release(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_multi_output_slots_all_null_on_failure, leak_setup,
                                      leak_teardown),
      cmocka_unit_test_setup_teardown(test_solve_inv_det_every_dtype, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_solve_batched_broadcast_promoted, leak_setup,
                                      leak_teardown),
      cmocka_unit_test_setup_teardown(test_status_conventions, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_decompositions_every_dtype, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_first_order_gradients, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_options_and_basis, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_composites, leak_setup, leak_teardown),
  };
  return cmocka_run_group_tests_name("capi_linalg", tests, NULL, NULL);
}
