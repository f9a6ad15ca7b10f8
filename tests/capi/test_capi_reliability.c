/* The contract at the edges: tensors without elements (every view of one is canonical and its
 * data pointer is NULL), extents next to INT64_MAX, argument checks done before any loop or
 * allocation, the per-tensor element limit and the other limits (each message names its limit),
 * and handles used or released after their release. Each test names the case it pins down. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "capi_testing.h"
#include "dlpack_test_abi.h"

static tfe_context* g_ctx;

static int setup(void** state) {
  int r = leak_setup(state); /* before the context: teardown counts after releasing it */
  g_ctx = new_ctx();
  return r;
}

static int teardown(void** state) {
  tfe_context_release(g_ctx);
  g_ctx = NULL;
  return leak_teardown(state);
}

static int contains(const char* text, const char* part) { return strstr(text, part) != NULL; }

/* Asserts the status, the function name first and that the message contains `part`. */
#define EXPECT_FAILURE(call, status, fn, part)                                                     \
  do {                                                                                             \
    EXPECT_STATUS(call, status, fn);                                                               \
    if (!contains(tfe_last_error_message(), part))                                                 \
      fail_msg("message '%s' lacks '%s'", tfe_last_error_message(), part);                         \
  } while (0)

static tfe_tensor* zeros(int32_t ndim, const int64_t* shape) {
  tfe_tensor* t = NULL;
  TFE_OK_OR_FAIL(tfe_zeros(&t, g_ctx, TFE_F64, ndim, shape));
  return t;
}

static tfe_tensor* range(int64_t n) {
  tfe_tensor* t = NULL;
  TFE_OK_OR_FAIL(tfe_arange(&t, g_ctx, TFE_F64, 0.0, (double)n, 1.0));
  return t;
}

/* Asserts t's shape and that it has no elements, a NULL data pointer and an empty copy-out. */
static void expect_empty(const tfe_tensor* t, int32_t ndim, const int64_t* shape) {
  int32_t r = -1;
  int64_t got[8] = {0}, n = -1;
  TFE_OK_OR_FAIL(tfe_tensor_ndim(t, &r));
  assert_int_equal(r, ndim);
  TFE_OK_OR_FAIL(tfe_tensor_shape(t, got));
  for (int32_t i = 0; i < ndim; ++i) assert_int_equal(got[i], shape[i]);
  TFE_OK_OR_FAIL(tfe_tensor_numel(t, &n));
  assert_int_equal(n, 0);
  const void* data = (const void*)&n;
  TFE_OK_OR_FAIL(tfe_tensor_data(t, &data));
  assert_null(data);
  TFE_OK_OR_FAIL(tfe_tensor_to_data(t, NULL, 0));
}

static int64_t thread_count(void) {
  DIR* d = opendir("/proc/self/task");
  if (!d) return -1;
  int64_t n = 0;
  for (struct dirent* e = readdir(d); e; e = readdir(d))
    if (e->d_name[0] != '.') ++n;
  closedir(d);
  return n;
}

/* ---- the thread budget ---- */

/* Runs first: a budget of every hardware thread and one add of 2^17 elements (two chunks) start
 * at most one worker, not one per budgeted thread. */
static void thread_budget_bounded_by_work_size(void** state) {
  (void)state;
  int32_t budget = 0;
  TFE_OK_OR_FAIL(tfe_get_num_threads(&budget));
  TFE_OK_OR_FAIL(tfe_set_num_threads(budget));
  int64_t before = thread_count();
  if (before < 0) {
    print_message("skip: /proc/self/task is not readable here\n");
    return;
  }
  const int64_t shape[] = {(int64_t)1 << 17};
  tfe_tensor *x = zeros(1, shape), *y = NULL;
  TFE_OK_OR_FAIL(tfe_add(&y, x, x));
  assert_true(thread_count() - before <= 1);
  tfe_tensor_release(y);
  tfe_tensor_release(x);
}

/* ---- tensors without elements ---- */

static void concatenate_with_empty_pieces(void** state) {
  (void)state;
  const int64_t a_shape[] = {2, 0}, b_shape[] = {3, 0}, want[] = {5, 0};
  tfe_tensor *xs[2] = {zeros(2, a_shape), zeros(2, b_shape)}, *out = NULL;
  TFE_OK_OR_FAIL(tfe_concatenate(&out, 2, xs, 0));
  expect_empty(out, 2, want);
  tfe_tensor_release(out);
  tfe_tensor_release(xs[0]);
  tfe_tensor_release(xs[1]);
}

