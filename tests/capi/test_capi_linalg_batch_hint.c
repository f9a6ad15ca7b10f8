/* Linear algebra operands whose batch dims do not broadcast: the message names the public
 * function and the batch shapes, and says that batch dims come after the two matrix dims (the
 * usual cause is a NumPy-style stack [batch.., M, N]). */
#include "capi_testing.h"

static void test_solve_names_the_batch_layout(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t sa[] = {3, 3, 4}, sb[] = {3, 1, 2};
  tfe_tensor* a = make_tensor(ctx, TFE_F64, 3, sa);
  tfe_tensor* b = make_tensor(ctx, TFE_F64, 3, sb);
  tfe_tensor* x = NULL;
  EXPECT_STATUS(tfe_linalg_solve(&x, a, b), TFE_ERR_SHAPE_MISMATCH, "tfe_linalg_solve");
  assert_null(x);
  const char* msg = tfe_last_error_message();
  if (!strstr(msg, "batch dims [4] and [2] do not broadcast") ||
      !strstr(msg, "come after the two matrix dims"))
    fail_msg("message: %s", msg);
  tfe_tensor_release(a);
  tfe_tensor_release(b);
  tfe_context_release(ctx);
}

/* Broadcastable batch dims still solve: [3,3,4] with [3,1] (no batch dims). */
static void test_broadcastable_batches_still_work(void** state) {
  (void)state;
  tfe_context* ctx = new_ctx();
  const int64_t sa[] = {2, 2, 3}, sb[] = {2, 1};
  const double av[] = {2, 0, 0, 2, 4, 0, 0, 4, 1, 0, 0, 1}, bv[] = {2, 4};
  tfe_tensor *a = f64(ctx, 3, sa, av), *b = f64(ctx, 2, sb, bv), *x = NULL;
  TFE_OK_OR_FAIL(tfe_linalg_solve(&x, a, b));
  double got[6];
  TFE_OK_OR_FAIL(tfe_tensor_to_data(x, got, sizeof got));
  const double scale[] = {2, 4, 1};
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < 2; ++i) assert_true(got[i + 2 * k] == bv[i] / scale[k]);
  tfe_tensor_release(a);
  tfe_tensor_release(b);
  tfe_tensor_release(x);
  tfe_context_release(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_solve_names_the_batch_layout, leak_setup, leak_teardown),
      cmocka_unit_test_setup_teardown(test_broadcastable_batches_still_work, leak_setup,
                                      leak_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
