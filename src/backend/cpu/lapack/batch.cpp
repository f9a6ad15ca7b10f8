// Validation, output shapes and batch cursors shared by the LAPACK kernels (batch.hpp).
#include "backend/cpu/lapack/batch.hpp"

#include <string>

namespace tfe::cpu::lapack::detail {
namespace {
std::string name_of(DType d) { return std::string(dtype_name(d)); }
std::string shape_of(const Tensor& t) { return format_dims(t.shape()); }
} // namespace

void require_float_matrix(const char* fn, const Tensor& t, const char* name) {
  if (!t.defined()) fail(Status::InvalidArgument, "%s: %s is an undefined tensor", fn, name);
  if (!is_inexact(t.dtype()))
    fail(Status::DtypeMismatch, "%s: %s must be F32, F64, C32 or C64, got %s", fn, name,
         name_of(t.dtype()).c_str());
  if (t.ndim() < 2)
    fail(Status::ShapeMismatch, "%s: %s must have rank >= 2 ([rows, cols, batch...]), got shape %s",
         fn, name, shape_of(t).c_str());
  for (int64_t d = 0; d < 2; ++d)
    if (t.dim(d) > std::numeric_limits<lint>::max())
      fail(Status::NotSupported, "%s: %s has %s %lld, beyond LAPACK's 32-bit limit", fn, name,
           d == 0 ? "rows" : "cols", static_cast<long long>(t.dim(d)));
}

void require_square(const char* fn, const Tensor& t, const char* name) {
  if (t.dim(0) != t.dim(1))
    fail(Status::ShapeMismatch, "%s: %s must be square, got shape %s", fn, name,
         shape_of(t).c_str());
}

void require_same_dtype(const char* fn, const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype())
    fail(Status::DtypeMismatch, "%s: operands must share a dtype, got %s and %s", fn,
         name_of(a.dtype()).c_str(), name_of(b.dtype()).c_str());
}

void require_same_batch(const char* fn, const Tensor& a, const Tensor& b) {
  if (batch_shape(a) != batch_shape(b))
    fail(Status::ShapeMismatch, "%s: batch dims differ: %s vs %s (shapes %s and %s)", fn,
         format_dims(batch_shape(a)).c_str(), format_dims(batch_shape(b)).c_str(),
         shape_of(a).c_str(), shape_of(b).c_str());
}

void fail_illegal(const char* fn, const char* routine, lint info, int64_t batch) {
  fail(Status::Internal, "%s: LAPACK %s rejected argument %d at batch %lld", fn, routine,
       static_cast<int>(-info), static_cast<long long>(batch));
}

void require_solve_operands(const Tensor& a, const Tensor& b) {
  constexpr const char* kFn = "solve";
  require_float_matrix(kFn, a, "a");
  require_square(kFn, a, "a");
  require_float_matrix(kFn, b, "b");
  require_same_dtype(kFn, a, b);
  if (b.dim(0) != a.dim(0))
    fail(Status::ShapeMismatch, "b must have %lld rows like a, got shape %s",
         static_cast<long long>(a.dim(0)), format_dims(b.shape()).c_str());
  require_same_batch(kFn, a, b);
}

void require_lu_solve_operands(const Tensor& lu, const Tensor& pivots, const Tensor& b) {
  constexpr const char* kFn = "lu_solve";
  require_float_matrix(kFn, lu, "lu");
  require_square(kFn, lu, "lu");
  require_float_matrix(kFn, b, "b");
  require_same_dtype(kFn, lu, b);
  if (!pivots.defined() || pivots.dtype() != DType::I32)
    fail(Status::DtypeMismatch, "pivots must be I32, got %s",
         pivots.defined() ? std::string(dtype_name(pivots.dtype())).c_str() : "undefined");
  const Dims expected = vector_shape(lu.dim(0), lu);
  if (pivots.shape() != expected)
    fail(Status::ShapeMismatch, "pivots must have shape %s for lu %s, got %s",
         format_dims(expected).c_str(), format_dims(lu.shape()).c_str(),
         format_dims(pivots.shape()).c_str());
  if (b.dim(0) != lu.dim(0))
    fail(Status::ShapeMismatch, "b must have %lld rows like lu, got shape %s",
         static_cast<long long>(lu.dim(0)), format_dims(b.shape()).c_str());
  require_same_batch(kFn, lu, b);
}

void require_triangular_solve_operands(const Tensor& a, const Tensor& b, bool left) {
  constexpr const char* kFn = "triangular_solve";
  require_float_matrix(kFn, a, "a");
  require_square(kFn, a, "a");
  require_float_matrix(kFn, b, "b");
  require_same_dtype(kFn, a, b);
  const int64_t shared = left ? b.dim(0) : b.dim(1);
  if (shared != a.dim(0))
    fail(Status::ShapeMismatch, "b must have %lld %s like a (%s side), got %s",
         static_cast<long long>(a.dim(0)), left ? "rows" : "cols", left ? "left" : "right",
         format_dims(b.shape()).c_str());
  require_same_batch(kFn, a, b);
}

int64_t batch_count(const Tensor& t) {
  return checked_numel(std::span<const int64_t>(t.shape()).subspan(2));
}

Dims batch_shape(const Tensor& like) { return Dims(like.shape().begin() + 2, like.shape().end()); }

Dims matrix_shape(int64_t rows, int64_t cols, const Tensor& like) {
  Dims s{rows, cols};
  for (int64_t d = 2; d < like.ndim(); ++d) s.push_back(like.dim(d));
  return s;
}

Dims vector_shape(int64_t n, const Tensor& like) {
  Dims s{n};
  for (int64_t d = 2; d < like.ndim(); ++d) s.push_back(like.dim(d));
  return s;
}

BatchCursor::BatchCursor(const Tensor& t) {
  for (int64_t d = 2; d < t.ndim(); ++d) {
    if (t.dim(d) == 1) continue; // never advances: keeps next() short for [m, n, 1, k] shapes
    extent_.push_back(t.dim(d));
    stride_.push_back(t.stride(d));
  }
  index_.assign(extent_.size(), 0);
}

BatchCursor BatchCursor::first_alias(const Tensor& t) {
  BatchCursor c;
  int64_t linear = 1;
  for (int64_t d = 2; d < t.ndim(); ++d) {
    if (t.dim(d) == 1) continue;
    c.extent_.push_back(t.dim(d));
    c.stride_.push_back(t.stride(d) == 0 ? 0 : linear);
    linear *= t.dim(d);
  }
  c.index_.assign(c.extent_.size(), 0);
  return c;
}

} // namespace tfe::cpu::lapack::detail
