// The AD entry points of tenferro/ad.h in a dataflow context (tfe_context_create_dataflow): the
// same functions, with the semantics of the "eager vs dataflow context" table in
// tenferro/tensor.h. Called by ad.cpp when the handle belongs to a dataflow context.
#pragma once

#include "capi/handles.hpp"

namespace tfe::capi::dataflow_ad {

void set_requires_grad(tfe_tensor* t, bool flag);
bool requires_grad(const tfe_tensor* t);
void backward(tfe_tensor* loss, const tfe_tensor* seed);
// A new handle, or nullptr when the gradient is absent.
tfe_tensor* grad(const tfe_tensor* t);
void clear_grad(tfe_tensor* t);
tfe_tensor* detach(const tfe_tensor* t);
// NotSupported naming what a dataflow context cannot do.
[[noreturn]] void not_supported(const char* what);

} // namespace tfe::capi::dataflow_ad
