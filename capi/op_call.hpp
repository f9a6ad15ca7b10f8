// The shape of almost every op entry point: check the output slot and the input handles, find
// their one context, compute the result with the eager layer, hand back a new handle.
#pragma once

#include "capi/guard.hpp"
#include "capi/ad_scopes.hpp"
#include "eager/surface.hpp"

namespace tfe::capi {

struct Arg {
  const tfe_tensor* t;
  const char* name;
};

// Whether an op with (some) tracked operands records: not under no_grad; untracked operands
// record only under capture_trace.
inline bool should_record(const tfe_context* ctx, bool any_tracked) {
  RecordingState s = recording_state(ctx);
  if (s.no_grad > 0) return false;
  return any_tracked || s.capture > 0;
}

// Under capture_trace an untracked operand becomes an active captured leaf: its handle keeps that
// leaf, so tfe_vjp/tfe_jvp can differentiate with respect to it (documented in tenferro/ad.h).
inline void capture_leaf(const tfe_tensor* t) {
  if (!t->is_tracked()) const_cast<tfe_tensor*>(t)->trace = ad::eager::captured_leaf(t->value);
}

// compute is generic over the value type, and one of three runs it (all through the same
// surface code, eager/surface.hpp):
//   a symbolic operand            -> graph::Value: append to a traced program (concrete operands
//                                    become captured constants);
//   a tracked operand or capture  -> ad::eager::Recorded: run eagerly and append raw nodes to the
//                                    AD trace (unless no_grad is active);
//   otherwise                     -> Tensor: run eagerly; the only AD cost is the checks above.
template <class F, class... Args>
tfe_status op_call(const char* fn, tfe_tensor** out, F&& compute, Args... args) noexcept {
  return guarded(fn, [&] {
    out_slot(out);
    tfe_context* ctx = common_context({{args.t, args.name}...});
    if ((args.t->is_traced() || ...)) {
      graph::Value result = compute(as_traced(args.t)...);
      *out = new_tensor(ctx, std::move(result));
      return;
    }
    if (should_record(ctx, (args.t->is_tracked() || ...))) {
      bool capturing = recording_state(ctx).capture > 0;
      if (capturing) (capture_leaf(args.t), ...);
      ad::eager::CaptureScope capture(capturing);
      ad::eager::Recorded result = compute(args.t->operand()...);
      *out = new_tensor(ctx, std::move(result));
      return;
    }
    Tensor result = compute(args.t->value...);
    *out = new_tensor(ctx, std::move(result));
  });
}

// Handles of an array argument (NULL allowed when n == 0), all of one context, in the value type
// op_call would choose: traced when any is symbolic, recorded when any is tracked (or capture),
// else plain values.
struct TensorList {
  tfe_context* ctx = nullptr;
  std::vector<Tensor> values;
  std::vector<graph::Value> traced;
  std::vector<ad::eager::Recorded> recorded;
  bool is_traced() const { return !traced.empty(); }
  bool is_recorded() const { return !recorded.empty(); }
};
TensorList tensor_list(int32_t n, tfe_tensor* const* xs, const char* name);

template <class V> int64_t rank_of(const V& v) {
  return static_cast<int64_t>(meta_of(v).shape.size());
}

} // namespace tfe::capi
