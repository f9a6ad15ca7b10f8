/* Traced programs through the C ABI: symbolic tensors, functions compiled per shape and cached,
 * build-time and call-time shape errors, captured constants, results, cache statistics. */
#include <stdlib.h>

#include "capi_testing.h"

static tfe_tensor* f64_vector(tfe_context* ctx, int64_t n, double start) {
  double* v = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
  for (int64_t i = 0; i < n; ++i) v[i] = start + (double)i;
  tfe_tensor* t = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&t, ctx, TFE_F64, 1, &n, NULL, v));
  free(v);
  return t;
}

/* f(x, y) = sum((x + y) * x) with x, y : [s1] */
static void test_function_runs_for_several_shapes(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t sym[] = {-1};
  tfe_tensor *x = NULL, *y = NULL, *s = NULL, *p = NULL, *r = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_symbolic(&x, ctx, TFE_F64, 1, sym));
  TFE_OK_OR_FAIL(tfe_tensor_symbolic(&y, ctx, TFE_F64, 1, sym));
  TFE_OK_OR_FAIL(tfe_add(&s, x, y));
  TFE_OK_OR_FAIL(tfe_mul(&p, s, x));
  TFE_OK_OR_FAIL(tfe_sum(&r, p, 0, NULL));
  int32_t is_sym = 0;
  TFE_OK_OR_FAIL(tfe_tensor_is_symbolic(p, &is_sym));
  assert_int_equal(is_sym, 1);
  int64_t shape[1] = {0}, numel = 0;
  TFE_OK_OR_FAIL(tfe_tensor_shape(p, shape));
  assert_int_equal(shape[0], -1); /* symbol 1 */
  EXPECT_STATUS(tfe_tensor_numel(p, &numel), TFE_ERR_INVALID_ARGUMENT, "tfe_tensor_numel");
  double buf[4];
  EXPECT_STATUS(tfe_tensor_to_data(p, buf, sizeof buf), TFE_ERR_INVALID_ARGUMENT,
                "tfe_tensor_to_data");

  tfe_tensor* inputs[] = {x, y};
  tfe_function* f = NULL;
  TFE_OK_OR_FAIL(tfe_function_create(&f, 2, inputs, 1, &r));
  int32_t n_in = 0, n_out = 0;
  TFE_OK_OR_FAIL(tfe_function_num_inputs(f, &n_in));
  TFE_OK_OR_FAIL(tfe_function_num_outputs(f, &n_out));
  assert_int_equal(n_in, 2);
  assert_int_equal(n_out, 1);

  int64_t hits0 = 0, misses0 = 0;
  TFE_OK_OR_FAIL(tfe_context_cache_stats(ctx, TFE_CACHE_COMPILED, &hits0, &misses0, NULL, NULL));
  for (int64_t n = 1; n <= 4; ++n)
    for (int rep = 0; rep < 2; ++rep) {
      tfe_tensor* a = f64_vector(ctx, n, 1.0); /* 1..n */
      tfe_tensor* b = f64_vector(ctx, n, 0.5); /* 0.5..n-0.5 */
      tfe_tensor* args[] = {a, b};
      tfe_tensor* out = NULL;
      TFE_OK_OR_FAIL(tfe_function_call1(&out, f, 2, args));
      double got = 0, want = 0;
      TFE_OK_OR_FAIL(tfe_tensor_to_data(out, &got, sizeof got));
      for (int64_t i = 0; i < n; ++i)
        want += ((1.0 + (double)i) + (0.5 + (double)i)) * (1.0 + (double)i);
      assert_true(got == want);
      tfe_tensor_release(out);
      tfe_tensor_release(a);
      tfe_tensor_release(b);
    }
  int64_t hits = 0, misses = 0, entries = 0;
  TFE_OK_OR_FAIL(tfe_context_cache_stats(ctx, TFE_CACHE_COMPILED, &hits, &misses, &entries, NULL));
  assert_int_equal(misses - misses0, 4); /* one compile per shape */
  assert_int_equal(hits - hits0, 4);     /* the repeat calls */
  assert_int_equal(entries, 4);
  TFE_OK_OR_FAIL(tfe_context_cache_clear(ctx, TFE_CACHE_COMPILED));
  TFE_OK_OR_FAIL(tfe_context_cache_stats(ctx, TFE_CACHE_COMPILED, NULL, NULL, &entries, NULL));
  assert_int_equal(entries, 0);

  /* incompatible shapes at call time: s1 bound to 3 and 4 */
  tfe_tensor *a = f64_vector(ctx, 3, 0), *b = f64_vector(ctx, 4, 0);
  tfe_tensor* args[] = {a, b};
  tfe_results* res = (tfe_results*)(void*)&n_in;
  EXPECT_STATUS(tfe_function_call(&res, f, 2, args), TFE_ERR_SHAPE_MISMATCH, "tfe_function_call");
  assert_null(res);
  assert_non_null(strstr(tfe_last_error_message(), "symbol s1"));
  EXPECT_STATUS(tfe_function_call(&res, f, 1, args), TFE_ERR_INVALID_ARGUMENT, "tfe_function_call");
  tfe_tensor* sym_args[] = {x, y};
  EXPECT_STATUS(tfe_function_call(&res, f, 2, sym_args), TFE_ERR_INVALID_ARGUMENT,
                "tfe_function_call");
  tfe_tensor_release(a);
  tfe_tensor_release(b);

  tfe_tensor* all[] = {x, y, s, p, r};
  for (int i = 0; i < 5; ++i) tfe_tensor_release(all[i]);
  tfe_function_release(f);
  tfe_context_release(ctx);
}

