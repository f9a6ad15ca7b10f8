// The suites emit dataflow ops on the main thread outside any context (the runtime opens a
// context's own cache around each op it emits): this cache serves them, open from start-up on.
#include "ad/vjp_kernel.hpp"

namespace {
tfe::ad::VjpKernelCache cache(1024, int64_t{64} << 20);
const tfe::ad::VjpKernelScope scope(cache);
} // namespace
