// The column order of a rank-revealing QR (geqp3), lapack.hpp.
#include <vector>

#include "backend/cpu/lapack/batch.hpp"
#include "backend/cpu/lapack/lapack.hpp"

namespace tfe::cpu::lapack {
namespace {
using namespace detail;
using typed::kLayout;
using typed::lc;
constexpr const char* kFn = "column_pivots";

// LAPACKE's high-level geqp3 sizes its own workspace; the pivot order is all we keep.
lint geqp3(lint m, lint n, float* a, lint lda, lint* jpvt, float* tau) {
  return LAPACKE_sgeqp3(kLayout, m, n, a, lda, jpvt, tau);
}
lint geqp3(lint m, lint n, double* a, lint lda, lint* jpvt, double* tau) {
  return LAPACKE_dgeqp3(kLayout, m, n, a, lda, jpvt, tau);
}
lint geqp3(lint m, lint n, c32* a, lint lda, lint* jpvt, c32* tau) {
  return LAPACKE_cgeqp3(kLayout, m, n, lc(a), lda, jpvt, lc(tau));
}
lint geqp3(lint m, lint n, c64* a, lint lda, lint* jpvt, c64* tau) {
  return LAPACKE_zgeqp3(kLayout, m, n, lc(a), lda, jpvt, lc(tau));
}

template <class T> Tensor pivots_typed(const Tensor& a) {
  const int64_t m = a.dim(0), n = a.dim(1), batch = batch_count(a);
  Tensor perm = Tensor::empty(DType::I64, vector_shape(n, a));
  if (batch == 0 || n == 0) return perm;
  int64_t* out = perm.data<int64_t>();
  if (m == 0) { // nothing to pivot on: the identity order
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t j = 0; j < n; ++j) out[b * n + j] = j;
    return perm;
  }
  Tensor fact_holder, tau_holder;
  T* fact = scratch<T>(fact_holder, m * n);
  T* tau = scratch<T>(tau_holder, std::min(m, n));
  std::vector<lint> jpvt(static_cast<size_t>(n));
  const T* src = a.data<T>();
  BatchCursor cursor(a);
  for (int64_t b = 0; b < batch; ++b, cursor.next()) {
    copy_matrix(src + cursor.offset(), a.stride(0), a.stride(1), m, n, fact, m);
    // LAPACKE's high-level geqp3 checks its input for NaN and answers "illegal argument 4".
    if (!all_finite(fact, m * n))
      fail(Status::NonConvergence,
           "the pivoted QR of batch %lld has no column order (the matrix holds NaN or inf)",
           static_cast<long long>(b));
    std::fill(jpvt.begin(), jpvt.end(), lint{0}); // every column free to move
    lint info = geqp3(to_lint(m), to_lint(n), fact, to_lint(m), jpvt.data(), tau);
    if (info < 0) fail_illegal(kFn, "geqp3", info, b);
    for (int64_t j = 0; j < n; ++j) out[b * n + j] = jpvt[static_cast<size_t>(j)] - 1;
  }
  return perm;
}
} // namespace

Tensor column_pivots(const Tensor& a) {
  require_float_matrix(kFn, a, "a");
  return visit_float(a.dtype(),
                     [&](auto tag) { return pivots_typed<typename decltype(tag)::type>(a); });
}

} // namespace tfe::cpu::lapack
