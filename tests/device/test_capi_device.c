/* Placement through the C ABI, run on the host-memory device plugin (fake_plugin.cpp): transfers,
 * ops on a device equal to the host's, the device rule (operands on two devices fail; rank-0 host
 * scalars join), host reads refused, ops the device backend lacks, programs on a device, DLPack.
 * With the argument "absent" it checks a process whose plugin cannot be loaded; with "real" it
 * runs the same checks on the CUDA plugin (a skip line without a GPU; GPU results are compared
 * with a tolerance where the device's math library may round differently). */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "device_testing.h"
#include "../capi/dlpack_test_abi.h"

typedef tfe_status (*unary_fn)(tfe_tensor**, const tfe_tensor*);
typedef tfe_status (*binary_fn)(tfe_tensor**, const tfe_tensor*, const tfe_tensor*);

static void check_unary(unary_fn f, const tfe_tensor* x) {
  tfe_tensor *h = NULL, *d = NULL, *xd = to_dev(x, 0);
  TFE_OK_OR_FAIL(f(&h, x));
  TFE_OK_OR_FAIL(f(&d, xd));
  expect_same(h, d, 0);
  tfe_tensor_release(h);
  tfe_tensor_release(d);
  tfe_tensor_release(xd);
}

static void check_binary(binary_fn f, const tfe_tensor* a, const tfe_tensor* b, double tol) {
  tfe_tensor *h = NULL, *d = NULL, *ad = to_dev(a, 0), *bd = to_dev(b, 0);
  TFE_OK_OR_FAIL(f(&h, a, b));
  TFE_OK_OR_FAIL(f(&d, ad, bd));
  expect_same(h, d, tol);
  tfe_tensor_release(h);
  tfe_tensor_release(d);
  tfe_tensor_release(ad);
  tfe_tensor_release(bd);
}

static void test_count_and_round_trip(void** state) {
  (void)state;
  int32_t n = -1;
  TFE_OK_OR_FAIL(tfe_device_count(&n));
  if (g_fake)
    assert_int_equal(n, 2);
  else
    assert_true(n >= 1);
  const int64_t shape[3] = {3, 4, 2};
  for (int32_t dt = TFE_BOOL; dt <= TFE_C64; ++dt) {
    tfe_tensor* x = make_tensor(ctx, dt, 3, shape);
    expect_on(x, TFE_DEVICE_CPU, 0);
    tfe_tensor* d = to_dev(x, g_second);
    expect_on(d, TFE_DEVICE_CUDA, g_second);
    /* A strided device view (a transpose) goes back compact. */
    const int64_t perm[3] = {2, 0, 1};
    tfe_tensor *xt = NULL, *dt_ = NULL;
    TFE_OK_OR_FAIL(tfe_transpose(&xt, x, 3, perm));
    TFE_OK_OR_FAIL(tfe_transpose(&dt_, d, 3, perm));
    expect_on(dt_, TFE_DEVICE_CUDA, g_second);
    tfe_tensor* back = to_host(dt_);
    int64_t n1 = 0, n2 = 0;
    unsigned char* a = tensor_bytes(xt, &n1);
    unsigned char* b = tensor_bytes(back, &n2);
    assert_int_equal(n1, n2);
    assert_memory_equal(a, b, (size_t)n1);
    free(a);
    free(b);
    /* Already there: a new reference to the same device. */
    tfe_tensor* same = to_dev(d, g_second);
    expect_on(same, TFE_DEVICE_CUDA, g_second);
    tfe_tensor_release(same);
    /* Device 1 to device 0 (through the host). */
    tfe_tensor* other = to_dev(d, 0);
    expect_on(other, TFE_DEVICE_CUDA, 0);
    tfe_tensor_release(other);
    tfe_tensor_release(back);
    tfe_tensor_release(xt);
    tfe_tensor_release(dt_);
    tfe_tensor_release(d);
    tfe_tensor_release(x);
  }
}

static void test_elementwise_equals_host(void** state) {
  (void)state;
  const int64_t shape[2] = {4, 3};
  const int32_t dts[] = {TFE_I32, TFE_I64, TFE_F32, TFE_F64, TFE_C32, TFE_C64};
  for (size_t i = 0; i < sizeof dts / sizeof dts[0]; ++i) {
    tfe_tensor* a = make_tensor(ctx, dts[i], 2, shape);
    tfe_tensor* b = make_tensor(ctx, dts[i], 2, shape);
    check_binary(tfe_add, a, b, 0);
    check_binary(tfe_sub, a, b, 0);
    check_binary(tfe_mul, a, b, 0);
    check_binary(tfe_div, a, b, 0);
    check_unary(tfe_neg, a);
    check_unary(tfe_abs, a);
    if (dts[i] >= TFE_F32) {
      check_unary(tfe_exp, a);
      check_unary(tfe_sin, a);
      check_binary(tfe_pow, a, b, 0);
    }
    tfe_tensor_release(a);
    tfe_tensor_release(b);
  }
  tfe_tensor* p = make_tensor(ctx, TFE_BOOL, 2, shape);
  tfe_tensor* q = make_tensor(ctx, TFE_F64, 2, shape);
  check_unary(tfe_not, p);
  check_binary(tfe_maximum, q, q, 0);
  /* compare, select, cast on the device */
  tfe_tensor *hc = NULL, *dc = NULL, *qd = to_dev(q, 0), *pd = to_dev(p, 0);
  TFE_OK_OR_FAIL(tfe_compare(&hc, q, q, TFE_CMP_LE));
  TFE_OK_OR_FAIL(tfe_compare(&dc, qd, qd, TFE_CMP_LE));
  expect_same(hc, dc, 0);
  tfe_tensor *hs = NULL, *ds = NULL;
  TFE_OK_OR_FAIL(tfe_select(&hs, p, q, hc));
  TFE_OK_OR_FAIL(tfe_select(&ds, pd, qd, dc));
  expect_same(hs, ds, 0);
  tfe_tensor *hk = NULL, *dk = NULL;
  TFE_OK_OR_FAIL(tfe_cast(&hk, q, TFE_C32));
  TFE_OK_OR_FAIL(tfe_cast(&dk, qd, TFE_C32));
  expect_same(hk, dk, 0);
  /* Left-aligned broadcasting: [4,1] + [4,3]. */
  const int64_t col[2] = {4, 1};
  tfe_tensor* c = make_tensor(ctx, TFE_F64, 2, col);
  check_binary(tfe_add, c, q, 0);
  tfe_tensor* objs[] = {p, q, qd, pd, hc, dc, hs, ds, hk, dk, c};
  for (size_t i = 0; i < sizeof objs / sizeof objs[0]; ++i) tfe_tensor_release(objs[i]);
}

