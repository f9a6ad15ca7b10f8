// Implementation of the shared shape-rule checks (shape_checks.hpp).
#include "ops/shape_checks.hpp"

namespace tfe::ops {

void violated(Status status, const char* label, const std::string& message) {
  throw Error(status, message + " (" + label + ")");
}

void require_same_shapes(std::span<const Meta> in, const char* label) {
  for (size_t i = 1; i < in.size(); ++i)
    if (in[i].shape != in[0].shape)
      violated(Status::ShapeMismatch, label,
               strformat("operand %zu has shape %s but operand 0 has %s", i,
                         format_dims(in[i].shape).c_str(), format_dims(in[0].shape).c_str()));
}

void require_same_dtypes(std::span<const Meta> in, std::initializer_list<size_t> which,
                         const char* label) {
  const Meta* first = nullptr;
  size_t first_i = 0;
  for (size_t i : which) {
    if (i >= in.size()) continue;
    if (!first) {
      first = &in[i];
      first_i = i;
    } else if (in[i].dtype != first->dtype) {
      violated(Status::DtypeMismatch, label,
               strformat("operand %zu is %s but operand %zu is %s", i,
                         std::string(dtype_name(in[i].dtype)).c_str(), first_i,
                         std::string(dtype_name(first->dtype)).c_str()));
    }
  }
}

void require_integer(const Meta& m, const char* what, const char* label) {
  if (!is_integer(m.dtype))
    violated(
        Status::DtypeMismatch, label,
        strformat("%s must be I32 or I64, not %s", what, std::string(dtype_name(m.dtype)).c_str()));
}

int64_t require_axis(int64_t axis, int64_t rank, const char* what, const char* label) {
  if (axis < 0 || axis >= rank)
    violated(
        Status::InvalidArgument, label,
        strformat("%s %lld is out of range for rank %lld", what, (long long)axis, (long long)rank));
  return axis;
}

Dims require_axes(std::span<const int64_t> axes, int64_t rank, const char* what,
                  const char* label) {
  Dims out;
  out.reserve(axes.size());
  for (int64_t ax : axes) {
    int64_t a = require_axis(ax, rank, what, label);
    for (int64_t b : out)
      if (a == b)
        violated(
            Status::InvalidArgument, label,
            strformat("%s %s name axis %lld twice", what, format_dims(axes).c_str(), (long long)a));
    out.push_back(a);
  }
  return out;
}

void require_valid_shape(std::span<const int64_t> shape, const char* what, const char* label) {
  bool has_zero = false;
  for (int64_t e : shape) {
    if (e < 0)
      violated(Status::InvalidArgument, label,
               strformat("%s %s has a negative extent", what, format_dims(shape).c_str()));
    if (e == 0) has_zero = true;
  }
  if (has_zero) return;
  int64_t n = 1;
  for (int64_t e : shape)
    if (__builtin_mul_overflow(n, e, &n))
      violated(Status::Numerical, label,
               strformat("%s %s has more than 2^63-1 elements", what, format_dims(shape).c_str()));
}

std::string dtype_list(DTypeSet set) {
  std::string s;
  for (DType d : kAllDTypes)
    if (set.contains(d)) {
      if (!s.empty()) s += ',';
      s += dtype_name(d);
    }
  return s;
}

} // namespace tfe::ops
