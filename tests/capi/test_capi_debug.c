/* The C debugging conveniences: the typed read-back (tfe_tensor_copy_to refuses a buffer of
 * another element type), tfe_tensor_format (NumPy's str() of the array of the same shape; the
 * expected texts are what NumPy prints for those arrays), and the retain functions of results
 * and linear algebra options (a retained handle outlives one release), and the DOT printers of
 * functions and eager traces (checked by Graphviz itself when it is installed). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "capi_testing.h"

static tfe_tensor* typed(tfe_context* ctx, int32_t dtype, int32_t ndim, const int64_t* shape,
                         const void* data) {
  tfe_tensor* t = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&t, ctx, dtype, ndim, shape, NULL, data));
  return t;
}

/* The text of t, checked against the length tfe_tensor_format reports. */
static char* format(const tfe_tensor* t) {
  int64_t needed = -1;
  TFE_OK_OR_FAIL(tfe_tensor_format(t, NULL, 0, &needed));
  assert_true(needed >= 1);
  char* buf = malloc((size_t)needed);
  assert_non_null(buf);
  int64_t again = -1;
  TFE_OK_OR_FAIL(tfe_tensor_format(t, buf, needed, &again));
  assert_int_equal(again, needed);
  assert_int_equal((int64_t)strlen(buf) + 1, needed);
  return buf;
}

static void expect_text(const tfe_tensor* t, const char* want) {
  char* got = format(t);
  if (strcmp(got, want) != 0) fail_msg("format gave\n%s\nexpected\n%s", got, want);
  free(got);
}

static void test_copy_to_checks_the_element_type(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const double v[3] = {1.5, -2.0, 4.25};
  const int64_t s3[1] = {3};
  tfe_tensor* t = f64(ctx, 1, s3, v);

  double back[3] = {0, 0, 0};
  TFE_OK_OR_FAIL(tfe_tensor_copy_to(t, TFE_F64, back, sizeof back));
  for (int i = 0; i < 3; ++i) assert_true(back[i] == v[i]);

  /* An int64_t buffer for F64 values: refused, and the buffer is not written. */
  int64_t wrong[3] = {7, 7, 7};
  EXPECT_STATUS(tfe_tensor_copy_to(t, TFE_I64, wrong, sizeof wrong), TFE_ERR_DTYPE_MISMATCH,
                "tfe_tensor_copy_to");
  assert_non_null(strstr(tfe_last_error_message(), "F64"));
  assert_non_null(strstr(tfe_last_error_message(), "I64"));
  for (int i = 0; i < 3; ++i) assert_int_equal(wrong[i], 7);

  /* The size check of tfe_tensor_to_data, reported under this function's name. */
  EXPECT_STATUS(tfe_tensor_copy_to(t, TFE_F64, back, sizeof back - 1), TFE_ERR_INVALID_ARGUMENT,
                "tfe_tensor_copy_to");
  EXPECT_STATUS(tfe_tensor_copy_to(t, 99, back, sizeof back), TFE_ERR_INVALID_ARGUMENT,
                "tfe_tensor_copy_to");
  EXPECT_STATUS(tfe_tensor_copy_to(NULL, TFE_F64, back, sizeof back), TFE_ERR_INVALID_ARGUMENT,
                "tfe_tensor_copy_to");

  /* A view (transposed, strided) comes back compact column-major, as tfe_tensor_to_data does. */
  const double m[6] = {1, 2, 3, 4, 5, 6};
  const int64_t s23[2] = {2, 3};
  tfe_tensor* a = f64(ctx, 2, s23, m);
  tfe_tensor* at = NULL;
  const int64_t perm[2] = {1, 0};
  TFE_OK_OR_FAIL(tfe_transpose(&at, a, 2, perm));
  double got[6], via_to_data[6];
  TFE_OK_OR_FAIL(tfe_tensor_copy_to(at, TFE_F64, got, sizeof got));
  TFE_OK_OR_FAIL(tfe_tensor_to_data(at, via_to_data, sizeof via_to_data));
  assert_memory_equal(got, via_to_data, sizeof got);
  assert_true(got[1] == m[2]); /* at[1,0] = a[0,1] */

  tfe_tensor_release(at);
  tfe_tensor_release(a);
  tfe_tensor_release(t);
  tfe_context_release(ctx);
}

