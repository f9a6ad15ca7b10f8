/* The fixed core signatures of the C ABI: errors and their accessors, tensors from and to
 * memory for every dtype and layout, accessors, lifetimes, adopted buffers and DLPack, plus the
 * surface semantics pinned by the contract (broadcasting, promotion, integer errors). */
#include <complex.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>

#include "capi_testing.h"
#include "dlpack_test_abi.h"

static void test_version_and_status_names(void** state) {
  (void)state;
  assert_string_equal(tfe_version(), "0.1.0");
  assert_int_equal(tfe_abi_version(), TFE_ABI_VERSION);
  assert_string_equal(tfe_status_name(TFE_OK), "TFE_OK");
  assert_string_equal(tfe_status_name(TFE_ERR_SINGULAR), "TFE_ERR_SINGULAR");
  assert_string_equal(tfe_status_name(TFE_ERR_INTERNAL), "TFE_ERR_INTERNAL");
  assert_string_equal(tfe_status_name(12345), "TFE_ERR_UNKNOWN");
  int32_t n = -1;
  TFE_OK_OR_FAIL(tfe_device_count(&n));
  assert_int_equal(n, 0);
}

static void test_error_message_lifecycle(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  tfe_tensor* out = NULL;
  EXPECT_STATUS(tfe_zeros(&out, ctx, 99, 0, NULL), TFE_ERR_INVALID_ARGUMENT, "tfe_zeros");
  assert_non_null(strstr(tfe_last_error_message(), "unknown dtype 99"));
  /* accessors never change the error state */
  (void)tfe_status_name(TFE_OK);
  (void)tfe_debug_live_objects();
  (void)tfe_version();
  int64_t needed = 0;
  TFE_OK_OR_FAIL(tfe_last_error_copy(NULL, 0, &needed));
  assert_int_equal(needed, (int64_t)strlen(tfe_last_error_message()) + 1);
  char small[8];
  TFE_OK_OR_FAIL(tfe_last_error_copy(small, sizeof small, NULL));
  assert_string_equal(small, "tfe_zer");
  assert_int_equal(tfe_last_error_copy(NULL, 4, NULL), TFE_ERR_INVALID_ARGUMENT);
  assert_non_null(strstr(tfe_last_error_message(), "unknown dtype 99"));
  /* a success clears it */
  TFE_OK_OR_FAIL(tfe_zeros(&out, ctx, TFE_F64, 0, NULL));
  assert_string_equal(tfe_last_error_message(), "");
  tfe_tensor_release(out);
  tfe_context_release(ctx);
}

static void* fail_on_thread(void* arg) {
  (void)arg;
  tfe_tensor* out = NULL;
  tfe_status s = tfe_zeros(&out, NULL, TFE_F64, 0, NULL);
  return (void*)(intptr_t)(s == TFE_ERR_INVALID_ARGUMENT &&
                           strstr(tfe_last_error_message(), "ctx"));
}

static void test_error_message_is_per_thread(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  tfe_tensor* out = NULL;
  TFE_OK_OR_FAIL(tfe_zeros(&out, ctx, TFE_F64, 0, NULL));
  pthread_t th;
  void* ok = NULL;
  assert_int_equal(pthread_create(&th, NULL, fail_on_thread, NULL), 0);
  assert_int_equal(pthread_join(th, &ok), 0);
  assert_true(ok != NULL);
  assert_string_equal(tfe_last_error_message(), ""); /* this thread's call succeeded */
  tfe_tensor_release(out);
  tfe_context_release(ctx);
}

