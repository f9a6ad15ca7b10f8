// Batched LU with partial pivoting (getrf) and the solves built on its factors, lapack.hpp.
// The solves run getrs's algorithm (row interchanges, then two trsm) with the interchanges done
// here: OpenBLAS 0.3.21's laswp, which its getrs calls for more than one right-hand side, wakes
// its threads at any size (measured: 3.6 us per 4x4 solve instead of 0.15 us).
#include "backend/cpu/lapack/lapack.hpp"

#include "backend/cpu/lapack/batch.hpp"
#include "backend/cpu/lapack/small_lu.hpp"

namespace tfe::cpu::lapack {
namespace {
using namespace detail;

// ---- lu_factor ----

template <class T> LuFactor lu_factor_typed(const Tensor& a) {
  constexpr const char* kFn = "lu_factor";
  const int64_t m = a.dim(0), n = a.dim(1), k = std::min(m, n), batch = batch_count(a);
  LuFactor out{Tensor::empty(a.dtype(), matrix_shape(m, n, a)),
               Tensor::empty(DType::I32, vector_shape(k, a)),
               Tensor::empty(DType::I32, batch_shape(a))};
  lint* info = out.info.data<lint>();
  if (k == 0) {
    std::fill(info, info + batch, 0);
    return out;
  }
  const T* src = a.data<T>();
  T* lu = out.lu.data<T>();
  lint* piv = out.pivots.data<lint>();
  BatchCursor cursor(a);
  for (int64_t b = 0; b < batch; ++b, cursor.next()) {
    T* lub = lu + b * m * n;
    copy_matrix(src + cursor.offset(), a.stride(0), a.stride(1), m, n, lub, m);
    const lint r = m == n && n <= kSmallLu
                       ? small_getrf(n, lub, piv + b * k)
                       : typed::getrf(to_lint(m), to_lint(n), lub, to_lint(m), piv + b * k);
    if (r < 0) fail_illegal(kFn, "getrf", r, b);
    info[b] = r;
  }
  return out;
}

// ---- lu_factor_solve ----

template <class T> LuFactorSolve lu_factor_solve_typed(const Tensor& a, const Tensor& b) {
  constexpr const char* kFn = "solve";
  const int64_t n = a.dim(0), nrhs = b.dim(1), batch = batch_count(a);
  LuFactorSolve out{Tensor::empty(a.dtype(), matrix_shape(n, nrhs, a)),
                    Tensor::empty(a.dtype(), matrix_shape(n, n, a)),
                    Tensor::empty(DType::I32, vector_shape(n, a))};
  if (n == 0 || batch == 0) return out;
  const T* a_src = a.data<T>();
  const T* b_src = b.data<T>();
  T* x = out.x.data<T>();
  T* lu = out.lu.data<T>();
  lint* piv = out.pivots.data<lint>();
  const lint ln = to_lint(n);
  BatchCursor a_cursor(a), b_cursor(b), alias(BatchCursor::first_alias(a));
  for (int64_t i = 0; i < batch; ++i, a_cursor.next(), b_cursor.next(), alias.next()) {
    T* lub = lu + i * n * n;
    lint* pivb = piv + i * n;
    if (const int64_t first = alias.offset(); first < i) {
      // A broadcast A (stride-0 batch dim) repeats an earlier entry: reuse its factors.
      std::copy_n(lu + first * n * n, n * n, lub);
      std::copy_n(piv + first * n, n, pivb);
    } else {
      copy_matrix(a_src + a_cursor.offset(), a.stride(0), a.stride(1), n, n, lub, n);
      const lint info =
          n <= kSmallLu ? small_getrf(n, lub, pivb) : typed::getrf(ln, ln, lub, ln, pivb);
      if (info < 0) fail_illegal(kFn, "getrf", info, i);
      if (info > 0)
        fail(Status::Singular,
             "the matrix of batch %lld is singular (U[%lld,%lld] is exactly zero)",
             static_cast<long long>(i), static_cast<long long>(info - 1),
             static_cast<long long>(info - 1));
    }
    if (nrhs == 0) continue;
    T* xb = x + i * n * nrhs;
    copy_matrix(b_src + b_cursor.offset(), b.stride(0), b.stride(1), n, nrhs, xb, n);
    if (n <= kSmallLu)
      small_getrs(n, nrhs, lub, pivb, xb);
    else
      solve_factored(Trans::No, n, nrhs, lub, ln, pivb, xb);
  }
  return out;
}

// ---- lu_solve ----

// pivots [N, batch...] seen as [N, 1, batch...] so that BatchCursor walks its batch dims.
Tensor pivots_as_matrix(const Tensor& pivots) {
  Dims shape{pivots.dim(0), 1}, strides{pivots.stride(0), 0};
  for (int64_t d = 1; d < pivots.ndim(); ++d) {
    shape.push_back(pivots.dim(d));
    strides.push_back(pivots.stride(d));
  }
  return pivots.with_layout(std::move(shape), std::move(strides), pivots.offset());
}

template <class T>
Tensor lu_solve_typed(const Tensor& lu, const Tensor& pivots, const Tensor& b, Trans trans) {
  const int64_t n = lu.dim(0), nrhs = b.dim(1), batch = batch_count(lu);
  Tensor x = Tensor::empty(lu.dtype(), matrix_shape(n, nrhs, lu));
  if (n == 0 || batch == 0) return x;

  // The solve only reads the factors: they are passed in place when BLAS can address them.
  const int64_t lda_direct = direct_ld(n, n, lu.stride(0), lu.stride(1));
  const bool piv_direct = pivots.stride(0) == 1 || n == 1;
  Tensor lu_holder, piv_holder;
  T* lu_copy = lda_direct ? nullptr : scratch<T>(lu_holder, n * n);
  lint* piv_copy = piv_direct ? nullptr : scratch<lint>(piv_holder, n);
  const lint lda = to_lint(lda_direct ? lda_direct : n);

  const Tensor piv_m = pivots_as_matrix(pivots);
  const T* lu_src = lu.data<T>();
  const lint* piv_src = pivots.data<lint>();
  const T* b_src = b.data<T>();
  const int64_t ps = pivots.stride(0);
  BatchCursor lu_cursor(lu), piv_cursor(piv_m), b_cursor(b);
  for (int64_t i = 0; i < batch; ++i, lu_cursor.next(), piv_cursor.next(), b_cursor.next()) {
    const T* lub = lu_src + lu_cursor.offset();
    const lint* pivb = piv_src + piv_cursor.offset();
    // A bad pivot would index out of bounds and a zero of U divide by zero: check both first.
    for (int64_t j = 0; j < n; ++j) {
      const lint p = pivb[j * ps];
      if (p < 1 || p > n)
        fail(Status::InvalidArgument, "pivot %lld of batch %lld is %d, outside [1, %lld]",
             static_cast<long long>(j), static_cast<long long>(i), static_cast<int>(p),
             static_cast<long long>(n));
      if (lub[j * lu.stride(0) + j * lu.stride(1)] == T(0))
        fail(Status::Singular,
             "the factors of batch %lld are singular (U[%lld,%lld] is exactly zero)",
             static_cast<long long>(i), static_cast<long long>(j), static_cast<long long>(j));
    }
    if (nrhs == 0) continue;
    if (!lda_direct) {
      copy_matrix(lub, lu.stride(0), lu.stride(1), n, n, lu_copy, n);
      lub = lu_copy;
    }
    if (!piv_direct) {
      for (int64_t j = 0; j < n; ++j) piv_copy[j] = pivb[j * ps];
      pivb = piv_copy;
    }
    T* xb = x.data<T>() + i * n * nrhs;
    copy_matrix(b_src + b_cursor.offset(), b.stride(0), b.stride(1), n, nrhs, xb, n);
    solve_factored(trans, n, nrhs, lub, lda, pivb, xb);
  }
  return x;
}
} // namespace

LuFactor lu_factor(const Tensor& a) {
  require_float_matrix("lu_factor", a, "a");
  return visit_float(a.dtype(),
                     [&](auto tag) { return lu_factor_typed<typename decltype(tag)::type>(a); });
}

LuFactorSolve lu_factor_solve(const Tensor& a, const Tensor& b) {
  require_solve_operands(a, b);
  return visit_float(a.dtype(), [&](auto tag) {
    return lu_factor_solve_typed<typename decltype(tag)::type>(a, b);
  });
}

Tensor lu_solve(const Tensor& lu, const Tensor& pivots, const Tensor& b, Trans trans) {
  require_lu_solve_operands(lu, pivots, b);
  return visit_float(lu.dtype(), [&](auto tag) {
    return lu_solve_typed<typename decltype(tag)::type>(lu, pivots, b, trans);
  });
}

} // namespace tfe::cpu::lapack
