// SmallVector: a vector of trivially copyable values with inline room for N of them, so the
// shapes and strides of ordinary tensors never touch the heap. Copying a Tensor (which happens
// at every op boundary) then costs no allocation. Same interface subset as std::vector.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <type_traits>

namespace tfe {

template <class T, size_t N> class SmallVector {
  static_assert(std::is_trivially_copyable_v<T>, "SmallVector holds trivially copyable values");

public:
  using value_type = T;
  using size_type = size_t;
  using iterator = T*;
  using const_iterator = const T*;
  using reference = T&;
  using const_reference = const T&;

  SmallVector() = default;
  explicit SmallVector(size_t n, T value = T{}) { assign(n, value); }
  SmallVector(std::initializer_list<T> init) { assign(init.begin(), init.end()); }
  template <class It, class = std::enable_if_t<!std::is_integral_v<It>>>
  SmallVector(It first, It last) {
    assign(first, last);
  }
  SmallVector(const SmallVector& o) { copy_from(o); }
  // Element-converting copy (e.g. concrete Dims into a possibly symbolic Shape); implicit only
  // when the element conversion is.
  template <class U, size_t M>
  requires(!std::is_same_v<U, T> && std::is_convertible_v<U, T>)
      SmallVector(const SmallVector<U, M>& o) { // NOLINT
    assign(o.begin(), o.end());
  }
  SmallVector(SmallVector&& o) noexcept { take(std::move(o)); }
  SmallVector& operator=(const SmallVector& o) {
    if (this != &o) copy_from(o);
    return *this;
  }
  SmallVector& operator=(SmallVector&& o) noexcept {
    if (this != &o) {
      heap_.reset();
      size_ = 0;
      cap_ = N;
      take(std::move(o));
    }
    return *this;
  }
  SmallVector& operator=(std::initializer_list<T> init) {
    assign(init.begin(), init.end());
    return *this;
  }

  T* data() { return heap_ ? heap_.get() : inline_; }
  const T* data() const { return heap_ ? heap_.get() : inline_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  T& front() { return data()[0]; }
  const T& front() const { return data()[0]; }
  T& back() { return data()[size_ - 1]; }
  const T& back() const { return data()[size_ - 1]; }
  T& at(size_t i) { return data()[i]; }
  const T& at(size_t i) const { return data()[i]; }

  void reserve(size_t cap) {
    if (cap <= cap_) return;
    auto grown = std::make_unique_for_overwrite<T[]>(cap);
    if (size_) std::memcpy(grown.get(), data(), size_ * sizeof(T));
    heap_ = std::move(grown);
    cap_ = cap;
  }
  void clear() { size_ = 0; }
  void resize(size_t n, T value = T{}) {
    reserve(n);
    for (size_t i = size_; i < n; ++i) data()[i] = value;
    size_ = n;
  }
  void assign(size_t n, T value) {
    size_ = 0;
    resize(n, value);
  }
  template <class It> void assign(It first, It last) {
    size_ = 0;
    reserve(static_cast<size_t>(std::distance(first, last)));
    for (; first != last; ++first) data()[size_++] = static_cast<T>(*first);
  }
  void push_back(T v) {
    if (size_ == cap_) reserve(cap_ * 2);
    data()[size_++] = v;
  }
  template <class... A> T& emplace_back(A&&... a) {
    push_back(T(std::forward<A>(a)...));
    return back();
  }
  void pop_back() { --size_; }
  T* insert(const T* pos, T v) {
    size_t i = static_cast<size_t>(pos - data());
    if (size_ == cap_) reserve(cap_ * 2);
    T* p = data();
    std::memmove(p + i + 1, p + i, (size_ - i) * sizeof(T));
    p[i] = v;
    ++size_;
    return p + i;
  }
  template <class It> T* insert(const T* pos, It first, It last) {
    size_t i = static_cast<size_t>(pos - data());
    size_t k = static_cast<size_t>(std::distance(first, last));
    reserve(std::max(cap_, size_ + k));
    T* p = data();
    std::memmove(p + i + k, p + i, (size_ - i) * sizeof(T));
    for (size_t j = 0; j < k; ++j, ++first) p[i + j] = static_cast<T>(*first);
    size_ += k;
    return p + i;
  }
  T* erase(const T* pos) {
    size_t i = static_cast<size_t>(pos - data());
    T* p = data();
    std::memmove(p + i, p + i + 1, (size_ - i - 1) * sizeof(T));
    --size_;
    return p + i;
  }

  friend bool operator==(const SmallVector& a, const SmallVector& b) {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }

private:
  // Inline contents are copied whole: a fixed-size copy compiles to a few register moves, where
  // copying size_ elements costs a call to memmove (measurable: a Tensor copy holds two of these
  // and happens at every op boundary).
  void copy_from(const SmallVector& o) {
    if (!o.heap_) {
      heap_.reset();
      cap_ = N;
      std::memcpy(inline_, o.inline_, sizeof(inline_));
      size_ = o.size_;
    } else {
      assign(o.begin(), o.end());
    }
  }
  void take(SmallVector&& o) {
    if (o.heap_) {
      heap_ = std::move(o.heap_);
      cap_ = o.cap_;
    } else {
      std::memcpy(inline_, o.inline_, sizeof(inline_));
    }
    size_ = o.size_;
    o.size_ = 0;
    o.cap_ = N;
  }

  T inline_[N] = {}; // zeroed, so the whole-buffer copies above read only initialised values
  std::unique_ptr<T[]> heap_;
  size_t size_ = 0;
  size_t cap_ = N;
};

} // namespace tfe
