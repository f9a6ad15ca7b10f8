// The 20-op elementwise chain the AD benchmarks differentiate (bench/eager_ad.cpp,
// bench/dataflow.cpp): y = x, then 4 times sin, * x, tanh, + x, cos. Intermediates are released
// as it goes, as a user's temporaries would be.
#pragma once

#include <tenferro/tenferro.h>

#include "ratio_reporter.hpp"

namespace tfe_bench {

inline tfe_tensor* chain20(tfe_tensor* x) {
  tfe_tensor* y = x;
  auto step = [&](tfe_tensor* next) {
    if (y != x) tfe_tensor_release(y);
    y = next;
  };
  for (int r = 0; r < 4; ++r) {
    tfe_tensor* t = nullptr;
    CHECK_TFE(tfe_sin(&t, y));
    step(t);
    CHECK_TFE(tfe_mul(&t, y, x));
    step(t);
    CHECK_TFE(tfe_tanh(&t, y));
    step(t);
    CHECK_TFE(tfe_add(&t, y, x));
    step(t);
    CHECK_TFE(tfe_cos(&t, y));
    step(t);
  }
  return y;
}

} // namespace tfe_bench
