/* The public header compiles as strict C99 after <complex.h> and <math.h> (whose macros
 * complex, I and the like must not collide with it) and declares the fixed signatures. */
#include <complex.h>
#include <math.h>
#include <stdbool.h>

#include <tenferro/tenferro.h>

int main(void) {
  tfe_status (*add)(tfe_tensor**, const tfe_tensor*, const tfe_tensor*) = tfe_add;
  tfe_status (*concat)(tfe_tensor**, int32_t, tfe_tensor* const*, int64_t) = tfe_concatenate;
  tfe_status (*from)(tfe_tensor**, tfe_context*, int32_t, int32_t, const int64_t*, const int64_t*,
                     const void*) = tfe_tensor_from_data;
  double complex z = 1.0 + 2.0 * I;
  bool ok = add != 0 && concat != 0 && from != 0 && creal(z) == 1.0;
  return ok && TFE_C64 == 7 && TFE_ERR_INTERNAL == 100 ? 0 : 1;
}
