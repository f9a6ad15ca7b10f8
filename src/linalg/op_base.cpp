// Operand checks and shape helpers of the linalg ops (op_base.hpp).
#include "linalg/op_base.hpp"

namespace tfe::linalg {

void LinalgOp::require_float(const ops::Meta& m, const char* operand) const {
  if (!is_inexact(m.dtype))
    fail(Status::DtypeMismatch, "%s is %s; linalg accepts F32, F64, C32 and C64", operand,
         std::string(dtype_name(m.dtype)).c_str());
}

void LinalgOp::require_matrix(const ops::Meta& m, const char* operand) const {
  if (m.shape.size() < 2)
    fail(Status::ShapeMismatch,
         "%s has shape %s; it needs rank >= 2 (the first two dims are the matrix)", operand,
         ops::format_shape(m.shape).c_str());
}

Extent LinalgOp::require_square(const ops::Meta& m, const char* operand) const {
  require_matrix(m, operand);
  return ops::require_eq(m.shape[0], m.shape[1], Status::ShapeMismatch, "square",
                         std::string(operand) + " of shape " + ops::format_shape(m.shape) +
                             " must be square");
}

void LinalgOp::require_same_dtype(const ops::Meta& a, const ops::Meta& b, const char* what) const {
  if (a.dtype != b.dtype)
    fail(Status::DtypeMismatch, "%s have dtypes %s and %s", what,
         std::string(dtype_name(a.dtype)).c_str(), std::string(dtype_name(b.dtype)).c_str());
}

void LinalgOp::require_same_batch(const ops::Meta& a, const ops::Meta& b, const char* what) const {
  bool same = a.shape.size() == b.shape.size();
  if (!same)
    fail(Status::ShapeMismatch, "%s have batch shapes of different ranks (%s and %s)", what,
         ops::format_shape(a.shape).c_str(), ops::format_shape(b.shape).c_str());
  for (size_t d = 2; d < a.shape.size(); ++d)
    ops::require_eq(a.shape[d], b.shape[d], Status::ShapeMismatch, "batch",
                    std::string(what) + " " + ops::format_shape(a.shape) + " and " +
                        ops::format_shape(b.shape) + " differ in batch dim " + std::to_string(d));
}

void LinalgOp::require_dim(Extent got, Extent want, const std::string& what) const {
  ops::require_eq(got, want, Status::ShapeMismatch, "dims", what);
}

Shape LinalgOp::require_same_shape(const ops::Meta& a, const ops::Meta& b, const char* what) const {
  std::string text =
      std::string(what) + " " + ops::format_shape(a.shape) + " and " + ops::format_shape(b.shape);
  if (a.shape.size() != b.shape.size())
    fail(Status::ShapeMismatch, "%s differ in rank", text.c_str());
  Shape out = a.shape;
  for (size_t d = 0; d < a.shape.size(); ++d)
    out[d] = ops::require_eq(a.shape[d], b.shape[d], Status::ShapeMismatch, "dims",
                             text + " differ in dim " + std::to_string(d));
  return out;
}

Extent LinalgOp::require_system(const ops::Meta& a, const ops::Meta& b, const char* a_name,
                                int64_t b_dim) const {
  require_float(a, a_name);
  require_float(b, "b");
  require_same_dtype(a, b, (std::string(a_name) + " and b").c_str());
  Extent n = require_square(a, a_name);
  require_matrix(b, "b");
  require_same_batch(a, b, (std::string(a_name) + " and b").c_str());
  require_dim(b.shape[static_cast<size_t>(b_dim)], n,
              "b of shape " + ops::format_shape(b.shape) + " does not match " + a_name + " of " +
                  ops::format_shape(a.shape) + (b_dim == 0 ? " in its rows" : " in its columns"));
  return n;
}

Shape matrix_shape(Extent rows, Extent cols, const Shape& like) {
  Shape s{rows, cols};
  s.insert(s.end(), like.begin() + 2, like.end());
  return s;
}

Shape vector_shape(Extent n, const Shape& like) {
  Shape s{n};
  s.insert(s.end(), like.begin() + 2, like.end());
  return s;
}

Shape batch_shape(const Shape& like) { return Shape(like.begin() + 2, like.end()); }

} // namespace tfe::linalg
