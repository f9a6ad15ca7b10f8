// Device: where a tensor's memory lives. The host is the default; an accelerator is a kind plus
// an ordinal. Placement is explicit: the library never moves a tensor to another device unless
// the user asks (tfe_tensor_to_device), so the device of every result is the device of its
// operands.
#pragma once

#include <cstdint>
#include <string>

namespace tfe {

enum class DeviceKind : uint8_t { Cpu = 0, Cuda = 1 };

struct Device {
  DeviceKind kind = DeviceKind::Cpu;
  int32_t ordinal = 0;

  bool is_cpu() const { return kind == DeviceKind::Cpu; }
  bool operator==(const Device&) const = default;
};

// "cpu" or "cuda:N", as messages and Python show it.
std::string device_name(Device d);

} // namespace tfe
