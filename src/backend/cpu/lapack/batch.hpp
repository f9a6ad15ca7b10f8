// What every batched LAPACK kernel shares: operand validation, the shapes of batched outputs,
// the walk over batch entries of a strided operand, typed copies of one strided matrix into a
// compact LAPACK buffer, workspace sizing and the float-only dtype dispatch.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "backend/cpu/lapack/lapack.hpp"
#include "backend/cpu/lapack/typed.hpp"
#include "core/error.hpp"
#include "core/tensor.hpp"

namespace tfe::cpu::lapack::detail {

using typed::lint;

// ---- validation (batch.cpp): fail with the documented status, naming fn and the operand ----

// F32, F64, C32 or C64, rank >= 2 and both matrix extents within LAPACK's 32-bit integers.
void require_float_matrix(const char* fn, const Tensor& t, const char* name);
void require_square(const char* fn, const Tensor& t, const char* name);
void require_same_dtype(const char* fn, const Tensor& a, const Tensor& b);
// Dims 2.. equal (the caller broadcasts).
void require_same_batch(const char* fn, const Tensor& a, const Tensor& b);
// The operand checks of the solves, shared by the host and device backends (one message each).
void require_solve_operands(const Tensor& a, const Tensor& b);
void require_lu_solve_operands(const Tensor& lu, const Tensor& pivots, const Tensor& b);
void require_triangular_solve_operands(const Tensor& a, const Tensor& b, bool left);
// LAPACK's info < 0 (an argument rejected): unreachable after validation, so a library bug.
[[noreturn]] void fail_illegal(const char* fn, const char* routine, lint info, int64_t batch);

// ---- shapes ----

// Product of dims 2.. (1 for a plain matrix).
int64_t batch_count(const Tensor& t);
// [rows, cols, dims 2.. of like] and [n, dims 2.. of like].
Dims matrix_shape(int64_t rows, int64_t cols, const Tensor& like);
Dims vector_shape(int64_t n, const Tensor& like);
Dims batch_shape(const Tensor& like);

// ---- batch iteration ----

// Element offset of each batch entry of a strided operand, visited in linear (column-major)
// batch order. An odometer instead of a div/mod per entry: batches of tiny matrices are common.
class BatchCursor {
public:
  // Walks the batch dims (2..) of t with its own strides.
  explicit BatchCursor(const Tensor& t);
  // Walks the batch dims of t, yielding the linear batch index of the first entry that shares
  // the current entry's matrix (batch dims of stride 0 are broadcast: their index is taken as 0).
  static BatchCursor first_alias(const Tensor& t);

