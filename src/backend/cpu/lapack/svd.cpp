// Batched singular value decomposition by divide and conquer (gesdd), lapack.hpp.
#include "backend/cpu/lapack/lapack.hpp"

#include "backend/cpu/lapack/batch.hpp"

namespace tfe::cpu::lapack {
namespace {
using namespace detail;
constexpr const char* kFn = "svd";

// Complex gesdd's rwork length (LAPACK 3.11 documentation; jobz='N' took 7*k before 3.7).
int64_t complex_rwork(char jobz, int64_t m, int64_t n) {
  const int64_t k = std::min(m, n), mx = std::max(m, n);
  if (jobz == 'N') return 7 * k;
  return std::max(5 * k * k + 5 * k, 2 * mx * k + 2 * k * k + k);
}

template <class T> Svd svd_typed(const Tensor& a, SvdMode mode) {
  using R = real_of_t<T>;
  const int64_t m = a.dim(0), n = a.dim(1), k = std::min(m, n), batch = batch_count(a);
  const bool vectors = mode != SvdMode::ValuesOnly, full = mode == SvdMode::Full;
  const int64_t ucols = full ? m : k, vrows = full ? n : k;
  const char jobz = full ? 'A' : vectors ? 'S' : 'N';
  Svd out;
  out.s = Tensor::empty(dtype_of_v<R>, vector_shape(k, a));
  if (vectors) {
    out.u = Tensor::empty(a.dtype(), matrix_shape(m, ucols, a));
    out.vh = Tensor::empty(a.dtype(), matrix_shape(vrows, n, a));
  }
  if (batch == 0) return out;
  if (k == 0) { // no singular values; full U and Vh are any unitary matrices: identities
    // Each loop writes its allocated output, so a batch of empty matrices costs no loop.
    if (full && m > 0)
      for (int64_t b = 0; b < batch; ++b) set_identity(out.u.data<T>() + b * m * m, m);
    if (full && n > 0)
      for (int64_t b = 0; b < batch; ++b) set_identity(out.vh.data<T>() + b * n * n, n);
    return out;
  }

  // gesdd destroys A: each matrix is copied into one reused scratch.
  Tensor a_holder, work_holder, rwork_holder, iwork_holder;
  T* scratch_a = scratch<T>(a_holder, m * n);
  R* s = out.s.data<R>();
  T unused_uv{}; // u and vt are not referenced for jobz='N', but must be valid pointers
  T* u = vectors ? out.u.data<T>() : &unused_uv;
  T* vt = vectors ? out.vh.data<T>() : &unused_uv;
  const lint lm = to_lint(m), ln = to_lint(n);
  const lint ldu = vectors ? lm : 1, ldvt = vectors ? to_lint(std::max<int64_t>(1, vrows)) : 1;
  R* rwork = is_complex_v<T> ? scratch<R>(rwork_holder, complex_rwork(jobz, m, n)) : nullptr;
  lint* iwork = scratch<lint>(iwork_holder, 8 * k);

  T query{};
  lint info =
      typed::gesdd(jobz, lm, ln, scratch_a, lm, s, u, ldu, vt, ldvt, &query, -1, rwork, iwork);
  if (info < 0) fail_illegal(kFn, "gesdd", info, 0);
  const lint lwork = work_size(kFn, query);
  T* work = scratch<T>(work_holder, lwork);

  const T* src = a.data<T>();
  BatchCursor cursor(a);
  for (int64_t b = 0; b < batch; ++b, cursor.next()) {
    copy_matrix(src + cursor.offset(), a.stride(0), a.stride(1), m, n, scratch_a, m);
    if (!all_finite(scratch_a, m * n))
      fail(Status::NonConvergence,
           "the SVD of batch %lld did not converge (the matrix holds NaN or inf)",
           static_cast<long long>(b));
    T* ub = vectors ? u + b * m * ucols : u;
    T* vtb = vectors ? vt + b * vrows * n : vt;
    info = typed::gesdd(jobz, lm, ln, scratch_a, lm, s + b * k, ub, ldu, vtb, ldvt, work, lwork,
                        rwork, iwork);
    if (info < 0) fail_illegal(kFn, "gesdd", info, b);
    if (info > 0)
      fail(Status::NonConvergence, "the SVD of batch %lld did not converge",
           static_cast<long long>(b));
  }
  return out;
}
} // namespace

Svd svd(const Tensor& a, SvdMode mode) {
  require_float_matrix(kFn, a, "a");
  return visit_float(a.dtype(),
                     [&](auto tag) { return svd_typed<typename decltype(tag)::type>(a, mode); });
}

} // namespace tfe::cpu::lapack
