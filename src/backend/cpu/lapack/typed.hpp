// Typed front for the LAPACK and BLAS routines the batched kernels call: one overload per dtype
// (float, double, c32, c64) so that each algorithm is written once as a template. Only the
// LAPACKE `_work` entry points in column-major order: the high-level ones scan every input for
// NaN and allocate their own workspace on every call. Every argument has been validated by the
// caller; the return value is LAPACK's info.
#pragma once

#include <complex>

// LAPACKE's complex types as std::complex (lapacke.h lets the includer define them): its default,
// C99 `float _Complex`, is not C++ (clang rejects it with -Wpedantic).
#ifndef lapack_complex_float
#define lapack_complex_float std::complex<float>
#endif
#ifndef lapack_complex_double
#define lapack_complex_double std::complex<double>
#endif
#include <cblas.h>
#include <lapacke.h>

#include "core/dtype.hpp"

namespace tfe::cpu::lapack::typed {

static_assert(sizeof(lapack_int) == 4, "the kernels assume LAPACK's 32-bit integer interface");
static_assert(sizeof(c32) == 2 * sizeof(float) && sizeof(c64) == 2 * sizeof(double),
              "std::complex must be layout compatible with LAPACK's complex types");

using lint = lapack_int;
inline constexpr int kLayout = LAPACK_COL_MAJOR;

// std::complex and LAPACK's complex types share their layout (C++ [complex.numbers]/4).
inline lapack_complex_float* lc(c32* p) { return reinterpret_cast<lapack_complex_float*>(p); }
inline lapack_complex_double* lc(c64* p) { return reinterpret_cast<lapack_complex_double*>(p); }
inline const lapack_complex_float* lc(const c32* p) {
  return reinterpret_cast<const lapack_complex_float*>(p);
}
inline const lapack_complex_double* lc(const c64* p) {
  return reinterpret_cast<const lapack_complex_double*>(p);
}

// ---- Cholesky: potrf ----
inline lint potrf(char uplo, lint n, float* a, lint lda) {
  return LAPACKE_spotrf_work(kLayout, uplo, n, a, lda);
}
inline lint potrf(char uplo, lint n, double* a, lint lda) {
  return LAPACKE_dpotrf_work(kLayout, uplo, n, a, lda);
}
inline lint potrf(char uplo, lint n, c32* a, lint lda) {
  return LAPACKE_cpotrf_work(kLayout, uplo, n, lc(a), lda);
}
inline lint potrf(char uplo, lint n, c64* a, lint lda) {
  return LAPACKE_zpotrf_work(kLayout, uplo, n, lc(a), lda);
}

// ---- QR: geqrf, then orgqr (real) / ungqr (complex) under one name ----
inline lint geqrf(lint m, lint n, float* a, lint lda, float* tau, float* work, lint lwork) {
  return LAPACKE_sgeqrf_work(kLayout, m, n, a, lda, tau, work, lwork);
}
inline lint geqrf(lint m, lint n, double* a, lint lda, double* tau, double* work, lint lwork) {
  return LAPACKE_dgeqrf_work(kLayout, m, n, a, lda, tau, work, lwork);
}
inline lint geqrf(lint m, lint n, c32* a, lint lda, c32* tau, c32* work, lint lwork) {
  return LAPACKE_cgeqrf_work(kLayout, m, n, lc(a), lda, lc(tau), lc(work), lwork);
}
inline lint geqrf(lint m, lint n, c64* a, lint lda, c64* tau, c64* work, lint lwork) {
  return LAPACKE_zgeqrf_work(kLayout, m, n, lc(a), lda, lc(tau), lc(work), lwork);
}

inline lint ungqr(lint m, lint n, lint k, float* a, lint lda, const float* tau, float* work,
                  lint lwork) {
  return LAPACKE_sorgqr_work(kLayout, m, n, k, a, lda, tau, work, lwork);
}
inline lint ungqr(lint m, lint n, lint k, double* a, lint lda, const double* tau, double* work,
                  lint lwork) {
  return LAPACKE_dorgqr_work(kLayout, m, n, k, a, lda, tau, work, lwork);
}
inline lint ungqr(lint m, lint n, lint k, c32* a, lint lda, const c32* tau, c32* work, lint lwork) {
  return LAPACKE_cungqr_work(kLayout, m, n, k, lc(a), lda, lc(tau), lc(work), lwork);
}
inline lint ungqr(lint m, lint n, lint k, c64* a, lint lda, const c64* tau, c64* work, lint lwork) {
  return LAPACKE_zungqr_work(kLayout, m, n, k, lc(a), lda, lc(tau), lc(work), lwork);
}

// ---- SVD: gesdd (rwork is used by the complex routines only) ----
inline lint gesdd(char jobz, lint m, lint n, float* a, lint lda, float* s, float* u, lint ldu,
                  float* vt, lint ldvt, float* work, lint lwork, float* /*rwork*/, lint* iwork) {
  return LAPACKE_sgesdd_work(kLayout, jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, iwork);
}
inline lint gesdd(char jobz, lint m, lint n, double* a, lint lda, double* s, double* u, lint ldu,
                  double* vt, lint ldvt, double* work, lint lwork, double* /*rwork*/, lint* iwork) {
  return LAPACKE_dgesdd_work(kLayout, jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, iwork);
}
inline lint gesdd(char jobz, lint m, lint n, c32* a, lint lda, float* s, c32* u, lint ldu, c32* vt,
                  lint ldvt, c32* work, lint lwork, float* rwork, lint* iwork) {
  return LAPACKE_cgesdd_work(kLayout, jobz, m, n, lc(a), lda, s, lc(u), ldu, lc(vt), ldvt, lc(work),
                             lwork, rwork, iwork);
}
inline lint gesdd(char jobz, lint m, lint n, c64* a, lint lda, double* s, c64* u, lint ldu, c64* vt,
                  lint ldvt, c64* work, lint lwork, double* rwork, lint* iwork) {
  return LAPACKE_zgesdd_work(kLayout, jobz, m, n, lc(a), lda, s, lc(u), ldu, lc(vt), ldvt, lc(work),
                             lwork, rwork, iwork);
}

// ---- Hermitian eigen, divide and conquer: syevd (real) / heevd (complex) under one name.
// The real routines take no rwork: rwork and lrwork are ignored for them. ----
inline lint heevd(char jobz, char uplo, lint n, float* a, lint lda, float* w, float* work,
                  lint lwork, float* /*rwork*/, lint /*lrwork*/, lint* iwork, lint liwork) {
  return LAPACKE_ssyevd_work(kLayout, jobz, uplo, n, a, lda, w, work, lwork, iwork, liwork);
}
inline lint heevd(char jobz, char uplo, lint n, double* a, lint lda, double* w, double* work,
                  lint lwork, double* /*rwork*/, lint /*lrwork*/, lint* iwork, lint liwork) {
  return LAPACKE_dsyevd_work(kLayout, jobz, uplo, n, a, lda, w, work, lwork, iwork, liwork);
}
inline lint heevd(char jobz, char uplo, lint n, c32* a, lint lda, float* w, c32* work, lint lwork,
                  float* rwork, lint lrwork, lint* iwork, lint liwork) {
  return LAPACKE_cheevd_work(kLayout, jobz, uplo, n, lc(a), lda, w, lc(work), lwork, rwork, lrwork,
                             iwork, liwork);
}
inline lint heevd(char jobz, char uplo, lint n, c64* a, lint lda, double* w, c64* work, lint lwork,
                  double* rwork, lint lrwork, lint* iwork, lint liwork) {
  return LAPACKE_zheevd_work(kLayout, jobz, uplo, n, lc(a), lda, w, lc(work), lwork, rwork, lrwork,
                             iwork, liwork);
}

// ---- General eigen: geev. Real and complex differ in shape (wr/wi pairs vs complex w), so the
// two kinds keep their own signatures; only the right vectors are ever computed. ----
inline lint geev(char jobvr, lint n, float* a, lint lda, float* wr, float* wi, float* vr, lint ldvr,
                 float* work, lint lwork) {
  float vl_unused = 0;
  return LAPACKE_sgeev_work(kLayout, 'N', jobvr, n, a, lda, wr, wi, &vl_unused, 1, vr, ldvr, work,
                            lwork);
}
inline lint geev(char jobvr, lint n, double* a, lint lda, double* wr, double* wi, double* vr,
                 lint ldvr, double* work, lint lwork) {
  double vl_unused = 0;
  return LAPACKE_dgeev_work(kLayout, 'N', jobvr, n, a, lda, wr, wi, &vl_unused, 1, vr, ldvr, work,
                            lwork);
}
inline lint geev(char jobvr, lint n, c32* a, lint lda, c32* w, c32* vr, lint ldvr, c32* work,
                 lint lwork, float* rwork) {
  c32 vl_unused;
  return LAPACKE_cgeev_work(kLayout, 'N', jobvr, n, lc(a), lda, lc(w), lc(&vl_unused), 1, lc(vr),
                            ldvr, lc(work), lwork, rwork);
}
inline lint geev(char jobvr, lint n, c64* a, lint lda, c64* w, c64* vr, lint ldvr, c64* work,
                 lint lwork, double* rwork) {
  c64 vl_unused;
  return LAPACKE_zgeev_work(kLayout, 'N', jobvr, n, lc(a), lda, lc(w), lc(&vl_unused), 1, lc(vr),
                            ldvr, lc(work), lwork, rwork);
}

// ---- LU: getrf (the solves are getrs's algorithm on trsm, lu.cpp says why) ----
inline lint getrf(lint m, lint n, float* a, lint lda, lint* ipiv) {
  return LAPACKE_sgetrf_work(kLayout, m, n, a, lda, ipiv);
}
inline lint getrf(lint m, lint n, double* a, lint lda, lint* ipiv) {
  return LAPACKE_dgetrf_work(kLayout, m, n, a, lda, ipiv);
}
inline lint getrf(lint m, lint n, c32* a, lint lda, lint* ipiv) {
  return LAPACKE_cgetrf_work(kLayout, m, n, lc(a), lda, ipiv);
}
inline lint getrf(lint m, lint n, c64* a, lint lda, lint* ipiv) {
  return LAPACKE_zgetrf_work(kLayout, m, n, lc(a), lda, ipiv);
}

// ---- Triangular solve with many right-hand sides: BLAS trsm, B <- op(A)^-1 B or B op(A)^-1.
// trsm has no info: OpenBLAS reports bad arguments through xerbla, which the callers' checks make
// unreachable. ----
inline void trsm(CBLAS_SIDE side, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, CBLAS_DIAG diag, lint m,
                 lint n, const float* a, lint lda, float* b, lint ldb) {
  cblas_strsm(CblasColMajor, side, uplo, trans, diag, m, n, 1.0f, a, lda, b, ldb);
}
inline void trsm(CBLAS_SIDE side, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, CBLAS_DIAG diag, lint m,
                 lint n, const double* a, lint lda, double* b, lint ldb) {
  cblas_dtrsm(CblasColMajor, side, uplo, trans, diag, m, n, 1.0, a, lda, b, ldb);
}
inline void trsm(CBLAS_SIDE side, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, CBLAS_DIAG diag, lint m,
                 lint n, const c32* a, lint lda, c32* b, lint ldb) {
  const c32 one(1);
  cblas_ctrsm(CblasColMajor, side, uplo, trans, diag, m, n, &one, a, lda, b, ldb);
}
inline void trsm(CBLAS_SIDE side, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, CBLAS_DIAG diag, lint m,
                 lint n, const c64* a, lint lda, c64* b, lint ldb) {
  const c64 one(1);
  cblas_ztrsm(CblasColMajor, side, uplo, trans, diag, m, n, &one, a, lda, b, ldb);
}

} // namespace tfe::cpu::lapack::typed
