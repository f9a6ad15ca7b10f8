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
    // OpenBLAS's own potrf lets NaN through for some dtypes and not others: decide here.
    if (!all_finite(m, n * n))
      fail(Status::Numerical,
           "cholesky: batch %lld is not positive definite (the matrix holds NaN or inf)",
           static_cast<long long>(b));
    const lint info = typed::potrf(upper ? 'U' : 'L', to_lint(n), m, to_lint(n));
    if (info < 0) fail_illegal(kFn, "potrf", info, b);
    if (info > 0)
      fail(Status::Numerical,
           "cholesky: batch %lld is not positive definite (leading minor of order %lld)",
           static_cast<long long>(b), static_cast<long long>(info));
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
