// The linalg options object behind tfe_linalg_options (tenferro/linalg.h): a counted handle
// holding the linalg layer's plain options (linalg/options.hpp).
#pragma once

#include "capi/handles.hpp"
#include "linalg/options.hpp"

namespace tfe::capi {
using LinalgOptions = tfe::linalg::Options;
} // namespace tfe::capi

struct tfe_linalg_options : tfe::capi::Counted {
  tfe::capi::LinalgOptions values;
};

namespace tfe::capi {
// The options to use: opts' values, or the defaults for NULL.
const LinalgOptions& options_or_default(const tfe_linalg_options* opts);
} // namespace tfe::capi
