// Storage: the reference-counted memory behind tensors. Either a block of the caching allocator
// or an adopted caller buffer whose deleter runs exactly once, when the last reference goes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace tfe {

class Storage {
  struct PassKey {};

public:
  using Deleter = void (*)(void* data, void* user_data);

  // nbytes of uninitialised memory from the caching allocator.
  static std::shared_ptr<Storage> allocate(int64_t nbytes);
  // Adopts data without copying; deleter(data, user_data) is called on destruction (may be null).
  static std::shared_ptr<Storage> adopt(void* data, int64_t nbytes, Deleter deleter,
                                        void* user_data);

  Storage(PassKey, void* data, int64_t nbytes, size_t capacity, Deleter deleter, void* user_data)
      : data_(static_cast<std::byte*>(data)), nbytes_(nbytes), capacity_(capacity),
        deleter_(deleter), user_data_(user_data) {}
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;
  ~Storage();

  std::byte* data() const { return data_; }
  int64_t nbytes() const { return nbytes_; }
  bool is_adopted() const { return capacity_ == 0 && deleter_ != nullptr; }

private:
  std::byte* data_;
  int64_t nbytes_;
  size_t capacity_; // non-zero: a caching-allocator block of this size class
  Deleter deleter_;
  void* user_data_;
};

} // namespace tfe
