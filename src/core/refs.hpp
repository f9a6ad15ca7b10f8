// Refs<T>: a read-only view of values that lie wherever their owner keeps them, either one array
// or one pointer per value. A call that receives values scattered over its caller's objects (the
// operands of a C entry point, recorded values holding a tensor and its history) passes pointers
// instead of copying them into a fresh array: for a tensor, each copy is two reference-count
// round trips and two shape copies, a tenth of running one small op.
#pragma once

#include <concepts>
#include <cstddef>
#include <iterator>
#include <span>

namespace tfe {

template <class T> class Refs {
public:
  class iterator {
  public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = const T*;
    using reference = const T&;
    iterator() = default;
    iterator(const Refs* owner, size_t i) : owner_(owner), i_(i) {}
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
    const Refs* owner_ = nullptr;
    size_t i_ = 0;
  };

  Refs() = default;
  // An array of values (implicit: every caller that has one passes it as it is).
  Refs(std::span<const T> values) // NOLINT(google-explicit-constructor)
      : contiguous_(values.data()), size_(values.size()) {}
  // Anything that is an array of values (a vector, a std::array).
  template <class Array>
  requires std::convertible_to<const Array&, std::span<const T>>
  Refs(const Array& values) // NOLINT(google-explicit-constructor)
      : Refs(std::span<const T>(values)) {}
  // Values that lie elsewhere, one pointer each; the pointers must outlive the call.
  explicit Refs(std::span<const T* const> pointers)
      : indirect_(pointers.data()), size_(pointers.size()) {}

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T& operator[](size_t i) const { return indirect_ ? *indirect_[i] : contiguous_[i]; }
  const T& front() const { return (*this)[0]; }
  const T& back() const { return (*this)[size_ - 1]; }
  iterator begin() const { return {this, 0}; }
  iterator end() const { return {this, size_}; }

private:
  const T* contiguous_ = nullptr;
  const T* const* indirect_ = nullptr;
  size_t size_ = 0;
};

} // namespace tfe
