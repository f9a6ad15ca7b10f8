// Batched Hermitian / symmetric eigendecomposition by divide and conquer (syevd/heevd),
// lapack.hpp.
#include "backend/cpu/lapack/lapack.hpp"

#include "backend/cpu/lapack/batch.hpp"

namespace tfe::cpu::lapack {
namespace {
using namespace detail;
constexpr const char* kFn = "eigh";

template <class T> Eigh eigh_typed(const Tensor& a, bool upper, bool vectors) {
  using R = real_of_t<T>;
  const int64_t n = a.dim(0), batch = batch_count(a);
  Eigh out;
  out.w = Tensor::empty(dtype_of_v<R>, vector_shape(n, a));
  if (vectors) out.v = Tensor::empty(a.dtype(), matrix_shape(n, n, a));
  if (n == 0 || batch == 0) return out;

  // syevd overwrites A with the vectors: with vectors each matrix is factored inside its slot of
  // v, without them in one reused scratch.
  Tensor a_holder, work_holder, rwork_holder, iwork_holder;
  T* v = vectors ? out.v.data<T>() : scratch<T>(a_holder, n * n);
  R* w = out.w.data<R>();
  const char jobz = vectors ? 'V' : 'N', uplo = upper ? 'U' : 'L';
  const lint ln = to_lint(n);

  T query_work{};
  R query_rwork{};
  lint query_iwork = 0;
  lint info =
      typed::heevd(jobz, uplo, ln, v, ln, w, &query_work, -1, &query_rwork, -1, &query_iwork, -1);
  if (info < 0) fail_illegal(kFn, "syevd/heevd", info, 0);
  const lint lwork = work_size(kFn, query_work);
  const lint lrwork = is_complex_v<T> ? work_size(kFn, query_rwork) : 0;
  const lint liwork = std::max<lint>(1, query_iwork);
  T* work = scratch<T>(work_holder, lwork);
  R* rwork = is_complex_v<T> ? scratch<R>(rwork_holder, lrwork) : nullptr;
  lint* iwork = scratch<lint>(iwork_holder, liwork);

  const T* src = a.data<T>();
  BatchCursor cursor(a);
  for (int64_t b = 0; b < batch; ++b, cursor.next()) {
    T* m = vectors ? v + b * n * n : v;
    // Only the referenced triangle is read from A (the buffer's other one is zeroed), so the
    // documented "reads one triangle" holds even for NaN or garbage in the other.
    copy_triangle(src + cursor.offset(), a.stride(0), a.stride(1), n, upper, m, n);
    // syevd's scaling turns an inf into NaN, and NaN may or may not end in non-convergence:
    // fail alike on both, as svd and eig do.
    if (!all_finite(m, n * n))
      fail(Status::NonConvergence,
           "the eigendecomposition of batch %lld did not converge (the matrix holds NaN or inf)",
           static_cast<long long>(b));
    info =
        typed::heevd(jobz, uplo, ln, m, ln, w + b * n, work, lwork, rwork, lrwork, iwork, liwork);
    if (info < 0) fail_illegal(kFn, "syevd/heevd", info, b);
    if (info > 0)
      fail(Status::NonConvergence, "the eigendecomposition of batch %lld did not converge",
           static_cast<long long>(b));
  }
  return out;
}
} // namespace

Eigh eigh(const Tensor& a, bool upper, bool vectors) {
  require_float_matrix(kFn, a, "a");
  require_square(kFn, a, "a");
  return visit_float(a.dtype(), [&](auto tag) {
    return eigh_typed<typename decltype(tag)::type>(a, upper, vectors);
  });
}

} // namespace tfe::cpu::lapack
