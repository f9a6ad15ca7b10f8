// Typed front for the BLAS calls the kernels make (OpenBLAS, 32-bit integers). Callers check
// the int32 limits first (check_blas_int); docs/design/ops-and-dtypes.md: larger sizes are
// NotSupported.
#pragma once

#include <cstdint>

#include "core/dtype.hpp"
#include "core/linalg_modes.hpp"

namespace tfe::cpu::blas {

using tfe::Trans; // op(A) of the library's one enum (core/linalg_modes.hpp)

// C (m x n, column-major, ldc) = A' B' with A' = op(A) (m x k), B' = op(B) (k x n); beta = 0.
void gemm(Trans ta, Trans tb, int64_t m, int64_t n, int64_t k, const float* a, int64_t lda,
          const float* b, int64_t ldb, float* c, int64_t ldc);
void gemm(Trans ta, Trans tb, int64_t m, int64_t n, int64_t k, const double* a, int64_t lda,
          const double* b, int64_t ldb, double* c, int64_t ldc);
void gemm(Trans ta, Trans tb, int64_t m, int64_t n, int64_t k, const c32* a, int64_t lda,
          const c32* b, int64_t ldb, c32* c, int64_t ldc);
void gemm(Trans ta, Trans tb, int64_t m, int64_t n, int64_t k, const c64* a, int64_t lda,
          const c64* b, int64_t ldb, c64* c, int64_t ldc);

// NotSupported naming `what` when v exceeds INT32_MAX.
void check_blas_int(int64_t v, const char* what);

// OpenBLAS's core name (for benchmark headers) and its process-wide thread count.
const char* corename();
int num_threads();
// OpenBLAS's process-wide thread count (set together with the library's budget).
void set_num_threads(int threads);

} // namespace tfe::cpu::blas
