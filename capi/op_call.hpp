// The shape of almost every op entry point: check the output slot and the input handles, find
// their one context, compute the result with the eager layer, hand back a new handle.
#pragma once

#include <array>

#include "capi/guard.hpp"
#include "capi/ad_scopes.hpp"
#include "dataflow/tensor/surface.hpp"
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

// An operand in a dataflow context: its engine tensor, or under no_grad an untracked view of it.
inline dataflow::TensorVar flow_operand(const tfe_tensor* t, bool no_grad) {
  return no_grad ? t->flow.as_leaf(false) : t->flow;
}

// compute is generic over the value type, and one of four runs it (all through the same
// surface code, eager/surface.hpp):
//   a symbolic operand            -> graph::Value: append to a traced program (concrete operands
//                                    become captured constants);
//   a dataflow context            -> dataflow::TensorVar: schedule the forward and reverse work
//                                    and return at once (shapes and dtypes are checked now);
//   a tracked operand or capture  -> ad::eager::Recorded: run eagerly and append raw nodes to the
//                                    AD trace (unless no_grad is active);
//   otherwise                     -> Tensor: run eagerly; the only AD cost is the checks above.
// deliver receives compute's result (one value or a vector of them).
template <class F, class Deliver, class... Args>
void run_op(tfe_context* ctx, F&& compute, Deliver&& deliver, Args... args) {
  if ((args.t->is_traced() || ...)) {
    deliver(compute(as_traced(args.t)...));
    return;
  }
  if (ctx->is_dataflow()) {
    dataflow::ScopedScheduler scope(*ctx->scheduler);
    bool no_grad = recording_state(ctx).no_grad > 0;
    deliver(compute(flow_operand(args.t, no_grad)...));
    return;
  }
  if (should_record(ctx, (args.t->is_tracked() || ...))) {
    bool capturing = recording_state(ctx).capture > 0;
    if (capturing) (capture_leaf(args.t), ...);
    ad::eager::CaptureScope capture(capturing);
    deliver(compute(args.t->operand()...));
    return;
  }
  deliver(compute(args.t->value...));
}

template <class F, class... Args>
tfe_status op_call(const char* fn, tfe_tensor** out, F&& compute, Args... args) noexcept {
  return guarded(fn, [&] {
    out_slot(out);
    tfe_context* ctx = common_context({{args.t, args.name}...});
    run_op(
        ctx, compute, [&](auto result) { *out = new_tensor(ctx, std::move(result)); }, args...);
  });
}

// Runs one IR op through the op surface (promotion plan + left-aligned broadcasting), generic
// over the value type run_op chooses.
template <ops::OpCode Op> struct Run {
  template <class V, class... Vs> V operator()(const V& a, const Vs&... rest) const {
    std::array<V, 1 + sizeof...(Vs)> in{a, rest...};
    return eager::call<V>(Op, std::span<const V>(in));
  }
};

// The C entry points of the regular elementwise ops: one op, operands named x or a and b.
#define TFE_CAPI_UNARY(cname, code)                                                                \
  tfe_status cname(tfe_tensor** out, const tfe_tensor* x) {                                        \
    return ::tfe::capi::op_call(#cname, out, ::tfe::capi::Run<code>{}, ::tfe::capi::Arg{x, "x"});  \
  }
#define TFE_CAPI_BINARY(cname, code)                                                               \
  tfe_status cname(tfe_tensor** out, const tfe_tensor* a, const tfe_tensor* b) {                   \
    return ::tfe::capi::op_call(#cname, out, ::tfe::capi::Run<code>{}, ::tfe::capi::Arg{a, "a"},   \
                                ::tfe::capi::Arg{b, "b"});                                         \
  }

struct Out {
  tfe_tensor** slot;
  const char* name;
};

// An op with several outputs: compute returns a vector with one value per slot. All or none:
// on any failure every slot is NULL.
template <size_t N, class F, class... Args>
tfe_status op_call_outputs(const char* fn, const std::array<Out, N>& outs, F&& compute,
                           Args... args) noexcept {
  return guarded(fn, [&] {
    // Clear every slot the caller gave before checking any: a NULL slot among them must not
    // leave the others holding the caller's old values.
    for (const Out& o : outs)
      if (o.slot) *o.slot = nullptr;
    for (const Out& o : outs) out_slot(o.slot, o.name);
    tfe_context* ctx = common_context({{args.t, args.name}...});
    run_op(
        ctx, compute,
        [&](auto results) {
          std::array<tfe_tensor*, N> made{};
          try {
            for (size_t i = 0; i < N; ++i) made[i] = new_tensor(ctx, std::move(results.at(i)));
          } catch (...) {
            for (tfe_tensor* t : made) tfe_tensor_release(t);
            throw;
          }
          for (size_t i = 0; i < N; ++i) *outs[i].slot = made[i];
        },
        args...);
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
  std::vector<dataflow::TensorVar> flows;
  bool is_traced() const { return !traced.empty(); }
  bool is_recorded() const { return !recorded.empty(); }
  bool is_flow() const { return !flows.empty(); }
};
TensorList tensor_list(int32_t n, tfe_tensor* const* xs, const char* name);

// Entry points over an array of tensors (concatenate, stack, multi_dot): f takes a span of the
// chosen value type.
template <class F>
tfe_status list_call(const char* fn, tfe_tensor** out, int32_t n, tfe_tensor* const* xs,
                     F f) noexcept {
  return guarded(fn, [&] {
    out_slot(out);
    TensorList list = tensor_list(n, xs, "xs");
    if (list.is_traced()) {
      graph::Value v = f(std::span<const graph::Value>(list.traced));
      *out = new_tensor(list.ctx, std::move(v));
    } else if (list.is_flow()) {
      dataflow::ScopedScheduler scope(*list.ctx->scheduler);
      dataflow::TensorVar v = f(std::span<const dataflow::TensorVar>(list.flows));
      *out = new_tensor(list.ctx, std::move(v));
    } else if (list.is_recorded()) {
      ad::eager::CaptureScope capture(recording_state(list.ctx).capture > 0);
      ad::eager::Recorded v = f(std::span<const ad::eager::Recorded>(list.recorded));
      *out = new_tensor(list.ctx, std::move(v));
    } else {
      Tensor t = f(std::span<const Tensor>(list.values));
      *out = new_tensor(list.ctx, std::move(t));
    }
  });
}

// An axes array argument, NumPy-style negative axes normalised against rank.
inline Dims axes_arg(const int64_t* axes, int64_t n, int64_t rank, const char* name) {
  Dims out;
  for (int64_t a : int64_array(axes, n, name)) out.push_back(normalize_axis(a, rank));
  return out;
}

template <class V> int64_t rank_of(const V& v) {
  return static_cast<int64_t>(meta_of(v).shape.size());
}

} // namespace tfe::capi
