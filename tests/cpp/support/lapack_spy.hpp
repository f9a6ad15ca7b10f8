// Counts the LU factorisations LAPACK makes for the library in this test binary (F64, through
// LAPACKE_dgetrf_work; the library factors matrices above 8 x 8 there, smaller ones itself).
#pragma once

#include <atomic>
#include <cstdint>

namespace tfe::testing {
std::atomic<int64_t>& lapack_dgetrf_calls();
} // namespace tfe::testing
