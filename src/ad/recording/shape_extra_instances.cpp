// The shape helpers (eager/shape_extra.hpp) for recorded eager values.
#include "ad/recording/recorded.hpp"
#include "eager/shape_extra_impl.hpp"

namespace tfe::eager {
TFE_SHAPE_EXTRA_INSTANCES(ad::recording::Recorded)
} // namespace tfe::eager
