// The dense linear algebra of the host-memory plugin (fake_plugin.cpp), on decoded host pointers.
// The C suite compares device results with the host's byte for byte, so every entry repeats the
// CPU backend's own calls (src/backend/cpu/lapack): the same LAPACK or BLAS routine, the same
// workspace query, the same small-matrix LU and the same unpacking of real geev's output.
// Arguments outside the ABI's contract fail with InvalidArgument: a real device would misbehave
// silently, so the double is where a library bug shows.
#include <complex>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "backend/cpu/lapack/batch.hpp"
#include "backend/cpu/lapack/small_lu.hpp"

namespace tfe::fake_linalg {
namespace {
using namespace cpu::lapack::detail;
namespace typed = cpu::lapack::typed;

template <class F> void visit(const char* fn, int32_t dtype, F&& f) {
  const auto d = static_cast<DType>(dtype);
  if (d != DType::F32 && d != DType::F64 && d != DType::C32 && d != DType::C64)
    fail(Status::InvalidArgument, "fake %s: dtype code %d is not F32, F64, C32 or C64", fn,
         static_cast<int>(dtype));
  visit_float(d, [&](auto tag) { f(typename decltype(tag)::type{}); });
}

// The extents the library promises: at least 1 (no empty matrix or batch) and within int32.
void require_extents(const char* fn, std::initializer_list<int64_t> extents) {
  for (int64_t e : extents)
    if (e < 1 || e > std::numeric_limits<lint>::max())
      fail(Status::InvalidArgument, "fake %s: extent %lld outside [1, 2^31)", fn,
           static_cast<long long>(e));
}

CBLAS_TRANSPOSE trans_of(const char* fn, char t) {
  switch (t) {
  case 'N': return CblasNoTrans;
  case 'T': return CblasTrans;
  case 'C': return CblasConjTrans;
  default: fail(Status::InvalidArgument, "fake %s: trans '%c' is not N, T or C", fn, t);
  }
}

// LAPACK's optimal workspace for the first matrix serves the whole batch, as on the host: lwork
// steers blocking and the algorithm's path, so it must be the host's very number.
template <class T, class Query> lint queried(const char* fn, Query&& query) {
  T size{};
  if (lint info = query(&size); info < 0)
    fail(Status::Internal, "fake %s: the workspace query rejected argument %d", fn, -info);
  return work_size(fn, size);
}

void check_info(const char* fn, lint info) {
  if (info < 0) fail(Status::Internal, "fake %s: LAPACK rejected argument %d", fn, -info);
}

} // namespace

void potrf(int32_t dtype, int32_t upper, int64_t n, int64_t batch, void* a, int32_t* info) {
  require_extents("potrf", {n, batch});
  visit("potrf", dtype, [&]<class T>(T) {
    // The host zeroes the other triangle first; potrf neither reads nor writes it, so leaving
    // it as it is (the ABI's promise) changes no bit of the factor.
    for (int64_t b = 0; b < batch; ++b)
      info[b] =
          typed::potrf(upper ? 'U' : 'L', to_lint(n), static_cast<T*>(a) + b * n * n, to_lint(n));
  });
}

void getrf(int32_t dtype, int64_t m, int64_t n, int64_t batch, void* a, int32_t* ipiv,
           int32_t* info) {
  require_extents("getrf", {m, n, batch});
  const int64_t k = std::min(m, n);
  visit("getrf", dtype, [&]<class T>(T) {
    for (int64_t b = 0; b < batch; ++b) {
      T* lu = static_cast<T*>(a) + b * m * n;
      // lu_factor's choice: small square matrices skip LAPACK, and their bits differ from it.
      info[b] = m == n && n <= kSmallLu
                    ? small_getrf(n, lu, ipiv + b * k)
                    : typed::getrf(to_lint(m), to_lint(n), lu, to_lint(m), ipiv + b * k);
      check_info("getrf", info[b]);
    }
  });
}

void getrs(int32_t dtype, char trans, int64_t n, int64_t nrhs, int64_t batch, const void* lu,
           const int32_t* ipiv, void* b) {
  require_extents("getrs", {n, nrhs, batch});
  const CBLAS_TRANSPOSE tr = trans_of("getrs", trans);
  const Trans t = tr == CblasNoTrans ? Trans::No
                  : tr == CblasTrans ? Trans::Transpose
                                     : Trans::ConjTranspose;
  for (int64_t i = 0; i < n * batch; ++i)
    if (ipiv[i] < 1 || ipiv[i] > n)
      fail(Status::InvalidArgument, "fake getrs: pivot %lld of batch %lld is %d, outside [1, %lld]",
           static_cast<long long>(i % n), static_cast<long long>(i / n), ipiv[i],
           static_cast<long long>(n));
  visit("getrs", dtype, [&]<class T>(T) {
    for (int64_t q = 0; q < batch; ++q)
      solve_factored(t, n, nrhs, static_cast<const T*>(lu) + q * n * n, to_lint(n), ipiv + q * n,
                     static_cast<T*>(b) + q * n * nrhs);
  });
}

void trsm(int32_t dtype, int32_t left, int32_t upper, char trans, int32_t unit_diagonal, int64_t m,
          int64_t n, int64_t batch, const void* a, void* b) {
  require_extents("trsm", {m, n, batch});
  const CBLAS_TRANSPOSE tr = trans_of("trsm", trans);
  const int64_t k = left ? m : n;
  visit("trsm", dtype, [&]<class T>(T) {
    for (int64_t q = 0; q < batch; ++q)
      typed::trsm(left ? CblasLeft : CblasRight, upper ? CblasUpper : CblasLower, tr,
                  unit_diagonal ? CblasUnit : CblasNonUnit, to_lint(m), to_lint(n),
                  static_cast<const T*>(a) + q * k * k, to_lint(k), static_cast<T*>(b) + q * m * n,
                  to_lint(m));
  });
}

void geqrf(int32_t dtype, int64_t m, int64_t n, int64_t batch, void* a, void* tau) {
  require_extents("geqrf", {m, n, batch});
  const int64_t k = std::min(m, n);
  const lint lm = to_lint(m), ln = to_lint(n);
  visit("geqrf", dtype, [&]<class T>(T) {
    T* a0 = static_cast<T*>(a);
    T* tau0 = static_cast<T*>(tau);
    // qr.cpp takes the larger of geqrf's and orgqr's queries; geqrf runs its blocked code alike
    // for any lwork at or above its own optimum, so its own query gives the same bits.
    const lint lwork =
        queried<T>("geqrf", [&](T* q) { return typed::geqrf(lm, ln, a0, lm, tau0, q, -1); });
    std::vector<T> work(static_cast<size_t>(lwork));
    for (int64_t b = 0; b < batch; ++b)
      check_info("geqrf",
                 typed::geqrf(lm, ln, a0 + b * m * n, lm, tau0 + b * k, work.data(), lwork));
  });
}

void orgqr(int32_t dtype, int64_t m, int64_t n, int64_t k, int64_t batch, void* q,
           const void* tau) {
  require_extents("orgqr", {m, n, k, batch});
  if (!(m >= n && n >= k))
    fail(Status::InvalidArgument, "fake orgqr: needs m >= n >= k, got %lld, %lld, %lld",
         static_cast<long long>(m), static_cast<long long>(n), static_cast<long long>(k));
  const lint lm = to_lint(m), ln = to_lint(n), lk = to_lint(k);
  visit("orgqr", dtype, [&]<class T>(T) {
    T* q0 = static_cast<T*>(q);
    const T* tau0 = static_cast<const T*>(tau);
    const lint lwork =
        queried<T>("orgqr", [&](T* w) { return typed::ungqr(lm, ln, lk, q0, lm, tau0, w, -1); });
    std::vector<T> work(static_cast<size_t>(lwork));
    for (int64_t b = 0; b < batch; ++b)
      check_info("orgqr",
                 typed::ungqr(lm, ln, lk, q0 + b * m * n, lm, tau0 + b * k, work.data(), lwork));
  });
}

void syevd(int32_t dtype, int32_t upper, int32_t vectors, int64_t n, int64_t batch, void* a,
           void* w, int32_t* info) {
  require_extents("syevd", {n, batch});
  const char jobz = vectors ? 'V' : 'N', uplo = upper ? 'U' : 'L';
  const lint ln = to_lint(n);
  visit("syevd", dtype, [&]<class T>(T) {
    using R = real_of_t<T>;
    T* a0 = static_cast<T*>(a);
    R* w0 = static_cast<R*>(w);
    T query_work{};
    R query_rwork{};
    lint query_iwork = 0;
    check_info("syevd", typed::heevd(jobz, uplo, ln, a0, ln, w0, &query_work, -1, &query_rwork, -1,
                                     &query_iwork, -1));
    const lint lwork = work_size("syevd", query_work);
    const lint lrwork = is_complex_v<T> ? work_size("syevd", query_rwork) : 0;
    const lint liwork = std::max<lint>(1, query_iwork);
    std::vector<T> work(static_cast<size_t>(lwork));
    std::vector<R> rwork(static_cast<size_t>(std::max<lint>(lrwork, 1)));
    std::vector<lint> iwork(static_cast<size_t>(liwork));
    for (int64_t b = 0; b < batch; ++b) {
      T* m = a0 + b * n * n;
      // eigh.cpp hands LAPACK the read triangle with zeros in the other: so does the double
      // (a is scratch here), whatever the other triangle held.
      for (int64_t j = 0; j < n; ++j)
        for (int64_t i = upper ? j + 1 : 0; i < (upper ? n : j); ++i) m[i + j * n] = T(0);
      info[b] =
          typed::heevd(jobz, uplo, ln, m, ln, w0 + b * n, work.data(), lwork,
                       is_complex_v<T> ? rwork.data() : nullptr, lrwork, iwork.data(), liwork);
      check_info("syevd", info[b]);
    }
  });
}

void gesvd(int32_t dtype, int32_t mode, int64_t m, int64_t n, int64_t batch, void* a, void* s,
           void* u, void* vh, int32_t* info) {
  require_extents("gesvd", {m, n, batch});
  if (mode < 0 || mode > 2 || (mode == 0) != (u == nullptr) || (mode == 0) != (vh == nullptr))
    fail(Status::InvalidArgument, "fake gesvd: mode %d with u %s and vh %s", mode,
         u ? "set" : "NULL", vh ? "set" : "NULL");
  const int64_t k = std::min(m, n);
  const bool vectors = mode != 0, full = mode == 2;
  const int64_t ucols = full ? m : k, vrows = full ? n : k;
  const char jobz = full ? 'A' : vectors ? 'S' : 'N';
  const lint lm = to_lint(m), ln = to_lint(n);
  const lint ldu = vectors ? lm : 1, ldvt = vectors ? to_lint(vrows) : 1;
  // svd.cpp's complex rwork length (only its size, never a result, depends on it).
  const int64_t mx = std::max(m, n);
  const int64_t lrwork =
      jobz == 'N' ? 7 * k : std::max(5 * k * k + 5 * k, 2 * mx * k + 2 * k * k + k);
  visit("gesvd", dtype, [&]<class T>(T) {
    using R = real_of_t<T>;
    T* a0 = static_cast<T*>(a);
    R* s0 = static_cast<R*>(s);
    T unused_uv{}; // jobz 'N' references neither u nor vt, but LAPACKE wants valid pointers
    T* u0 = vectors ? static_cast<T*>(u) : &unused_uv;
    T* vt0 = vectors ? static_cast<T*>(vh) : &unused_uv;
    std::vector<R> rwork(static_cast<size_t>(is_complex_v<T> ? lrwork : 1));
    std::vector<lint> iwork(static_cast<size_t>(8 * k));
    const lint lwork = queried<T>("gesvd", [&](T* q) {
      return typed::gesdd(jobz, lm, ln, a0, lm, s0, u0, ldu, vt0, ldvt, q, -1, rwork.data(),
                          iwork.data());
    });
    std::vector<T> work(static_cast<size_t>(lwork));
    for (int64_t b = 0; b < batch; ++b) {
      info[b] =
          typed::gesdd(jobz, lm, ln, a0 + b * m * n, lm, s0 + b * k,
                       vectors ? u0 + b * m * ucols : u0, ldu, vectors ? vt0 + b * vrows * n : vt0,
                       ldvt, work.data(), lwork, rwork.data(), iwork.data());
      check_info("gesvd", info[b]);
    }
  });
}

void geev(int32_t dtype, int32_t vectors, int64_t n, int64_t batch, void* a, void* w, void* v,
          int32_t* info) {
  require_extents("geev", {n, batch});
  if ((vectors != 0) == (v == nullptr))
    fail(Status::InvalidArgument, "fake geev: vectors %d with v %s", vectors, v ? "set" : "NULL");
  const char jobvr = vectors ? 'V' : 'N';
  const lint ln = to_lint(n), ldvr = vectors ? ln : 1;
  visit("geev", dtype, [&]<class T>(T) {
    using R = real_of_t<T>;
    using C = std::complex<R>;
    T* a0 = static_cast<T*>(a);
    C* w0 = static_cast<C*>(w);
    C* v0 = static_cast<C*>(v);
    if constexpr (is_complex_v<T>) { // eig.cpp's eig_complex: straight into w and v
      std::vector<R> rwork(static_cast<size_t>(2 * n));
      T unused_vr{};
      T* vr = vectors ? v0 : &unused_vr;
      const lint lwork = queried<T>("geev", [&](T* q) {
        return typed::geev(jobvr, ln, a0, ln, w0, vr, ldvr, q, -1, rwork.data());
      });
      std::vector<T> work(static_cast<size_t>(lwork));
      for (int64_t b = 0; b < batch; ++b) {
        info[b] =
            typed::geev(jobvr, ln, a0 + b * n * n, ln, w0 + b * n, vectors ? vr + b * n * n : vr,
                        ldvr, work.data(), lwork, rwork.data());
        check_info("geev", info[b]);
      }
    } else { // eig.cpp's eig_real: wr, wi and real vector columns unpacked into complex form
      std::vector<R> wr(static_cast<size_t>(n)), wi(static_cast<size_t>(n));
      std::vector<R> vr(static_cast<size_t>(vectors ? n * n : 1));
      const lint lwork = queried<R>("geev", [&](R* q) {
        return typed::geev(jobvr, ln, a0, ln, wr.data(), wi.data(), vr.data(), ldvr, q, -1);
      });
      std::vector<R> work(static_cast<size_t>(lwork));
      for (int64_t b = 0; b < batch; ++b) {
        info[b] = typed::geev(jobvr, ln, a0 + b * n * n, ln, wr.data(), wi.data(), vr.data(), ldvr,
                              work.data(), lwork);
        check_info("geev", info[b]);
        // LAPACK leaves wr, wi and vr unspecified on failure; the host never reads them then.
        if (info[b] != 0) continue;
        for (int64_t j = 0; j < n; ++j) w0[b * n + j] = C(wr[j], wi[j]);
        if (!vectors) continue;
        C* vb = v0 + b * n * n;
        for (int64_t j = 0; j < n; ++j) {
          const R* re = vr.data() + j * n;
          C* col = vb + j * n;
          if (wi[j] == 0 || j + 1 == n) {
            for (int64_t i = 0; i < n; ++i) col[i] = C(re[i], 0);
            continue;
          }
          // A conjugate pair: columns j and j+1 hold re and im of the first vector.
          const R* im = re + n;
          for (int64_t i = 0; i < n; ++i) {
            col[i] = C(re[i], im[i]);
            col[i + n] = C(re[i], -im[i]);
          }
          ++j;
        }
      }
    }
  });
}

} // namespace tfe::fake_linalg