static void test_roundtrip_every_dtype(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t shape[] = {3, 2};
  for (int32_t dt = TFE_BOOL; dt <= TFE_C64; ++dt) {
    tfe_tensor* t = make_tensor(ctx, dt, 2, shape);
    int32_t got_dt = 0, nd = 0;
    int64_t sh[2] = {0, 0}, numel = 0;
    TFE_OK_OR_FAIL(tfe_tensor_dtype(t, &got_dt));
    TFE_OK_OR_FAIL(tfe_tensor_ndim(t, &nd));
    TFE_OK_OR_FAIL(tfe_tensor_shape(t, sh));
    TFE_OK_OR_FAIL(tfe_tensor_numel(t, &numel));
    assert_int_equal(got_dt, dt);
    assert_int_equal(nd, 2);
    assert_int_equal(sh[0], 3);
    assert_int_equal(sh[1], 2);
    assert_int_equal(numel, 6);
    /* from the strided transpose of the same values: the layout is the caller's business */
    int64_t n = 0;
    unsigned char* bytes = tensor_bytes(t, &n);
    int64_t size = dtype_size(dt);
    unsigned char* row_major = malloc((size_t)n);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 2; ++j)
        memcpy(row_major + (i * 2 + j) * size, bytes + (i + 3 * j) * size, (size_t)size);
    const int64_t strides[] = {2, 1};
    tfe_tensor* u = NULL;
    TFE_OK_OR_FAIL(tfe_tensor_from_data(&u, ctx, dt, 2, shape, strides, row_major));
    int64_t m = 0;
    unsigned char* again = tensor_bytes(u, &m);
    assert_int_equal(m, n);
    assert_memory_equal(again, bytes, (size_t)n);
    /* a too small buffer is rejected and left untouched */
    memset(again, 0xAB, (size_t)m);
    EXPECT_STATUS(tfe_tensor_to_data(u, again, m - 1), TFE_ERR_INVALID_ARGUMENT,
                  "tfe_tensor_to_data");
    for (int64_t i = 0; i < m; ++i) assert_int_equal(again[i], 0xAB);
    free(again);
    free(row_major);
    free(bytes);
    tfe_tensor_release(u);
    tfe_tensor_release(t);
  }
  tfe_context_release(ctx);
}

static void test_negative_strides_and_bool_normalisation(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const double data[] = {1, 2, 3, 4};
  const int64_t shape[] = {4}, back[] = {-1};
  tfe_tensor* t = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&t, ctx, TFE_F64, 1, shape, back, data + 3));
  double got[4];
  TFE_OK_OR_FAIL(tfe_tensor_to_data(t, got, sizeof got));
  assert_true(got[0] == 4 && got[1] == 3 && got[2] == 2 && got[3] == 1);
  tfe_tensor_release(t);

  const unsigned char bools[] = {0, 7, 1, 255};
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&t, ctx, TFE_BOOL, 1, shape, NULL, bools));
  unsigned char b[4];
  TFE_OK_OR_FAIL(tfe_tensor_to_data(t, b, sizeof b));
  assert_true(b[0] == 0 && b[1] == 1 && b[2] == 1 && b[3] == 1);
  tfe_tensor_release(t);

  /* no elements: data may be NULL */
  const int64_t empty[] = {0, 5};
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&t, ctx, TFE_C64, 2, empty, NULL, NULL));
  TFE_OK_OR_FAIL(tfe_tensor_to_data(t, NULL, 0));
  tfe_tensor_release(t);
  tfe_context_release(ctx);
}

static void test_from_data_errors(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const double v = 1;
  const int64_t shape[] = {2}, neg[] = {-2}, huge[] = {INT64_MAX / 2, 4};
  tfe_tensor* t = (tfe_tensor*)(void*)&v;
  EXPECT_STATUS(tfe_tensor_from_data(&t, ctx, TFE_F64, 1, shape, NULL, NULL),
                TFE_ERR_INVALID_ARGUMENT, "tfe_tensor_from_data");
  assert_null(t);
  EXPECT_STATUS(tfe_tensor_from_data(&t, NULL, TFE_F64, 0, NULL, NULL, &v),
                TFE_ERR_INVALID_ARGUMENT, "tfe_tensor_from_data");
  EXPECT_STATUS(tfe_tensor_from_data(&t, ctx, 0, 0, NULL, NULL, &v), TFE_ERR_INVALID_ARGUMENT,
                "tfe_tensor_from_data");
  EXPECT_STATUS(tfe_tensor_from_data(&t, ctx, TFE_F64, -1, shape, NULL, &v),
                TFE_ERR_INVALID_ARGUMENT, "tfe_tensor_from_data");
  EXPECT_STATUS(tfe_tensor_from_data(&t, ctx, TFE_F64, 1, NULL, NULL, &v), TFE_ERR_INVALID_ARGUMENT,
                "tfe_tensor_from_data");
  EXPECT_STATUS(tfe_tensor_from_data(&t, ctx, TFE_F64, 1, neg, NULL, &v), TFE_ERR_INVALID_ARGUMENT,
                "tfe_tensor_from_data");
  EXPECT_STATUS(tfe_tensor_from_data(&t, ctx, TFE_F64, 2, huge, NULL, &v), TFE_ERR_NUMERICAL,
                "tfe_tensor_from_data");
  EXPECT_STATUS(tfe_tensor_from_data(NULL, ctx, TFE_F64, 0, NULL, NULL, &v),
                TFE_ERR_INVALID_ARGUMENT, "tfe_tensor_from_data");
  assert_null(t);
  int32_t nd = 0;
  EXPECT_STATUS(tfe_tensor_ndim(NULL, &nd), TFE_ERR_INVALID_ARGUMENT, "tfe_tensor_ndim");
  tfe_context_release(ctx);
}