static tfe_status sum_all(tfe_tensor** out, const tfe_tensor* x) {
  return tfe_sum(out, x, 0, NULL);
}
static tfe_status sum_axis1(tfe_tensor** out, const tfe_tensor* x) {
  const int64_t ax[1] = {1};
  return tfe_sum(out, x, 1, ax);
}
static tfe_status mean_all(tfe_tensor** out, const tfe_tensor* x) {
  return tfe_mean(out, x, 0, NULL);
}
static tfe_status tril_1(tfe_tensor** out, const tfe_tensor* x) { return tfe_tril(out, x, -1); }
static tfe_status triu_0(tfe_tensor** out, const tfe_tensor* x) { return tfe_triu(out, x, 0); }
static tfe_status slice_odd(tfe_tensor** out, const tfe_tensor* x) {
  const int64_t s[3] = {1, 0, 0}, l[3] = {4, 3, 2}, st[3] = {2, 1, 1};
  return tfe_slice(out, x, 3, s, l, st);
}
static tfe_status reshape_t(tfe_tensor** out, const tfe_tensor* x) {
  const int64_t perm[3] = {1, 0, 2}, shape[2] = {6, 4};
  tfe_tensor* t = NULL;
  tfe_status s = tfe_transpose(&t, x, 3, perm);
  if (s != TFE_OK) return s;
  s = tfe_reshape(out, t, 2, shape); /* not a view of a transpose: a copy on the device */
  tfe_tensor_release(t);
  return s;
}
static tfe_status pad_mixed(tfe_tensor** out, const tfe_tensor* x) {
  const int64_t lo[3] = {1, -1, 0}, hi[3] = {0, 2, 1}, in[3] = {1, 0, 0};
  return tfe_pad(out, x, 3, lo, hi, in);
}
static tfe_status concat_self(tfe_tensor** out, const tfe_tensor* x) {
  tfe_tensor* const xs[2] = {(tfe_tensor*)x, (tfe_tensor*)x};
  return tfe_concatenate(out, 2, xs, 1);
}
static tfe_status diag_of(tfe_tensor** out, const tfe_tensor* x) {
  tfe_tensor* d = NULL;
  tfe_status s = tfe_diagonal(&d, x, 0, 0, 1);
  if (s != TFE_OK) return s;
  s = tfe_diag(out, d, 1); /* a vector to a matrix: embed_diag */
  tfe_tensor_release(d);
  return s;
}
static tfe_status ones_like(tfe_tensor** out, const tfe_tensor* x) {
  return tfe_ones_like(out, x, -1);
}
static tfe_status times_two(tfe_tensor** out, const tfe_tensor* x) {
  return tfe_binary_scalar(out, TFE_BINOP_MUL, x, TFE_SCALAR_FLOAT, 0, 2.0, 0.0, 0);
}

static void test_reductions_and_structure(void** state) {
  (void)state;
  const int64_t shape[3] = {4, 3, 2};
  const int32_t dts[] = {TFE_I64, TFE_F64, TFE_C64};
  const unary_fn fs[] = {sum_all,   sum_axis1, mean_all,    tril_1,  triu_0,    slice_odd,
                         reshape_t, pad_mixed, concat_self, diag_of, times_two, ones_like};
  for (size_t i = 0; i < sizeof dts / sizeof dts[0]; ++i) {
    tfe_tensor* x = make_tensor(ctx, dts[i], 3, shape);
    for (size_t f = 0; f < sizeof fs / sizeof fs[0]; ++f) check_unary(fs[f], x);
    tfe_tensor_release(x);
  }
}

static tfe_status einsum_ij_jk(tfe_tensor** out, const tfe_tensor* a, const tfe_tensor* b) {
  tfe_tensor* const ops[2] = {(tfe_tensor*)a, (tfe_tensor*)b};
  return tfe_einsum(out, "ijb,jkb->kib", 2, ops);
}

static void test_matrix_products(void** state) {
  (void)state;
  const int64_t sa[3] = {4, 3, 2}, sb[3] = {3, 5, 2};
  const int32_t dts[] = {TFE_I64, TFE_F32, TFE_F64, TFE_C32, TFE_C64};
  for (size_t i = 0; i < sizeof dts / sizeof dts[0]; ++i) {
    tfe_tensor* a = make_tensor(ctx, dts[i], 3, sa);
    tfe_tensor* b = make_tensor(ctx, dts[i], 3, sb);
    double tol = dts[i] == TFE_F32 || dts[i] == TFE_C32 ? 1e-5 : 1e-12;
    if (dts[i] == TFE_I64) tol = 0;
    check_binary(tfe_matmul, a, b, tol);
    check_binary(einsum_ij_jk, a, b, tol);
    tfe_tensor_release(a);
    tfe_tensor_release(b);
  }
}

