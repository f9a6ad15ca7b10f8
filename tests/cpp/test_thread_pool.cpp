// The pool behind parallel_for (backend/cpu/thread_budget.cpp): every index once whatever the
// budget, grain, nesting and idle gaps (workers that spin between regions, then sleep), and an
// idle pool that burns no CPU once its bounded spin is over.
#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "backend/cpu/thread_budget.hpp"

using namespace tfe;

namespace {

bool each_index_once(int64_t n, int64_t grain, bool nested) {
  std::vector<std::atomic<int>> hits(static_cast<size_t>(n));
  cpu::parallel_for(n, grain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) hits[static_cast<size_t>(i)].fetch_add(1);
    if (nested) cpu::parallel_for(100, 10, [](int64_t, int64_t) {}); // runs serially
  });
  for (const auto& h : hits)
    if (h.load() != 1) return false;
  return true;
}

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

} // namespace

TEST_CASE("the pool runs every index once across budgets, grains and idle gaps",
          "[core][threads]") {
  const int before = cpu::thread_budget();
  int failures = 0;
  for (int budget : {2, 4, 3}) {
    cpu::set_thread_budget(budget);
    for (int r = 0; r < 300; ++r)
      failures += !each_index_once(1 + (r * 7919) % 5000, 64 + r % 300, r % 5 == 0);
    // Gaps shorter and longer than the workers' spin: some regions find them spinning, others
    // wake them from their sleep.
    for (int r = 0; r < 20; ++r) {
      failures += !each_index_once(4000, 100, false);
      std::this_thread::sleep_for(std::chrono::microseconds(r % 2 ? 500 : 5));
    }
  }
  cpu::set_thread_budget(before);
  CHECK(failures == 0);
}

TEST_CASE("an idle pool burns no CPU", "[core][threads]") {
  // The default budget: setting one also sets BLAS's. OpenBLAS's own threads spin for about 2^28
  // cycles after their last work (and after it starts), so they are left to settle first.
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  REQUIRE(each_index_once(100000, 1000, false));
  // The spin after a region is bounded (tens of microseconds); then every worker sleeps.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const double start = cpu_seconds();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK(cpu_seconds() - start < 0.03);
}
