// Implementation of the shared shape-rule checks (shape_checks.hpp).
#include "ops/shape_checks.hpp"

namespace tfe::ops {
namespace {
thread_local ShapeGuards* t_guards = nullptr;
} // namespace

ShapeGuards::ShapeGuards() : outer_(t_guards) { t_guards = this; }
ShapeGuards::~ShapeGuards() { t_guards = outer_; }

void ShapeGuards::add(ShapeGuard g) {
  if (!t_guards) // only symbolic parameters given to an op on concrete tensors get here
    fail(Status::InvalidArgument, "a symbolic extent in a parameter needs a symbolic operand (%s)",
         g.message.c_str());
  t_guards->guards_.push_back(std::move(g));
}

void violated(Status status, const char* label, const std::string& message) {
  throw Error(status, message + " (" + label + ")");
}

Extent require_eq(Extent a, Extent b, Status status, const char* label, const std::string& what) {
  if (a == b) return a;
  std::string msg = what + ": " + to_string(a) + " and " + to_string(b) + " differ";
  if (a.is_const() && b.is_const()) violated(status, label, msg);
  if (!a.is_const() && !b.is_const())
    violated(status, label,
             what + ": symbolic extents " + to_string(a) + " and " + to_string(b) +
                 " are not provably equal");
  ShapeGuards::add({ShapeGuard::Kind::Equal, a, b, status, msg + " (" + label + ")"});
  return a.is_const() ? a : b;
}

void require_le(Extent a, Extent b, Status status, const char* label, const std::string& what) {
  if (a == b) return;
  std::string msg = what + ": need " + to_string(a) + " <= " + to_string(b);
  if (a.is_const() && b.is_const()) {
    if (a.value() > b.value()) violated(status, label, msg);
    return;
  }
  ShapeGuards::add({ShapeGuard::Kind::LessEqual, a, b, status, msg + " (" + label + ")"});
}

bool provably_lt(Extent a, Extent b) {
  return a.is_const() && b.is_const() && a.value() < b.value();
}

void require_same_shapes(std::span<const Meta> in, const char* label) {
  for (size_t i = 1; i < in.size(); ++i) {
    if (in[i].shape == in[0].shape) continue;
    if (in[i].shape.size() != in[0].shape.size())
      violated(Status::ShapeMismatch, label,
               strformat("operand %zu has shape %s but operand 0 has %s", i,
                         format_shape(in[i].shape).c_str(), format_shape(in[0].shape).c_str()));
    bool all_const = true;
    for (size_t d = 0; d < in[0].shape.size(); ++d)
      all_const &= in[i].shape[d].is_const() && in[0].shape[d].is_const();
    if (all_const)
      violated(Status::ShapeMismatch, label,
               strformat("operand %zu has shape %s but operand 0 has %s", i,
                         format_shape(in[i].shape).c_str(), format_shape(in[0].shape).c_str()));
    for (size_t d = 0; d < in[0].shape.size(); ++d)
      require_eq(in[i].shape[d], in[0].shape[d], Status::ShapeMismatch, label,
                 strformat("dim %zu of operands %zu and 0", d, i));
  }
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

void require_valid_shape(const Shape& shape, const char* what, const char* label) {
  bool has_zero = false, all_const = true;
  for (Extent e : shape) {
    if (!e.is_const()) {
      all_const = false;
      continue;
    }
    if (e.value() < 0)
      violated(Status::InvalidArgument, label,
               strformat("%s %s has a negative extent", what, format_shape(shape).c_str()));
    if (e.value() == 0) has_zero = true;
  }
  if (has_zero || !all_const) return; // symbolic products are checked when bound
  int64_t n = 1;
  for (Extent e : shape)
    if (__builtin_mul_overflow(n, e.value(), &n))
      violated(Status::Numerical, label,
               strformat("%s %s has more than 2^63-1 elements", what, format_shape(shape).c_str()));
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
