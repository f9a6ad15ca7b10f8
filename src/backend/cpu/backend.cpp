// The CPU backend's entry in the backend interface (backend/backend.hpp).
#include "backend/backend.hpp"

#include "backend/cpu/fused_kernel.hpp"
#include "backend/cpu/kernel.hpp"

namespace tfe::backend {

const Backend& cpu() {
  static constexpr Backend kCpu{"cpu", &cpu::kernel_for, &cpu::run_extension, &cpu::fuse};
  return kCpu;
}

} // namespace tfe::backend
