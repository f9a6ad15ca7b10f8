/* A tiny program built against the *installed* tree (CMake package and pkg-config). */
#include <stdio.h>
#include <tenferro/tenferro.h>

int main(void) {
  tfe_context* ctx = NULL;
  tfe_tensor *a = NULL, *s = NULL;
  const double v[] = {1, 2, 3, 4};
  const int64_t shape[] = {2, 2};
  double total = 0;
  if (tfe_context_create(&ctx) || tfe_tensor_from_data(&a, ctx, TFE_F64, 2, shape, NULL, v) ||
      tfe_sum(&s, a, 0, NULL) || tfe_tensor_to_data(s, &total, sizeof total)) {
    fprintf(stderr, "%s\n", tfe_last_error_message());
    return 1;
  }
  printf("tenferro %s: sum = %g\n", tfe_version(), total);
  tfe_tensor_release(s);
  tfe_tensor_release(a);
  tfe_context_release(ctx);
  return total == 10 && tfe_debug_live_objects() == 0 ? 0 : 1;
}
