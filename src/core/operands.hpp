// Operands: the tensors one kernel call reads, wherever they already lie. Most callers hold
// them in an array of tensors; the eager recorder holds each inside a recorded value (tensor
// plus history) and passes pointers to them. Copying them into a fresh array instead cost two
// reference-count round trips and two shape copies per operand, a tenth of recording one small op.
#pragma once

#include <concepts>
#include <cstddef>
#include <iterator>
#include <span>

#include "core/tensor.hpp"

namespace tfe {

class Operands {
public:
  class iterator {
  public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Tensor;
    using difference_type = std::ptrdiff_t;
    using pointer = const Tensor*;
    using reference = const Tensor&;
    iterator() = default;
    iterator(const Operands* owner, size_t i) : owner_(owner), i_(i) {}
    reference operator*() const { return (*owner_)[i_]; }
    pointer operator->() const { return &(*owner_)[i_]; }
    iterator& operator++() {
      ++i_;
      return *this;
    }
    iterator operator++(int) {
      iterator before = *this;
      ++i_;
      return before;
    }
    friend bool operator==(const iterator& a, const iterator& b) { return a.i_ == b.i_; }

  private:
    const Operands* owner_ = nullptr;
    size_t i_ = 0;
  };

  Operands() = default;
  // An array of tensors (implicit: every caller that has one passes it as it is).
  Operands(std::span<const Tensor> tensors) // NOLINT(google-explicit-constructor)
      : contiguous_(tensors.data()), size_(tensors.size()) {}
  // Anything that is an array of tensors (a vector, a std::array).
  template <class Array>
  requires std::convertible_to<const Array&, std::span<const Tensor>>
  Operands(const Array& tensors) // NOLINT(google-explicit-constructor)
      : Operands(std::span<const Tensor>(tensors)) {}
  // Tensors that lie elsewhere, one pointer each; the pointers must outlive the call.
  explicit Operands(std::span<const Tensor* const> pointers)
      : indirect_(pointers.data()), size_(pointers.size()) {}

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const Tensor& operator[](size_t i) const { return indirect_ ? *indirect_[i] : contiguous_[i]; }
  const Tensor& front() const { return (*this)[0]; }
  const Tensor& back() const { return (*this)[size_ - 1]; }
  iterator begin() const { return {this, 0}; }
  iterator end() const { return {this, size_}; }

private:
  const Tensor* contiguous_ = nullptr;
  const Tensor* const* indirect_ = nullptr;
  size_t size_ = 0;
};

} // namespace tfe
