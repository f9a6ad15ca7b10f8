// Storage: the reference-counted memory behind tensors. Either a block of the caching allocator,
// an adopted caller buffer whose deleter runs exactly once, when the last reference goes, or
// memory of an accelerator that its backend releases (then data() is a device address that the
// host must never dereference).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/device.hpp"

namespace tfe {

class Storage {
  struct PassKey {};

public:
  using Deleter = void (*)(void* data, void* user_data);
  using DeviceRelease = void (*)(Device device, void* data, int64_t nbytes);

  // nbytes of uninitialised memory from the caching allocator.
  static std::shared_ptr<Storage> allocate(int64_t nbytes);
  // Adopts data without copying; deleter(data, user_data) is called on destruction (may be null).
  // device says where data lives (a DLPack import of device memory).
  static std::shared_ptr<Storage> adopt(void* data, int64_t nbytes, Deleter deleter,
                                        void* user_data, Device device = {});
  // Takes ownership of nbytes of memory on an accelerator; release(device, data, nbytes) gives
  // it back when the last reference goes.
  static std::shared_ptr<Storage> adopt_device(Device device, void* data, int64_t nbytes,
                                               DeviceRelease release);

  Storage(PassKey, void* data, int64_t nbytes, size_t capacity, Deleter deleter, void* user_data,
          Device device = {})
      : data_(static_cast<std::byte*>(data)), nbytes_(nbytes), capacity_(capacity),
        deleter_(deleter), user_data_(user_data), device_(device) {}
  Storage(PassKey, Device device, void* data, int64_t nbytes, DeviceRelease release)
      : data_(static_cast<std::byte*>(data)), nbytes_(nbytes), capacity_(0), deleter_(nullptr),
        user_data_(nullptr), device_(device), device_release_(release) {}
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;
  ~Storage();

  std::byte* data() const { return data_; }
  int64_t nbytes() const { return nbytes_; }
  bool is_adopted() const { return capacity_ == 0 && deleter_ != nullptr; }
  Device device() const { return device_; }

private:
  std::byte* data_;
  int64_t nbytes_;
  size_t capacity_; // non-zero: a caching-allocator block of this size class
  Deleter deleter_;
  void* user_data_;
  Device device_;
  DeviceRelease device_release_ = nullptr;
};

} // namespace tfe
