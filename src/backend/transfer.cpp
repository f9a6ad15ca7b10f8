// The transfer kernel (transfer.hpp).
#include "backend/transfer.hpp"

#include "backend/device/plugin.hpp"
#include "core/error.hpp"

namespace tfe::backend {

Tensor transfer(Operands in, const ops::Params& params, const ops::ConcreteMeta&) {
  const auto& p = std::get<ops::TransferParams>(params);
  if (in[0].device() != p.from)
    fail(Status::Device, "the tensor is on %s, not on %s where the transfer starts",
         device_name(in[0].device()).c_str(), device_name(p.from).c_str());
  return device::to_device(in[0], p.to);
}

} // namespace tfe::backend