static void test_format_like_numpy(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t s23[2] = {2, 3}, s3[1] = {3}, s4[1] = {4}, s2[1] = {2}, s222[3] = {2, 2, 2};

  const double m[6] = {1, 2, 3, 4, 5, 6}; /* column-major: row 0 is 1 3 5 */
  tfe_tensor* a = f64(ctx, 2, s23, m);
  expect_text(a, "[[1. 3. 5.]\n [2. 4. 6.]]");

  const double r[3] = {-1.5, 2, 0.25};
  tfe_tensor* b = f64(ctx, 1, s3, r);
  expect_text(b, "[-1.5   2.    0.25]");

  const int32_t ints[4] = {1, -20, 300, 4};
  tfe_tensor* c = typed(ctx, TFE_I32, 1, s4, ints);
  expect_text(c, "[  1 -20 300   4]");

  const uint8_t bools[3] = {1, 0, 1};
  tfe_tensor* d = typed(ctx, TFE_BOOL, 1, s3, bools);
  expect_text(d, "[ True False  True]");

  const double z[4] = {1, 2, 3.5, -1}; /* 1+2i, 3.5-1i */
  tfe_tensor* e = typed(ctx, TFE_C64, 1, s2, z);
  expect_text(e, "[1. +2.j 3.5-1.j]");

  const int64_t cube[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  tfe_tensor* f = typed(ctx, TFE_I64, 3, s222, cube);
  expect_text(f, "[[[0 4]\n  [2 6]]\n\n [[1 5]\n  [3 7]]]");

  const double small[2] = {1e-5, -1.0};
  tfe_tensor* g = f64(ctx, 1, s2, small);
  expect_text(g, "[ 1.e-05 -1.e+00]");

  const double special[3] = {NAN, 1.5, -INFINITY};
  tfe_tensor* h = f64(ctx, 1, s3, special);
  expect_text(h, "[ nan  1.5 -inf]");

  const float tenth[1] = {0.1f};
  const int64_t s1[1] = {1};
  tfe_tensor* k = typed(ctx, TFE_F32, 1, s1, tenth);
  expect_text(k, "[0.1]");

  const double scalar = 3.5;
  tfe_tensor* l = f64(ctx, 0, NULL, &scalar);
  expect_text(l, "3.5");

  /* Rows wrap at NumPy's line width of 75, continuing under the first value. */
  double wide[8];
  for (int i = 0; i < 8; ++i) wide[i] = 0.123456789 * (i + 1);
  const int64_t s8[1] = {8};
  tfe_tensor* wrapped = f64(ctx, 1, s8, wide);
  expect_text(wrapped, "[0.12345679 0.24691358 0.37037037 0.49382716 0.61728394 0.74074073\n"
                       " 0.86419752 0.98765431]");

  /* A 0-d tensor prints as NumPy prints its scalar. */
  const double hundred = 100.0, z0[2] = {1, 2};
  tfe_tensor* h0 = f64(ctx, 0, NULL, &hundred);
  expect_text(h0, "100.0");
  tfe_tensor* c0 = typed(ctx, TFE_C64, 0, NULL, z0);
  expect_text(c0, "(1+2j)");

  tfe_tensor* empty = NULL;
  const int64_t s0[1] = {0};
  TFE_OK_OR_FAIL(tfe_zeros(&empty, ctx, TFE_F64, 1, s0));
  expect_text(empty, "[]");

  tfe_tensor* list[] = {a, b, c, d, e, f, g, h, k, l, wrapped, h0, c0, empty};
  for (size_t i = 0; i < sizeof list / sizeof list[0]; ++i) tfe_tensor_release(list[i]);
  tfe_context_release(ctx);
}

static void test_format_summarizes_large_tensors(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  tfe_tensor* x = NULL;
  TFE_OK_OR_FAIL(tfe_arange(&x, ctx, TFE_I64, 0, 2000, 1));
  expect_text(x, "[   0    1    2 ... 1997 1998 1999]");

  /* 2 x 1000 F64 (column-major 0..1999): each row summarized; the widths cover the shown values. */
  tfe_tensor* y = NULL;
  TFE_OK_OR_FAIL(tfe_arange(&y, ctx, TFE_F64, 0, 2000, 1));
  tfe_tensor* y2 = NULL;
  const int64_t s[2] = {2, 1000};
  TFE_OK_OR_FAIL(tfe_reshape(&y2, y, 2, s));
  expect_text(y2, "[[0.000e+00 2.000e+00 4.000e+00 ... 1.994e+03 1.996e+03 1.998e+03]\n"
                  " [1.000e+00 3.000e+00 5.000e+00 ... 1.995e+03 1.997e+03 1.999e+03]]");

  /* A thousand elements are printed in full. */
  tfe_tensor* w = NULL;
  TFE_OK_OR_FAIL(tfe_arange(&w, ctx, TFE_I32, 0, 1000, 1));
  char* text = format(w);
  assert_null(strstr(text, "..."));
  assert_non_null(strstr(text, " 999]"));
  free(text);

  tfe_tensor_release(w);
  tfe_tensor_release(y2);
  tfe_tensor_release(y);
  tfe_tensor_release(x);
  tfe_context_release(ctx);
}

static void test_format_truncates_and_validates(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const double m[6] = {1, 2, 3, 4, 5, 6};
  const int64_t s23[2] = {2, 3};
  tfe_tensor* a = f64(ctx, 2, s23, m);
  char* full = format(a);

  char small[5];
  int64_t needed = 0;
  TFE_OK_OR_FAIL(tfe_tensor_format(a, small, sizeof small, &needed));
  assert_int_equal(needed, (int64_t)strlen(full) + 1);
  assert_int_equal(strlen(small), sizeof small - 1);
  assert_true(strncmp(small, full, sizeof small - 1) == 0);

  char keep[4] = "abc";
  int64_t untouched = 42;
  EXPECT_STATUS(tfe_tensor_format(a, NULL, 4, &untouched), TFE_ERR_INVALID_ARGUMENT,
                "tfe_tensor_format");
  EXPECT_STATUS(tfe_tensor_format(a, keep, -1, &untouched), TFE_ERR_INVALID_ARGUMENT,
                "tfe_tensor_format");
  EXPECT_STATUS(tfe_tensor_format(NULL, keep, 4, &untouched), TFE_ERR_INVALID_ARGUMENT,
                "tfe_tensor_format");
  assert_int_equal(untouched, 42);
  assert_string_equal(keep, "abc");

  free(full);
  tfe_tensor_release(a);
  tfe_context_release(ctx);
}

static void test_results_and_options_retain(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();

  tfe_linalg_options* opts = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_options_create(&opts));
  TFE_OK_OR_FAIL(tfe_linalg_options_retain(opts));
  tfe_linalg_options_release(opts); /* one reference left: still usable */
  TFE_OK_OR_FAIL(tfe_linalg_options_set_upper(opts, 1));
  tfe_linalg_options_release(opts);

  /* f(x) = x * x; a call's results handle outlives a release when retained first. */
  const int64_t sym[1] = {-1};
  tfe_tensor *x = NULL, *sq = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_symbolic(&x, ctx, TFE_F64, 1, sym));
  TFE_OK_OR_FAIL(tfe_mul(&sq, x, x));
  tfe_function* f = NULL;
  TFE_OK_OR_FAIL(tfe_function_create(&f, 1, &x, 1, &sq));
  const double v[2] = {3, -4};
  const int64_t s2[1] = {2};
  tfe_tensor* arg = f64(ctx, 1, s2, v);
  tfe_results* r = NULL;
  TFE_OK_OR_FAIL(tfe_function_call(&r, f, 1, &arg));
  TFE_OK_OR_FAIL(tfe_results_retain(r));
  tfe_results_release(r);
  int32_t count = 0;
  TFE_OK_OR_FAIL(tfe_results_count(r, &count));
  assert_int_equal(count, 1);
  tfe_tensor* y = NULL;
  TFE_OK_OR_FAIL(tfe_results_get(&y, r, 0));
  double got[2];
  TFE_OK_OR_FAIL(tfe_tensor_copy_to(y, TFE_F64, got, sizeof got));
  assert_true(got[0] == v[0] * v[0] && got[1] == v[1] * v[1]);
  tfe_results_release(r);

  EXPECT_STATUS(tfe_results_retain(NULL), TFE_ERR_INVALID_ARGUMENT, "tfe_results_retain");
  EXPECT_STATUS(tfe_linalg_options_retain(NULL), TFE_ERR_INVALID_ARGUMENT,
                "tfe_linalg_options_retain");

  tfe_tensor_release(y);
  tfe_tensor_release(arg);
  tfe_function_release(f);
  tfe_tensor_release(sq);
  tfe_tensor_release(x);
  tfe_context_release(ctx);
}

