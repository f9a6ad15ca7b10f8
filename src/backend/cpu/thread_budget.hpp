// The library's one thread budget and its pool. Small work stays on the calling thread (waking a
// sleeping thread costs ~25-30 us here); large work is split in fixed-size chunks, so results do
// not depend on how many threads ran. Nested calls (from inside a chunk) and calls made while
// another thread holds the pool run serially: the pool is never nested or oversubscribed.
#pragma once

#include <cstdint>
#include <functional>

namespace tfe::cpu {

// Threads the library may use (the caller included). Defaults to the hardware concurrency, or
// TFE_NUM_THREADS when set. Setting it takes effect for the next parallel region.
int thread_budget();
void set_thread_budget(int threads);

// Runs fn(begin, end) over [0, n) in chunks of `grain` elements (the last may be shorter).
// Serial when n <= grain or the budget is 1. fn must not throw.
void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn);

// Grain sizes for elementwise kernels by cost class: cheap (add), medium (exp), heavy (pow).
inline constexpr int64_t kGrainCheap = int64_t{1} << 16;
inline constexpr int64_t kGrainMedium = int64_t{1} << 13;

} // namespace tfe::cpu
