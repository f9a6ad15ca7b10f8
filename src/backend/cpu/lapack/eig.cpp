// Batched general (non-symmetric) eigendecomposition (geev, right eigenvectors), lapack.hpp.
// Real input is returned in complex form: LAPACK's real routine stores a conjugate pair of
// eigenvectors as the real and imaginary parts in two adjacent columns.
#include "backend/cpu/lapack/lapack.hpp"

#include "backend/cpu/lapack/batch.hpp"

namespace tfe::cpu::lapack {
namespace {
using namespace detail;
constexpr const char* kFn = "eig";

[[noreturn]] void fail_convergence(int64_t b) {
  fail(Status::NonConvergence, "the eigendecomposition of batch %lld did not converge",
       static_cast<long long>(b));
}

// geev must not see NaN or inf (batch.hpp, all_finite): they fail like non-convergence.
template <class T> void require_finite(const T* m, int64_t n, int64_t b) {
  if (!all_finite(m, n * n))
    fail(Status::NonConvergence,
         "the eigendecomposition of batch %lld did not converge (the matrix holds NaN or inf)",
         static_cast<long long>(b));
}

// Complex input: geev writes w and the vectors straight into the outputs.
template <class T> void eig_complex(const Tensor& a, bool vectors, Eig& out) {
  using R = real_of_t<T>;
  const int64_t n = a.dim(0), batch = batch_count(a);
  const lint ln = to_lint(n);
  Tensor a_holder, work_holder, rwork_holder;
  T* scratch_a = scratch<T>(a_holder, n * n); // geev destroys A
  R* rwork = scratch<R>(rwork_holder, 2 * n);
  T* w = out.w.data<T>();
  T unused_vr{};
  T* vr = vectors ? out.v.data<T>() : &unused_vr;
  const char jobvr = vectors ? 'V' : 'N';
  const lint ldvr = vectors ? ln : 1;

  T query{};
  lint info = typed::geev(jobvr, ln, scratch_a, ln, w, vr, ldvr, &query, -1, rwork);
  if (info < 0) fail_illegal(kFn, "geev", info, 0);
  const lint lwork = work_size(kFn, query);
  T* work = scratch<T>(work_holder, lwork);

  const T* src = a.data<T>();
  BatchCursor cursor(a);
  for (int64_t b = 0; b < batch; ++b, cursor.next()) {
    copy_matrix(src + cursor.offset(), a.stride(0), a.stride(1), n, n, scratch_a, n);
    require_finite(scratch_a, n, b);
    info = typed::geev(jobvr, ln, scratch_a, ln, w + b * n, vectors ? vr + b * n * n : vr, ldvr,
                       work, lwork, rwork);
    if (info < 0) fail_illegal(kFn, "geev", info, b);
    if (info > 0) fail_convergence(b);
  }
}

// Real input: geev's wr/wi and real vector columns go through scratch, then into complex form.
template <class R> void eig_real(const Tensor& a, bool vectors, Eig& out) {
  using C = std::complex<R>;
  const int64_t n = a.dim(0), batch = batch_count(a);
  const lint ln = to_lint(n);
  Tensor a_holder, wr_holder, wi_holder, vr_holder, work_holder;
  R* scratch_a = scratch<R>(a_holder, n * n);
  R* wr = scratch<R>(wr_holder, n);
  R* wi = scratch<R>(wi_holder, n);
  R* vr = scratch<R>(vr_holder, vectors ? n * n : 1);
  const char jobvr = vectors ? 'V' : 'N';
  const lint ldvr = vectors ? ln : 1;

  R query{};
  lint info = typed::geev(jobvr, ln, scratch_a, ln, wr, wi, vr, ldvr, &query, -1);
  if (info < 0) fail_illegal(kFn, "geev", info, 0);
  const lint lwork = work_size(kFn, query);
  R* work = scratch<R>(work_holder, lwork);

  const R* src = a.data<R>();
  C* w = out.w.data<C>();
  C* v = vectors ? out.v.data<C>() : nullptr;
  BatchCursor cursor(a);
  for (int64_t b = 0; b < batch; ++b, cursor.next()) {
    copy_matrix(src + cursor.offset(), a.stride(0), a.stride(1), n, n, scratch_a, n);
    require_finite(scratch_a, n, b);
    info = typed::geev(jobvr, ln, scratch_a, ln, wr, wi, vr, ldvr, work, lwork);
    if (info < 0) fail_illegal(kFn, "geev", info, b);
    if (info > 0) fail_convergence(b);
    C* wb = w + b * n;
    for (int64_t j = 0; j < n; ++j) wb[j] = C(wr[j], wi[j]);
    if (!vectors) continue;
    C* vb = v + b * n * n;
    for (int64_t j = 0; j < n; ++j) {
      const R* re = vr + j * n;
      C* col = vb + j * n;
      if (wi[j] == 0 || j + 1 == n) {
        for (int64_t i = 0; i < n; ++i) col[i] = C(re[i], 0);
        continue;
      }
      // A pair (wi[j] > 0 first): columns j and j+1 hold re and im of the first vector; the
      // second is its conjugate. Unit norm carries over: |re|^2 + |im|^2 = 1.
      const R* im = re + n;
      C* next = col + n;
      for (int64_t i = 0; i < n; ++i) {
        col[i] = C(re[i], im[i]);
        next[i] = C(re[i], -im[i]);
      }
      ++j;
    }
  }
}

template <class T> Eig eig_typed(const Tensor& a, bool vectors) {
  const int64_t n = a.dim(0), batch = batch_count(a);
  const DType cd = complex_dtype(a.dtype());
  Eig out;
  out.w = Tensor::empty(cd, vector_shape(n, a));
  if (vectors) out.v = Tensor::empty(cd, matrix_shape(n, n, a));
  if (n == 0 || batch == 0) return out;
  if constexpr (is_complex_v<T>)
    eig_complex<T>(a, vectors, out);
  else
    eig_real<T>(a, vectors, out);
  return out;
}
} // namespace

Eig eig(const Tensor& a, bool vectors) {
  require_float_matrix(kFn, a, "a");
  require_square(kFn, a, "a");
  return visit_float(a.dtype(),
                     [&](auto tag) { return eig_typed<typename decltype(tag)::type>(a, vectors); });
}

} // namespace tfe::cpu::lapack
