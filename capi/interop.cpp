// Zero-copy exchange: adopting caller buffers and DLPack export/import (tenferro/interop.h).
#include <memory>
#include <vector>

#include "capi/dlpack_abi.hpp"
#include "backend/device/plugin.hpp"
#include "capi/guard.hpp"

using namespace tfe;
using namespace tfe::capi;

namespace {

// Bool bytes must already be 0 or 1: adopted memory is never rewritten.
void require_bool_bytes(const Tensor& t) {
  bool bad = false;
  Dims idx(static_cast<size_t>(t.ndim()), 0);
  int64_t n = t.numel();
  const auto* base = reinterpret_cast<const unsigned char*>(t.raw_data());
  for (int64_t i = 0; i < n && !bad; ++i) {
    int64_t off = 0;
    for (size_t d = 0; d < idx.size(); ++d) off += idx[d] * t.strides()[d];
    bad = base[off] > 1;
    for (size_t d = 0; d < idx.size(); ++d) {
      if (++idx[d] < t.shape()[d]) break;
      idx[d] = 0;
    }
  }
  if (bad) fail(Status::InvalidArgument, "a Bool buffer holds a byte other than 0 or 1");
}

// Builds the adopting tensor; the storage calls deleter(data, user) only if this succeeds.
Tensor adopt(DType dt, Dims shape, Dims strides, void* data, Storage::Deleter deleter, void* user,
             Device device = {}) {
  if (shape.size() != strides.size())
    fail(Status::InvalidArgument, "shape and strides differ in length");
  checked_numel(shape);
  if (numel_of(shape) > 0) {
    require(data, "data");
    if (reinterpret_cast<uintptr_t>(data) % static_cast<uintptr_t>(itemsize(dt)) != 0)
      fail(Status::InvalidArgument, "data %p is not aligned to the %lld-byte element size", data,
           (long long)itemsize(dt));
  }
  // Device memory cannot be read here: its Bool bytes are the exporter's promise.
  if (device.is_cpu()) {
    Tensor probe(Storage::adopt(data, 0, nullptr, nullptr), dt, shape, strides, 0);
    if (dt == DType::Bool && probe.numel() > 0) require_bool_bytes(probe);
  }
  return Tensor(Storage::adopt(data, 0, deleter, user, device), dt, std::move(shape),
                std::move(strides), 0);
}

struct DLPackExport {
  Tensor value; // keeps the storage alive
  Dims shape, strides;
  DLManagedTensor legacy{};
  DLManagedTensorVersioned versioned{};
};

DLDataType dl_dtype(DType d) {
  switch (d) {
  case DType::Bool: return {kDLBool, 8, 1};
  case DType::I32: return {kDLInt, 32, 1};
  case DType::I64: return {kDLInt, 64, 1};
  case DType::F32: return {kDLFloat, 32, 1};
  case DType::F64: return {kDLFloat, 64, 1};
  case DType::C32: return {kDLComplex, 64, 1};
  case DType::C64: return {kDLComplex, 128, 1};
  }
  return {kDLFloat, 64, 1};
}

DType from_dl_dtype(DLDataType t) {
  if (t.lanes != 1)
    fail(Status::NotSupported, "DLPack lanes %u are not supported (only 1)", t.lanes);
  if (t.code == kDLBool && t.bits == 8) return DType::Bool;
  if (t.code == kDLInt && t.bits == 32) return DType::I32;
  if (t.code == kDLInt && t.bits == 64) return DType::I64;
  if (t.code == kDLFloat && t.bits == 32) return DType::F32;
  if (t.code == kDLFloat && t.bits == 64) return DType::F64;
  if (t.code == kDLComplex && t.bits == 64) return DType::C32;
  if (t.code == kDLComplex && t.bits == 128) return DType::C64;
  fail(Status::NotSupported, "DLPack dtype code %u with %u bits has no tenferro dtype", t.code,
       t.bits);
}

// The export record for t: keeps t's storage alive and owns the shape/stride arrays DLPack points
// into.
std::unique_ptr<DLPackExport> make_export(const tfe_tensor* t) {
  auto e = std::make_unique<DLPackExport>();
  e->value = concrete_value(t, "t");
  e->shape = e->value.shape();
  e->strides = e->value.strides();
  return e;
}

DLTensor fill_dl(DLPackExport& e) {
  DLTensor t{};
  t.data = e.value.raw_data();
  Device d = e.value.device();
  t.device = d.is_cpu() ? DLDevice{kDLCPU, 0} : DLDevice{kDLCUDA, d.ordinal};
  t.ndim = static_cast<int32_t>(e.shape.size());
  t.dtype = dl_dtype(e.value.dtype());
  t.shape = e.shape.data();
  t.strides = e.strides.data();
  t.byte_offset = 0;
  return t;
}

template <class Managed> Tensor import_dl(Managed* src) {
  require(src, "src");
  const DLTensor& t = src->dl_tensor;
  Device device{};
  if (t.device.device_type == kDLCUDA) {
    device = Device{DeviceKind::Cuda, t.device.device_id};
    device::serving(device); // a Device error unless that CUDA device exists here
  } else if (t.device.device_type != kDLCPU) {
    fail(Status::NotSupported, "DLPack device type %d is neither the CPU nor CUDA",
         static_cast<int>(t.device.device_type));
  }
  DType dt = from_dl_dtype(t.dtype);
  if (t.ndim < 0) fail(Status::InvalidArgument, "DLPack ndim %d is negative", t.ndim);
  Dims shape(static_cast<size_t>(t.ndim)), strides(static_cast<size_t>(t.ndim));
  if (t.ndim > 0) require(t.shape, "dl_tensor.shape");
  for (int32_t i = 0; i < t.ndim; ++i) shape[static_cast<size_t>(i)] = t.shape[i];
  // The element count first (negative extents, overflow, the per-tensor limit): the strides
  // below are then products of a valid shape.
  int64_t numel = checked_numel(shape);
  if (t.strides) {
    for (int32_t i = 0; i < t.ndim; ++i) strides[static_cast<size_t>(i)] = t.strides[i];
  } else {
    int64_t acc = 1; // the spec: NULL strides mean compact row-major
    for (int32_t i = t.ndim - 1; i >= 0; --i) {
      strides[static_cast<size_t>(i)] = acc;
      // Cannot overflow with elements; without any, strides address nothing and stop growing.
      if (numel > 0) acc *= std::max<int64_t>(shape[static_cast<size_t>(i)], 1);
    }
  }
  if (t.byte_offset % static_cast<uint64_t>(itemsize(dt)) != 0)
    fail(Status::InvalidArgument, "DLPack byte_offset %llu is not a multiple of the element size",
         (unsigned long long)t.byte_offset);
  // No element, no address: a NULL data pointer with an offset is not offset.
  void* data = numel == 0 || !t.data ? t.data : static_cast<std::byte*>(t.data) + t.byte_offset;
  auto call_deleter = [](void*, void* user) {
    auto* m = static_cast<Managed*>(user);
    if (m->deleter) m->deleter(m);
  };
  return adopt(dt, std::move(shape), std::move(strides), data, call_deleter, src, device);
}

} // namespace