static void test_lifetimes_and_accessors(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t shape[] = {2, 3};
  tfe_tensor* t = make_tensor(ctx, TFE_F64, 2, shape);
  tfe_context_release(ctx); /* the tensor keeps its context alive */
  tfe_context* back = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_context(&back, t));
  assert_non_null(back);
  TFE_OK_OR_FAIL(tfe_tensor_retain(t));
  tfe_tensor_release(t);
  tfe_tensor* tt = NULL;
  const int64_t perm[] = {1, 0};
  TFE_OK_OR_FAIL(tfe_transpose(&tt, t, 2, perm));
  int64_t s0 = 0, s1 = 0;
  TFE_OK_OR_FAIL(tfe_tensor_stride(tt, 0, &s0));
  TFE_OK_OR_FAIL(tfe_tensor_stride(tt, -1, &s1));
  assert_int_equal(s0, 2); /* a view: transposed strides, shared storage */
  assert_int_equal(s1, 1);
  const void *p1 = NULL, *p2 = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_data(t, &p1));
  TFE_OK_OR_FAIL(tfe_tensor_data(tt, &p2));
  assert_ptr_equal(p1, p2);
  tfe_tensor* c = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_contiguous(&c, tt));
  TFE_OK_OR_FAIL(tfe_tensor_stride(c, 1, &s1));
  assert_int_equal(s1, 3);
  EXPECT_STATUS(tfe_tensor_stride(c, 2, &s1), TFE_ERR_INVALID_ARGUMENT, "tfe_tensor_stride");
  tfe_tensor_release(c);
  tfe_tensor_release(tt);
  tfe_tensor_release(t);
  tfe_context_release(back);
  tfe_tensor_release(NULL);
  tfe_context_release(NULL);
}

static int g_deleter_calls;
static void count_deleter(void* data, void* user) {
  (void)data;
  ++*(int*)user;
}

static void test_from_buffer(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  double buf[6] = {1, 2, 3, 4, 5, 6};
  const int64_t shape[] = {2, 3};
  g_deleter_calls = 0;
  tfe_tensor* t = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_from_buffer(&t, ctx, TFE_F64, 2, shape, NULL, buf, count_deleter,
                                        &g_deleter_calls));
  const void* p = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_data(t, &p));
  assert_ptr_equal(p, buf); /* zero copy */
  tfe_tensor* s = NULL;
  TFE_OK_OR_FAIL(tfe_sum(&s, t, 0, NULL));
  double total = 0;
  TFE_OK_OR_FAIL(tfe_tensor_to_data(s, &total, sizeof total));
  assert_true(total == 21);
  tfe_tensor* view = NULL;
  const int64_t perm[] = {1, 0};
  TFE_OK_OR_FAIL(tfe_transpose(&view, t, 2, perm)); /* a view keeps the buffer alive */
  tfe_tensor_release(t);
  assert_int_equal(g_deleter_calls, 0);
  tfe_tensor_release(view);
  assert_int_equal(g_deleter_calls, 1);
  tfe_tensor_release(s);

  /* failures take no ownership: misaligned data, Bool bytes other than 0/1 */
  g_deleter_calls = 0;
  tfe_tensor* bad = NULL;
  char* raw = (char*)buf + 1;
  EXPECT_STATUS(tfe_tensor_from_buffer(&bad, ctx, TFE_F64, 1, shape, NULL, raw, count_deleter,
                                       &g_deleter_calls),
                TFE_ERR_INVALID_ARGUMENT, "tfe_tensor_from_buffer");
  unsigned char bools[2] = {1, 2};
  EXPECT_STATUS(tfe_tensor_from_buffer(&bad, ctx, TFE_BOOL, 1, shape, NULL, bools, count_deleter,
                                       &g_deleter_calls),
                TFE_ERR_INVALID_ARGUMENT, "tfe_tensor_from_buffer");
  assert_null(bad);
  assert_int_equal(g_deleter_calls, 0);
  tfe_context_release(ctx);
}