static void test_shape_errors_at_build_and_call_time(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t s1[] = {-1}, s2[] = {-2};
  tfe_tensor *x = NULL, *y = NULL, *out = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_symbolic(&x, ctx, TFE_F64, 1, s1));
  TFE_OK_OR_FAIL(tfe_tensor_symbolic(&y, ctx, TFE_F64, 1, s2));
  /* two different symbols can never be proved equal: a build-time error naming both */
  EXPECT_STATUS(tfe_add(&out, x, y), TFE_ERR_SHAPE_MISMATCH, "tfe_add");
  assert_non_null(strstr(tfe_last_error_message(), "s1"));
  assert_non_null(strstr(tfe_last_error_message(), "s2"));
  assert_null(out);

  /* a symbol against a concrete extent: checked when called */
  tfe_tensor* c = f64_vector(ctx, 3, 1.0);
  TFE_OK_OR_FAIL(tfe_mul(&out, x, c));
  int64_t shape[1];
  TFE_OK_OR_FAIL(tfe_tensor_shape(out, shape));
  assert_int_equal(shape[0], 3);
  tfe_function* f = NULL;
  TFE_OK_OR_FAIL(tfe_function_create(&f, 1, &x, 1, &out));
  tfe_tensor *good = f64_vector(ctx, 3, 2.0), *bad = f64_vector(ctx, 4, 2.0), *r = NULL;
  TFE_OK_OR_FAIL(tfe_function_call1(&r, f, 1, &good));
  double v[3];
  TFE_OK_OR_FAIL(tfe_tensor_to_data(r, v, sizeof v));
  assert_true(v[0] == 2.0 && v[1] == 6.0 && v[2] == 12.0); /* (2,3,4) * (1,2,3): c captured */
  tfe_tensor_release(r);
  EXPECT_STATUS(tfe_function_call1(&r, f, 1, &bad), TFE_ERR_SHAPE_MISMATCH, "tfe_function_call1");
  assert_non_null(strstr(tfe_last_error_message(), "s1 = 4"));

  /* an output depending on a symbolic tensor that is not an input */
  tfe_function* g = (tfe_function*)(void*)&v;
  EXPECT_STATUS(tfe_function_create(&g, 0, NULL, 1, &out), TFE_ERR_INVALID_ARGUMENT,
                "tfe_function_create");
  assert_null(g);
  /* an input that is not a symbolic tensor */
  EXPECT_STATUS(tfe_function_create(&g, 1, &c, 1, &out), TFE_ERR_INVALID_ARGUMENT,
                "tfe_function_create");

  tfe_tensor* all[] = {x, y, out, c, good, bad};
  for (int i = 0; i < 6; ++i) tfe_tensor_release(all[i]);
  tfe_function_release(f);
  tfe_context_release(ctx);
}

