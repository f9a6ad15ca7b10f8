// The runtime's dispatch rule (runtime/dispatch.hpp): which engine runs an op, for single and
// list ops, and what capture does to a shared const value.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include <memory>

#include "dataflow/debug_scheduler.hpp"
#include "runtime/dispatch.hpp"

using namespace tfe;
using runtime::Engine;

namespace {

// The engine a compute call ran in, read from the value type it was given.
struct EngineOf {
  template <class V, class... Rest> Engine operator()(const V&, const Rest&...) const {
    if constexpr (std::is_same_v<V, graph::Value>)
      return Engine::Traced;
    else if constexpr (std::is_same_v<V, dataflow::TensorVar>)
      return Engine::Dataflow;
    else if constexpr (std::is_same_v<V, ad::recording::Recorded>)
      return Engine::Recorded;
    else
      return Engine::Plain;
  }
};

Engine run_single(const runtime::Context& ctx, const runtime::Value& a, const runtime::Value& b) {
  Engine seen{};
  runtime::run(
      ctx, [](const auto& x, const auto& y) { return EngineOf{}(x, y); },
      [&](Engine e) { seen = e; }, a, b);
  return seen;
}

Engine run_list(const runtime::Context& ctx, std::vector<const runtime::Value*> xs) {
  Engine seen{};
  runtime::run_list(
      &ctx, xs, [](auto span) { return EngineOf{}(span.front()); }, [&](Engine e) { seen = e; });
  return seen;
}

Tensor zeros2() { return Tensor::zeros(DType::F64, {2}); }

} // namespace

TEST_CASE("the rule: symbolic, then dataflow, then recording, else plain", "[runtime]") {
  for (int bits = 0; bits < 32; ++bits) {
    const bool symbolic = bits & 1, dataflow = bits & 2, tracked = bits & 4;
    const runtime::RecordingState s{(bits & 8) ? 1 : 0, (bits & 16) ? 1 : 0};
    const Engine e = runtime::choose_engine(symbolic, dataflow, tracked, s);
    if (symbolic)
      CHECK(e == Engine::Traced);
    else if (dataflow)
      CHECK(e == Engine::Dataflow);
    else if (s.no_grad > 0)
      CHECK(e == Engine::Plain); // no_grad wins over tracked operands and capture
    else
      CHECK(e == ((tracked || s.capture > 0) ? Engine::Recorded : Engine::Plain));
  }
}

TEST_CASE("single and list ops choose the same engine", "[runtime]") {
  runtime::Context ctx(1);
  runtime::Value plain(zeros2());
  runtime::Value tracked(ad::recording::Recorded{zeros2(), ad::recording::tracked_leaf(zeros2())});
  runtime::Value symbolic(graph::argument(DType::F64, Shape{Extent(2)}));
  CHECK(plain.kind() == runtime::Value::Kind::Plain);
  CHECK(tracked.kind() == runtime::Value::Kind::Tracked);

  CHECK(run_single(ctx, plain, plain) == Engine::Plain);
  CHECK(run_list(ctx, {&plain, &plain}) == Engine::Plain);
  CHECK(run_single(ctx, plain, tracked) == Engine::Recorded);
  CHECK(run_list(ctx, {&plain, &tracked}) == Engine::Recorded);
  CHECK(run_single(ctx, tracked, symbolic) == Engine::Traced);
  CHECK(run_list(ctx, {&tracked, &symbolic}) == Engine::Traced);

  ctx.enter_scope(false); // no_grad
  CHECK(run_single(ctx, plain, tracked) == Engine::Plain);
  CHECK(run_list(ctx, {&plain, &tracked}) == Engine::Plain);
  ctx.exit_scope(false);
  CHECK(run_single(ctx, plain, tracked) == Engine::Recorded);

  runtime::Context other(2); // scopes are per context
  other.enter_scope(false);
  CHECK(run_single(ctx, plain, tracked) == Engine::Recorded);
  other.exit_scope(false);
  CHECK_THROWS_AS(ctx.exit_scope(true), Error);
}

TEST_CASE("a dataflow context schedules, whatever the scopes", "[runtime]") {
  runtime::Context ctx(3);
  ctx.scheduler = std::make_unique<dataflow::DebugScheduler>();
  runtime::Value a = runtime::Value::concrete(ctx, zeros2());
  CHECK(a.flow());
  CHECK(run_single(ctx, a, a) == Engine::Dataflow);
  CHECK(run_list(ctx, {&a}) == Engine::Dataflow);
  ctx.enter_scope(false);
  CHECK(run_single(ctx, a, a) == Engine::Dataflow);
  ctx.exit_scope(false);
  CHECK(a.resolved(ctx).numel() == 2);
}

TEST_CASE("capture turns a const plain value into one captured leaf", "[runtime]") {
  runtime::Context ctx(4);
  const runtime::Value x(zeros2());
  CHECK_FALSE(x.tracked());
  const ad::recording::Recorded& constant = x.operand(false);
  CHECK(constant.ref);
  CHECK_FALSE(x.tracked()); // a constant leaf does not make it a variable
  CHECK(&x.operand(false) == &constant);

  ctx.enter_scope(true); // capture_trace
  CHECK(run_single(ctx, x, x) == Engine::Recorded);
  ctx.exit_scope(true);
  const ad::recording::Recorded& captured = x.operand(true);
  CHECK(&captured != &constant);
  CHECK(x.tracked());
  CHECK(x.kind() == runtime::Value::Kind::Plain); // the representation itself is unchanged
  CHECK(&x.operand(false) == &captured);          // later ops record it as the captured leaf
  CHECK(x.trace().node == captured.ref.node);
  CHECK(run_single(ctx, x, x) == Engine::Recorded);
}