static void test_dlpack_roundtrips(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t shape[] = {3, 2};
  for (int32_t dt = TFE_BOOL; dt <= TFE_C64; ++dt) {
    tfe_tensor* t = make_tensor(ctx, dt, 2, shape);
    tfe_tensor* tt = NULL;
    const int64_t perm[] = {1, 0};
    TFE_OK_OR_FAIL(tfe_transpose(&tt, t, 2, perm));
    /* legacy */
    struct DLManagedTensor* m = NULL;
    TFE_OK_OR_FAIL(tfe_tensor_to_dlpack(&m, tt));
    assert_int_equal(m->dl_tensor.ndim, 2);
    assert_int_equal(m->dl_tensor.shape[0], 2);
    assert_int_equal(m->dl_tensor.strides[0], 3); /* explicit strides of the view */
    assert_int_equal(m->dl_tensor.device.device_type, 1);
    tfe_tensor* back = NULL;
    TFE_OK_OR_FAIL(tfe_tensor_from_dlpack(&back, ctx, m));
    /* versioned */
    struct DLManagedTensorVersioned* v = NULL;
    TFE_OK_OR_FAIL(tfe_tensor_to_dlpack_versioned(&v, tt));
    assert_int_equal(v->version.major, 1);
    assert_true(v->flags & 1u);
    tfe_tensor* back2 = NULL;
    TFE_OK_OR_FAIL(tfe_tensor_from_dlpack_versioned(&back2, ctx, v));
    int64_t n0 = 0, n1 = 0, n2 = 0;
    unsigned char* a = tensor_bytes(tt, &n0);
    unsigned char* b = tensor_bytes(back, &n1);
    unsigned char* c = tensor_bytes(back2, &n2);
    assert_int_equal(n0, n1);
    assert_memory_equal(a, b, (size_t)n0);
    assert_memory_equal(a, c, (size_t)n0);
    const void *p0 = NULL, *p1 = NULL;
    TFE_OK_OR_FAIL(tfe_tensor_data(tt, &p0));
    TFE_OK_OR_FAIL(tfe_tensor_data(back, &p1));
    assert_ptr_equal(p0, p1); /* zero copy both ways */
    free(a);
    free(b);
    free(c);
    tfe_tensor_release(t);
    tfe_tensor_release(tt);
    tfe_tensor_release(back);
    tfe_tensor_release(back2);
  }
  tfe_context_release(ctx);
}

static int g_dl_deleted;
static void dl_deleter(struct DLManagedTensor* self) {
  (void)self;
  ++g_dl_deleted;
}

