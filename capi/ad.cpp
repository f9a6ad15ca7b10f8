// AD entry points (tenferro/ad.h): variables, backward and stored gradients, functional vjp/jvp,
// scopes. Each checks its arguments and calls the runtime (runtime/ad.hpp), which knows the
// engine of the value: eager (src/ad/recording/) or dataflow (the semantics of the "eager vs
// dataflow context" table in tenferro/tensor.h).
#include <memory>

#include "capi/op_call.hpp"
#include "runtime/ad.hpp"

using namespace tfe;
using namespace tfe::capi;

namespace {

// A non-NULL, live, non-symbolic handle (a dataflow value is not waited for).
const tfe_tensor* concrete_handle(const tfe_tensor* t, const char* name) {
  if (require(t, name)->value.symbolic())
    fail(Status::InvalidArgument, "'%s' is a symbolic tensor (a traced value has no data)", name);
  return t;
}

void same_context(const tfe_tensor* a, const tfe_tensor* b, const char* an, const char* bn) {
  if (a && b && a->ctx != b->ctx)
    fail(Status::InvalidArgument, "'%s' and '%s' belong to different contexts", an, bn);
}

// Entry i of an array argument: a concrete handle of y's context.
const runtime::Value* entry(const tfe_tensor* y, tfe_tensor* const* xs, const char* array,
                            int32_t i) {
  std::string name = std::string(array) + "[" + std::to_string(i) + "]";
  concrete_handle(xs[i], name.c_str());
  same_context(y, xs[i], "y", name.c_str());
  return &xs[i]->value;
}

tfe_tensor* made_handle(tfe_context* ctx, runtime::Made v) {
  return std::visit([&](auto& m) { return new_tensor(ctx, std::move(m)); }, v);
}

} // namespace

extern "C" {

tfe_status tfe_tensor_set_requires_grad(tfe_tensor* t, int32_t flag) {
  return guarded("tfe_tensor_set_requires_grad", [&] {
    concrete_handle(t, "t");
    runtime::set_requires_grad(t->value, flag != 0);
  });
}

tfe_status tfe_tensor_requires_grad(const tfe_tensor* t, int32_t* out) {
  return guarded("tfe_tensor_requires_grad", [&] {
    require(out, "out");
    *out = runtime::requires_grad(require(t, "t")->value) ? 1 : 0;
  });
}

tfe_status tfe_backward(tfe_tensor* loss, const tfe_tensor* seed) {
  return guarded("tfe_backward", [&] {
    concrete_handle(loss, "loss");
    if (seed) {
      concrete_handle(seed, "seed");
      same_context(loss, seed, "loss", "seed");
    }
    runtime::backward(*loss->ctx, loss->value, seed ? &seed->value : nullptr);
  });
}

tfe_status tfe_tensor_grad(tfe_tensor** out, const tfe_tensor* t) {
  return guarded("tfe_tensor_grad", [&] {
    out_slot(out);
    concrete_handle(t, "t");
    if (std::optional<Tensor> g = runtime::grad(*t->ctx, t->value))
      *out = new_tensor(t->ctx, std::move(*g));
  });
}

tfe_status tfe_tensor_clear_grad(tfe_tensor* t) {
  return guarded("tfe_tensor_clear_grad", [&] {
    concrete_handle(t, "t");
    runtime::clear_grad(t->value);
  });
}

tfe_status tfe_tensor_detach(tfe_tensor** out, const tfe_tensor* t) {
  return guarded("tfe_tensor_detach", [&] {
    out_slot(out);
    concrete_handle(t, "t");
    *out = made_handle(t->ctx, runtime::detach(*t->ctx, t->value));
  });
}

tfe_status tfe_vjp(tfe_tensor** out_grads, const tfe_tensor* y, int32_t n, tfe_tensor* const* xs,
                   const tfe_tensor* seed) {
  if (n > 0 && out_grads)
    for (int32_t i = 0; i < n; ++i) out_grads[i] = nullptr;
  return guarded("tfe_vjp", [&] {
    if (n < 0) fail(Status::InvalidArgument, "n %d is negative", n);
    if (n > 0) require(out_grads, "out_grads");
    runtime::require_eager(*require(y, "y")->ctx, "tfe_vjp");
    concrete_handle(y, "y");
    if (n > 0) require(xs, "xs");
    std::vector<const runtime::Value*> x;
    for (int32_t i = 0; i < n; ++i) x.push_back(entry(y, xs, "xs", i));
    if (seed) {
      concrete_handle(seed, "seed");
      same_context(y, seed, "y", "seed");
    }
    auto g = runtime::vjp(*y->ctx, y->value, x, seed ? &seed->value : nullptr);
    std::vector<std::unique_ptr<tfe_tensor>> handles(static_cast<size_t>(n));
    for (size_t i = 0; i < handles.size(); ++i)
      if (g[i]) handles[i].reset(new_tensor(y->ctx, std::move(*g[i])));
    for (size_t i = 0; i < handles.size(); ++i) out_grads[i] = handles[i].release();
  });
}

tfe_status tfe_jvp(tfe_tensor** out, const tfe_tensor* y, int32_t n, tfe_tensor* const* xs,
                   tfe_tensor* const* tangents) {
  return guarded("tfe_jvp", [&] {
    out_slot(out);
    if (n < 0) fail(Status::InvalidArgument, "n %d is negative", n);
    runtime::require_eager(*require(y, "y")->ctx, "tfe_jvp");
    concrete_handle(y, "y");
    if (n > 0) {
      require(xs, "xs");
      require(tangents, "tangents");
    }
    std::vector<const runtime::Value*> x, t;
    for (int32_t i = 0; i < n; ++i) {
      x.push_back(entry(y, xs, "xs", i));
      t.push_back(tangents[i] ? entry(y, tangents, "tangents", i) : nullptr);
    }
    if (auto r = runtime::jvp(*y->ctx, y->value, x, t)) *out = new_tensor(y->ctx, std::move(*r));
  });
}

tfe_status tfe_no_grad_enter(tfe_context* ctx) {
  return guarded("tfe_no_grad_enter", [&] { runtime::enter_scope(*require(ctx, "ctx"), false); });
}
tfe_status tfe_no_grad_exit(tfe_context* ctx) {
  return guarded("tfe_no_grad_exit", [&] { runtime::exit_scope(*require(ctx, "ctx"), false); });
}
tfe_status tfe_capture_trace_enter(tfe_context* ctx) {
  return guarded("tfe_capture_trace_enter",
                 [&] { runtime::enter_scope(*require(ctx, "ctx"), true); });
}
tfe_status tfe_capture_trace_exit(tfe_context* ctx) {
  return guarded("tfe_capture_trace_exit",
                 [&] { runtime::exit_scope(*require(ctx, "ctx"), true); });
}

} // extern "C"
