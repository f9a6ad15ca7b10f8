// Batched triangular solves with many right-hand sides (BLAS trsm on a copy of B), lapack.hpp.
// Like trsm itself, a zero on A's diagonal is not detected: the result holds inf/nan.
#include "backend/cpu/lapack/lapack.hpp"

#include "backend/cpu/lapack/batch.hpp"

namespace tfe::cpu::lapack {
namespace {
using namespace detail;

template <class T>
Tensor triangular_solve_typed(const Tensor& a, const Tensor& b, bool upper, bool left,
                              bool unit_diagonal, Trans trans) {
  const int64_t n = a.dim(0), rows = b.dim(0), cols = b.dim(1), batch = batch_count(a);
  Tensor x = Tensor::empty(a.dtype(), matrix_shape(rows, cols, a));
  if (rows == 0 || cols == 0 || batch == 0) return x;

  // trsm only reads A: it is passed in place when BLAS can address it, else copied (the
  // referenced triangle only, so the other one is never read).
  const int64_t lda_direct = direct_ld(n, n, a.stride(0), a.stride(1));
  Tensor a_holder;
  T* a_copy = lda_direct ? nullptr : scratch<T>(a_holder, n * n);
  const lint lda = to_lint(lda_direct ? lda_direct : n);
  const CBLAS_SIDE side = left ? CblasLeft : CblasRight;
  const CBLAS_UPLO uplo = upper ? CblasUpper : CblasLower;
  const CBLAS_DIAG diag = unit_diagonal ? CblasUnit : CblasNonUnit;
  const CBLAS_TRANSPOSE tr = cblas_trans(trans);

  const T* a_src = a.data<T>();
  const T* b_src = b.data<T>();
  BatchCursor a_cursor(a), b_cursor(b);
  for (int64_t i = 0; i < batch; ++i, a_cursor.next(), b_cursor.next()) {
    const T* ab = a_src + a_cursor.offset();
    if (!lda_direct) {
      copy_triangle(ab, a.stride(0), a.stride(1), n, upper, a_copy, n);
      ab = a_copy;
    }
    T* xb = x.data<T>() + i * rows * cols;
    copy_matrix(b_src + b_cursor.offset(), b.stride(0), b.stride(1), rows, cols, xb, rows);
    typed::trsm(side, uplo, tr, diag, to_lint(rows), to_lint(cols), ab, lda, xb, to_lint(rows));
  }
  return x;
}
} // namespace

Tensor triangular_solve(const Tensor& a, const Tensor& b, bool upper, bool left, bool unit_diagonal,
                        Trans trans) {
  require_triangular_solve_operands(a, b, left);
  return visit_float(a.dtype(), [&](auto tag) {
    return triangular_solve_typed<typename decltype(tag)::type>(a, b, upper, left, unit_diagonal,
                                                                trans);
  });
}

} // namespace tfe::cpu::lapack
