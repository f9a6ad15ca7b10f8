// Implementation of the Tensor value type and its metadata-only views (tensor.hpp).
#include "core/tensor.hpp"

#include <cstring>

#include "core/error.hpp"

namespace tfe {

Tensor::Tensor(std::shared_ptr<Storage> storage, DType dtype, Dims shape, Dims strides,
               int64_t offset)
    : storage_(std::move(storage)), dtype_(dtype), shape_(std::move(shape)),
      strides_(std::move(strides)), offset_(offset) {
  // The empty-view discipline: a tensor without elements addresses nothing, so it is kept in one
  // canonical form, offset 0 and compact strides (all 1, compact_strides). Its storage may be NULL
  // (a zero-byte block) and a non-zero offset over it is undefined behaviour however it is later
  // used; huge extents next to a zero one would overflow any offset or stride arithmetic done on
  // them.
  if (has_zero_extent(shape_)) {
    offset_ = 0;
    strides_ = compact_strides(shape_);
  }
}

Tensor Tensor::empty(DType dtype, Dims shape) {
  int64_t n = checked_numel(shape);
  int64_t bytes = 0;
  if (__builtin_mul_overflow(n, itemsize(dtype), &bytes))
    fail(Status::Numerical, "a %s tensor of shape %s exceeds the address space",
         std::string(dtype_name(dtype)).c_str(), format_dims(shape).c_str());
  Dims strides = compact_strides(shape);
  return Tensor(Storage::allocate(bytes), dtype, std::move(shape), std::move(strides), 0);
}

Tensor Tensor::zeros(DType dtype, Dims shape) {
  Tensor t = empty(dtype, std::move(shape));
  if (t.nbytes() > 0) std::memset(t.raw_data(), 0, static_cast<size_t>(t.nbytes()));
  return t;
}

Tensor Tensor::with_layout(Dims shape, Dims strides, int64_t offset) const {
  return Tensor(storage_, dtype_, std::move(shape), std::move(strides), offset);
}

Tensor Tensor::permuted(std::span<const int64_t> perm) const {
  Dims shape(perm.size()), strides(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) {
    shape[i] = shape_[static_cast<size_t>(perm[i])];
    strides[i] = strides_[static_cast<size_t>(perm[i])];
  }
  return with_layout(std::move(shape), std::move(strides), offset_);
}

Tensor Tensor::sliced(std::span<const int64_t> starts, std::span<const int64_t> limits,
                      std::span<const int64_t> steps) const {
  Dims shape(shape_.size()), strides(shape_.size());
  for (size_t i = 0; i < shape_.size(); ++i) {
    int64_t extent = limits[i] - starts[i];
    // ceil(extent / step) without forming extent + step - 1, which overflows for huge steps.
    shape[i] = extent <= 0 ? 0 : (extent - 1) / steps[i] + 1;
  }
  // An empty result addresses nothing: no offset to compute (the constructor makes it canonical).
  if (has_zero_extent(shape)) {
    Dims compact = compact_strides(shape);
    return with_layout(std::move(shape), std::move(compact), 0);
  }
  int64_t offset = offset_;
  for (size_t i = 0; i < shape_.size(); ++i) {
    // A dim of at most one element never steps: its stride stays, so step * stride cannot
    // overflow. With two or more, (shape - 1) * step * stride addresses memory that exists.
    strides[i] = shape[i] > 1 ? strides_[i] * steps[i] : strides_[i];
    offset += starts[i] * strides_[i];
  }
  return with_layout(std::move(shape), std::move(strides), offset);
}

Tensor Tensor::reversed(std::span<const int64_t> axes) const {
  if (has_zero_extent(shape_)) return *this; // nothing to reverse, and no last element to start at
  Dims strides = strides_;
  int64_t offset = offset_;
  for (int64_t a : axes) {
    size_t i = static_cast<size_t>(a);
    offset += (shape_[i] - 1) * strides_[i];
    strides[i] = -strides_[i];
  }
  return with_layout(shape_, std::move(strides), offset);
}

Tensor Tensor::broadcast_view(const Dims& shape, std::span<const int64_t> dims) const {
  Dims strides(shape.size(), 0);
  for (size_t i = 0; i < dims.size(); ++i)
    if (shape_[i] != 1) strides[static_cast<size_t>(dims[i])] = strides_[i];
  return with_layout(shape, std::move(strides), offset_);
}

std::optional<Tensor> Tensor::reshaped_view(const Dims& shape) const {
  if (is_compact()) return with_layout(shape, compact_strides(shape), offset_);
  // Drop extent-1 dims, then match runs of old dims with runs of new dims of equal product; each
  // old run must be contiguous in column-major order for the new dims to get strides.
  Dims od, os;
  for (size_t i = 0; i < shape_.size(); ++i)
    if (shape_[i] != 1) {
      od.push_back(shape_[i]);
      os.push_back(strides_[i]);
    }
  Dims strides(shape.size(), 0);
  size_t oi = 0, ni = 0;
  while (ni < shape.size() || oi < od.size()) {
    while (ni < shape.size() && shape[ni] == 1) strides[ni++] = 0;
    if (ni == shape.size() && oi == od.size()) break;
    if (ni == shape.size() || oi == od.size()) return std::nullopt;
    size_t o0 = oi, n0 = ni;
    int64_t op = od[oi++], np = shape[ni++];
    while (op != np) {
      if (op < np) {
        if (oi == od.size()) return std::nullopt;
        op *= od[oi++];
      } else {
        if (ni == shape.size()) return std::nullopt;
        np *= shape[ni++];
      }
    }
    for (size_t k = o0 + 1; k < oi; ++k)
      if (os[k] != os[k - 1] * od[k - 1]) return std::nullopt;
    int64_t s = os[o0];
    for (size_t k = n0; k < ni; ++k) {
      strides[k] = s;
      s *= shape[k];
    }
  }
  return with_layout(shape, std::move(strides), offset_);
}

} // namespace tfe
