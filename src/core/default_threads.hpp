// The default number of threads the library may use: TFE_NUM_THREADS when set (>= 1), else the
// hardware concurrency. The kernels' thread budget (backend/cpu/thread_budget.hpp) and the
// built-in dataflow scheduler start from it.
#pragma once

namespace tfe {

int default_thread_count() noexcept;

// The most threads a budget may have: the hardware concurrency. More only adds threads that wait
// for cores (and each one the pool starts lives as long as the process).
int max_thread_count() noexcept;

} // namespace tfe
