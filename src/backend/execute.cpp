// Choosing the backend by the operands' device (execute.hpp).
#include "backend/execute.hpp"

#include "backend/cpu/kernel.hpp"
#include "backend/device/kernels.hpp"
#include "core/error.hpp"

namespace tfe::backend {

Device device_of(Operands in) {
  // The common case, every operand on the host, costs one load per operand.
  size_t first = in.size();
  for (size_t i = 0; i < in.size(); ++i)
    if (!in[i].device().is_cpu()) {
      first = i;
      break;
    }
  if (first == in.size()) return in.empty() ? device::CurrentDevice::get() : Device{};
  Device d = in[first].device();
  for (size_t i = 0; i < in.size(); ++i) {
    Device e = in[i].device();
    if (e == d || is_host_scalar(in[i])) continue;
    fail(Status::Device,
         "operand %zu is on %s but operand %zu is on %s; tensors move between devices only "
         "through tfe_tensor_to_device",
         i, device_name(e).c_str(), first, device_name(d).c_str());
  }
  return d;
}

bool is_host_scalar(const Tensor& t) {
  if (!t.device().is_cpu()) return false;
  // A rank-0 tensor, or one broadcast from a single element (every stride 0 or extent 1): the
  // surface broadcasts a scalar operand to its partner's shape before the op sees it.
  for (int64_t d = 0; d < t.ndim(); ++d)
    if (t.stride(d) != 0 && t.dim(d) != 1) return false;
  return true;
}

Tensor execute(ops::OpCode code, Operands in, const ops::Params& params) {
  if (device_of(in).is_cpu()) return cpu::execute(code, in, params);
  return device::execute(code, in, params);
}

std::vector<Tensor> execute_multi(ops::OpCode code, Operands in, const ops::Params& params) {
  if (device_of(in).is_cpu()) return cpu::execute_multi(code, in, params);
  return device::execute_multi(code, in, params);
}

} // namespace tfe::backend