static void test_devices_do_not_mix(void** state) {
  (void)state;
  const int64_t shape[2] = {2, 2};
  tfe_tensor* x = make_tensor(ctx, TFE_F64, 2, shape);
  tfe_tensor *d0 = to_dev(x, 0), *d1 = to_dev(x, g_second);
  tfe_tensor* out = (tfe_tensor*)0x1;
  EXPECT_STATUS(tfe_add(&out, d0, x), TFE_ERR_DEVICE, "tfe_add");
  assert_null(out);
  assert_non_null(strstr(tfe_last_error_message(), "cuda:0"));
  assert_non_null(strstr(tfe_last_error_message(), "cpu"));
  if (g_second != 0) {
    out = (tfe_tensor*)0x1;
    EXPECT_STATUS(tfe_matmul(&out, d0, d1), TFE_ERR_DEVICE, "tfe_matmul");
    assert_null(out);
    assert_non_null(strstr(tfe_last_error_message(), "cuda:1"));
  }
  /* A rank-0 host tensor is a scalar argument: it joins an op on the device. */
  const double two = 2.0;
  tfe_tensor* s = f64(ctx, 0, NULL, &two);
  tfe_tensor *h = NULL, *d = NULL;
  TFE_OK_OR_FAIL(tfe_mul(&h, x, s));
  TFE_OK_OR_FAIL(tfe_mul(&d, s, d0));
  expect_same(h, d, 0);
  /* ...but a rank-0 device tensor does not join host operands. */
  tfe_tensor* sd = to_dev(s, 0);
  out = (tfe_tensor*)0x1;
  EXPECT_STATUS(tfe_mul(&out, sd, x), TFE_ERR_DEVICE, "tfe_mul");
  assert_null(out);
  tfe_tensor* objs[] = {x, d0, d1, s, h, d, sd};
  for (size_t i = 0; i < sizeof objs / sizeof objs[0]; ++i) tfe_tensor_release(objs[i]);
}

static void test_host_reads_refused(void** state) {
  (void)state;
  const int64_t shape[2] = {2, 3};
  tfe_tensor* x = make_tensor(ctx, TFE_F64, 2, shape);
  tfe_tensor* d = to_dev(x, 0);
  const void* p = (const void*)0x1;
  EXPECT_STATUS(tfe_tensor_data(d, &p), TFE_ERR_DEVICE, "tfe_tensor_data");
  assert_non_null(strstr(tfe_last_error_message(), "tfe_tensor_to_device"));
  double buf[6];
  EXPECT_STATUS(tfe_tensor_to_data(d, buf, sizeof buf), TFE_ERR_DEVICE, "tfe_tensor_to_data");
  EXPECT_STATUS(tfe_tensor_copy_to(d, TFE_F64, buf, sizeof buf), TFE_ERR_DEVICE,
                "tfe_tensor_copy_to");
  /* Printing reads a host copy and shows the same text. */
  char a[512], b[512];
  int64_t need = 0;
  TFE_OK_OR_FAIL(tfe_tensor_format(x, a, sizeof a, &need));
  TFE_OK_OR_FAIL(tfe_tensor_format(d, b, sizeof b, &need));
  assert_string_equal(a, b);
  tfe_tensor_release(d);
  tfe_tensor_release(x);
}

static void test_missing_kernels_and_bad_requests(void** state) {
  (void)state;
  const int64_t shape[2] = {3, 3};
  tfe_tensor* x = make_tensor(ctx, TFE_F64, 2, shape);
  tfe_tensor* d = to_dev(x, 0);
  tfe_tensor* out = (tfe_tensor*)0x1;
  tfe_tensor *qq = NULL, *qr_ = NULL, *qp = NULL;
  EXPECT_STATUS(tfe_linalg_qr_pivoted(&qq, &qr_, &qp, d, NULL), TFE_ERR_NOT_SUPPORTED,
                "tfe_linalg_qr_pivoted");
  assert_null(qq);
  assert_null(qr_);
  assert_null(qp);
  assert_non_null(strstr(tfe_last_error_message(), "F64"));
  assert_non_null(strstr(tfe_last_error_message(), "cuda:0"));
  /* Integer device tensors are no variables, as on the host. */
  tfe_tensor* di = NULL;
  TFE_OK_OR_FAIL(tfe_cast(&di, d, TFE_I64));
  EXPECT_STATUS(tfe_tensor_set_requires_grad(di, 1), TFE_ERR_DTYPE_MISMATCH,
                "tfe_tensor_set_requires_grad");
  tfe_tensor_release(di);
  out = (tfe_tensor*)0x1;
  EXPECT_STATUS(tfe_tensor_to_device(&out, x, 9, 0), TFE_ERR_INVALID_ARGUMENT,
                "tfe_tensor_to_device");
  assert_null(out);
  EXPECT_STATUS(tfe_tensor_to_device(&out, x, TFE_DEVICE_CPU, 1), TFE_ERR_INVALID_ARGUMENT,
                "tfe_tensor_to_device");
  EXPECT_STATUS(tfe_tensor_to_device(&out, x, TFE_DEVICE_CUDA, -1), TFE_ERR_INVALID_ARGUMENT,
                "tfe_tensor_to_device");
  EXPECT_STATUS(tfe_tensor_to_device(&out, x, TFE_DEVICE_CUDA, 7), TFE_ERR_DEVICE,
                "tfe_tensor_to_device");
  assert_non_null(strstr(tfe_last_error_message(), "cuda:7 does not exist"));
  EXPECT_STATUS(tfe_tensor_to_device(&out, NULL, TFE_DEVICE_CUDA, 0), TFE_ERR_INVALID_ARGUMENT,
                "tfe_tensor_to_device");
  tfe_tensor_release(d);
  tfe_tensor_release(x);
}

/* A traced program and its derivative program run on the device of their arguments. */
static void test_program_runs_on_the_arguments_device(void** state) {
  (void)state;
  const int64_t shape[2] = {3, 2};
  tfe_tensor* in = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_symbolic(&in, ctx, TFE_F64, 2, shape));
  tfe_tensor* k = make_tensor(ctx, TFE_F64, 2, shape); /* captured constant */
  tfe_tensor *s = NULL, *m = NULL, *y = NULL;
  TFE_OK_OR_FAIL(tfe_sin(&s, in));
  TFE_OK_OR_FAIL(tfe_mul(&m, s, k));
  TFE_OK_OR_FAIL(tfe_sum(&y, m, 0, NULL));
  tfe_function* f[2] = {NULL, NULL};
  TFE_OK_OR_FAIL(tfe_function_create(&f[0], 1, &in, 1, &y));
  TFE_OK_OR_FAIL(tfe_function_grad(&f[1], f[0], 0, NULL));
  tfe_tensor* x = make_tensor(ctx, TFE_F64, 2, shape);
  tfe_tensor* xd = to_dev(x, 0);
  for (int i = 0; i < 2; ++i) {
    tfe_tensor *h = NULL, *d = NULL;
    TFE_OK_OR_FAIL(tfe_function_call1(&h, f[i], 1, &x));
    TFE_OK_OR_FAIL(tfe_function_call1(&d, f[i], 1, &xd));
    expect_same(h, d, i == 0 ? 0 : 1e-12);
    tfe_tensor_release(h);
    tfe_tensor_release(d);
    tfe_function_release(f[i]);
  }
  tfe_tensor* objs[] = {in, k, s, m, y, x, xd};
  for (size_t i = 0; i < sizeof objs / sizeof objs[0]; ++i) tfe_tensor_release(objs[i]);
}