static void stack_of_empty_pieces(void** state) {
  (void)state;
  const int64_t shape[] = {2, 0}, want0[] = {2, 2, 0}, want2[] = {2, 0, 2};
  tfe_tensor *xs[2] = {zeros(2, shape), zeros(2, shape)}, *out = NULL;
  TFE_OK_OR_FAIL(tfe_stack(&out, 2, xs, 0));
  expect_empty(out, 3, want0);
  tfe_tensor_release(out);
  TFE_OK_OR_FAIL(tfe_stack(&out, 2, xs, 2));
  expect_empty(out, 3, want2);
  tfe_tensor_release(out);
  tfe_tensor_release(xs[0]);
  tfe_tensor_release(xs[1]);
}

static void slice_of_an_empty_tensor(void** state) {
  (void)state;
  const int64_t shape[] = {3, 0}, starts[] = {1, 0}, limits[] = {3, 0}, steps[] = {1, 1};
  const int64_t want[] = {2, 0};
  tfe_tensor *x = zeros(2, shape), *out = NULL;
  TFE_OK_OR_FAIL(tfe_slice(&out, x, 2, starts, limits, steps));
  expect_empty(out, 2, want);
  tfe_tensor_release(out);
  tfe_tensor_release(x);
}

/* An empty slice of a tensor that has elements: its data pointer is NULL too (documented). */
static void empty_slice_of_a_full_tensor_has_null_data(void** state) {
  (void)state;
  const int64_t starts[] = {2}, limits[] = {2}, steps[] = {1}, want[] = {0};
  tfe_tensor *x = range(4), *out = NULL;
  TFE_OK_OR_FAIL(tfe_slice(&out, x, 1, starts, limits, steps));
  expect_empty(out, 1, want);
  tfe_tensor_release(out);
  tfe_tensor_release(x);
}

static void reverse_then_cast_of_an_empty_tensor(void** state) {
  (void)state;
  const int64_t shape[] = {3, 0}, axes[] = {0, 1};
  tfe_tensor *x = zeros(2, shape), *r = NULL, *c = NULL;
  TFE_OK_OR_FAIL(tfe_reverse(&r, x, 2, axes));
  TFE_OK_OR_FAIL(tfe_cast(&c, r, TFE_F32));
  expect_empty(r, 2, shape);
  expect_empty(c, 2, shape);
  tfe_tensor_release(c);
  tfe_tensor_release(r);
  tfe_tensor_release(x);
}

static void dynamic_update_slice_of_an_empty_tensor(void** state) {
  (void)state;
  const int64_t shape[] = {3, 0}, upd_shape[] = {1, 0}, n_starts[] = {2};
  const int64_t start_values[] = {1, 0};
  tfe_tensor *x = zeros(2, shape), *u = zeros(2, upd_shape), *starts = NULL, *out = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&starts, g_ctx, TFE_I64, 1, n_starts, NULL, start_values));
  TFE_OK_OR_FAIL(tfe_dynamic_update_slice(&out, x, u, starts));
  expect_empty(out, 2, shape);
  tfe_tensor_release(out);
  tfe_tensor_release(starts);
  tfe_tensor_release(u);
  tfe_tensor_release(x);
}

static void vander_of_an_empty_vector(void** state) {
  (void)state;
  const int64_t want[] = {0, 3};
  tfe_tensor *x = range(0), *out = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_vander(&out, x, 3));
  expect_empty(out, 2, want);
  tfe_tensor_release(out);
  tfe_tensor_release(x);
}

/* [2, 0, 3]: three 2x0 matrices. P is 2x2 per batch entry (the identity), L 2x0 and U 0x0. */
static void lu_of_an_empty_batch(void** state) {
  (void)state;
  const int64_t shape[] = {2, 0, 3}, l_shape[] = {2, 0, 3}, u_shape[] = {0, 0, 3};
  tfe_tensor *a = zeros(3, shape), *p = NULL, *l = NULL, *u = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_lu(&p, &l, &u, a));
  expect_empty(l, 3, l_shape);
  expect_empty(u, 3, u_shape);
  double pv[12] = {0};
  TFE_OK_OR_FAIL(tfe_tensor_to_data(p, pv, sizeof pv));
  for (int b = 0; b < 3; ++b) {
    assert_true(pv[4 * b] == 1.0 && pv[4 * b + 3] == 1.0);
    assert_true(pv[4 * b + 1] == 0.0 && pv[4 * b + 2] == 0.0);
  }
  tfe_tensor *lu = NULL, *piv = NULL, *info = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_lu_factor(&lu, &piv, &info, a));
  expect_empty(lu, 3, shape);
  tfe_tensor_release(info);
  tfe_tensor_release(piv);
  tfe_tensor_release(lu);
  tfe_tensor_release(u);
  tfe_tensor_release(l);
  tfe_tensor_release(p);
  tfe_tensor_release(a);
}

