/* Placement through the C ABI, run on the host-memory device plugin (fake_plugin.cpp): transfers,
 * ops on a device equal to the host's, the device rule (operands on two devices fail; rank-0 host
 * scalars join), host reads refused, ops the device backend lacks, programs on a device, DLPack.
 * With the argument "absent" it checks a process whose plugin cannot be loaded; with "real" it
 * runs the same checks on the CUDA plugin (a skip line without a GPU; GPU results are compared
 * with a tolerance where the device's math library may round differently). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "../capi/capi_testing.h"
#include "../capi/dlpack_test_abi.h"

static tfe_context* ctx;
/* 1: the host-memory double (two devices, bit-identical kernels); 0: the real CUDA plugin. */
static int g_fake = 1;
/* The second device of the transfer and DLPack checks (device 0 again on a one-GPU machine). */
static int32_t g_second = 1;

static tfe_tensor* to_dev(const tfe_tensor* t, int32_t ordinal) {
  tfe_tensor* out = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_to_device(&out, t, TFE_DEVICE_CUDA, ordinal));
  return out;
}

static tfe_tensor* to_host(const tfe_tensor* t) {
  tfe_tensor* out = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_to_device(&out, t, TFE_DEVICE_CPU, 0));
  return out;
}

static void expect_on(const tfe_tensor* t, int32_t kind, int32_t ordinal) {
  int32_t k = 0, o = -1;
  TFE_OK_OR_FAIL(tfe_tensor_device(t, &k, &o));
  assert_int_equal(k, kind);
  assert_int_equal(o, ordinal);
}

/* The device result, brought back, holds the host result's bytes (the fake device runs the host
 * kernels, so equality is exact except for the matrix products, compared with tol). */
static void expect_same(const tfe_tensor* host, const tfe_tensor* device, double tol) {
  expect_on(device, TFE_DEVICE_CUDA, 0);
  tfe_tensor* back = to_host(device);
  int32_t d1 = 0, d2 = 0;
  TFE_OK_OR_FAIL(tfe_tensor_dtype(host, &d1));
  TFE_OK_OR_FAIL(tfe_tensor_dtype(back, &d2));
  assert_int_equal(d1, d2);
  int64_t n1 = 0, n2 = 0;
  unsigned char* a = tensor_bytes(host, &n1);
  unsigned char* b = tensor_bytes(back, &n2);
  assert_int_equal(n1, n2);
  if (tol == 0 && !g_fake && d1 >= TFE_F32) tol = d1 == TFE_F32 || d1 == TFE_C32 ? 2e-6 : 1e-12;
  if (tol == 0) {
    assert_memory_equal(a, b, (size_t)n1);
  } else {
    unsigned char close = 0;
    tfe_tensor* c = NULL;
    TFE_OK_OR_FAIL(tfe_allclose(&c, host, back, tol, tol, 0));
    TFE_OK_OR_FAIL(tfe_tensor_copy_to(c, TFE_BOOL, &close, 1));
    assert_int_equal(close, 1);
    tfe_tensor_release(c);
  }
  free(a);
  free(b);
  tfe_tensor_release(back);
}

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
  EXPECT_STATUS(tfe_cumsum(&out, d, 0), TFE_ERR_NOT_SUPPORTED, "tfe_cumsum");
  assert_null(out);
  assert_non_null(strstr(tfe_last_error_message(), "F64"));
  assert_non_null(strstr(tfe_last_error_message(), "cuda:0"));
  out = (tfe_tensor*)0x1;
  EXPECT_STATUS(tfe_linalg_inv(&out, d), TFE_ERR_NOT_SUPPORTED, "tfe_linalg_inv");
  assert_null(out);
  EXPECT_STATUS(tfe_tensor_set_requires_grad(d, 1), TFE_ERR_NOT_SUPPORTED,
                "tfe_tensor_set_requires_grad");
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
  /* A tracked tensor does not move (transfers are not differentiable yet). */
  tfe_tensor* leaf = make_tensor(ctx, TFE_F64, 2, shape);
  TFE_OK_OR_FAIL(tfe_tensor_set_requires_grad(leaf, 1));
  EXPECT_STATUS(tfe_tensor_to_device(&out, leaf, TFE_DEVICE_CUDA, 0), TFE_ERR_NOT_SUPPORTED,
                "tfe_tensor_to_device");
  assert_null(out);
  tfe_tensor_release(leaf);
  tfe_tensor_release(d);
  tfe_tensor_release(x);
}

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
  tfe_function* f = NULL;
  TFE_OK_OR_FAIL(tfe_function_create(&f, 1, &in, 1, &y));
  tfe_tensor* x = make_tensor(ctx, TFE_F64, 2, shape);
  tfe_tensor* xd = to_dev(x, 0);
  tfe_tensor *h = NULL, *d = NULL;
  TFE_OK_OR_FAIL(tfe_function_call1(&h, f, 1, &x));
  TFE_OK_OR_FAIL(tfe_function_call1(&d, f, 1, &xd));
  expect_same(h, d, 0);
  tfe_tensor* objs[] = {in, k, s, m, y, x, xd, h, d};
  for (size_t i = 0; i < sizeof objs / sizeof objs[0]; ++i) tfe_tensor_release(objs[i]);
  tfe_function_release(f);
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

static int64_t device_blocks(void) {
  void* lib = dlopen(TFE_FAKE_PLUGIN_PATH, RTLD_NOW | RTLD_NOLOAD);
  assert_non_null(lib);
  int64_t (*live)(void) = NULL;
  void* sym = dlsym(lib, "tfe_fake_device_live_blocks");
  assert_non_null(sym);
  memcpy(&live, &sym, sizeof live); /* POSIX: a data pointer from dlsym names the function */
  int64_t n = live();
  dlclose(lib);
  return n;
}

static int setup(void** state) {
  int r = leak_setup(state);
  ctx = new_ctx();
  return r;
}

static int teardown(void** state) {
  tfe_context_release(ctx);
  int r = leak_teardown(state);
  /* Every device block went back to the (fake) device once its tensors were released. */
  if (g_fake) assert_int_equal(device_blocks(), 0);
  return r;
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
  if (argc > 1 && strcmp(argv[1], "real") == 0) {
    g_fake = 0;
    int32_t n = 0;
    if (tfe_device_count(&n) != TFE_OK) return 1;
    if (n == 0) {
      printf("SKIP: no CUDA device (the placement suite on the CUDA plugin)\n");
      return 0;
    }
    g_second = n > 1 ? 1 : 0;
  } else {
    setenv("TFE_CUDA_PLUGIN", TFE_FAKE_PLUGIN_PATH, 1);
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_count_and_round_trip, setup, teardown),
      cmocka_unit_test_setup_teardown(test_elementwise_equals_host, setup, teardown),
      cmocka_unit_test_setup_teardown(test_reductions_and_structure, setup, teardown),
      cmocka_unit_test_setup_teardown(test_matrix_products, setup, teardown),
      cmocka_unit_test_setup_teardown(test_devices_do_not_mix, setup, teardown),
      cmocka_unit_test_setup_teardown(test_host_reads_refused, setup, teardown),
      cmocka_unit_test_setup_teardown(test_missing_kernels_and_bad_requests, setup, teardown),
      cmocka_unit_test_setup_teardown(test_program_runs_on_the_arguments_device, setup, teardown),
      cmocka_unit_test_setup_teardown(test_dlpack_keeps_the_device, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
