// The shape of almost every op entry point: check the output slot and the input handles, find
// their one context, compute the result with the eager layer, hand back a new handle.
#pragma once

#include "capi/guard.hpp"
#include "eager/surface.hpp"

namespace tfe::capi {

struct Arg {
  const tfe_tensor* t;
  const char* name;
};

// compute is generic over the value type: it runs eagerly on Tensors when every operand is
// concrete, and appends to a traced program (concrete operands become captured constants) when
// any operand is symbolic. Both go through the same surface code (eager/surface.hpp).
template <class F, class... Args>
tfe_status op_call(const char* fn, tfe_tensor** out, F&& compute, Args... args) noexcept {
  return guarded(fn, [&] {
    out_slot(out);
    tfe_context* ctx = common_context({{args.t, args.name}...});
    if ((args.t->is_traced() || ...)) {
      graph::Value result = compute(as_traced(args.t)...);
      *out = new_tensor(ctx, std::move(result));
    } else {
      Tensor result = compute(args.t->value...);
      *out = new_tensor(ctx, std::move(result));
    }
  });
}

// Handles of an array argument (NULL allowed when n == 0), all of one context; `traced` holds
// every value as a traced value when any of them is symbolic, else `values` holds them.
struct TensorList {
  tfe_context* ctx = nullptr;
  std::vector<Tensor> values;
  std::vector<graph::Value> traced;
  bool is_traced() const { return !traced.empty(); }
};
TensorList tensor_list(int32_t n, tfe_tensor* const* xs, const char* name);

template <class V> int64_t rank_of(const V& v) {
  return static_cast<int64_t>(meta_of(v).shape.size());
}

} // namespace tfe::capi
