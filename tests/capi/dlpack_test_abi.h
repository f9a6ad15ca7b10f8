/* The DLPack structs the tests construct by hand, written from the DLPack specification (the
 * library's header only forward-declares them). */
#ifndef TFE_DLPACK_TEST_ABI_H
#define TFE_DLPACK_TEST_ABI_H

#include <stdint.h>

struct DLTestDevice {
  int32_t device_type;
  int32_t device_id;
};
struct DLTestDataType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
};
struct DLTestTensor {
  void* data;
  struct DLTestDevice device;
  int32_t ndim;
  struct DLTestDataType dtype;
  int64_t* shape;
  int64_t* strides;
  uint64_t byte_offset;
};
struct DLManagedTensor {
  struct DLTestTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensor* self);
};
struct DLTestVersion {
  uint32_t major;
  uint32_t minor;
};
struct DLManagedTensorVersioned {
  struct DLTestVersion version;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensorVersioned* self);
  uint64_t flags;
  struct DLTestTensor dl_tensor;
};

#endif