/* loss = sum(sin(a) * (a @ b)) with a [3,3,2] and b [3,4,2] (batched), or its pieces. */
static tfe_tensor* ad_loss(const tfe_tensor* a, const tfe_tensor* b) {
  tfe_tensor *s = NULL, *m = NULL, *p = NULL, *t = NULL, *l = NULL;
  TFE_OK_OR_FAIL(tfe_sin(&s, a));
  TFE_OK_OR_FAIL(tfe_matmul(&m, a, b));
  TFE_OK_OR_FAIL(tfe_sum(&t, m, 0, NULL));
  TFE_OK_OR_FAIL(tfe_mul(&p, s, t));
  TFE_OK_OR_FAIL(tfe_sum(&l, p, 0, NULL));
  tfe_tensor* objs[] = {s, m, p, t};
  for (size_t i = 0; i < sizeof objs / sizeof objs[0]; ++i) tfe_tensor_release(objs[i]);
  return l;
}

/* Derivatives of device tensors in context c (eager, or dataflow when `flow`): backward, and in
 * the eager context vjp and jvp, give the host's values on the device of the variables, for real
 * and complex dtypes. */
static void derivatives_on_a_device(tfe_context* c, int flow) {
  const int64_t sa[3] = {3, 3, 2}, sb[3] = {3, 4, 2};
  const int32_t dts[] = {TFE_F32, TFE_F64, TFE_C64};
  for (size_t i = 0; i < sizeof dts / sizeof dts[0]; ++i) {
    const double tol = dts[i] == TFE_F32 ? 1e-4 : 1e-11;
    tfe_tensor* a = make_tensor(c, dts[i], 3, sa);
    tfe_tensor* b = make_tensor(c, dts[i], 3, sb);
    tfe_tensor* ad = to_dev(a, 0);
    tfe_tensor* bd = to_dev(b, 0);
    tfe_tensor* vars[4] = {a, b, ad, bd};
    for (int v = 0; v < 4; ++v) TFE_OK_OR_FAIL(tfe_tensor_set_requires_grad(vars[v], 1));
    int32_t req = 0;
    TFE_OK_OR_FAIL(tfe_tensor_requires_grad(ad, &req));
    assert_int_equal(req, 1);
    /* A tracked tensor moves, and its copy is tracked (test_device_transfer.c differentiates
     * through transfers). */
    tfe_tensor* moved = to_dev(a, 0);
    expect_on(moved, TFE_DEVICE_CUDA, 0);
    if (!flow) {
      TFE_OK_OR_FAIL(tfe_tensor_requires_grad(moved, &req));
      assert_int_equal(req, 1);
    }
    tfe_tensor_release(moved);
    tfe_tensor* lh = ad_loss(a, b);
    tfe_tensor* ld = ad_loss(ad, bd);
    expect_same(lh, ld, tol);
    /* backward: the gradients land on the variables' device. */
    TFE_OK_OR_FAIL(tfe_backward(lh, NULL));
    TFE_OK_OR_FAIL(tfe_backward(ld, NULL));
    for (int v = 0; v < 2; ++v) {
      tfe_tensor* gh = grad_of(vars[v]);
      tfe_tensor* gd = grad_of(vars[v + 2]);
      expect_same(gh, gd, tol);
      tfe_tensor_release(gh);
      tfe_tensor_release(gd);
    }
    if (flow) { /* a dataflow loss runs backward once; vjp and jvp are eager functions */
      tfe_tensor* objs[] = {a, b, ad, bd, lh, ld};
      for (size_t k = 0; k < sizeof objs / sizeof objs[0]; ++k) tfe_tensor_release(objs[k]);
      continue;
    }
    /* A second backward accumulates on the device. */
    TFE_OK_OR_FAIL(tfe_backward(ld, NULL));
    TFE_OK_OR_FAIL(tfe_backward(lh, NULL));
    tfe_tensor* gh = grad_of(a);
    tfe_tensor* gd = grad_of(ad);
    expect_same(gh, gd, tol);
    tfe_tensor_release(gh);
    tfe_tensor_release(gd);
    /* vjp of the non-scalar matmul with a device seed, and jvp with device tangents. */
    tfe_tensor *mh = NULL, *md = NULL;
    TFE_OK_OR_FAIL(tfe_matmul(&mh, a, b));
    TFE_OK_OR_FAIL(tfe_matmul(&md, ad, bd));
    const int64_t sm[3] = {3, 4, 2};
    tfe_tensor* seed = make_tensor(c, dts[i], 3, sm);
    tfe_tensor* seed_d = to_dev(seed, 0);
    tfe_tensor *vh[2] = {NULL, NULL}, *vd[2] = {NULL, NULL};
    TFE_OK_OR_FAIL(tfe_vjp(vh, mh, 2, vars, seed));
    TFE_OK_OR_FAIL(tfe_vjp(vd, md, 2, vars + 2, seed_d));
    for (int v = 0; v < 2; ++v) {
      expect_same(vh[v], vd[v], tol);
      tfe_tensor_release(vh[v]);
      tfe_tensor_release(vd[v]);
    }
    tfe_tensor* tang_h[2] = {a, b};
    tfe_tensor* tang_d[2] = {ad, bd};
    tfe_tensor *jh = NULL, *jd = NULL;
    TFE_OK_OR_FAIL(tfe_jvp(&jh, lh, 2, vars, tang_h));
    TFE_OK_OR_FAIL(tfe_jvp(&jd, ld, 2, vars + 2, tang_d));
    expect_same(jh, jd, tol);
    /* A host seed for a device output is two devices. */
    tfe_tensor* bad[2] = {(tfe_tensor*)0x1, (tfe_tensor*)0x1};
    EXPECT_STATUS(tfe_vjp(bad, md, 2, vars + 2, seed), TFE_ERR_DEVICE, "tfe_vjp");
    assert_null(bad[0]);
    assert_null(bad[1]);
    tfe_tensor* objs[] = {a, b, ad, bd, lh, ld, mh, md, seed, seed_d, jh, jd};
    for (size_t k = 0; k < sizeof objs / sizeof objs[0]; ++k) tfe_tensor_release(objs[k]);
  }
}