/* The same empty pieces scheduled by the dataflow engine, and run by a traced program. */
static void empty_pieces_in_dataflow_and_programs(void** state) {
  (void)state;
  tfe_context* flow = NULL;
  TFE_OK_OR_FAIL(tfe_context_create_dataflow(&flow, TFE_SCHEDULER_DEBUG, 0));
  const int64_t a_shape[] = {2, 0}, b_shape[] = {3, 0}, want[] = {5, 0};
  tfe_tensor *xs[2] = {NULL, NULL}, *out = NULL;
  TFE_OK_OR_FAIL(tfe_zeros(&xs[0], flow, TFE_F64, 2, a_shape));
  TFE_OK_OR_FAIL(tfe_zeros(&xs[1], flow, TFE_F64, 2, b_shape));
  TFE_OK_OR_FAIL(tfe_concatenate(&out, 2, xs, 0));
  expect_empty(out, 2, want);
  tfe_tensor_release(out);
  tfe_tensor_release(xs[0]);
  tfe_tensor_release(xs[1]);
  tfe_context_release(flow);

  const int64_t sym[] = {-1, 0};
  tfe_tensor *a = NULL, *b = NULL, *cat = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_symbolic(&a, g_ctx, TFE_F64, 2, sym));
  TFE_OK_OR_FAIL(tfe_tensor_symbolic(&b, g_ctx, TFE_F64, 2, sym));
  tfe_tensor* pair[2] = {a, b};
  TFE_OK_OR_FAIL(tfe_concatenate(&cat, 2, pair, 0));
  tfe_function* f = NULL;
  TFE_OK_OR_FAIL(tfe_function_create(&f, 2, pair, 1, &cat));
  const int64_t arg_shape[] = {2, 0}, result_shape[] = {4, 0};
  tfe_tensor* args[2] = {zeros(2, arg_shape), zeros(2, arg_shape)};
  TFE_OK_OR_FAIL(tfe_function_call1(&out, f, 2, args));
  expect_empty(out, 2, result_shape);
  tfe_tensor_release(out);
  tfe_tensor_release(args[0]);
  tfe_tensor_release(args[1]);
  tfe_function_release(f);
  tfe_tensor_release(cat);
  tfe_tensor_release(b);
  tfe_tensor_release(a);
}

/* ---- extents next to INT64_MAX ---- */

static void zeros_with_an_int64_max_extent(void** state) {
  (void)state;
  const int64_t shape[] = {INT64_MAX, 2, 0};
  tfe_tensor *x = zeros(3, shape), *r = NULL, *s = NULL;
  expect_empty(x, 3, shape);
  const int64_t axes[] = {0, 1};
  TFE_OK_OR_FAIL(tfe_reverse(&r, x, 2, axes));
  expect_empty(r, 3, shape);
  /* Summing away the zero extent would make INT64_MAX * 2 elements: refused, naming the limit. */
  const int64_t sum_axes[] = {2};
  EXPECT_FAILURE(tfe_sum(&s, x, 1, sum_axes), TFE_ERR_NUMERICAL, "tfe_sum", "2^63-1");
  assert_null(s);
  tfe_tensor_release(r);
  tfe_tensor_release(x);
}

static void gather_along_a_zero_extent_before_int64_max(void** state) {
  (void)state;
  /* No index along the zero extent: an empty result, whose row of INT64_MAX elements the
   * kernel must not size in bytes (it overflows). */
  const int64_t shape[] = {0, INT64_MAX}, index_shape[] = {0};
  tfe_tensor *x = zeros(2, shape), *index = NULL, *out = NULL;
  TFE_OK_OR_FAIL(tfe_zeros(&index, g_ctx, TFE_I64, 1, index_shape));
  TFE_OK_OR_FAIL(tfe_gather(&out, x, index, 0));
  expect_empty(out, 2, shape);
  tfe_tensor_release(out);
  tfe_tensor_release(index);
  tfe_tensor_release(x);
}

static void slice_of_an_int64_max_by_zero_tensor(void** state) {
  (void)state;
  const int64_t shape[] = {INT64_MAX, 0};
  const int64_t starts[] = {INT64_MAX - 2, 0}, limits[] = {INT64_MAX, 0}, steps[] = {1, 1};
  const int64_t want[] = {2, 0};
  tfe_tensor *x = zeros(2, shape), *out = NULL, *c = NULL;
  TFE_OK_OR_FAIL(tfe_slice(&out, x, 2, starts, limits, steps));
  expect_empty(out, 2, want);
  TFE_OK_OR_FAIL(tfe_tensor_contiguous(&c, out));
  expect_empty(c, 2, want);
  tfe_tensor_release(c);
  tfe_tensor_release(out);
  tfe_tensor_release(x);
}

/* ---- checks before work ---- */

static int g_deleter_calls;
static void count_deleter(struct DLManagedTensor* self) {
  (void)self;
  ++g_deleter_calls;
}

/* NULL strides and shape {2, 2^62, 2^62}: the element count is refused before any stride is
 * computed, and the producer's deleter is not run by a failed import. */
