// Implementation of Storage (storage.hpp).
#include "core/storage.hpp"

#include "core/caching_allocator.hpp"

namespace tfe {

std::shared_ptr<Storage> Storage::allocate(int64_t nbytes) {
  size_t capacity = 0;
  void* p = CachingAllocator::instance().acquire(static_cast<size_t>(nbytes), &capacity);
  try {
    return std::make_shared<Storage>(PassKey{}, p, nbytes, capacity, nullptr, nullptr);
  } catch (...) {
    CachingAllocator::instance().release(p, capacity);
    throw;
  }
}

std::shared_ptr<Storage> Storage::adopt(void* data, int64_t nbytes, Deleter deleter,
                                        void* user_data, Device device) {
  return std::make_shared<Storage>(PassKey{}, data, nbytes, 0, deleter, user_data, device);
}

std::shared_ptr<Storage> Storage::adopt_device(Device device, void* data, int64_t nbytes,
                                               DeviceRelease release) {
  try {
    return std::make_shared<Storage>(PassKey{}, device, data, nbytes, release);
  } catch (...) {
    release(device, data, nbytes);
    throw;
  }
}

Storage::~Storage() {
  if (device_release_)
    device_release_(device_, data_, nbytes_);
  else if (capacity_ != 0)
    CachingAllocator::instance().release(data_, capacity_);
  else if (deleter_)
    deleter_(data_, user_data_);
}

} // namespace tfe