static void test_eager_derivatives_on_a_device(void** state) {
  (void)state;
  derivatives_on_a_device(ctx, 0);
}

/* The gradient of sum(inv(a)) + sum(svdvals(a)) for a [4,4] made in context c, on the host or
 * on device 0: inv makes an identity (a constant of the composite) and svd has three outputs. */
static tfe_tensor* linalg_gradient(tfe_context* c, int on_device) {
  const int64_t shape[2] = {4, 4};
  tfe_tensor *x = NULL, *a = NULL, *i = NULL, *si = NULL, *s = NULL, *ss = NULL, *l = NULL;
  TFE_OK_OR_FAIL(tfe_random_normal(&x, c, TFE_F64, 2, shape, 77));
  a = on_device ? to_dev(x, 0) : x;
  TFE_OK_OR_FAIL(tfe_tensor_set_requires_grad(a, 1));
  TFE_OK_OR_FAIL(tfe_linalg_inv(&i, a));
  TFE_OK_OR_FAIL(tfe_sum(&si, i, 0, NULL));
  TFE_OK_OR_FAIL(tfe_linalg_svdvals(&s, a));
  TFE_OK_OR_FAIL(tfe_sum(&ss, s, 0, NULL));
  TFE_OK_OR_FAIL(tfe_add(&l, si, ss));
  TFE_OK_OR_FAIL(tfe_backward(l, NULL));
  tfe_tensor* g = grad_of(a);
  tfe_tensor* objs[] = {i, si, s, ss, l, a};
  for (size_t k = 0; k < sizeof objs / sizeof objs[0]; ++k) tfe_tensor_release(objs[k]);
  if (on_device) tfe_tensor_release(x);
  return g;
}

static void test_dataflow_derivatives_on_a_device(void** state) {
  (void)state;
  const int32_t schedulers[2] = {TFE_SCHEDULER_THREADS, TFE_SCHEDULER_DEBUG};
  tfe_tensor* want = linalg_gradient(ctx, 0);
  for (int k = 0; k < 2; ++k) {
    tfe_context* flow = NULL;
    TFE_OK_OR_FAIL(tfe_context_create_dataflow(&flow, schedulers[k], k == 0 ? 2 : 1));
    derivatives_on_a_device(flow, 1);
    tfe_tensor* got = linalg_gradient(flow, 1);
    expect_on(got, TFE_DEVICE_CUDA, 0);
    /* the two contexts' tensors meet through their values */
    double w[16], g[16];
    tfe_tensor* back = to_host(got);
    TFE_OK_OR_FAIL(tfe_tensor_copy_to(want, TFE_F64, w, sizeof w));
    TFE_OK_OR_FAIL(tfe_tensor_copy_to(back, TFE_F64, g, sizeof g));
    for (int e = 0; e < 16; ++e) assert_true(fabs(w[e] - g[e]) <= 1e-10 * (1 + fabs(w[e])));
    tfe_tensor_release(back);
    tfe_tensor_release(got);
    tfe_context_release(flow);
  }
  tfe_tensor_release(want);
}

/* ---- linear algebra: the plugin's solver entries behind the same functions ---- */

static tfe_tensor* random_matrix(int32_t dt, int32_t rank, const int64_t* shape, uint64_t seed) {
  tfe_tensor* x = NULL;
  TFE_OK_OR_FAIL(tfe_random_normal(&x, ctx, dt, rank, shape, seed));
  return x;
}

/* x^H x + n I: Hermitian positive definite. */
static tfe_tensor* hpd(const tfe_tensor* x, int64_t n) {
  const int64_t perm[3] = {1, 0, 2};
  int32_t rank = 0, dt = 0;
  TFE_OK_OR_FAIL(tfe_tensor_ndim(x, &rank));
  TFE_OK_OR_FAIL(tfe_tensor_dtype(x, &dt));
  tfe_tensor *t = NULL, *h = NULL, *p = NULL, *e = NULL, *s = NULL, *out = NULL;
  TFE_OK_OR_FAIL(tfe_transpose(&t, x, rank, perm));
  TFE_OK_OR_FAIL(tfe_conj(&h, t));
  TFE_OK_OR_FAIL(tfe_matmul(&p, h, x));
  TFE_OK_OR_FAIL(tfe_eye(&e, ctx, dt, n, n));
  TFE_OK_OR_FAIL(tfe_binary_scalar(&s, TFE_BINOP_MUL, e, TFE_SCALAR_FLOAT, 0, (double)n, 0.0, 0));
  int32_t kind = 0, ordinal = 0;
  TFE_OK_OR_FAIL(tfe_tensor_device(x, &kind, &ordinal));
  if (kind == TFE_DEVICE_CUDA) { /* n I goes where x is */
    tfe_tensor* moved = to_dev(s, ordinal);
    tfe_tensor_release(s);
    s = moved;
  }
  TFE_OK_OR_FAIL(tfe_add(&out, p, s));
  tfe_tensor* objs[] = {t, h, p, e, s};
  for (size_t i = 0; i < sizeof objs / sizeof objs[0]; ++i) tfe_tensor_release(objs[i]);
  return out;
}

typedef tfe_status (*outs_fn)(tfe_tensor** outs, const tfe_tensor* a, const tfe_tensor* b);

/* f on the host operands and on their device copies: every output equal within tol. The fake
 * device runs the host's LAPACK routines; a GPU's solver rounds differently and chooses other
 * signs or phases for singular and eigen vectors, so there only the gauge-free outputs
 * (n_free of them, first) are compared. */