  int64_t offset() const { return offset_; }
  void next() {
    for (size_t d = 0; d < extent_.size(); ++d) {
      offset_ += stride_[d];
      if (++index_[d] < extent_[d]) return;
      offset_ -= stride_[d] * extent_[d];
      index_[d] = 0;
    }
  }

private:
  BatchCursor() = default;
  Dims extent_, stride_, index_;
  int64_t offset_ = 0;
};

// ---- buffers ----

// An uninitialised buffer of n (at least 1) elements from the caching allocator; holder keeps
// it alive. Large workspaces then cost neither page faults nor zero filling on every call.
template <class T> T* scratch(Tensor& holder, int64_t n) {
  holder = Tensor::empty(dtype_of_v<T>, {std::max<int64_t>(n, 1)});
  return holder.data<T>();
}

// The workspace length a LAPACK query (lwork = -1) reported in work[0]. Single-precision
// routines report it as a float, which may round below the integer they need: round up.
template <class T> lint work_size(const char* fn, T reported) {
  double v;
  if constexpr (is_complex_v<T>)
    v = static_cast<double>(reported.real());
  else
    v = static_cast<double>(reported);
  if constexpr (std::is_same_v<real_of_t<T>, float>) v *= 1.0 + 0x1p-22;
  v = std::ceil(v);
  if (v > static_cast<double>(std::numeric_limits<lint>::max()))
    fail(Status::NotSupported,
         "%s: LAPACK needs a workspace of %.0f elements, beyond its 32-bit limit", fn, v);
  return std::max<lint>(1, static_cast<lint>(v));
}

inline lint to_lint(int64_t v) { return static_cast<lint>(v); }

inline CBLAS_TRANSPOSE cblas_trans(Trans t) {
  switch (t) {
  case Trans::No: return CblasNoTrans;
  case Trans::Transpose: return CblasTrans;
  case Trans::ConjTranspose: return CblasConjTrans;
  }
  return CblasNoTrans;
}

// The leading dimension to hand a strided matrix to LAPACK without copying it, or 0 when it is
// not column-major with a legal leading dimension (then it must be copied).
inline int64_t direct_ld(int64_t rows, int64_t cols, int64_t rs, int64_t cs) {
  const int64_t min_ld = std::max<int64_t>(1, rows);
  if (rows > 1 && rs != 1) return 0;
  if (cols <= 1) return min_ld;
  if (cs < min_ld || cs > std::numeric_limits<lint>::max()) return 0;
  return cs;
}

// ---- typed copies into compact column-major buffers (leading dimension ld) ----

// dst = the m x n matrix at src with element strides (rs, cs).
template <class T>
void copy_matrix(const T* src, int64_t rs, int64_t cs, int64_t m, int64_t n, T* dst, int64_t ld) {
  if (rs == 1) {
    for (int64_t j = 0; j < n; ++j) std::copy_n(src + j * cs, m, dst + j * ld);
    return;
  }
  // Rows are not contiguous (often a transposed view): tiles keep the strided reads in cache.
  constexpr int64_t kTile = 32;
  for (int64_t jt = 0; jt < n; jt += kTile) {
    const int64_t je = std::min(jt + kTile, n);
    for (int64_t it = 0; it < m; it += kTile) {
      const int64_t ie = std::min(it + kTile, m);
      for (int64_t j = jt; j < je; ++j)
        for (int64_t i = it; i < ie; ++i) dst[i + j * ld] = src[i * rs + j * cs];
    }
  }
}

// dst = the upper (or lower) triangle of the n x n matrix at src, exact zeros elsewhere. The
// other triangle of src is never read, so whatever it holds cannot leak into a result.
template <class T>
void copy_triangle(const T* src, int64_t rs, int64_t cs, int64_t n, bool upper, T* dst,
                   int64_t ld) {
  for (int64_t j = 0; j < n; ++j) {
    const int64_t begin = upper ? 0 : j, end = upper ? j + 1 : n;
    T* col = dst + j * ld;
    std::fill(col, col + begin, T(0));
    for (int64_t i = begin; i < end; ++i) col[i] = src[i * rs + j * cs];
    std::fill(col + end, col + n, T(0));
  }
}

// True when no entry of the count contiguous values at p is NaN or inf. gesdd and geev must not
// see such input: they answer NaN through their illegal-argument path (gesdd's info -4; geev's
// gebal calls xerbla, which prints to stderr), and geev's scaling turns an inf into NaN.
template <class T> bool all_finite(const T* p, int64_t count) {
  for (int64_t i = 0; i < count; ++i) {
    if constexpr (is_complex_v<T>) {
      if (!std::isfinite(p[i].real()) || !std::isfinite(p[i].imag())) return false;
    } else if (!std::isfinite(p[i])) {
      return false;
    }
  }
  return true;
}

// dst (n x n, leading dimension n) = the identity.
template <class T> void set_identity(T* dst, int64_t n) {
  std::fill(dst, dst + n * n, T(0));
  for (int64_t i = 0; i < n; ++i) dst[i + i * n] = T(1);
}

// ---- dtype dispatch ----

// visit_dtype restricted to the four float types (validated before): f(type_tag<T>{}).
template <class F> decltype(auto) visit_float(DType d, F&& f) {
  using R = decltype(f(type_tag<float>{}));
  return visit_dtype(d, [&](auto tag) -> R {
    using T = typename decltype(tag)::type;
    if constexpr (is_real_float_v<T> || is_complex_v<T>)
      return f(tag);
    else
      fail(Status::Internal, "lapack: dtype %s reached a float kernel",
           std::string(dtype_name(d)).c_str());
  });
}

// ---- solving with packed LU factors (lu_solve, solve; the device test double too) ----

// x (n x nrhs, leading dimension n) <- op(A)^-1 x for A = P L U packed in lu, as getrs does.
// The pivots are 1-based and within [1, n] (checked by the callers).
template <class T>
void solve_factored(Trans t, int64_t n, int64_t nrhs, const T* lu, lint lda, const lint* piv,
                    T* x) {
  const lint ln = to_lint(n), lk = to_lint(nrhs);
  auto interchange = [&](int64_t i) {
    const int64_t p = piv[i] - 1;
    if (p == i) return;
    for (int64_t j = 0; j < nrhs; ++j) std::swap(x[i + j * n], x[p + j * n]);
  };
  if (t == Trans::No) { // A^-1 = U^-1 L^-1 P^T: interchanges in factorisation order first
    for (int64_t i = 0; i < n; ++i) interchange(i);
    typed::trsm(CblasLeft, CblasLower, CblasNoTrans, CblasUnit, ln, lk, lu, lda, x, ln);
    typed::trsm(CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, ln, lk, lu, lda, x, ln);
    return;
  }
  // op(A)^-1 = P op(L)^-1 op(U)^-1: interchanges last, in reverse order
  const CBLAS_TRANSPOSE tr = cblas_trans(t);
  typed::trsm(CblasLeft, CblasUpper, tr, CblasNonUnit, ln, lk, lu, lda, x, ln);
  typed::trsm(CblasLeft, CblasLower, tr, CblasUnit, ln, lk, lu, lda, x, ln);
  for (int64_t i = n - 1; i >= 0; --i) interchange(i);
}

} // namespace tfe::cpu::lapack::detail
