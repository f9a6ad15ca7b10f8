// The linalg options object behind tfe_linalg_options (tenferro/linalg.h): plain values with
// their defaults; each function reads the ones that apply to it.
#pragma once

#include "capi/handles.hpp"
#include "linalg/ops.hpp"

namespace tfe::capi {
struct LinalgOptions {
  bool upper = false;
  bool left = true;
  bool unit_diagonal = false;
  tfe::linalg::Trans trans = tfe::linalg::Trans::No;
  bool full_matrices = false;
  bool positive_diagonal = false;
  double derivative_eps = 0;
  double rtol = -1; // negative: the dtype's default
  bool hermitian = false;
  int64_t max_rank = -1; // svd_truncated; negative: no limit
  double cutoff_rtol = 0, cutoff_atol = 0;
};
} // namespace tfe::capi

struct tfe_linalg_options : tfe::capi::Counted {
  tfe::capi::LinalgOptions values;
};

namespace tfe::capi {
// The options to use: opts' values, or the defaults for NULL.
const LinalgOptions& options_or_default(const tfe_linalg_options* opts);
} // namespace tfe::capi