static void test_dlpack_import_row_major_and_errors(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  float data[6] = {1, 2, 3, 4, 5, 6}; /* row-major 2x3 */
  int64_t shape[2] = {2, 3};
  struct DLManagedTensor m;
  memset(&m, 0, sizeof m);
  m.dl_tensor.data = data;
  m.dl_tensor.device.device_type = 1;
  m.dl_tensor.ndim = 2;
  m.dl_tensor.dtype.code = 2;
  m.dl_tensor.dtype.bits = 32;
  m.dl_tensor.dtype.lanes = 1;
  m.dl_tensor.shape = shape;
  m.dl_tensor.strides = NULL;
  m.deleter = dl_deleter;
  g_dl_deleted = 0;

  /* A CUDA device that does not exist here: refused, ownership not taken. */
  m.dl_tensor.device.device_type = 2;
  m.dl_tensor.device.device_id = 99;
  tfe_tensor* t = NULL;
  EXPECT_STATUS(tfe_tensor_from_dlpack(&t, ctx, &m), TFE_ERR_DEVICE, "tfe_tensor_from_dlpack");
  m.dl_tensor.device.device_type = 13; /* a device kind the library does not know */
  EXPECT_STATUS(tfe_tensor_from_dlpack(&t, ctx, &m), TFE_ERR_NOT_SUPPORTED,
                "tfe_tensor_from_dlpack");
  m.dl_tensor.device.device_type = 1;
  m.dl_tensor.device.device_id = 0;
  m.dl_tensor.dtype.bits = 16; /* half: no tenferro dtype */
  EXPECT_STATUS(tfe_tensor_from_dlpack(&t, ctx, &m), TFE_ERR_NOT_SUPPORTED,
                "tfe_tensor_from_dlpack");
  m.dl_tensor.dtype.bits = 32;
  assert_int_equal(g_dl_deleted, 0);

  TFE_OK_OR_FAIL(tfe_tensor_from_dlpack(&t, ctx, &m));
  float col_major[6];
  TFE_OK_OR_FAIL(tfe_tensor_to_data(t, col_major, sizeof col_major));
  const float expect[6] = {1, 4, 2, 5, 3, 6}; /* element (i, j) = data[3 i + j] */
  assert_memory_equal(col_major, expect, sizeof expect);
  tfe_tensor_release(t);
  assert_int_equal(g_dl_deleted, 1);
  tfe_context_release(ctx);
}

static void test_surface_semantics(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t s23[] = {2, 3}, s2[] = {2}, s3[] = {3};
  tfe_tensor* a = make_tensor(ctx, TFE_F64, 2, s23);
  tfe_tensor* col = make_tensor(ctx, TFE_F64, 1, s2);
  tfe_tensor* row = make_tensor(ctx, TFE_F64, 1, s3);
  tfe_tensor* out = NULL;
  TFE_OK_OR_FAIL(tfe_add(&out, a, col)); /* left-aligned: the column is added to each column */
  double v[6];
  TFE_OK_OR_FAIL(tfe_tensor_to_data(out, v, sizeof v));
  assert_true(v[0] == 2.0 && v[1] == 2.5 && v[2] == 2.5 && v[5] == 3.5);
  tfe_tensor_release(out);
  EXPECT_STATUS(tfe_add(&out, a, row), TFE_ERR_SHAPE_MISMATCH, "tfe_add");
  assert_non_null(strstr(tfe_last_error_message(), "shapes [2,3] and [3] do not broadcast"));

  /* promotion: I32 + F32 -> F64, F64 + C32 -> C64 */
  tfe_tensor* i32 = make_tensor(ctx, TFE_I32, 1, s2);
  tfe_tensor* f32 = make_tensor(ctx, TFE_F32, 1, s2);
  tfe_tensor* c32 = make_tensor(ctx, TFE_C32, 1, s2);
  int32_t dt = 0;
  TFE_OK_OR_FAIL(tfe_add(&out, i32, f32));
  TFE_OK_OR_FAIL(tfe_tensor_dtype(out, &dt));
  assert_int_equal(dt, TFE_F64);
  tfe_tensor_release(out);
  TFE_OK_OR_FAIL(tfe_mul(&out, col, c32));
  TFE_OK_OR_FAIL(tfe_tensor_dtype(out, &dt));
  assert_int_equal(dt, TFE_C64);
  tfe_tensor_release(out);

  /* integer division by zero is an error before anything is written; true division gives inf */
  const int32_t num[] = {7, -7}, den[] = {2, 0};
  tfe_tensor *n = NULL, *d = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&n, ctx, TFE_I32, 1, s2, NULL, num));
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&d, ctx, TFE_I32, 1, s2, NULL, den));
  out = (tfe_tensor*)(void*)&dt;
  EXPECT_STATUS(tfe_div_trunc(&out, n, d), TFE_ERR_NUMERICAL, "tfe_div_trunc");
  assert_null(out);
  EXPECT_STATUS(tfe_rem(&out, n, d), TFE_ERR_NUMERICAL, "tfe_rem");
  TFE_OK_OR_FAIL(tfe_div(&out, n, d));
  TFE_OK_OR_FAIL(tfe_tensor_dtype(out, &dt));
  assert_int_equal(dt, TFE_F64);
  double q[2];
  TFE_OK_OR_FAIL(tfe_tensor_to_data(out, q, sizeof q));
  assert_true(q[0] == 3.5 && isinf(q[1]) && q[1] < 0);
  tfe_tensor_release(out);

  /* sum of Bool accumulates in I64; mean of integers is F64 */
  tfe_tensor* b = make_tensor(ctx, TFE_BOOL, 2, s23);
  TFE_OK_OR_FAIL(tfe_sum(&out, b, 0, NULL));
  TFE_OK_OR_FAIL(tfe_tensor_dtype(out, &dt));
  assert_int_equal(dt, TFE_I64);
  int64_t count = 0;
  TFE_OK_OR_FAIL(tfe_tensor_to_data(out, &count, sizeof count));
  assert_int_equal(count, 3);
  tfe_tensor_release(out);
  TFE_OK_OR_FAIL(tfe_mean(&out, n, 0, NULL));
  TFE_OK_OR_FAIL(tfe_tensor_dtype(out, &dt));
  assert_int_equal(dt, TFE_F64);
  tfe_tensor_release(out);

  tfe_tensor* all[] = {a, b, n, d, i32, f32, c32, col, row};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) tfe_tensor_release(all[i]);
  tfe_context_release(ctx);
}

