// The default number of threads the library may use: TFE_NUM_THREADS when set (>= 1), else the
// hardware concurrency. The kernels' thread budget (backend/cpu/thread_budget.hpp) and the
// built-in dataflow scheduler start from it.
#pragma once

namespace tfe {

int default_thread_count() noexcept;

} // namespace tfe
