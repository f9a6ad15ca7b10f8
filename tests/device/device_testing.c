/* The device suites' shared helpers (device_testing.h). */
#include "device_testing.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

tfe_context* ctx;
/* 1: the host-memory double (two devices, bit-identical kernels); 0: the real CUDA plugin. */
int g_fake = 1;
/* The second device of the transfer and DLPack checks (device 0 again on a one-GPU machine). */
int32_t g_second = 1;

tfe_tensor* to_dev(const tfe_tensor* t, int32_t ordinal) {
  tfe_tensor* out = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_to_device(&out, t, TFE_DEVICE_CUDA, ordinal));
  return out;
}

/* A host copy of t's values (a tracked t is detached first: transfers are not differentiable). */
tfe_tensor* to_host(const tfe_tensor* t) {
  tfe_tensor *plain = NULL, *out = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_detach(&plain, t));
  TFE_OK_OR_FAIL(tfe_tensor_to_device(&out, plain, TFE_DEVICE_CPU, 0));
  tfe_tensor_release(plain);
  return out;
}

void expect_on(const tfe_tensor* t, int32_t kind, int32_t ordinal) {
  int32_t k = 0, o = -1;
  TFE_OK_OR_FAIL(tfe_tensor_device(t, &k, &o));
  assert_int_equal(k, kind);
  assert_int_equal(o, ordinal);
}

/* The device result, brought back, holds the host result's bytes (the fake device runs the host
 * kernels, so equality is exact except for the matrix products, compared with tol). */
void expect_same(const tfe_tensor* host, const tfe_tensor* device, double tol) {
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

/* A float component (4 or 8 bytes) that is a NaN. */
int nan_bits(const unsigned char* p, size_t size) {
  if (size == 4) {
    float f;
    memcpy(&f, p, 4);
    return isnan(f);
  }
  double v;
  memcpy(&v, p, 8);
  return isnan(v);
}

/* The device result, brought back, holds exactly the host result's bytes (these ops only move,
 * compare and fold elements in the host's order, on the real plugin too), except that any NaN
 * equals any NaN: a GPU's arithmetic makes canonical NaNs where the host propagates payloads. */
void expect_exact(const tfe_tensor* host, const tfe_tensor* device) {
  expect_on(device, TFE_DEVICE_CUDA, 0);
  tfe_tensor* back = to_host(device);
  int32_t d1 = 0, d2 = 0, r1 = 0, r2 = 0;
  TFE_OK_OR_FAIL(tfe_tensor_dtype(host, &d1));
  TFE_OK_OR_FAIL(tfe_tensor_dtype(back, &d2));
  assert_int_equal(d1, d2);
  TFE_OK_OR_FAIL(tfe_tensor_ndim(host, &r1));
  TFE_OK_OR_FAIL(tfe_tensor_ndim(back, &r2));
  assert_int_equal(r1, r2);
  assert_true(r1 <= 8);
  int64_t s1[8] = {0}, s2[8] = {0};
  TFE_OK_OR_FAIL(tfe_tensor_shape(host, s1));
  TFE_OK_OR_FAIL(tfe_tensor_shape(back, s2));
  assert_memory_equal(s1, s2, sizeof s1);
  int64_t n1 = 0, n2 = 0;
  unsigned char* a = tensor_bytes(host, &n1);
  unsigned char* b = tensor_bytes(back, &n2);
  assert_int_equal(n1, n2);
  size_t part = d1 == TFE_F32 || d1 == TFE_C32 ? 4 : d1 == TFE_F64 || d1 == TFE_C64 ? 8 : 0;
  if (part == 0) {
    if (n1 > 0) assert_memory_equal(a, b, (size_t)n1);
  } else {
    for (size_t k = 0; k < (size_t)n1; k += part)
      if (!(nan_bits(a + k, part) && nan_bits(b + k, part)))
        assert_memory_equal(a + k, b + k, part);
  }
  free(a);
  free(b);
  tfe_tensor_release(back);
}

void release_all(tfe_tensor** objs, size_t n) {
  for (size_t i = 0; i < n; ++i) tfe_tensor_release(objs[i]);
}

int64_t device_blocks(void) {
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

tfe_tensor* grad_of(const tfe_tensor* t) {
  tfe_tensor* g = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_grad(&g, t));
  assert_non_null(g);
  return g;
}

int device_setup(void** state) {
  int r = leak_setup(state);
  ctx = new_ctx();
  return r;
}

int device_teardown(void** state) {
  tfe_context_release(ctx);
  int r = leak_teardown(state);
  /* Every device block went back to the (fake) device once its tensors were released. */
  if (g_fake) assert_int_equal(device_blocks(), 0);
  return r;
}

int device_suite_start(int argc, char** argv, const char* suite) {
  if (argc > 1 && strcmp(argv[1], "real") == 0) {
    g_fake = 0;
    int32_t n = 0;
    if (tfe_device_count(&n) != TFE_OK) return 1;
    if (n == 0) {
      printf("SKIP: no CUDA device (%s on the CUDA plugin)\n", suite);
      return 0;
    }
    g_second = n > 1 ? 1 : 0;
    return -1;
  }
  setenv("TFE_CUDA_PLUGIN", TFE_FAKE_PLUGIN_PATH, 1);
  return -1;
}