static char* function_dot(const tfe_function* f) {
  int64_t needed = 0;
  TFE_OK_OR_FAIL(tfe_function_to_dot(f, NULL, 0, &needed));
  char* buf = malloc((size_t)needed);
  assert_non_null(buf);
  TFE_OK_OR_FAIL(tfe_function_to_dot(f, buf, needed, NULL));
  return buf;
}

static char* trace_dot(const tfe_tensor* t) {
  int64_t needed = 0;
  TFE_OK_OR_FAIL(tfe_autograd_to_dot(t, NULL, 0, &needed));
  char* buf = malloc((size_t)needed);
  assert_non_null(buf);
  TFE_OK_OR_FAIL(tfe_autograd_to_dot(t, buf, needed, NULL));
  return buf;
}

/* Graphviz accepts the text (a skip line when dot is not installed). */
static void expect_renders(const char* dot_text, const char* what) {
  if (system("command -v dot >/dev/null 2>&1") != 0) {
    print_message("skip: graphviz dot not installed, %s not rendered\n", what);
    return;
  }
  char path[] = "/tmp/tfe_dot_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE* f = fdopen(fd, "w");
  assert_non_null(f);
  fputs(dot_text, f);
  fclose(f);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "dot -Tsvg %s -o /dev/null 2>&1", path);
  int rc = system(cmd);
  remove(path);
  if (rc != 0) fail_msg("dot rejected the %s:\n%s", what, dot_text);
}

