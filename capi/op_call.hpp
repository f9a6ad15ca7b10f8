// The shape of almost every op entry point: check the output slot and the input handles, find
// their one context, compute the result with the eager layer, hand back a new handle.
#pragma once

#include <array>

#include "capi/guard.hpp"
#include "dataflow/tensor/surface.hpp"
#include "eager/surface.hpp"
#include "runtime/dispatch.hpp"

namespace tfe::capi {

struct Arg {
  const tfe_tensor* t;
  const char* name;
};

// compute is generic over the value type; the runtime chooses the engine that runs it
// (runtime/dispatch.hpp). deliver receives compute's result (one value or a vector of them).
template <class F, class Deliver, class... Args>
void run_op(tfe_context* ctx, F&& compute, Deliver&& deliver, Args... args) {
  runtime::run(*ctx, compute, deliver, args.t->value...);
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
    // The operands are read where they are (the caller's tensors, recorded values), not copied.
    std::array<const V*, 1 + sizeof...(Vs)> in{&a, &rest...};
    return eager::call_refs<V>(Op, Refs<V>(std::span<const V* const>(in)));
  }
};

// The C entry points of the regular elementwise ops: one op, operands named as given.
#define TFE_CAPI_OP1(cname, code, x)                                                               \
  tfe_status cname(tfe_tensor** out, const tfe_tensor* x) {                                        \
    return ::tfe::capi::op_call(#cname, out, ::tfe::capi::Run<code>{}, ::tfe::capi::Arg{x, #x});   \
  }
#define TFE_CAPI_OP2(cname, code, a, b)                                                            \
  tfe_status cname(tfe_tensor** out, const tfe_tensor* a, const tfe_tensor* b) {                   \
    return ::tfe::capi::op_call(#cname, out, ::tfe::capi::Run<code>{}, ::tfe::capi::Arg{a, #a},    \
                                ::tfe::capi::Arg{b, #b});                                          \
  }
#define TFE_CAPI_UNARY(cname, code) TFE_CAPI_OP1(cname, code, x)
#define TFE_CAPI_BINARY(cname, code) TFE_CAPI_OP2(cname, code, a, b)

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

// The runtime values of an array argument (NULL allowed when n == 0), all of one context.
struct TensorList {
  tfe_context* ctx = nullptr; // NULL when n == 0
  std::vector<const runtime::Value*> values;
  // Runs f on a span of the value type the runtime chooses; deliver gets its result.
  template <class F, class Deliver> void run(F&& f, Deliver&& deliver) const {
    runtime::run_list(ctx, values, f, deliver);
  }
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
    list.run(f, [&](auto v) { *out = new_tensor(list.ctx, std::move(v)); });
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
