// tfe_tensor_copy_to: the typed read-back. tfe_tensor_to_data copies bytes whatever the caller
// means to read them as; this entry point first checks the element type the caller names, so a
// mismatched buffer type is an error instead of reinterpreted bytes.
#include <string>

#include "capi/guard.hpp"

using namespace tfe;
using namespace tfe::capi;

extern "C" {

tfe_status tfe_tensor_copy_to(const tfe_tensor* t, int32_t dtype, void* dst,
                              int64_t capacity_bytes) {
  return guarded("tfe_tensor_copy_to", [&] {
    DType want = require_dtype(dtype);
    const Tensor& v = concrete_value(t, "t");
    if (v.dtype() != want)
      fail(Status::DtypeMismatch, "t is %s tensor but dtype %s was requested (tfe_cast converts)",
           std::string(dtype_phrase(v.dtype())).c_str(), std::string(dtype_name(want)).c_str());
    // The copy itself is tfe_tensor_to_data's; its failure is reported under this name.
    tfe_status s = tfe_tensor_to_data(t, dst, capacity_bytes);
    if (s != TFE_OK) {
      std::string msg = tfe_last_error_message();
      const std::string prefix = "tfe_tensor_to_data: ";
      if (msg.compare(0, prefix.size(), prefix) == 0) msg.erase(0, prefix.size());
      throw Error(static_cast<Status>(s), msg);
    }
  });
}

} // extern "C"
