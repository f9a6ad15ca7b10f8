// The options of the linalg functions that take any (tfe_linalg_options in C): plain values with
// their defaults. Each function reads the ones that apply to it; the C layer's options object
// holds one of these.
#pragma once

#include <cstdint>

#include "core/linalg_modes.hpp"

namespace tfe::linalg {

struct Options {
  bool upper = false;
  bool left = true;
  bool unit_diagonal = false;
  Trans trans = Trans::No;
  bool full_matrices = false;
  bool positive_diagonal = false;
  double derivative_eps = 0;
  double rtol = -1; // negative: the dtype's default
  bool hermitian = false;
  int64_t max_rank = -1; // svd_truncated; negative: no limit
  double cutoff_rtol = 0, cutoff_atol = 0;
};

} // namespace tfe::linalg