static void dlpack_import_checks_the_element_count_first(void** state) {
  (void)state;
  static double cell;
  int64_t shape[] = {2, (int64_t)1 << 62, (int64_t)1 << 62};
  struct DLManagedTensor m = {{&cell, {1, 0}, 3, {2, 64, 1}, shape, NULL, 0}, NULL, count_deleter};
  tfe_tensor* out = NULL;
  g_deleter_calls = 0;
  EXPECT_FAILURE(tfe_tensor_from_dlpack(&out, g_ctx, &m), TFE_ERR_NUMERICAL,
                 "tfe_tensor_from_dlpack", "2^63-1");
  assert_null(out);
  shape[1] = (int64_t)1 << 30;
  shape[2] = (int64_t)1 << 30;
  EXPECT_FAILURE(tfe_tensor_from_dlpack(&out, g_ctx, &m), TFE_ERR_OUT_OF_MEMORY,
                 "tfe_tensor_from_dlpack", "limit of 2^48 elements");
  assert_null(out);
  assert_int_equal(g_deleter_calls, 0);
  /* An empty import with a NULL data pointer and a byte offset: accepted, data NULL. */
  shape[1] = 0;
  m.dl_tensor.data = NULL;
  m.dl_tensor.byte_offset = 64;
  TFE_OK_OR_FAIL(tfe_tensor_from_dlpack(&out, g_ctx, &m));
  expect_empty(out, 3, shape);
  tfe_tensor_release(out);
  assert_int_equal(g_deleter_calls, 1);
}

static void element_count_limit_is_named(void** state) {
  (void)state;
  const int64_t shape[] = {(int64_t)1 << 24, (int64_t)1 << 25};
  tfe_tensor* out = NULL;
  EXPECT_FAILURE(tfe_zeros(&out, g_ctx, TFE_F64, 2, shape), TFE_ERR_OUT_OF_MEMORY, "tfe_zeros",
                 "limit of 2^48 elements");
  assert_null(out);
  EXPECT_FAILURE(tfe_ones(&out, g_ctx, TFE_I32, 2, shape), TFE_ERR_OUT_OF_MEMORY, "tfe_ones",
                 "limit of 2^48 elements");
  assert_null(out);
  /* A broadcast view allocates nothing, but it is a tensor: the limit holds for it too (else a
   * later reduction over it would loop 2^50 times). */
  const int64_t wide[] = {(int64_t)1 << 50};
  tfe_tensor* one = range(1);
  EXPECT_FAILURE(tfe_broadcast_to(&out, one, 1, wide), TFE_ERR_OUT_OF_MEMORY, "tfe_broadcast_to",
                 "limit of 2^48 elements");
  assert_null(out);
  tfe_tensor_release(one);
}

static void vander_columns_checked_before_any_loop(void** state) {
  (void)state;
  tfe_tensor *x = range(0), *out = NULL;
  EXPECT_FAILURE(tfe_linalg_vander(&out, x, (int64_t)1 << 31), TFE_ERR_INVALID_ARGUMENT,
                 "tfe_linalg_vander", "exceeds the limit of 65536");
  assert_null(out);
  EXPECT_FAILURE(tfe_linalg_vander(&out, x, INT64_MAX), TFE_ERR_INVALID_ARGUMENT,
                 "tfe_linalg_vander", "limit");
  assert_null(out);
  tfe_tensor_release(x);
}

static void symbol_ids_bounded(void** state) {
  (void)state;
  const int64_t huge[] = {-((int64_t)1 << 40)}, max_ok[] = {-65536, -3};
  tfe_tensor* t = NULL;
  EXPECT_FAILURE(tfe_tensor_symbolic(&t, g_ctx, TFE_F64, 1, huge), TFE_ERR_INVALID_ARGUMENT,
                 "tfe_tensor_symbolic", "exceeds the limit of 65536 symbols");
  assert_null(t);
  TFE_OK_OR_FAIL(tfe_tensor_symbolic(&t, g_ctx, TFE_F64, 2, max_ok));
  int64_t got[2] = {0, 0};
  TFE_OK_OR_FAIL(tfe_tensor_shape(t, got));
  assert_int_equal(got[0], -65536);
  assert_int_equal(got[1], -3);
  tfe_tensor_release(t);
}

/* ---- released handles ---- */

