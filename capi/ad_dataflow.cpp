// AD entry points in a dataflow context (ad_dataflow.hpp): a tensor's gradient is a channel of
// the dataflow engine; seeding schedules nothing, waiting on a gradient drives the reverse work.
#include "capi/ad_dataflow.hpp"

#include "ad/eager/engine.hpp"
#include "core/error.hpp"

namespace tfe::capi::dataflow_ad {

void set_requires_grad(tfe_tensor* t, bool flag) {
  if (t->flow.tracked() && !t->flow.is_leaf())
    fail(Status::InvalidArgument,
         "'t' is tracked, the result of an op on variables (use tfe_tensor_detach, or request "
         "a gradient first: a sealed graph's tensors may become variables)");
  if (!is_inexact(t->flow.meta().dtype))
    fail(Status::DtypeMismatch, "%s tensor cannot be a variable (float or complex only)",
         std::string(dtype_phrase(t->flow.meta().dtype)).c_str());
  if (flag == t->flow.tracked()) return;
  t->flow = t->flow.as_leaf(flag);
}

bool requires_grad(const tfe_tensor* t) { return t->flow.tracked(); }

void backward(tfe_tensor* loss, const tfe_tensor* seed) {
  const ops::Meta m = loss->flow.meta();
  if (!loss->flow.tracked() && !loss->flow.seeded())
    fail(Status::NotDifferentiable,
         "the loss reaches no variable (no operand of its graph requires grad, or its graph was "
         "sealed by a gradient request)");
  std::optional<Tensor> given;
  if (seed) given = concrete_value(seed, "seed");
  Tensor s = ad::eager::checked_seed(m, given);
  // In the user's terms: the runtime's own message names its internal gradient channel.
  if (loss->flow.seeded())
    fail(Status::InvalidArgument,
         "the loss was seeded already: in a dataflow context backward runs once per loss (build "
         "the next step's loss for another backward)");
  loss->flow.seed(s); // a sealed loss: InvalidArgument
}

tfe_tensor* grad(const tfe_tensor* t) {
  std::optional<Tensor> g;
  {
    dataflow::ScopedScheduler scope(*t->ctx->scheduler);
    g = t->flow.grad_wait();
  }
  return g ? new_tensor(t->ctx, std::move(*g)) : nullptr;
}

void clear_grad(tfe_tensor* t) {
  if (t->flow.is_leaf()) t->flow = t->flow.as_leaf(t->flow.tracked());
}

tfe_tensor* detach(const tfe_tensor* t) { return new_tensor(t->ctx, t->flow.as_leaf(false)); }

void not_supported(const char* what) {
  fail(Status::NotSupported,
       "%s is not supported in a dataflow context (tfe_backward and tfe_tensor_grad are)", what);
}

} // namespace tfe::capi::dataflow_ad
