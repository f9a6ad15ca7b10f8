// Batched Cholesky factorisation (potrf), lapack.hpp.
#include "backend/cpu/lapack/lapack.hpp"

#include "backend/cpu/lapack/batch.hpp"

namespace tfe::cpu::lapack {
namespace {
using namespace detail;
constexpr const char* kFn = "cholesky";

template <class T> Tensor cholesky_typed(const Tensor& a, bool upper) {
  const int64_t n = a.dim(0), batch = batch_count(a);
  Tensor out = Tensor::empty(a.dtype(), matrix_shape(n, n, a));
  if (n == 0 || batch == 0) return out;
  const T* src = a.data<T>();
  T* dst = out.data<T>();
  // Only the requested triangle is copied and the other one zeroed: potrf leaves it untouched,
  // so the result's exact zeros come for free.
  BatchCursor cursor(a);
  for (int64_t b = 0; b < batch; ++b, cursor.next()) {
    T* m = dst + b * n * n;
    copy_triangle(src + cursor.offset(), a.stride(0), a.stride(1), n, upper, m, n);
    const lint info = typed::potrf(upper ? 'U' : 'L', to_lint(n), m, to_lint(n));
    if (info < 0) fail_illegal(kFn, "potrf", info, b);
    if (info > 0)
      fail(Status::Numerical,
           "the matrix of batch %lld is not positive definite (leading minor of order %lld)",
           static_cast<long long>(b), static_cast<long long>(info));
    // OpenBLAS's potrf lets NaN through for some dtypes: a NaN or inf in the read triangle
    // reaches the factor's diagonal (every later diagonal entry sums the squares of its row),
    // so checking the n diagonal values after the fact costs nothing next to a scan of A.
    for (int64_t i = 0; i < n; ++i)
      if (!all_finite(m + i * (n + 1), 1))
        fail(Status::Numerical,
             "the matrix of batch %lld is not positive definite (it holds NaN or inf)",
             static_cast<long long>(b));
  }
  return out;
}
} // namespace

Tensor cholesky(const Tensor& a, bool upper) {
  require_float_matrix(kFn, a, "a");
  require_square(kFn, a, "a");
  return visit_float(
      a.dtype(), [&](auto tag) { return cholesky_typed<typename decltype(tag)::type>(a, upper); });
}

} // namespace tfe::cpu::lapack
