// The shape of almost every op entry point: check the output slot and the input handles, find
// their one context, compute the result with the eager layer, hand back a new handle.
#pragma once

#include "capi/guard.hpp"

namespace tfe::capi {

struct Arg {
  const tfe_tensor* t;
  const char* name;
};

template <class F, class... Args>
tfe_status op_call(const char* fn, tfe_tensor** out, F&& compute, Args... args) noexcept {
  return guarded(fn, [&] {
    out_slot(out);
    tfe_context* ctx = common_context({{args.t, args.name}...});
    Tensor result = compute(args.t->value...);
    *out = new_tensor(ctx, std::move(result));
  });
}

// Handles of an array argument (NULL allowed when n == 0), all of one context.
struct TensorList {
  tfe_context* ctx = nullptr;
  std::vector<Tensor> values;
};
TensorList tensor_list(int32_t n, tfe_tensor* const* xs, const char* name);

} // namespace tfe::capi
