// Names of devices (device.hpp).
#include "core/device.hpp"

namespace tfe {

std::string device_name(Device d) {
  if (d.is_cpu()) return "cpu";
  return "cuda:" + std::to_string(d.ordinal);
}

} // namespace tfe