/* Every accessor and lifetime function rejects NULL handles and NULL outputs. */
static void test_accessors_reject_null(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t shape[] = {2};
  tfe_tensor* t = make_tensor(ctx, TFE_F64, 1, shape);
  int32_t i32 = 0;
  int64_t i64 = 0, sh[1] = {0};
  const void* p = NULL;
  double buf[2];
  EXPECT_STATUS(tfe_tensor_dtype(NULL, &i32), TFE_ERR_INVALID_ARGUMENT, "tfe_tensor_dtype");
  EXPECT_STATUS(tfe_tensor_dtype(t, NULL), TFE_ERR_INVALID_ARGUMENT, "tfe_tensor_dtype");
  EXPECT_STATUS(tfe_tensor_ndim(t, NULL), TFE_ERR_INVALID_ARGUMENT, "tfe_tensor_ndim");
  EXPECT_STATUS(tfe_tensor_shape(NULL, sh), TFE_ERR_INVALID_ARGUMENT, "tfe_tensor_shape");
  EXPECT_STATUS(tfe_tensor_shape(t, NULL), TFE_ERR_INVALID_ARGUMENT, "tfe_tensor_shape");
  EXPECT_STATUS(tfe_tensor_numel(NULL, &i64), TFE_ERR_INVALID_ARGUMENT, "tfe_tensor_numel");
  EXPECT_STATUS(tfe_tensor_numel(t, NULL), TFE_ERR_INVALID_ARGUMENT, "tfe_tensor_numel");
  EXPECT_STATUS(tfe_tensor_stride(NULL, 0, &i64), TFE_ERR_INVALID_ARGUMENT, "tfe_tensor_stride");
  EXPECT_STATUS(tfe_tensor_stride(t, 0, NULL), TFE_ERR_INVALID_ARGUMENT, "tfe_tensor_stride");
  EXPECT_STATUS(tfe_tensor_data(NULL, &p), TFE_ERR_INVALID_ARGUMENT, "tfe_tensor_data");
  EXPECT_STATUS(tfe_tensor_data(t, NULL), TFE_ERR_INVALID_ARGUMENT, "tfe_tensor_data");
  EXPECT_STATUS(tfe_tensor_to_data(NULL, buf, sizeof buf), TFE_ERR_INVALID_ARGUMENT,
                "tfe_tensor_to_data");
  EXPECT_STATUS(tfe_tensor_to_data(t, NULL, sizeof buf), TFE_ERR_INVALID_ARGUMENT,
                "tfe_tensor_to_data");
  tfe_context* c = (tfe_context*)(void*)&i32;
  EXPECT_STATUS(tfe_tensor_context(&c, NULL), TFE_ERR_INVALID_ARGUMENT, "tfe_tensor_context");
  assert_null(c);
  EXPECT_STATUS(tfe_tensor_context(NULL, t), TFE_ERR_INVALID_ARGUMENT, "tfe_tensor_context");
  EXPECT_STATUS(tfe_tensor_retain(NULL), TFE_ERR_INVALID_ARGUMENT, "tfe_tensor_retain");
  EXPECT_STATUS(tfe_context_retain(NULL), TFE_ERR_INVALID_ARGUMENT, "tfe_context_retain");
  EXPECT_STATUS(tfe_context_create(NULL), TFE_ERR_INVALID_ARGUMENT, "tfe_context_create");
  EXPECT_STATUS(tfe_get_num_threads(NULL), TFE_ERR_INVALID_ARGUMENT, "tfe_get_num_threads");
  EXPECT_STATUS(tfe_device_count(NULL), TFE_ERR_INVALID_ARGUMENT, "tfe_device_count");
  struct DLManagedTensor* m = (struct DLManagedTensor*)(void*)&i32;
  EXPECT_STATUS(tfe_tensor_to_dlpack(&m, NULL), TFE_ERR_INVALID_ARGUMENT, "tfe_tensor_to_dlpack");
  assert_null(m);
  tfe_tensor* o = NULL;
  EXPECT_STATUS(tfe_tensor_from_dlpack(&o, ctx, NULL), TFE_ERR_INVALID_ARGUMENT,
                "tfe_tensor_from_dlpack");
  EXPECT_STATUS(tfe_tensor_from_dlpack_versioned(&o, NULL, NULL), TFE_ERR_INVALID_ARGUMENT,
                "tfe_tensor_from_dlpack_versioned");
  double one = 1;
  EXPECT_STATUS(tfe_tensor_from_buffer(&o, NULL, TFE_F64, 0, NULL, NULL, &one, NULL, NULL),
                TFE_ERR_INVALID_ARGUMENT, "tfe_tensor_from_buffer");
  assert_null(o);
  tfe_tensor_release(t);
  tfe_context_release(ctx);
}