static void check_outputs(outs_fn f, const tfe_tensor* a, const tfe_tensor* b, int n_out,
                          int n_free, double tol) {
  tfe_tensor *h[3] = {NULL, NULL, NULL}, *d[3] = {NULL, NULL, NULL};
  tfe_tensor* ad = to_dev(a, 0);
  tfe_tensor* bd = b ? to_dev(b, 0) : NULL;
  TFE_OK_OR_FAIL(f(h, a, b));
  TFE_OK_OR_FAIL(f(d, ad, bd));
  for (int i = 0; i < n_out; ++i) {
    if (g_fake || i < n_free) expect_same(h[i], d[i], tol);
    tfe_tensor_release(h[i]);
    tfe_tensor_release(d[i]);
  }
  tfe_tensor_release(ad);
  if (bd) tfe_tensor_release(bd);
}

static tfe_status la_solve(tfe_tensor** o, const tfe_tensor* a, const tfe_tensor* b) {
  return tfe_linalg_solve(o, a, b);
}
static tfe_status la_inv(tfe_tensor** o, const tfe_tensor* a, const tfe_tensor* b) {
  (void)b;
  return tfe_linalg_inv(o, a);
}
static tfe_status la_cholesky(tfe_tensor** o, const tfe_tensor* a, const tfe_tensor* b) {
  (void)b;
  return tfe_linalg_cholesky(o, a);
}
static tfe_status la_svdvals(tfe_tensor** o, const tfe_tensor* a, const tfe_tensor* b) {
  (void)b;
  return tfe_linalg_svdvals(o, a);
}
static tfe_status la_eigvalsh(tfe_tensor** o, const tfe_tensor* a, const tfe_tensor* b) {
  (void)b;
  return tfe_linalg_eigvalsh(o, a, NULL);
}
/* Reduced and complete QR (R's rows are gauge-dependent too: the sign of each). */
static tfe_status la_qr(tfe_tensor** o, const tfe_tensor* a, const tfe_tensor* b) {
  tfe_linalg_options* opts = NULL;
  tfe_status s = tfe_linalg_options_create(&opts);
  if (s == TFE_OK) s = tfe_linalg_options_set_full_matrices(opts, b != NULL);
  if (s == TFE_OK) s = tfe_linalg_qr_ex(&o[0], &o[1], a, opts);
  tfe_linalg_options_release(opts);
  return s;
}
static tfe_status la_svd(tfe_tensor** o, const tfe_tensor* a, const tfe_tensor* b) {
  tfe_linalg_options* opts = NULL;
  tfe_status s = tfe_linalg_options_create(&opts);
  if (s == TFE_OK) s = tfe_linalg_options_set_full_matrices(opts, b != NULL);
  /* s first: the gauge-free output */
  if (s == TFE_OK) s = tfe_linalg_svd_ex(&o[1], &o[0], &o[2], a, opts);
  tfe_linalg_options_release(opts);
  return s;
}
static tfe_status la_eigh(tfe_tensor** o, const tfe_tensor* a, const tfe_tensor* b) {
  (void)b;
  return tfe_linalg_eigh(&o[0], &o[1], a);
}
static tfe_status la_eig(tfe_tensor** o, const tfe_tensor* a, const tfe_tensor* b) {
  (void)b;
  return tfe_linalg_eig(&o[0], &o[1], a);
}
/* lu_factor, then lu_solve with its factors (and op(A) = A^H) on the same device. */
static tfe_status la_lu(tfe_tensor** o, const tfe_tensor* a, const tfe_tensor* b) {
  tfe_tensor *lu = NULL, *piv = NULL, *info = NULL;
  tfe_linalg_options* opts = NULL;
  tfe_status s = tfe_linalg_lu_factor(&lu, &piv, &info, a);
  if (s == TFE_OK) s = tfe_linalg_options_create(&opts);
  if (s == TFE_OK) s = tfe_linalg_options_set_transpose(opts, TFE_LINALG_CONJ_TRANS);
  if (s == TFE_OK) s = tfe_linalg_lu_solve(&o[0], lu, piv, b, opts);
  o[1] = lu;
  o[2] = piv;
  tfe_tensor_release(info);
  tfe_linalg_options_release(opts);
  return s;
}
static tfe_status la_triangular(tfe_tensor** o, const tfe_tensor* a, const tfe_tensor* b) {
  tfe_linalg_options* opts = NULL;
  tfe_status s = tfe_linalg_options_create(&opts);
  if (s == TFE_OK) s = tfe_linalg_options_set_upper(opts, 1);
  if (s == TFE_OK) s = tfe_linalg_options_set_transpose(opts, TFE_LINALG_TRANS);
  if (s == TFE_OK) s = tfe_linalg_solve_triangular(&o[0], a, b, opts);
  tfe_linalg_options_release(opts);
  return s;
}

static tfe_status la_norm2(tfe_tensor** o, const tfe_tensor* a, const tfe_tensor* b) {
  (void)b;
  return tfe_linalg_matrix_norm(o, a, TFE_NORM_2);
}
static tfe_status la_cond2(tfe_tensor** o, const tfe_tensor* a, const tfe_tensor* b) {
  (void)b;
  return tfe_linalg_cond(o, a, TFE_NORM_2);
}
/* cholesky, then cholesky_solve with the factor. */
static tfe_status la_cholesky_solve(tfe_tensor** o, const tfe_tensor* a, const tfe_tensor* b) {
  tfe_tensor* l = NULL;
  tfe_status s = tfe_linalg_cholesky(&l, a);
  if (s == TFE_OK) s = tfe_linalg_cholesky_solve(o, l, b, NULL);
  tfe_tensor_release(l);
  return s;
}

static tfe_status la_det(tfe_tensor** o, const tfe_tensor* a, const tfe_tensor* b) {
  (void)b;
  return tfe_linalg_det(o, a);
}
static tfe_status la_slogdet(tfe_tensor** o, const tfe_tensor* a, const tfe_tensor* b) {
  (void)b;
  return tfe_linalg_slogdet(&o[0], &o[1], a);
}
static tfe_status la_expm(tfe_tensor** o, const tfe_tensor* a, const tfe_tensor* b) {
  (void)b;
  return tfe_linalg_matrix_exp(o, a);
}
static tfe_status la_plu(tfe_tensor** o, const tfe_tensor* a, const tfe_tensor* b) {
  (void)b;
  return tfe_linalg_lu(&o[0], &o[1], &o[2], a);
}
static tfe_status la_pinv(tfe_tensor** o, const tfe_tensor* a, const tfe_tensor* b) {
  (void)b;
  return tfe_linalg_pinv(o, a, NULL);
}

