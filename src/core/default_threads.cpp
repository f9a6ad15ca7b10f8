// The default thread count of default_threads.hpp.
#include "core/default_threads.hpp"

#include <cstdlib>
#include <thread>

namespace tfe {

int max_thread_count() noexcept {
  unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : static_cast<int>(hw);
}

int default_thread_count() noexcept {
  if (const char* env = std::getenv("TFE_NUM_THREADS")) {
    int v = std::atoi(env);
    if (v >= 1) return v < max_thread_count() ? v : max_thread_count();
  }
  return max_thread_count();
}

} // namespace tfe
