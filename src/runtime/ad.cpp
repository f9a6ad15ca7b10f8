// AD operations per engine (ad.hpp).
#include "runtime/ad.hpp"

#include "ad/recording/engine.hpp"
#include "core/error.hpp"

namespace tfe::runtime {
namespace {

namespace ae = ad::recording;

ae::Caches caches_of(Context& ctx) { return {ctx.derivatives, ctx.compiled}; }

bool is_kind(const ae::RawRef& ref, ae::RawKind kind) { return ref && ref.node->kind == kind; }

[[noreturn]] void not_supported(const char* what) {
  fail(Status::NotSupported,
       "%s is not supported in a dataflow context (tfe_backward and tfe_tensor_grad are)", what);
}

void flow_set_requires_grad(Value& v, bool flag) {
  const dataflow::TensorVar& f = v.var();
  if (f.tracked() && !f.is_leaf())
    fail(Status::InvalidArgument,
         "'t' is tracked, the result of an op on variables (use tfe_tensor_detach, or request "
         "a gradient first: a sealed graph's tensors may become variables)");
  if (!is_inexact(f.meta().dtype))
    fail(Status::DtypeMismatch, "%s tensor cannot be a variable (float or complex only)",
         std::string(dtype_phrase(f.meta().dtype)).c_str());
  if (flag == f.tracked()) return;
  v.set_var(f.as_leaf(flag));
}

std::optional<Tensor> seed_value(const Context& ctx, const Value* seed) {
  if (!seed) return std::nullopt;
  return seed->resolved(ctx);
}

void flow_backward(const Context& ctx, const Value& loss, const Value* seed) {
  const dataflow::TensorVar& f = loss.var();
  if (!f.tracked() && !f.seeded())
    fail(Status::NotDifferentiable,
         "the loss reaches no variable (no operand of its graph requires grad, or its graph was "
         "sealed by a gradient request)");
  Tensor s = ae::checked_seed(f.meta(), seed_value(ctx, seed));
  // In the user's terms: the engine's own message names its internal gradient channel.
  if (f.seeded())
    fail(Status::InvalidArgument,
         "the loss was seeded already: in a dataflow context backward runs once per loss (build "
         "the next step's loss for another backward)");
  f.seed(s); // a sealed loss: InvalidArgument
}

} // namespace

void set_requires_grad(Value& v, bool flag) {
  if (v.flow()) return flow_set_requires_grad(v, flag);
  const ae::RawRef ref = v.trace();
  if (is_kind(ref, ae::RawKind::Op))
    fail(Status::InvalidArgument,
         "'t' is the result of a recorded op, not a leaf (use tfe_tensor_detach)");
  if (!flag) {
    v.set_trace({});
    return;
  }
  const DType dt = v.tensor().dtype();
  if (!is_inexact(dt))
    fail(Status::DtypeMismatch, "%s tensor cannot be a variable (float or complex only)",
         std::string(dtype_phrase(dt)).c_str());
  if (!is_kind(ref, ae::RawKind::TrackedLeaf)) v.set_trace(ae::tracked_leaf(v.tensor()));
}

bool requires_grad(const Value& v) { return v.flow() ? v.var().tracked() : v.tracked(); }

void backward(Context& ctx, const Value& loss, const Value* seed) {
  if (loss.flow()) return flow_backward(ctx, loss, seed);
  ae::Caches c = caches_of(ctx);
  ae::commit(ae::backward(loss.recorded(), seed_value(ctx, seed), c));
}

std::optional<Tensor> grad(const Context& ctx, const Value& v) {
  if (v.flow()) {
    dataflow::ScopedScheduler scope(*ctx.scheduler);
    return v.var().grad_wait();
  }
  const ae::RawRef ref = v.trace();
  if (!is_kind(ref, ae::RawKind::TrackedLeaf)) return std::nullopt;
  std::lock_guard lock(ref.node->leaf->mutex);
  return ref.node->leaf->grad;
}

void clear_grad(Value& v) {
  if (v.flow()) {
    if (v.var().is_leaf()) v.set_var(v.var().as_leaf(v.var().tracked()));
    return;
  }
  const ae::RawRef ref = v.trace();
  if (!is_kind(ref, ae::RawKind::TrackedLeaf)) return;
  std::lock_guard lock(ref.node->leaf->mutex);
  ref.node->leaf->grad.reset();
}

Made detach(const Context& ctx, const Value& v) {
  if (v.flow()) return v.var().as_leaf(false);
  return v.resolved(ctx);
}

std::vector<std::optional<ae::Recorded>> vjp(Context& ctx, const Value& y,
                                             std::span<const Value* const> xs, const Value* seed) {
  std::vector<ae::Recorded> x;
  x.reserve(xs.size());
  for (const Value* v : xs) x.push_back(v->recorded());
  std::optional<ae::Recorded> s;
  if (seed) s = seed->recorded();
  ae::Caches c = caches_of(ctx);
  return ae::vjp(y.recorded(), x, s, c, ctx.grad_enabled());
}

std::optional<ae::Recorded> jvp(Context& ctx, const Value& y, std::span<const Value* const> xs,
                                std::span<const Value* const> tangents) {
  std::vector<ae::Recorded> x;
  std::vector<std::optional<ae::Recorded>> t;
  for (size_t i = 0; i < xs.size(); ++i) {
    x.push_back(xs[i]->recorded());
    if (tangents[i])
      t.push_back(tangents[i]->recorded());
    else
      t.emplace_back();
  }
  ae::Caches c = caches_of(ctx);
  return ae::jvp(y.recorded(), x, t, c, ctx.grad_enabled());
}

void require_eager(const Context& ctx, const char* what) {
  if (ctx.is_dataflow()) not_supported(what);
}

void enter_scope(const Context& ctx, bool capture) {
  if (capture) require_eager(ctx, "capture_trace");
  ctx.enter_scope(capture);
}

void exit_scope(const Context& ctx, bool capture) { ctx.exit_scope(capture); }

} // namespace tfe::runtime