static void released_tensor_is_refused(void** state) {
  (void)state;
  tfe_tensor *x = range(3), *y = range(3), *out = (tfe_tensor*)&out;
  int64_t live = tfe_debug_live_objects();
  tfe_tensor_release(x);
  assert_int_equal(tfe_debug_live_objects(), live - 1);
  EXPECT_FAILURE(tfe_add(&out, x, y), TFE_ERR_INVALID_ARGUMENT, "tfe_add",
                 "argument 'a' was already released");
  assert_null(out);
  EXPECT_FAILURE(tfe_add(&out, y, x), TFE_ERR_INVALID_ARGUMENT, "tfe_add", "already released");
  int32_t dtype = -1;
  EXPECT_FAILURE(tfe_tensor_dtype(x, &dtype), TFE_ERR_INVALID_ARGUMENT, "tfe_tensor_dtype",
                 "already released");
  assert_int_equal(dtype, -1);
  tfe_tensor* pair[2] = {y, x};
  EXPECT_FAILURE(tfe_concatenate(&out, 2, pair, 0), TFE_ERR_INVALID_ARGUMENT, "tfe_concatenate",
                 "xs[1] was already released");
  assert_null(out);
  EXPECT_FAILURE(tfe_tensor_retain(x), TFE_ERR_INVALID_ARGUMENT, "tfe_tensor_retain",
                 "already released");
  /* A second release: detected (the message says so), harmless (the live count stays). */
  tfe_tensor_release(x);
  assert_int_equal(tfe_debug_live_objects(), live - 1);
  assert_true(contains(tfe_last_error_message(), "tfe_tensor_release: argument 't' was already"));
  tfe_tensor_release(y);
}

static void released_context_and_function_are_refused(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  tfe_context_release(ctx);
  tfe_tensor* out = NULL;
  const int64_t shape[] = {2};
  EXPECT_FAILURE(tfe_zeros(&out, ctx, TFE_F64, 1, shape), TFE_ERR_INVALID_ARGUMENT, "tfe_zeros",
                 "argument 'ctx' was already released");
  assert_null(out);
  int64_t live = tfe_debug_live_objects();
  tfe_context_release(ctx);
  assert_int_equal(tfe_debug_live_objects(), live);
  assert_true(contains(tfe_last_error_message(), "tfe_context_release"));

  const int64_t sym[] = {-1};
  tfe_tensor *a = NULL, *b = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_symbolic(&a, g_ctx, TFE_F64, 1, sym));
  TFE_OK_OR_FAIL(tfe_neg(&b, a));
  tfe_function* f = NULL;
  TFE_OK_OR_FAIL(tfe_function_create(&f, 1, &a, 1, &b));
  tfe_function_release(f);
  tfe_tensor* x = range(2);
  EXPECT_FAILURE(tfe_function_call1(&out, f, 1, &x), TFE_ERR_INVALID_ARGUMENT, "tfe_function_call1",
                 "already released");
  assert_null(out);
  tfe_function_release(f);
  assert_int_equal(tfe_debug_live_objects(), live + 3);
  /* A handle of one kind passed as another is not a live handle of that kind either. */
  int32_t n = 0;
  EXPECT_FAILURE(tfe_function_num_inputs((const tfe_function*)x, &n), TFE_ERR_INVALID_ARGUMENT,
                 "tfe_function_num_inputs", "already released");
  tfe_tensor_release(x);
  tfe_tensor_release(b);
  tfe_tensor_release(a);
}

/* ---- found by the fuzzer once it called every function ---- */

static void linalg_options_released_before_the_call(void** state) {
  (void)state;
  /* The options were read before the entry point's guard, so the refusal escaped as an
   * exception and ended the process. */
  const int64_t shape[] = {3, 3};
  tfe_tensor* a = zeros(2, shape);
  tfe_linalg_options* o = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_options_create(&o));
  tfe_linalg_options_release(o);
  tfe_tensor *out = (tfe_tensor*)0x1, *w = (tfe_tensor*)0x1;
  EXPECT_STATUS(tfe_linalg_cholesky_ex(&out, a, o), TFE_ERR_INVALID_ARGUMENT,
                "tfe_linalg_cholesky_ex");
  assert_null(out);
  assert_non_null(strstr(tfe_last_error_message(), "already released"));
  EXPECT_STATUS(tfe_linalg_eigh_ex(&w, &out, a, o), TFE_ERR_INVALID_ARGUMENT, "tfe_linalg_eigh_ex");
  assert_null(w);
  assert_null(out);
  tfe_tensor_release(a);
}

static void sort_of_an_empty_tensor_with_a_huge_axis(void** state) {
  (void)state;
  /* [0, 2^50]: no elements, but the index walk looped over the nominal extent. */
  const int64_t shape[] = {0, (int64_t)1 << 50};
  tfe_tensor *x = zeros(2, shape), *out = NULL;
  TFE_OK_OR_FAIL(tfe_sort(&out, x, 1, 0));
  expect_empty(out, 2, shape);
  tfe_tensor_release(out);
  tfe_tensor_release(x);
}