static void count_lines_with(const char* text, const char* needle, int want) {
  int n = 0;
  for (const char* p = strstr(text, needle); p; p = strstr(p + 1, needle)) ++n;
  if (n != want) fail_msg("\"%s\" occurs %d times, expected %d in\n%s", needle, n, want, text);
}

static void test_function_to_dot(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  /* f(x, w) = sum(x * w) over a symbolic extent */
  const int64_t sym[1] = {-1};
  tfe_tensor *x = NULL, *w = NULL, *xw = NULL, *loss = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_symbolic(&x, ctx, TFE_F64, 1, sym));
  TFE_OK_OR_FAIL(tfe_tensor_symbolic(&w, ctx, TFE_F64, 1, sym));
  TFE_OK_OR_FAIL(tfe_mul(&xw, x, w));
  TFE_OK_OR_FAIL(tfe_sum(&loss, xw, 0, NULL));
  tfe_tensor* inputs[2] = {x, w};
  tfe_function* f = NULL;
  TFE_OK_OR_FAIL(tfe_function_create(&f, 2, inputs, 1, &loss));

  char* text = function_dot(f);
  assert_true(strncmp(text, "digraph", 7) == 0);
  count_lines_with(text, "label=\"input ", 2);
  count_lines_with(text, "F64 [s1]", 3); /* two inputs and the product */
  count_lines_with(text, "mul\\n", 1);
  count_lines_with(text, "label=\"output ", 1);
  assert_non_null(strstr(text, "F64 []")); /* the rank-0 sum */
  assert_null(strstr(text, "tfe_"));       /* user-facing names, no C prefixes */
  expect_renders(text, "function");

  /* The gradient function is a program too: two outputs (one gradient per input). */
  tfe_function* g = NULL;
  TFE_OK_OR_FAIL(tfe_function_grad(&g, f, 0, NULL));
  char* gtext = function_dot(g);
  count_lines_with(gtext, "label=\"output ", 2);
  assert_true(strcmp(gtext, text) != 0);
  expect_renders(gtext, "gradient function");

  /* Truncation and bad arguments, as tfe_last_error_copy. */
  char small[8];
  int64_t needed = 0;
  TFE_OK_OR_FAIL(tfe_function_to_dot(f, small, sizeof small, &needed));
  assert_int_equal(needed, (int64_t)strlen(text) + 1);
  assert_int_equal(strlen(small), sizeof small - 1);
  EXPECT_STATUS(tfe_function_to_dot(NULL, small, sizeof small, &needed), TFE_ERR_INVALID_ARGUMENT,
                "tfe_function_to_dot");
  EXPECT_STATUS(tfe_function_to_dot(f, NULL, 3, &needed), TFE_ERR_INVALID_ARGUMENT,
                "tfe_function_to_dot");

  free(gtext);
  free(text);
  tfe_function_release(g);
  tfe_function_release(f);
  tfe_tensor_release(loss);
  tfe_tensor_release(xw);
  tfe_tensor_release(w);
  tfe_tensor_release(x);
  tfe_context_release(ctx);
}

