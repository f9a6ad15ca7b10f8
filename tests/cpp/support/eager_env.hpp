// Caches for eager derivative requests in the C++ tests (the C layer keeps them per context).
#pragma once

#include "ad/recording/engine.hpp"

namespace tfe::testing {

struct EagerEnv {
  ad::DerivativeCache transforms{256, int64_t{1} << 30};
  graph::CompileCache prepared{256, int64_t{1} << 30};
  ad::recording::Caches caches{transforms, prepared};
};

} // namespace tfe::testing
