// Devices: counting them, asking where a tensor lives, and the one explicit transfer
// (tenferro/tensor.h, docs/cuda.md).
#include "backend/device/plugin.hpp"
#include "capi/guard.hpp"
#include "capi/handles.hpp"
#include "runtime/ad.hpp"

using namespace tfe;
using namespace tfe::capi;

namespace {

Device device_arg(int32_t kind, int32_t ordinal) {
  if (kind == TFE_DEVICE_CPU) {
    if (ordinal != 0)
      fail(Status::InvalidArgument, "the CPU has ordinal 0, not %d", static_cast<int>(ordinal));
    return {};
  }
  if (kind != TFE_DEVICE_CUDA)
    fail(Status::InvalidArgument,
         "kind %d is not a device kind (TFE_DEVICE_CPU = 1, TFE_DEVICE_CUDA = 2)",
         static_cast<int>(kind));
  if (ordinal < 0)
    fail(Status::InvalidArgument, "ordinal %d is negative", static_cast<int>(ordinal));
  return {DeviceKind::Cuda, ordinal};
}

} // namespace

extern "C" {

tfe_status tfe_device_count(int32_t* out) {
  return guarded("tfe_device_count", [&] { *require(out, "out") = device::cuda_device_count(); });
}

tfe_status tfe_tensor_device(const tfe_tensor* t, int32_t* kind, int32_t* ordinal) {
  return guarded("tfe_tensor_device", [&] {
    require(t, "t");
    require(kind, "kind");
    Device d = t->value.symbolic() ? Device{} : t->value.resolved(*t->ctx).device();
    *kind = d.is_cpu() ? TFE_DEVICE_CPU : TFE_DEVICE_CUDA;
    if (ordinal) *ordinal = d.ordinal;
  });
}

tfe_status tfe_tensor_to_device(tfe_tensor** out, const tfe_tensor* t, int32_t kind,
                                int32_t ordinal) {
  return guarded("tfe_tensor_to_device", [&] {
    out_slot(out);
    require(t, "t");
    Device to = device_arg(kind, ordinal);
    // A missing device is reported before a dataflow tensor is waited for (whose own failure
    // would otherwise hide it).
    if (!to.is_cpu()) (void)device::serving(to);
    const runtime::Value& v = t->value;
    if (v.symbolic())
      fail(Status::NotSupported,
           "t is a traced tensor; a program runs on the device of the arguments it is called "
           "with");
    if (v.tracked() || runtime::requires_grad(v))
      fail(Status::NotSupported,
           "t is tracked for derivatives and transfers are not differentiable yet: move the "
           "tensor before tfe_tensor_set_requires_grad, or detach it");
    // A dataflow tensor is waited for; the copy is a new leaf of the same context.
    *out = new_tensor(t->ctx, device::to_device(v.resolved(*t->ctx), to));
  });
}

} // extern "C"