/* Several outputs, a derived extent, matmul and concatenate with symbols. */
static void test_multiple_outputs_and_derived_extents(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t shape_a[] = {-1, -2}, shape_b[] = {-2, 2};
  tfe_tensor *a = NULL, *b = NULL, *ab = NULL, *cat = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_symbolic(&a, ctx, TFE_F64, 2, shape_a));
  TFE_OK_OR_FAIL(tfe_tensor_symbolic(&b, ctx, TFE_F64, 2, shape_b));
  TFE_OK_OR_FAIL(tfe_matmul(&ab, a, b)); /* [s1, 2] */
  tfe_tensor* parts[] = {ab, ab};
  TFE_OK_OR_FAIL(tfe_concatenate(&cat, 2, parts, 0)); /* [(s1*2), 2] */
  int64_t shape[2];
  TFE_OK_OR_FAIL(tfe_tensor_shape(cat, shape));
  assert_true(shape[0] == TFE_EXTENT_DERIVED && shape[1] == 2);
  char text[32];
  int64_t needed = 0;
  TFE_OK_OR_FAIL(tfe_tensor_extent_text(cat, 0, text, sizeof text, &needed));
  assert_string_equal(text, "(s1*2)");
  tfe_tensor* ins[] = {a, b};
  tfe_tensor* outs[] = {ab, cat};
  tfe_function* f = NULL;
  TFE_OK_OR_FAIL(tfe_function_create(&f, 2, ins, 2, outs));
  const double av[6] = {1, 2, 3, 4, 5, 6}, bv[6] = {1, 0, 0, 0, 1, 0};
  const int64_t sa[] = {2, 3}, sb[] = {3, 2};
  tfe_tensor *ta = NULL, *tb = NULL;
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&ta, ctx, TFE_F64, 2, sa, NULL, av));
  TFE_OK_OR_FAIL(tfe_tensor_from_data(&tb, ctx, TFE_F64, 2, sb, NULL, bv));
  tfe_tensor* args[] = {ta, tb};
  tfe_results* res = NULL;
  TFE_OK_OR_FAIL(tfe_function_call(&res, f, 2, args));
  int32_t count = 0;
  TFE_OK_OR_FAIL(tfe_results_count(res, &count));
  assert_int_equal(count, 2);
  tfe_tensor *o0 = NULL, *o1 = NULL, *none = NULL;
  TFE_OK_OR_FAIL(tfe_results_get(&o0, res, 0));
  TFE_OK_OR_FAIL(tfe_results_get(&o1, res, 1));
  EXPECT_STATUS(tfe_results_get(&none, res, 2), TFE_ERR_INVALID_ARGUMENT, "tfe_results_get");
  assert_null(none);
  double m[4], c4[8];
  TFE_OK_OR_FAIL(tfe_tensor_to_data(o0, m, sizeof m));
  TFE_OK_OR_FAIL(tfe_tensor_to_data(o1, c4, sizeof c4));
  /* b selects columns 0 and 1 of a = [[1,3,5],[2,4,6]]: {1,2,3,4} column-major */
  assert_true(m[0] == 1 && m[1] == 2 && m[2] == 3 && m[3] == 4);
  /* the two copies stacked along dim 0: columns (1,2,1,2) and (3,4,3,4) */
  assert_true(c4[0] == 1 && c4[2] == 1 && c4[4] == 3 && c4[6] == 3);
  tfe_results_release(res);
  tfe_tensor* all[] = {a, b, ab, cat, ta, tb, o0, o1};
  for (int i = 0; i < 8; ++i) tfe_tensor_release(all[i]);
  tfe_function_release(f);
  tfe_context_release(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_function_runs_for_several_shapes, leak_setup,
                                      leak_teardown),
      cmocka_unit_test_setup_teardown(test_shape_errors_at_build_and_call_time, leak_setup,
                                      leak_teardown),
      cmocka_unit_test_setup_teardown(test_multiple_outputs_and_derived_extents, leak_setup,
                                      leak_teardown),
  };
  return cmocka_run_group_tests_name("capi_program", tests, NULL, NULL);
}