static void test_linear_algebra_on_a_device(void** state) {
  (void)state;
  const int32_t dts[] = {TFE_F32, TFE_F64, TFE_C32, TFE_C64};
  const int64_t square[3] = {4, 4, 3}, rhs[3] = {4, 2, 3}, tall[2] = {5, 3}, wide[2] = {3, 5};
  for (size_t i = 0; i < sizeof dts / sizeof dts[0]; ++i) {
    const int single = dts[i] == TFE_F32 || dts[i] == TFE_C32;
    const double tol = single ? 2e-4 : 1e-10;
    tfe_tensor* a = random_matrix(dts[i], 3, square, 11 + i);
    tfe_tensor* b = random_matrix(dts[i], 3, rhs, 21 + i);
    tfe_tensor* t = random_matrix(dts[i], 2, tall, 31 + i);
    tfe_tensor* w = random_matrix(dts[i], 2, wide, 41 + i);
    tfe_tensor* p = hpd(a, 4);
    check_outputs(la_solve, a, b, 1, 1, tol);
    check_outputs(la_inv, a, NULL, 1, 1, tol);
    check_outputs(la_cholesky, p, NULL, 1, 1, tol);
    check_outputs(la_lu, a, b, 3, 3, tol);
    check_outputs(la_triangular, a, b, 1, 1, tol);
    check_outputs(la_eigvalsh, p, NULL, 1, 1, tol);
    check_outputs(la_eigh, p, NULL, 2, 1, tol);
    check_outputs(la_eig, a, NULL, 2, 0, tol);
    check_outputs(la_cholesky_solve, p, b, 1, 1, tol);
    check_outputs(la_cond2, a, NULL, 1, 1, tol);
    check_outputs(la_det, a, NULL, 1, 1, tol);
    check_outputs(la_expm, a, NULL, 1, 1, tol);
    check_outputs(la_plu, a, NULL, 3, 3, tol);
    check_outputs(la_slogdet, a, NULL, 2, 2, tol);
    tfe_tensor* shapes[3] = {a, t, w};
    for (int k = 0; k < 3; ++k) {
      check_outputs(la_svdvals, shapes[k], NULL, 1, 1, tol);
      check_outputs(la_norm2, shapes[k], NULL, 1, 1, tol);
      check_outputs(la_pinv, shapes[k], NULL, 1, 1, tol);
      check_outputs(la_svd, shapes[k], NULL, 3, 1, tol);
      check_outputs(la_svd, shapes[k], shapes[k], 3, 1, tol); /* full matrices */
      check_outputs(la_qr, shapes[k], NULL, 2, 0, tol);
      check_outputs(la_qr, shapes[k], shapes[k], 2, 0, tol); /* complete */
    }
    tfe_tensor* objs[] = {a, b, t, w, p};
    for (size_t k = 0; k < sizeof objs / sizeof objs[0]; ++k) tfe_tensor_release(objs[k]);
  }
}

/* Failures keep the host's statuses and messages; derivatives of the factorisations run on the
 * device. */
static void test_linear_algebra_failures_and_derivatives(void** state) {
  (void)state;
  const int64_t shape[2] = {3, 3};
  const double not_pd[9] = {1, 2, 0, 2, 1, 0, 0, 0, 1};
  tfe_tensor* h = f64(ctx, 2, shape, not_pd);
  tfe_tensor* d = to_dev(h, 0);
  tfe_tensor* out = (tfe_tensor*)0x1;
  EXPECT_STATUS(tfe_linalg_cholesky(&out, d), TFE_ERR_NUMERICAL, "tfe_linalg_cholesky");
  assert_null(out);
  assert_non_null(strstr(tfe_last_error_message(), "leading minor of order 2"));
  const double nan_v[9] = {1, 0, 0, 0, NAN, 0, 0, 0, 1};
  tfe_tensor* hn = f64(ctx, 2, shape, nan_v);
  tfe_tensor* dn = to_dev(hn, 0);
  tfe_tensor *w = (tfe_tensor*)0x1, *v = (tfe_tensor*)0x1;
  EXPECT_STATUS(tfe_linalg_eigh(&w, &v, dn), TFE_ERR_NON_CONVERGENCE, "tfe_linalg_eigh");
  assert_null(w);
  assert_null(v);
  assert_non_null(strstr(tfe_last_error_message(), "NaN or inf"));
  EXPECT_STATUS(tfe_linalg_svdvals(&out, dn), TFE_ERR_NON_CONVERGENCE, "tfe_linalg_svdvals");
  /* Caller's pivots are checked before the solver uses them. */
  tfe_tensor *lu = NULL, *piv = NULL, *info = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_lu_factor(&lu, &piv, &info, d));
  expect_on(info, TFE_DEVICE_CUDA, 0);
  const int32_t bad_piv[3] = {1, 7, 3};
  const int64_t pshape[1] = {3};
  tfe_tensor *bp = NULL, *bpd = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&bp, ctx, TFE_I32, 1, pshape, NULL, bad_piv));
  bpd = to_dev(bp, 0);
  EXPECT_STATUS(tfe_linalg_lu_solve(&out, lu, bpd, d, NULL), TFE_ERR_INVALID_ARGUMENT,
                "tfe_linalg_lu_solve");
  assert_non_null(strstr(tfe_last_error_message(), "outside [1, 3]"));
  /* d(sum(solve(A, B)) + sum(eigvalsh(A A^T)) + det(A)) on the device equals the host's. */
  const int64_t sq[2] = {4, 4}, rs[2] = {4, 2};
  tfe_tensor* a = random_matrix(TFE_F64, 2, sq, 5);
  tfe_tensor* b = random_matrix(TFE_F64, 2, rs, 6);
  tfe_tensor* ad = to_dev(a, 0);
  tfe_tensor* bd = to_dev(b, 0);
  tfe_tensor* vars[4] = {a, b, ad, bd};
  tfe_tensor* grads[4] = {NULL, NULL, NULL, NULL};
  for (int k = 0; k < 4; ++k) TFE_OK_OR_FAIL(tfe_tensor_set_requires_grad(vars[k], 1));
  for (int k = 0; k < 4; k += 2) {
    tfe_tensor *x = NULL, *sx = NULL, *e = NULL, *se = NULL, *l = NULL, *p = NULL;
    TFE_OK_OR_FAIL(tfe_linalg_solve(&x, vars[k], vars[k + 1]));
    TFE_OK_OR_FAIL(tfe_sum(&sx, x, 0, NULL));
    p = hpd(vars[k], 4);
    TFE_OK_OR_FAIL(tfe_linalg_eigvalsh(&e, p, NULL));
    TFE_OK_OR_FAIL(tfe_sum(&se, e, 0, NULL));
    tfe_tensor *dt = NULL, *l0 = NULL;
    TFE_OK_OR_FAIL(tfe_linalg_det(&dt, vars[k]));
    TFE_OK_OR_FAIL(tfe_add(&l0, sx, se));
    TFE_OK_OR_FAIL(tfe_add(&l, l0, dt));
    tfe_tensor_release(dt);
    tfe_tensor_release(l0);
    TFE_OK_OR_FAIL(tfe_backward(l, NULL));
    grads[k] = grad_of(vars[k]);
    grads[k + 1] = grad_of(vars[k + 1]);
    tfe_tensor* objs[] = {x, sx, e, se, l, p};
    for (size_t j = 0; j < sizeof objs / sizeof objs[0]; ++j) tfe_tensor_release(objs[j]);
  }
  expect_same(grads[0], grads[2], 1e-9);
  expect_same(grads[1], grads[3], 1e-9);
  tfe_tensor* objs[] = {h, d, hn, dn, lu,       piv,      info,     bp,      bpd,
                        a, b, ad, bd, grads[0], grads[1], grads[2], grads[3]};
  for (size_t k = 0; k < sizeof objs / sizeof objs[0]; ++k) tfe_tensor_release(objs[k]);
}