static void spaced_values_repeat_counts_and_diag_offsets_bounded(void** state) {
  (void)state;
  tfe_tensor* out = (tfe_tensor*)0x1;
  const int64_t num = ((int64_t)1 << 48) + 1;
  EXPECT_STATUS(tfe_linspace(&out, g_ctx, TFE_F64, 0, 0, 1, 0, num, 1), TFE_ERR_OUT_OF_MEMORY,
                "tfe_linspace");
  assert_null(out);
  assert_non_null(strstr(tfe_last_error_message(), "2^48"));
  EXPECT_STATUS(tfe_logspace(&out, g_ctx, TFE_F64, 0, 0, 1, 0, num, 1, 10.0), TFE_ERR_OUT_OF_MEMORY,
                "tfe_logspace");
  const int64_t shape[] = {2};
  tfe_tensor* x = zeros(1, shape);
  const int64_t repeats[] = {(int64_t)1 << 48, 1}, wrap[] = {INT64_MAX, 2};
  EXPECT_STATUS(tfe_repeat(&out, x, 2, repeats, 0), TFE_ERR_OUT_OF_MEMORY, "tfe_repeat");
  assert_null(out);
  EXPECT_STATUS(tfe_repeat(&out, x, 2, wrap, 0), TFE_ERR_OUT_OF_MEMORY, "tfe_repeat");
  /* diag's offset pads |k| rows and columns; -INT64_MIN does not exist */
  EXPECT_STATUS(tfe_diag(&out, x, INT64_MIN), TFE_ERR_OUT_OF_MEMORY, "tfe_diag");
  assert_null(out);
  EXPECT_STATUS(tfe_diag(&out, x, INT64_MAX), TFE_ERR_OUT_OF_MEMORY, "tfe_diag");
  tfe_tensor_release(x);
}

static void argmin_of_an_empty_tensor_with_int64_max_before_the_axis(void** state) {
  (void)state;
  /* [2, INT64_MAX, 0, 3] along axis 3: an empty result, but 2 * INT64_MAX elements before the
   * axis (the lanes were counted before the empty result was noticed). */
  const int64_t shape[] = {2, INT64_MAX, 0, 3}, want[] = {2, INT64_MAX, 0};
  tfe_tensor *x = zeros(4, shape), *out = NULL;
  TFE_OK_OR_FAIL(tfe_argmin(&out, x, 3));
  expect_empty(out, 3, want);
  tfe_tensor_release(out);
  tfe_tensor_release(x);
}

static void repeat_of_an_empty_tensor_builds_no_index(void** state) {
  (void)state;
  /* [2, 0] with 2^31 copies of each row: an empty [2^32, 0] result, whose index list of 2^32
   * entries (32 GiB) was built before the gather. */
  const int64_t shape[] = {2, 0}, want[] = {(int64_t)1 << 32, 0}, few[] = {1, 0};
  const int64_t many[] = {(int64_t)1 << 31, (int64_t)1 << 31}, one[] = {1, 0};
  tfe_tensor *x = zeros(2, shape), *out = NULL;
  TFE_OK_OR_FAIL(tfe_repeat(&out, x, 2, many, 0));
  expect_empty(out, 2, want);
  tfe_tensor_release(out);
  TFE_OK_OR_FAIL(tfe_repeat(&out, x, 2, one, 0));
  expect_empty(out, 2, few);
  tfe_tensor_release(out);
  tfe_tensor_release(x);
}

static void repeat_index_lists_too_long_for_memory(void** state) {
  (void)state;
  /* 2^47 copies of a non-empty row, eagerly and traced: the index list (2^47 entries, within the
   * element limit) was a std::vector whose allocation aborted the process under ASan (a fuzzer
   * finding on a traced tensor). Now it is a tensor, and too long for memory is a status. */
  const int64_t shape[] = {2}, counts[] = {(int64_t)1 << 46, (int64_t)1 << 46};
  tfe_tensor *x = zeros(1, shape), *sym = NULL, *out = (tfe_tensor*)0x1;
  EXPECT_STATUS(tfe_repeat(&out, x, 2, counts, 0), TFE_ERR_OUT_OF_MEMORY, "tfe_repeat");
  assert_null(out);
  TFE_OK_OR_FAIL(tfe_tensor_symbolic(&sym, g_ctx, TFE_F64, 1, shape));
  out = (tfe_tensor*)0x1;
  EXPECT_STATUS(tfe_repeat(&out, sym, 2, counts, 0), TFE_ERR_OUT_OF_MEMORY, "tfe_repeat");
  assert_null(out);
  tfe_tensor_release(sym);
  tfe_tensor_release(x);
}

