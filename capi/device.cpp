// Devices: counting them, asking where a tensor lives, the one explicit transfer, and the
// scopes that create on a device (tenferro/tensor.h, docs/cuda.md).
#include "backend/device/plugin.hpp"
#include "capi/guard.hpp"
#include "capi/handles.hpp"
#include "capi/op_call.hpp"

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
    // A missing device is reported before anything is recorded or scheduled.
    if (!to.is_cpu()) (void)device::serving(to);
    if (t->value.symbolic())
      fail(Status::NotSupported,
           "t is a traced tensor; a program runs on the device of the arguments it is called "
           "with");
    // The transfer is an op: recorded for derivatives when t is tracked, a task of the graph in
    // a dataflow context, run at once otherwise. Its derivative is the transfer back.
    capi::run_op(
        t->ctx,
        [&](const auto& v) {
          using V = std::decay_t<decltype(v)>;
          Device from;
          if constexpr (std::is_same_v<V, Tensor>)
            from = v.device();
          else if constexpr (std::is_same_v<V, ad::recording::Recorded>)
            from = v.value.device();
          else if constexpr (std::is_same_v<V, dataflow::TensorVar>)
            from = v.device();
          else
            fail(Status::NotSupported, "t is a traced tensor"); // refused above
          std::array<V, 1> in{v};
          return eager::call<V>(ops::OpCode::Transfer, std::span<const V>(in),
                                ops::TransferParams{from, to});
        },
        [&](auto result) { *out = new_tensor(t->ctx, std::move(result)); }, capi::Arg{t, "t"});
  });
}

tfe_status tfe_device_scope_enter(tfe_context* ctx, int32_t kind, int32_t ordinal) {
  return guarded("tfe_device_scope_enter", [&] {
    require(ctx, "ctx");
    Device d = device_arg(kind, ordinal);
    if (!d.is_cpu()) (void)device::serving(d);
    ctx->enter_device_scope(d);
  });
}

tfe_status tfe_device_scope_exit(tfe_context* ctx) {
  return guarded("tfe_device_scope_exit", [&] { require(ctx, "ctx")->exit_device_scope(); });
}

} // extern "C"