static void test_threads_setting(void** state) {
  (void)state;
  int32_t before = 0, now = 0;
  TFE_OK_OR_FAIL(tfe_get_num_threads(&before));
  assert_true(before >= 1);
  TFE_OK_OR_FAIL(tfe_set_num_threads(1));
  TFE_OK_OR_FAIL(tfe_get_num_threads(&now));
  assert_int_equal(now, 1);
  EXPECT_STATUS(tfe_set_num_threads(0), TFE_ERR_INVALID_ARGUMENT, "tfe_set_num_threads");
  /* Beyond the hardware concurrency: refused, naming the limit, and the budget is unchanged. */
  EXPECT_STATUS(tfe_set_num_threads(1000000), TFE_ERR_INVALID_ARGUMENT, "tfe_set_num_threads");
  assert_non_null(strstr(tfe_last_error_message(), "hardware concurrency"));
  TFE_OK_OR_FAIL(tfe_get_num_threads(&now));
  assert_int_equal(now, 1);
  TFE_OK_OR_FAIL(tfe_set_num_threads(before));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_version_and_status_names, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_error_message_lifecycle, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_error_message_is_per_thread, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_roundtrip_every_dtype, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_negative_strides_and_bool_normalisation, leak_setup,
                                      leak_teardown),
      cmocka_unit_test_setup_teardown(test_from_data_errors, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_lifetimes_and_accessors, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_from_buffer, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_dlpack_roundtrips, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_dlpack_import_row_major_and_errors, leak_setup,
                                      leak_teardown),
      cmocka_unit_test_setup_teardown(test_surface_semantics, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_accessors_reject_null, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_threads_setting, leak_setup, leak_teardown),
  };
  return cmocka_run_group_tests_name("capi_tensor", tests, NULL, NULL);
}
