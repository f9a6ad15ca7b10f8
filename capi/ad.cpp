// Eager AD entry points (tenferro/ad.h): variables, backward and stored gradients, functional
// vjp/jvp, scopes. The work is in src/ad/eager/; this file checks arguments and maps handles.
#include <memory>

#include "ad/eager/engine.hpp"
#include "capi/ad_dataflow.hpp"
#include "capi/op_call.hpp"

using namespace tfe;
using namespace tfe::capi;
namespace ae = tfe::ad::eager;

namespace {

ae::Caches caches_of(tfe_context* ctx) { return {ctx->derivatives, ctx->compiled}; }

const tfe_tensor* concrete_handle(const tfe_tensor* t, const char* name) {
  concrete_value(t, name); // NULL and symbolic checks
  return t;
}

void same_context(const tfe_tensor* a, const tfe_tensor* b, const char* an, const char* bn) {
  if (a && b && a->ctx != b->ctx)
    fail(Status::InvalidArgument, "'%s' and '%s' belong to different contexts", an, bn);
}

bool recording(const tfe_context* ctx) { return recording_state(ctx).no_grad == 0; }

} // namespace

extern "C" {

tfe_status tfe_tensor_set_requires_grad(tfe_tensor* t, int32_t flag) {
  return guarded("tfe_tensor_set_requires_grad", [&] {
    if (require(t, "t")->is_dataflow()) return dataflow_ad::set_requires_grad(t, flag != 0);
    concrete_handle(t, "t");
    if (t->is_tracked() && t->trace.node->kind == ae::RawKind::Op)
      fail(Status::InvalidArgument,
           "'t' is the result of a recorded op, not a leaf (use tfe_tensor_detach)");
    if (!flag) {
      t->trace = {};
      return;
    }
    if (!is_inexact(t->value.dtype()))
      fail(Status::DtypeMismatch, "%s tensor cannot be a variable (float or complex only)",
           std::string(dtype_phrase(t->value.dtype())).c_str());
    if (!t->is_tracked() || t->trace.node->kind != ae::RawKind::TrackedLeaf)
      t->trace = ae::tracked_leaf(t->value);
  });
}

tfe_status tfe_tensor_requires_grad(const tfe_tensor* t, int32_t* out) {
  return guarded("tfe_tensor_requires_grad", [&] {
    require(out, "out");
    bool tracked = require(t, "t")->is_dataflow() ? dataflow_ad::requires_grad(t) : t->is_tracked();
    *out = tracked ? 1 : 0;
  });
}

tfe_status tfe_backward(tfe_tensor* loss, const tfe_tensor* seed) {
  return guarded("tfe_backward", [&] {
    if (require(loss, "loss")->is_dataflow()) {
      same_context(loss, seed, "loss", "seed");
      return dataflow_ad::backward(loss, seed);
    }
    concrete_handle(loss, "loss");
    std::optional<Tensor> s;
    if (seed) {
      s = concrete_value(seed, "seed");
      same_context(loss, seed, "loss", "seed");
    }
    ae::Caches c = caches_of(loss->ctx);
    ae::commit(ae::backward(loss->recorded(), s, c));
  });
}

tfe_status tfe_tensor_grad(tfe_tensor** out, const tfe_tensor* t) {
  return guarded("tfe_tensor_grad", [&] {
    out_slot(out);
    if (require(t, "t")->is_dataflow()) {
      *out = dataflow_ad::grad(t);
      return;
    }
    concrete_handle(t, "t");
    if (!t->is_tracked() || t->trace.node->kind != ae::RawKind::TrackedLeaf) return;
    std::optional<Tensor> g;
    {
      std::lock_guard lock(t->trace.node->leaf->mutex);
      g = t->trace.node->leaf->grad;
    }
    if (g) *out = new_tensor(t->ctx, std::move(*g));
  });
}

tfe_status tfe_tensor_clear_grad(tfe_tensor* t) {
  return guarded("tfe_tensor_clear_grad", [&] {
    if (require(t, "t")->is_dataflow()) return dataflow_ad::clear_grad(t);
    concrete_handle(t, "t");
    if (!t->is_tracked() || t->trace.node->kind != ae::RawKind::TrackedLeaf) return;
    std::lock_guard lock(t->trace.node->leaf->mutex);
    t->trace.node->leaf->grad.reset();
  });
}

tfe_status tfe_tensor_detach(tfe_tensor** out, const tfe_tensor* t) {
  return guarded("tfe_tensor_detach", [&] {
    out_slot(out);
    if (require(t, "t")->is_dataflow()) {
      *out = dataflow_ad::detach(t);
      return;
    }
    *out = new_tensor(t->ctx, concrete_value(t, "t"));
  });
}

tfe_status tfe_vjp(tfe_tensor** out_grads, const tfe_tensor* y, int32_t n, tfe_tensor* const* xs,
                   const tfe_tensor* seed) {
  if (n > 0 && out_grads)
    for (int32_t i = 0; i < n; ++i) out_grads[i] = nullptr;
  return guarded("tfe_vjp", [&] {
    if (n < 0) fail(Status::InvalidArgument, "n %d is negative", n);
    if (n > 0) require(out_grads, "out_grads");
    if (require(y, "y")->ctx->is_dataflow()) dataflow_ad::not_supported("tfe_vjp");
    concrete_handle(y, "y");
    if (n > 0) require(xs, "xs");
    std::vector<ae::Recorded> x;
    for (int32_t i = 0; i < n; ++i) {
      std::string name = "xs[" + std::to_string(i) + "]";
      concrete_handle(xs[i], name.c_str());
      same_context(y, xs[i], "y", name.c_str());
      x.push_back(xs[i]->recorded());
    }
    std::optional<ae::Recorded> s;
    if (seed) {
      concrete_handle(seed, "seed");
      same_context(y, seed, "y", "seed");
      s = seed->recorded();
    }
    ae::Caches c = caches_of(y->ctx);
    std::vector<std::optional<ae::Recorded>> g = ae::vjp(y->recorded(), x, s, c, recording(y->ctx));
    std::vector<std::unique_ptr<tfe_tensor>> handles(static_cast<size_t>(n));
    for (int32_t i = 0; i < n; ++i)
      if (g[static_cast<size_t>(i)])
        handles[static_cast<size_t>(i)].reset(new_tensor(y->ctx, *g[static_cast<size_t>(i)]));
    for (int32_t i = 0; i < n; ++i) out_grads[i] = handles[static_cast<size_t>(i)].release();
  });
}

tfe_status tfe_jvp(tfe_tensor** out, const tfe_tensor* y, int32_t n, tfe_tensor* const* xs,
                   tfe_tensor* const* tangents) {
  return guarded("tfe_jvp", [&] {
    out_slot(out);
    if (n < 0) fail(Status::InvalidArgument, "n %d is negative", n);
    if (require(y, "y")->ctx->is_dataflow()) dataflow_ad::not_supported("tfe_jvp");
    concrete_handle(y, "y");
    if (n > 0) {
      require(xs, "xs");
      require(tangents, "tangents");
    }
    std::vector<ae::Recorded> x;
    std::vector<std::optional<ae::Recorded>> t;
    for (int32_t i = 0; i < n; ++i) {
      std::string name = "xs[" + std::to_string(i) + "]";
      concrete_handle(xs[i], name.c_str());
      same_context(y, xs[i], "y", name.c_str());
      x.push_back(xs[i]->recorded());
      if (tangents[i]) {
        std::string tname = "tangents[" + std::to_string(i) + "]";
        concrete_handle(tangents[i], tname.c_str());
        same_context(y, tangents[i], "y", tname.c_str());
        t.push_back(tangents[i]->recorded());
      } else {
        t.emplace_back();
      }
    }
    ae::Caches c = caches_of(y->ctx);
    std::optional<ae::Recorded> r = ae::jvp(y->recorded(), x, t, c, recording(y->ctx));
    if (r) *out = new_tensor(y->ctx, std::move(*r));
  });
}

tfe_status tfe_no_grad_enter(tfe_context* ctx) {
  return guarded("tfe_no_grad_enter", [&] { enter_scope(require(ctx, "ctx"), false); });
}
tfe_status tfe_no_grad_exit(tfe_context* ctx) {
  return guarded("tfe_no_grad_exit", [&] { exit_scope(require(ctx, "ctx"), false); });
}
tfe_status tfe_capture_trace_enter(tfe_context* ctx) {
  return guarded("tfe_capture_trace_enter", [&] {
    if (require(ctx, "ctx")->is_dataflow()) dataflow_ad::not_supported("capture_trace");
    enter_scope(ctx, true);
  });
}
tfe_status tfe_capture_trace_exit(tfe_context* ctx) {
  return guarded("tfe_capture_trace_exit", [&] { exit_scope(require(ctx, "ctx"), true); });
}

} // extern "C"
