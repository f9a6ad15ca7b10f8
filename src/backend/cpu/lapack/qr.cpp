// Batched QR factorisation (geqrf, then orgqr/ungqr to form Q), lapack.hpp.
#include "backend/cpu/lapack/lapack.hpp"

#include "backend/cpu/lapack/batch.hpp"

namespace tfe::cpu::lapack {
namespace {
using namespace detail;
constexpr const char* kFn = "qr";

template <class T> Qr qr_typed(const Tensor& a, bool complete) {
  const int64_t m = a.dim(0), n = a.dim(1), k = std::min(m, n), batch = batch_count(a);
  const int64_t qcols = complete ? m : k, rrows = complete ? m : k;
  Qr out{Tensor::empty(a.dtype(), matrix_shape(m, qcols, a)),
         Tensor::empty(a.dtype(), matrix_shape(rrows, n, a))};
  if (batch == 0) return out;
  T* q = out.q.data<T>();
  T* r = out.r.data<T>();
  if (k == 0) { // R is empty; a complete Q is any unitary matrix: the identity
    // Nothing to write when Q is empty too: no loop over a batch of empty matrices, whose count
    // (up to 2^63 / 1 for zero elements) no allocation bounds.
    if (qcols > 0)
      for (int64_t b = 0; b < batch; ++b) set_identity(q + b * m * qcols, qcols);
    return out;
  }
  // geqrf runs in the Q output when Q has room for all of A's columns (so orgqr then forms Q in
  // place), else (wide A, Q is m x m) in one m x n scratch whose first m columns seed Q.
  const bool in_q = qcols >= n;
  Tensor fact_holder, tau_holder, work_holder;
  T* scratch_a = in_q ? nullptr : scratch<T>(fact_holder, m * n);
  T* tau = scratch<T>(tau_holder, k);
  const lint lm = to_lint(m), ln = to_lint(n), lk = to_lint(k), lq = to_lint(qcols);

  // One workspace query on the first matrix serves the whole batch (same sizes throughout).
  T* fact0 = in_q ? q : scratch_a;
  T query_f{}, query_q{};
  lint info = typed::geqrf(lm, ln, fact0, lm, tau, &query_f, -1);
  if (info < 0) fail_illegal(kFn, "geqrf", info, 0);
  info = typed::ungqr(lm, lq, lk, q, lm, tau, &query_q, -1);
  if (info < 0) fail_illegal(kFn, "orgqr/ungqr", info, 0);
  const lint lwork = std::max(work_size(kFn, query_f), work_size(kFn, query_q));
  T* work = scratch<T>(work_holder, lwork);

  const T* src = a.data<T>();
  BatchCursor cursor(a);
  for (int64_t b = 0; b < batch; ++b, cursor.next()) {
    T* qb = q + b * m * qcols;
    T* rb = r + b * rrows * n;
    T* fact = in_q ? qb : scratch_a;
    copy_matrix(src + cursor.offset(), a.stride(0), a.stride(1), m, n, fact, m);
    info = typed::geqrf(lm, ln, fact, lm, tau, work, lwork);
    if (info < 0) fail_illegal(kFn, "geqrf", info, b);
    for (int64_t j = 0; j < n; ++j) { // R: the upper trapezoid, exact zeros below
      const int64_t top = std::min(j + 1, rrows);
      std::copy_n(fact + j * m, top, rb + j * rrows);
      std::fill(rb + j * rrows + top, rb + (j + 1) * rrows, T(0));
    }
    if (!in_q) std::copy_n(fact, m * qcols, qb);
    // Columns k.. of Q hold whatever geqrf or the copy left: orgqr resets them to the identity's
    // before applying the reflectors.
    info = typed::ungqr(lm, lq, lk, qb, lm, tau, work, lwork);
    if (info < 0) fail_illegal(kFn, "orgqr/ungqr", info, b);
  }
  return out;
}
} // namespace

Qr qr(const Tensor& a, bool complete) {
  require_float_matrix(kFn, a, "a");
  return visit_float(a.dtype(),
                     [&](auto tag) { return qr_typed<typename decltype(tag)::type>(a, complete); });
}

} // namespace tfe::cpu::lapack