static void test_dlpack_keeps_the_device(void** state) {
  (void)state;
  const int64_t shape[2] = {2, 3};
  tfe_tensor* x = make_tensor(ctx, TFE_F32, 2, shape);
  tfe_tensor* d = to_dev(x, g_second);
  struct DLManagedTensor* m = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_to_dlpack(&m, d));
  assert_int_equal(m->dl_tensor.device.device_type, 2); /* kDLCUDA */
  assert_int_equal(m->dl_tensor.device.device_id, g_second);
  tfe_tensor* back = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_from_dlpack(&back, ctx, m)); /* takes ownership of m */
  expect_on(back, TFE_DEVICE_CUDA, g_second);
  tfe_tensor* h = to_host(back);
  int64_t n1 = 0, n2 = 0;
  unsigned char* a = tensor_bytes(x, &n1);
  unsigned char* b = tensor_bytes(h, &n2);
  assert_memory_equal(a, b, (size_t)n1);
  free(a);
  free(b);
  tfe_tensor* objs[] = {x, d, back, h};
  for (size_t i = 0; i < sizeof objs / sizeof objs[0]; ++i) tfe_tensor_release(objs[i]);
}

static int absent_plugin(void) {
  int32_t n = -1;
  if (tfe_device_count(&n) != TFE_OK || n != 0) {
    fprintf(stderr, "absent plugin: device count %d\n", n);
    return 1;
  }
  tfe_context* c = NULL;
  if (tfe_context_create(&c) != TFE_OK) return 1;
  const double v = 1.0;
  tfe_tensor* x = NULL;
  const int64_t shape[1] = {1};
  if (tfe_tensor_from_data(&x, c, TFE_F64, 1, shape, NULL, &v) != TFE_OK) return 1;
  tfe_tensor* out = (tfe_tensor*)0x1;
  tfe_status s = tfe_tensor_to_device(&out, x, TFE_DEVICE_CUDA, 0);
  int ok = s == TFE_ERR_DEVICE && out == NULL &&
           strstr(tfe_last_error_message(), "could not be loaded") != NULL;
  if (!ok) fprintf(stderr, "absent plugin: %d %s\n", s, tfe_last_error_message());
  tfe_tensor_release(x);
  tfe_context_release(c);
  printf("absent plugin: 0 devices, transfer refused: %s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}

int main(int argc, char** argv) {
  if (argc > 1 && strcmp(argv[1], "absent") == 0) {
    setenv("TFE_CUDA_PLUGIN", "/nonexistent/libtenferro_cuda.so", 1);
    return absent_plugin();
  }
  int start = device_suite_start(argc, argv, "the placement suite");
  if (start >= 0) return start;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_count_and_round_trip, device_setup, device_teardown),
      cmocka_unit_test_setup_teardown(test_elementwise_equals_host, device_setup, device_teardown),
      cmocka_unit_test_setup_teardown(test_reductions_and_structure, device_setup, device_teardown),
      cmocka_unit_test_setup_teardown(test_matrix_products, device_setup, device_teardown),
      cmocka_unit_test_setup_teardown(test_devices_do_not_mix, device_setup, device_teardown),
      cmocka_unit_test_setup_teardown(test_host_reads_refused, device_setup, device_teardown),
      cmocka_unit_test_setup_teardown(test_missing_kernels_and_bad_requests, device_setup,
                                      device_teardown),
      cmocka_unit_test_setup_teardown(test_program_runs_on_the_arguments_device, device_setup,
                                      device_teardown),
      cmocka_unit_test_setup_teardown(test_eager_derivatives_on_a_device, device_setup,
                                      device_teardown),
      cmocka_unit_test_setup_teardown(test_dataflow_derivatives_on_a_device, device_setup,
                                      device_teardown),
      cmocka_unit_test_setup_teardown(test_linear_algebra_on_a_device, device_setup,
                                      device_teardown),
      cmocka_unit_test_setup_teardown(test_linear_algebra_failures_and_derivatives, device_setup,
                                      device_teardown),
      cmocka_unit_test_setup_teardown(test_dlpack_keeps_the_device, device_setup, device_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
