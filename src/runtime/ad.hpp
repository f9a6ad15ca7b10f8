// The AD operations of one value, in whichever engine holds it: the eager engine (a trace of
// recorded ops, analysed on request) or the dataflow engine (a tensor's gradient is a channel;
// seeding schedules nothing, waiting on a gradient drives the reverse work). The C layer checks
// the arguments (NULL, released, symbolic, contexts) and calls these; their failures are
// tfe::Error in the user's terms.
#pragma once

#include <optional>
#include <span>
#include <variant>
#include <vector>

#include "runtime/value.hpp"

namespace tfe::runtime {

// A value made by an AD operation, for a new handle: concrete, or a dataflow tensor.
using Made = std::variant<Tensor, dataflow::TensorVar, ad::recording::Recorded>;

// Each takes a concrete (non-symbolic) value of ctx.
void set_requires_grad(Value& v, bool flag);
bool requires_grad(const Value& v);
// seed: NULL for the default seed (ones of a scalar loss); waited for when it is a Flow value.
void backward(Context& ctx, const Value& loss, const Value* seed);
// The stored gradient; nullopt when absent (or v is no variable).
std::optional<Tensor> grad(const Context& ctx, const Value& v);
void clear_grad(Value& v);
Made detach(const Context& ctx, const Value& v);

// Functional derivatives (eager contexts only): one gradient per x (nullopt where y does not
// depend on it), recorded themselves unless a no_grad scope is open.
std::vector<std::optional<ad::recording::Recorded>>
vjp(Context& ctx, const Value& y, std::span<const Value* const> xs, const Value* seed);
std::optional<ad::recording::Recorded> jvp(Context& ctx, const Value& y,
                                           std::span<const Value* const> xs,
                                           std::span<const Value* const> tangents);
// NotSupported in a dataflow context, naming what.
void require_eager(const Context& ctx, const char* what);
// Opens or closes a scope (ctx.enter_scope); capture_trace is eager only.
void enter_scope(const Context& ctx, bool capture);
void exit_scope(const Context& ctx, bool capture);

} // namespace tfe::runtime