extern "C" {

tfe_status tfe_tensor_from_buffer(tfe_tensor** out, tfe_context* ctx, int32_t dtype, int32_t ndim,
                                  const int64_t* shape, const int64_t* strides, void* data,
                                  tfe_deleter deleter, void* user_data) {
  return guarded("tfe_tensor_from_buffer", [&] {
    out_slot(out);
    require(ctx, "ctx");
    Layout l = layout_arg(dtype, ndim, shape, strides);
    // The handle exists before the storage takes ownership: nothing after that can fail, so a
    // failed call never runs the caller's deleter.
    auto handle = std::make_unique<tfe_tensor>(ctx, Tensor{});
    handle->value.set_concrete(*ctx, adopt(l.dtype, l.shape, l.strides, data, deleter, user_data));
    *out = handle.release();
  });
}

tfe_status tfe_tensor_to_dlpack(DLManagedTensor** out, const tfe_tensor* t) {
  return guarded("tfe_tensor_to_dlpack", [&] {
    out_slot(out);
    auto e = make_export(t);
    e->legacy.dl_tensor = fill_dl(*e);
    e->legacy.manager_ctx = e.get();
    e->legacy.deleter = [](DLManagedTensor* self) {
      std::unique_ptr<DLPackExport> owned(static_cast<DLPackExport*>(self->manager_ctx));
    };
    *out = &e.release()->legacy;
  });
}

tfe_status tfe_tensor_to_dlpack_versioned(DLManagedTensorVersioned** out, const tfe_tensor* t) {
  return guarded("tfe_tensor_to_dlpack_versioned", [&] {
    out_slot(out);
    auto e = make_export(t);
    e->versioned.version = {kDLPackMajorVersion, kDLPackMinorVersion};
    e->versioned.flags = kDLPackFlagReadOnly;
    e->versioned.dl_tensor = fill_dl(*e);
    e->versioned.manager_ctx = e.get();
    e->versioned.deleter = [](DLManagedTensorVersioned* self) {
      std::unique_ptr<DLPackExport> owned(static_cast<DLPackExport*>(self->manager_ctx));
    };
    *out = &e.release()->versioned;
  });
}

tfe_status tfe_tensor_from_dlpack(tfe_tensor** out, tfe_context* ctx, DLManagedTensor* src) {
  return guarded("tfe_tensor_from_dlpack", [&] {
    out_slot(out);
    require(ctx, "ctx");
    auto handle = std::make_unique<tfe_tensor>(ctx, Tensor{});
    handle->value.set_concrete(*ctx, import_dl(src));
    *out = handle.release();
  });
}

tfe_status tfe_tensor_from_dlpack_versioned(tfe_tensor** out, tfe_context* ctx,
                                            DLManagedTensorVersioned* src) {
  return guarded("tfe_tensor_from_dlpack_versioned", [&] {
    out_slot(out);
    require(ctx, "ctx");
    require(src, "src");
    if (src->version.major != kDLPackMajorVersion)
      fail(Status::NotSupported, "DLPack major version %u is not supported (only %u)",
           src->version.major, kDLPackMajorVersion);
    auto handle = std::make_unique<tfe_tensor>(ctx, Tensor{});
    handle->value.set_concrete(*ctx, import_dl(src));
    *out = handle.release();
  });
}

} // extern "C"
