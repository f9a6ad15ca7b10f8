// The public header compiles as C++20 with every warning enabled, inside and outside a
// namespace-heavy translation unit.
#include <complex>
#include <cstdint>

#include <tenferro/tenferro.h>

int main() {
  static_assert(sizeof(tfe_status) == 4, "tfe_status is int32_t");
  tfe_status (*sum)(tfe_tensor**, const tfe_tensor*, int32_t, const int64_t*) = tfe_sum;
  return sum != nullptr && tfe_abi_version() == TFE_ABI_VERSION ? 0 : 1;
}
