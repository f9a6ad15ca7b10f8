// Which engine runs an op, decided once for single ops, multi-output ops and list ops alike.
// compute is generic over the value type (the op surface, eager/surface.hpp), and one of four
// runs it:
//   a symbolic operand            -> graph::Value: append to a traced program (concrete operands
//                                    become captured constants);
//   a dataflow context            -> dataflow::TensorVar: schedule the forward and reverse work
//                                    and return at once (shapes and dtypes are checked now);
//   a tracked operand or capture  -> ad::recording::Recorded: run now and append raw nodes to the
//   (and no no_grad scope)           AD trace;
//   otherwise                     -> Tensor: run now; the only AD cost is these checks.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "backend/device/kernels.hpp"
#include "dataflow/scheduler.hpp"
#include "runtime/value.hpp"

namespace tfe::runtime {

enum class Engine : uint8_t { Traced, Dataflow, Recorded, Plain };

// The rule itself, on the facts it reads.
constexpr Engine choose_engine(bool any_symbolic, bool dataflow_context, bool any_tracked,
                               RecordingState s) {
  if (any_symbolic) return Engine::Traced;
  if (dataflow_context) return Engine::Dataflow;
  if (s.no_grad == 0 && (any_tracked || s.capture > 0)) return Engine::Recorded;
  return Engine::Plain;
}

// While an eager op runs, the tensors it makes without operands (a composite's identity or
// constants) go to its operands' device (device::CurrentDevice); nothing is set for host operands.
class OnOperandsDevice {
public:
  // Tensors, or dataflow tensors (whose device is known before their value).
  template <class... Ts> explicit OnOperandsDevice(const Ts&... operands) {
    (enter(operands.device()) || ...);
  }
  explicit OnOperandsDevice(std::span<const Value* const> operands) {
    for (const Value* v : operands)
      if (enter(v->flow() ? v->var().device() : v->tensor().device())) return;
  }

private:
  bool enter(Device d) {
    if (d.is_cpu()) return false;
    scope_.emplace(d);
    return true;
  }
  std::optional<device::CurrentDevice> scope_;
};

// Runs compute on the operands in the chosen engine's value type and hands its result (one
// value, or a vector of them) to deliver.
template <class F, class Deliver, class... Vs>
void run(const Context& ctx, F&& compute, Deliver&& deliver, const Vs&... args) {
  static_assert((std::is_same_v<Vs, Value> && ...));
  const RecordingState s = ctx.recording();
  switch (choose_engine((args.symbolic() || ...), ctx.is_dataflow(), (args.tracked() || ...), s)) {
  case Engine::Traced: deliver(compute(args.as_traced(ctx)...)); return;
  case Engine::Dataflow: {
    DataflowScope scope(ctx);
    OnOperandsDevice on(args.var()...);
    deliver(compute(args.flow_operand(s.no_grad > 0)...));
    return;
  }
  case Engine::Recorded: {
    const bool capturing = s.capture > 0;
    ad::recording::CaptureScope capture(capturing);
    OnOperandsDevice on(args.tensor()...);
    deliver(compute(args.operand(capturing)...));
    return;
  }
  case Engine::Plain: {
    OnOperandsDevice on(args.tensor()...);
    deliver(compute(args.tensor()...));
    return;
  }
  }
}

// The same for an array operand: f takes a span of the chosen value type. ctx is null only for
// an empty array, which runs Plain.
template <class F, class Deliver>
void run_list(const Context* ctx, std::span<const Value* const> xs, F&& f, Deliver&& deliver) {
  bool symbolic = false, tracked = false;
  for (const Value* x : xs) {
    symbolic |= x->symbolic();
    tracked |= x->tracked();
  }
  const RecordingState s = ctx ? ctx->recording() : RecordingState{};
  const Engine e =
      ctx && !xs.empty() ? choose_engine(symbolic, ctx->is_dataflow(), tracked, s) : Engine::Plain;
  auto each = [&](auto convert) {
    using V = std::decay_t<decltype(convert(*xs.front()))>;
    std::vector<V> in;
    in.reserve(xs.size());
    for (const Value* x : xs) in.push_back(convert(*x));
    deliver(f(std::span<const V>(in)));
  };
  switch (e) {
  case Engine::Traced: return each([&](const Value& x) { return x.as_traced(*ctx); });
  case Engine::Dataflow: {
    DataflowScope scope(*ctx);
    OnOperandsDevice on(xs);
    return each([&](const Value& x) { return x.flow_operand(s.no_grad > 0); });
  }
  case Engine::Recorded: {
    const bool capturing = s.capture > 0;
    ad::recording::CaptureScope capture(capturing);
    OnOperandsDevice on(xs);
    return each([&](const Value& x) { return x.operand(capturing); });
  }
  case Engine::Plain: {
    OnOperandsDevice on(xs);
    return each([](const Value& x) { return x.tensor(); });
  }
  }
}

} // namespace tfe::runtime