static void test_autograd_to_dot(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const double xv[3] = {1, 2, 3}, cv[3] = {0.5, 0.5, 0.5};
  const int64_t s3[1] = {3};
  tfe_tensor* x = f64(ctx, 1, s3, xv);
  tfe_tensor* c = f64(ctx, 1, s3, cv);
  TFE_OK_OR_FAIL(tfe_tensor_set_requires_grad(x, 1));
  /* loss = sum(x * x + c) with an I32 operand promoted: the trace shows the conversion. */
  const int32_t iv[3] = {1, 1, 1};
  tfe_tensor* k = typed(ctx, TFE_I32, 1, s3, iv);
  tfe_tensor *sq = NULL, *shifted = NULL, *scaled = NULL, *loss = NULL;
  TFE_OK_OR_FAIL(tfe_mul(&sq, x, x));
  TFE_OK_OR_FAIL(tfe_add(&shifted, sq, c));
  TFE_OK_OR_FAIL(tfe_mul(&scaled, shifted, k));
  TFE_OK_OR_FAIL(tfe_sum(&loss, scaled, 0, NULL));

  char* text = trace_dot(loss);
  assert_true(strncmp(text, "digraph", 7) == 0);
  count_lines_with(text, "variable\\nF64 [3]", 1); /* x appears once although used twice */
  count_lines_with(text, "label=\"mul\\n", 2);
  count_lines_with(text, "label=\"add\\n", 1);
  assert_non_null(strstr(text, "constant\\nF64 [3]"));
  assert_non_null(strstr(text, "constant\\nI32 [3]"));
  assert_non_null(strstr(text, "cast\\nF64 [3]")); /* the promotion of k, as recorded */
  expect_renders(text, "eager trace");

  int64_t needed = 0;
  EXPECT_STATUS(tfe_autograd_to_dot(c, NULL, 0, &needed), TFE_ERR_INVALID_ARGUMENT,
                "tfe_autograd_to_dot");
  assert_non_null(strstr(tfe_last_error_message(), "not tracked"));
  EXPECT_STATUS(tfe_autograd_to_dot(NULL, NULL, 0, &needed), TFE_ERR_INVALID_ARGUMENT,
                "tfe_autograd_to_dot");

  free(text);
  tfe_tensor* list[] = {loss, scaled, shifted, sq, k, c, x};
  for (size_t i = 0; i < sizeof list / sizeof list[0]; ++i) tfe_tensor_release(list[i]);
  tfe_context_release(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_copy_to_checks_the_element_type, leak_setup,
                                      leak_teardown),
      cmocka_unit_test_setup_teardown(test_format_like_numpy, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_format_summarizes_large_tensors, leak_setup,
                                      leak_teardown),
      cmocka_unit_test_setup_teardown(test_format_truncates_and_validates, leak_setup,
                                      leak_teardown),
      cmocka_unit_test_setup_teardown(test_results_and_options_retain, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_function_to_dot, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_autograd_to_dot, leak_setup, leak_teardown),
  };
  return cmocka_run_group_tests_name("capi_debug", tests, NULL, NULL);
}
