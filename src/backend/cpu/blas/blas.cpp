// OpenBLAS calls behind blas.hpp.
#include "backend/cpu/blas/blas.hpp"

#include <cblas.h>

#include <limits>

#include "core/error.hpp"

namespace tfe::cpu::blas {
namespace {
CBLAS_TRANSPOSE flag(Trans t) {
  switch (t) {
  case Trans::No: return CblasNoTrans;
  case Trans::Transpose: return CblasTrans;
  case Trans::ConjTranspose: return CblasConjTrans;
  }
  return CblasNoTrans;
}
blasint bi(int64_t v) { return static_cast<blasint>(v); }
} // namespace

void check_blas_int(int64_t v, const char* what) {
  if (v > std::numeric_limits<int32_t>::max())
    fail(Status::NotSupported, "%s %lld exceeds BLAS's 32-bit limit", what, (long long)v);
}

void gemm(Trans ta, Trans tb, int64_t m, int64_t n, int64_t k, const float* a, int64_t lda,
          const float* b, int64_t ldb, float* c, int64_t ldc) {
  cblas_sgemm(CblasColMajor, flag(ta), flag(tb), bi(m), bi(n), bi(k), 1.0f, a, bi(lda), b, bi(ldb),
              0.0f, c, bi(ldc));
}
void gemm(Trans ta, Trans tb, int64_t m, int64_t n, int64_t k, const double* a, int64_t lda,
          const double* b, int64_t ldb, double* c, int64_t ldc) {
  cblas_dgemm(CblasColMajor, flag(ta), flag(tb), bi(m), bi(n), bi(k), 1.0, a, bi(lda), b, bi(ldb),
              0.0, c, bi(ldc));
}
void gemm(Trans ta, Trans tb, int64_t m, int64_t n, int64_t k, const c32* a, int64_t lda,
          const c32* b, int64_t ldb, c32* c, int64_t ldc) {
  const c32 one(1), zero(0);
  cblas_cgemm(CblasColMajor, flag(ta), flag(tb), bi(m), bi(n), bi(k), &one, a, bi(lda), b, bi(ldb),
              &zero, c, bi(ldc));
}
void gemm(Trans ta, Trans tb, int64_t m, int64_t n, int64_t k, const c64* a, int64_t lda,
          const c64* b, int64_t ldb, c64* c, int64_t ldc) {
  const c64 one(1), zero(0);
  cblas_zgemm(CblasColMajor, flag(ta), flag(tb), bi(m), bi(n), bi(k), &one, a, bi(lda), b, bi(ldb),
              &zero, c, bi(ldc));
}

const char* corename() { return openblas_get_corename(); }
int num_threads() { return openblas_get_num_threads(); }
void set_num_threads(int threads) { openblas_set_num_threads(threads); }

} // namespace tfe::cpu::blas