static void factorisations_of_empty_batches_do_no_work_per_matrix(void** state) {
  (void)state;
  /* [0, 0, 2^40] and [3, 0, 2^40]: zero elements, but 2^40 empty matrices (the LAPACK layer
   * takes up to 2^48), over which QR and the full SVD looped writing nothing (the fuzzer's
   * 2^31-matrix case took two minutes). */
  const int64_t square[] = {0, 0, (int64_t)1 << 40}, tall[] = {3, 0, (int64_t)1 << 40};
  const int64_t q_want[] = {3, 0, (int64_t)1 << 40}, r_want[] = {0, 0, (int64_t)1 << 40};
  tfe_tensor *a = zeros(3, square), *b = zeros(3, tall), *q = NULL, *r = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_qr(&q, &r, b));
  expect_empty(q, 3, q_want);
  expect_empty(r, 3, r_want);
  tfe_tensor_release(q);
  tfe_tensor_release(r);
  tfe_linalg_options* o = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_options_create(&o));
  TFE_OK_OR_FAIL(tfe_linalg_options_set_full_matrices(o, 1));
  tfe_tensor *u = NULL, *s = NULL, *vh = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_svd_ex(&u, &s, &vh, a, o));
  expect_empty(u, 3, square);
  expect_empty(vh, 3, square);
  tfe_tensor_release(u);
  tfe_tensor_release(s);
  tfe_tensor_release(vh);
  tfe_linalg_options_release(o);
  tfe_tensor_release(a);
  tfe_tensor_release(b);
}

static void roll_along_an_int64_max_extent(void** state) {
  (void)state;
  /* [INT64_MAX, 0] rolled by 2 and by -2 along axis 0: empty results; the shift modulo the
   * extent was formed as shift % n + n, which overflows for n = INT64_MAX. */
  const int64_t shape[] = {INT64_MAX, 0};
  tfe_tensor* x = zeros(2, shape);
  const int64_t shifts[2] = {2, -2}, axis[1] = {0};
  for (int i = 0; i < 2; ++i) {
    tfe_tensor* out = NULL;
    TFE_OK_OR_FAIL(tfe_roll(&out, x, 1, &shifts[i], 1, axis));
    expect_empty(out, 2, shape);
    tfe_tensor_release(out);
  }
  tfe_tensor_release(x);
}

static void pivoted_qr_of_nan(void** state) {
  (void)state;
  const int64_t shape[] = {2, 2};
  const double v[] = {1, NAN, 0, 1};
  tfe_tensor* a = f64(g_ctx, 2, shape, v);
  tfe_tensor *q = (tfe_tensor*)0x1, *r = (tfe_tensor*)0x1, *p = (tfe_tensor*)0x1;
  EXPECT_STATUS(tfe_linalg_qr_pivoted(&q, &r, &p, a, NULL), TFE_ERR_NON_CONVERGENCE,
                "tfe_linalg_qr_pivoted");
  assert_null(q);
  assert_null(r);
  assert_null(p);
  tfe_tensor_release(a);
}

static void sort_of_a_traced_tensor_with_huge_extents(void** state) {
  (void)state;
  /* A traced [INT64_MAX, INT64_MAX] tensor (metadata only) sorted along either axis: the sort's
   * lane arithmetic multiplied the extents (a signed overflow); now the element count is checked
   * first, as for any tensor, and its overflow reported. */
  const int64_t shape[] = {INT64_MAX, INT64_MAX};
  tfe_tensor* x = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_symbolic(&x, g_ctx, TFE_F64, 2, shape));
  for (int64_t axis = 0; axis < 2; ++axis) {
    tfe_tensor* out = (tfe_tensor*)0x1;
    EXPECT_STATUS(tfe_sort(&out, x, axis, 0), TFE_ERR_NUMERICAL, "tfe_sort");
    assert_non_null(strstr(tfe_last_error_message(), "more than 2^63-1 elements"));
    assert_null(out);
  }
  tfe_tensor_release(x);
}

static void repeated_kron_of_a_symbolic_tensor_is_bounded(void** state) {
  (void)state;
  /* kron of a traced [n] with itself doubles the degree of its extent (n, n^2, n^4, ...); the
   * extent algebra recursed once per factor and overflowed the stack near degree 2^16. Now a
   * degree above 64 is refused with a message, and nothing before it changes. */
  const int64_t shape[] = {-1};
  tfe_tensor* y = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_symbolic(&y, g_ctx, TFE_F64, 1, shape));
  int refused = 0;
  for (int i = 0; i < 12 && !refused; ++i) {
    tfe_tensor* next = (tfe_tensor*)0x1;
    tfe_status st = tfe_kron(&next, y, y);
    if (st == TFE_OK) {
      tfe_tensor_release(y);
      y = next;
      continue;
    }
    assert_int_equal(st, TFE_ERR_NOT_SUPPORTED);
    assert_true(strncmp(tfe_last_error_message(), "tfe_kron", 8) == 0);
    assert_non_null(strstr(tfe_last_error_message(), "degree"));
    assert_null(next);
    assert_int_equal(i, 6); /* degree 64 is the last accepted */
    refused = 1;
  }
  assert_true(refused);
  tfe_tensor_release(y);
}

