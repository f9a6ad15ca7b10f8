/* The main C example: build two tensors, combine them with broadcasting, a matrix product and
 * a reduction, and print the results. Run by scripts/demo.sh and by the test suite. */
#include <stdio.h>
#include <tenferro/tenferro.h>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    if ((call) != TFE_OK) {                                                                        \
      fprintf(stderr, "%s\n", tfe_last_error_message());                                           \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

int main(void) {
  tfe_context* ctx = NULL;
  CHECK(tfe_context_create(&ctx));

  /* A 2x3 matrix, column-major: columns (1,2), (3,4), (5,6). */
  const double a_data[] = {1, 2, 3, 4, 5, 6};
  const int64_t a_shape[] = {2, 3};
  const double col_data[] = {10, 20};
  const int64_t col_shape[] = {2};
  tfe_tensor *a = NULL, *col = NULL, *shifted = NULL, *gram = NULL, *total = NULL;
  CHECK(tfe_tensor_from_data(&a, ctx, TFE_F64, 2, a_shape, NULL, a_data));
  CHECK(tfe_tensor_from_data(&col, ctx, TFE_F64, 1, col_shape, NULL, col_data));

  CHECK(tfe_add(&shifted, a, col)); /* left-aligned broadcast: the column is added to each column */
  tfe_tensor* at = NULL;
  const int64_t perm[] = {1, 0};
  CHECK(tfe_transpose(&at, shifted, 2, perm));
  CHECK(tfe_matmul(&gram, shifted, at)); /* 2x3 times 3x2 */
  CHECK(tfe_sum(&total, gram, 0, NULL));

  double s[6], g[4], t;
  CHECK(tfe_tensor_to_data(shifted, s, sizeof s));
  CHECK(tfe_tensor_to_data(gram, g, sizeof g));
  CHECK(tfe_tensor_to_data(total, &t, sizeof t));
  printf("a + [10, 20] = [%g %g %g; %g %g %g]\n", s[0], s[2], s[4], s[1], s[3], s[5]);
  printf("(a + c) (a + c)^T = [%g %g; %g %g]\n", g[0], g[2], g[1], g[3]);
  printf("sum = %g\n", t);

  tfe_tensor_release(a);
  tfe_tensor_release(col);
  tfe_tensor_release(shifted);
  tfe_tensor_release(at);
  tfe_tensor_release(gram);
  tfe_tensor_release(total);
  tfe_context_release(ctx);
  return tfe_debug_live_objects() == 0 ? 0 : 1;
}
