// Loading the device plugin and moving memory through it (plugin.hpp).
#include "backend/device/plugin.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>

#include "backend/cpu/kernels/kernels.hpp"
#include "core/error.hpp"

namespace tfe::device {
namespace {

struct Loaded {
  const tfe_device_plugin* api = nullptr;
  std::string why;
  int32_t count = 0;
};

// The directory of the shared object that holds this function: libtenferro.so in an install,
// where its plugin sits beside it.
std::string own_directory() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&own_directory), &info) == 0 || !info.dli_fname) return {};
  std::string path = info.dli_fname;
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

Loaded load() {
  Loaded out;
  std::string tried;
  void* handle = nullptr;
  auto attempt = [&](const std::string& path) {
    handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char* e = dlerror();
      tried += (tried.empty() ? "" : "; ") + std::string(e ? e : path.c_str());
    }
    return handle != nullptr;
  };
  if (const char* env = std::getenv("TFE_CUDA_PLUGIN"); env && *env) {
    attempt(env);
  } else if (!attempt(own_directory() + "libtenferro_cuda.so")) {
    attempt("libtenferro_cuda.so");
  }
  if (!handle) {
    out.why = "the CUDA plugin could not be loaded (" + tried + ")";
    return out;
  }
  // The handle is kept for the life of the process: device memory and kernels may be in use
  // until exit, so the plugin is never unloaded.
  auto entry = reinterpret_cast<tfe_device_plugin_entry>(dlsym(handle, TFE_DEVICE_PLUGIN_ENTRY));
  const tfe_device_plugin* api = entry ? entry() : nullptr;
  if (!api) {
    out.why = "the CUDA plugin has no " TFE_DEVICE_PLUGIN_ENTRY " entry";
    return out;
  }
  if (api->abi != TFE_DEVICE_PLUGIN_ABI || api->struct_size < sizeof(tfe_device_plugin)) {
    out.why =
        strformat("the CUDA plugin was built for plugin ABI %u (size %u); this library "
                  "needs ABI %d (size %zu)",
                  api->abi, api->struct_size, TFE_DEVICE_PLUGIN_ABI, sizeof(tfe_device_plugin));
    return out;
  }
  int32_t count = 0;
  if (api->device_count(&count) != 0 || count < 0) {
    out.why = std::string("the CUDA plugin could not count devices: ") + api->last_error();
    return out;
  }
  out.api = api;
  out.count = count;
  if (count == 0) out.why = "no CUDA device is present";
  return out;
}

const Loaded& loaded() {
  static const Loaded state = load(); // thread-safe once (magic static)
  return state;
}

void release_device_memory(Device d, void* data, int64_t nbytes) {
  // Storage destructors cannot throw; the plugin takes the block back into its cache.
  plugin()->release(d.ordinal, data, static_cast<size_t>(nbytes));
}

} // namespace

const tfe_device_plugin* plugin() { return loaded().api; }
const std::string& why_unavailable() { return loaded().why; }
int32_t cuda_device_count() { return loaded().api ? loaded().count : 0; }

const tfe_device_plugin& serving(Device d) {
  const Loaded& s = loaded();
  if (d.kind != DeviceKind::Cuda)
    fail(Status::Internal, "no plugin serves device %s", device_name(d).c_str());
  if (!s.api || s.count == 0)
    fail(Status::Device, "%s is not available: %s", device_name(d).c_str(), s.why.c_str());
  if (d.ordinal < 0 || d.ordinal >= s.count)
    fail(Status::Device, "%s does not exist (this machine has %s)", device_name(d).c_str(),
         count_of(s.count, "CUDA device").c_str());
  return *s.api;
}

void check(const tfe_device_plugin& api, int32_t status, const char* what) {
  if (status == 0) return;
  const char* msg = api.last_error();
  Status st = status >= 1 && status <= 10 ? static_cast<Status>(status) : Status::Device;
  fail(st, "%s failed: %s", what, msg && *msg ? msg : "no message");
}

Tensor empty(Device d, DType dtype, const Dims& shape) {
  if (d.is_cpu()) return Tensor::empty(dtype, shape);
  const tfe_device_plugin& api = serving(d);
  int64_t nbytes = checked_numel(shape) * itemsize(dtype);
  void* p = nullptr;
  check(api, api.allocate(d.ordinal, static_cast<size_t>(nbytes), &p), "device allocation");
  auto storage = Storage::adopt_device(d, p, nbytes, &release_device_memory);
  return Tensor(std::move(storage), dtype, shape, compact_strides(shape), 0);
}

tfe_dev_view view_of(const Tensor& t) {
  return {t.numel() == 0 ? nullptr : static_cast<void*>(t.raw_data()),
          static_cast<int32_t>(t.dtype()), static_cast<int32_t>(t.ndim()), t.shape().data(),
          t.strides().data()};
}

Tensor to_device(const Tensor& t, Device to) {
  Device from = t.device();
  if (from == to) return t;
  if (from.is_cpu()) {
    const tfe_device_plugin& api = serving(to);
    Tensor host = t;
    if (!host.is_compact() || host.offset() != 0) {
      host = Tensor::empty(t.dtype(), t.shape());
      cpu::kernels::copy_into(host, t);
    }
    Tensor out = empty(to, t.dtype(), t.shape());
    if (out.nbytes() > 0)
      check(api,
            api.copy_to_device(to.ordinal, out.raw_data(), host.raw_data(),
                               static_cast<size_t>(out.nbytes())),
            "copy to the device");
    return out;
  }
  const tfe_device_plugin& api = serving(from);
  // A strided device view is made compact on its device first, so one transfer moves it.
  Tensor src = t;
  if (!src.is_compact()) {
    src = empty(from, t.dtype(), t.shape());
    tfe_dev_view o = view_of(src), i = view_of(t);
    if (src.numel() > 0)
      check(api, api.copy_strided(from.ordinal, &o, &i), "a strided copy on the device");
  }
  if (to.is_cpu()) {
    Tensor out = Tensor::empty(t.dtype(), t.shape());
    if (out.nbytes() > 0)
      check(api,
            api.copy_to_host(from.ordinal, out.raw_data(), src.raw_data(),
                             static_cast<size_t>(out.nbytes())),
            "copy to the host");
    return out;
  }
  // Between two devices: through the host, which needs no peer access.
  return to_device(to_device(src, Device{}), to);
}

} // namespace tfe::device