static void transfer_of_a_failed_dataflow_tensor_to_a_missing_device(void** state) {
  (void)state;
  /* A dataflow tensor whose op failed (the pivoted QR of NaN), moved to a CUDA device on a
   * machine without one: the missing device is reported (TFE_ERR_DEVICE), before the tensor is
   * waited for. */
  int32_t devices = -1;
  TFE_OK_OR_FAIL(tfe_device_count(&devices));
  if (devices > 0) {
    printf("skip: transfer_of_a_failed_dataflow_tensor_to_a_missing_device (a CUDA device is "
           "present)\n");
    return;
  }
  tfe_context* flow = NULL;
  TFE_OK_OR_FAIL(tfe_context_create_dataflow(&flow, TFE_SCHEDULER_DEBUG, 0));
  const int64_t shape[] = {2, 2};
  const double v[] = {1, NAN, 0, 1};
  tfe_tensor* a = f64(flow, 2, shape, v);
  tfe_tensor *q = NULL, *r = NULL, *p = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_qr_pivoted(&q, &r, &p, a, NULL));
  tfe_tensor* out = (tfe_tensor*)0x1;
  EXPECT_STATUS(tfe_tensor_to_device(&out, q, TFE_DEVICE_CUDA, 0), TFE_ERR_DEVICE,
                "tfe_tensor_to_device");
  assert_null(out);
  /* To the CPU the transfer is one more op of the graph: the op's own failure reaches whoever
   * reads the result. */
  out = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_to_device(&out, q, TFE_DEVICE_CPU, 0));
  double back[4];
  EXPECT_STATUS(tfe_tensor_to_data(out, back, sizeof back), TFE_ERR_NON_CONVERGENCE,
                "tfe_tensor_to_data");
  assert_non_null(strstr(tfe_last_error_message(), "pivoted QR"));
  tfe_tensor* all[] = {a, q, r, p, out};
  for (int i = 0; i < 5; ++i) tfe_tensor_release(all[i]);
  tfe_context_release(flow);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(thread_budget_bounded_by_work_size, setup, teardown),
      cmocka_unit_test_setup_teardown(concatenate_with_empty_pieces, setup, teardown),
      cmocka_unit_test_setup_teardown(stack_of_empty_pieces, setup, teardown),
      cmocka_unit_test_setup_teardown(slice_of_an_empty_tensor, setup, teardown),
      cmocka_unit_test_setup_teardown(empty_slice_of_a_full_tensor_has_null_data, setup, teardown),
      cmocka_unit_test_setup_teardown(reverse_then_cast_of_an_empty_tensor, setup, teardown),
      cmocka_unit_test_setup_teardown(dynamic_update_slice_of_an_empty_tensor, setup, teardown),
      cmocka_unit_test_setup_teardown(vander_of_an_empty_vector, setup, teardown),
      cmocka_unit_test_setup_teardown(lu_of_an_empty_batch, setup, teardown),
      cmocka_unit_test_setup_teardown(empty_pieces_in_dataflow_and_programs, setup, teardown),
      cmocka_unit_test_setup_teardown(zeros_with_an_int64_max_extent, setup, teardown),
      cmocka_unit_test_setup_teardown(gather_along_a_zero_extent_before_int64_max, setup, teardown),
      cmocka_unit_test_setup_teardown(slice_of_an_int64_max_by_zero_tensor, setup, teardown),
      cmocka_unit_test_setup_teardown(dlpack_import_checks_the_element_count_first, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(element_count_limit_is_named, setup, teardown),
      cmocka_unit_test_setup_teardown(vander_columns_checked_before_any_loop, setup, teardown),
      cmocka_unit_test_setup_teardown(symbol_ids_bounded, setup, teardown),
      cmocka_unit_test_setup_teardown(released_tensor_is_refused, setup, teardown),
      cmocka_unit_test_setup_teardown(released_context_and_function_are_refused, setup, teardown),
      cmocka_unit_test_setup_teardown(linalg_options_released_before_the_call, setup, teardown),
      cmocka_unit_test_setup_teardown(sort_of_an_empty_tensor_with_a_huge_axis, setup, teardown),
      cmocka_unit_test_setup_teardown(spaced_values_repeat_counts_and_diag_offsets_bounded, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(pivoted_qr_of_nan, setup, teardown),
      cmocka_unit_test_setup_teardown(sort_of_a_traced_tensor_with_huge_extents, setup, teardown),
      cmocka_unit_test_setup_teardown(repeated_kron_of_a_symbolic_tensor_is_bounded, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(transfer_of_a_failed_dataflow_tensor_to_a_missing_device,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(roll_along_an_int64_max_extent, setup, teardown),
      cmocka_unit_test_setup_teardown(repeat_of_an_empty_tensor_builds_no_index, setup, teardown),
      cmocka_unit_test_setup_teardown(repeat_index_lists_too_long_for_memory, setup, teardown),
      cmocka_unit_test_setup_teardown(factorisations_of_empty_batches_do_no_work_per_matrix, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(argmin_of_an_empty_tensor_with_int64_max_before_the_axis,
                                      setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
