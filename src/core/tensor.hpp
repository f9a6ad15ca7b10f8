// Tensor: an immutable strided view of a Storage (dtype, shape, signed strides in elements,
// offset). Copies share the storage; views (permute, slice, reshape, broadcast, reverse) are
// metadata only. Tensors the library hands out are never written after they are returned.
#pragma once

#include <memory>
#include <optional>
#include <span>

#include "core/dtype.hpp"
#include "core/shape.hpp"
#include "core/storage.hpp"

namespace tfe {

class Tensor {
public:
  Tensor() = default;
  Tensor(std::shared_ptr<Storage> storage, DType dtype, Dims shape, Dims strides, int64_t offset);

  // Compact column-major, uninitialised, from the caching allocator.
  static Tensor empty(DType dtype, Dims shape);
  // Compact, every element zero.
  static Tensor zeros(DType dtype, Dims shape);
  // Rank-0 tensor holding v.
  template <class T> static Tensor scalar(T v) {
    Tensor t = empty(dtype_of_v<T>, {});
    *t.data<T>() = v;
    return t;
  }

  bool defined() const { return storage_ != nullptr; }
  DType dtype() const { return dtype_; }
  const Dims& shape() const { return shape_; }
  const Dims& strides() const { return strides_; }
  int64_t offset() const { return offset_; }
  int64_t ndim() const { return static_cast<int64_t>(shape_.size()); }
  int64_t dim(int64_t i) const { return shape_[static_cast<size_t>(i)]; }
  int64_t stride(int64_t i) const { return strides_[static_cast<size_t>(i)]; }
  int64_t numel() const { return numel_of(shape_); }
  int64_t nbytes() const { return numel() * itemsize(dtype_); }
  bool is_compact() const { return tfe::is_compact(shape_, strides_); }
  const std::shared_ptr<Storage>& storage() const { return storage_; }
  // Where the elements live; the host for an undefined tensor.
  Device device() const { return storage_ ? storage_->device() : Device{}; }

  // Address of element (0,...,0). Writing is allowed only while building a fresh result.
  template <class T> T* data() const { return reinterpret_cast<T*>(storage_->data()) + offset_; }
  std::byte* raw_data() const { return storage_->data() + offset_ * itemsize(dtype_); }

  // Views. Arguments are validated by the callers (op shape rules); these only build metadata.
  Tensor permuted(std::span<const int64_t> perm) const;
  Tensor sliced(std::span<const int64_t> starts, std::span<const int64_t> limits,
                std::span<const int64_t> steps) const;
  Tensor reversed(std::span<const int64_t> axes) const;
  // out dim dims[i] = input dim i; other out dims (and input extents of 1) get stride 0.
  Tensor broadcast_view(const Dims& shape, std::span<const int64_t> dims) const;
  // A view with the new shape when the strides allow it (same element order), else nullopt.
  std::optional<Tensor> reshaped_view(const Dims& shape) const;
  Tensor with_layout(Dims shape, Dims strides, int64_t offset) const;

private:
  std::shared_ptr<Storage> storage_;
  DType dtype_ = DType::F64;
  Dims shape_;
  Dims strides_;
  int64_t offset_ = 0;
};

} // namespace tfe
