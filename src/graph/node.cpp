// Node construction (node.hpp).
#include "graph/node.hpp"

#include <atomic>

#include "ops/extension.hpp"

namespace tfe::graph {
namespace {
std::atomic<uint64_t> g_next_id{1};
thread_local std::string_view t_origin;

NodePtr finish(Node&& n) {
  n.id = g_next_id.fetch_add(1, std::memory_order_relaxed);
  return std::make_shared<const Node>(std::move(n));
}
} // namespace

const ops::Meta& Value::meta() const { return node->outputs[index]; }

std::string_view public_name(ops::OpCode op, const ops::Params& params) {
  if (op == ops::OpCode::Extension) return ops::extension_of(params).c_name();
  const ops::OpDef& d = ops::op_def(op);
  return d.c_name.empty() ? d.name : d.c_name;
}

OriginScope::OriginScope(std::string_view origin) : outer_(t_origin) { t_origin = origin; }
OriginScope::~OriginScope() { t_origin = outer_; }
std::string_view OriginScope::current() { return t_origin; }

std::string_view origin_of(const Node& n) {
  return n.origin.empty() ? public_name(n.op, n.params) : n.origin;
}

Error in_derivative_of(std::string_view origin, const Error& e) {
  if (origin.empty() || e.message().rfind("the derivative of ", 0) == 0) return e;
  return Error(e.status(), "the derivative of " + std::string(origin) + ": " + e.message());
}

Value argument(DType dtype, Shape shape) {
  Node n;
  n.kind = NodeKind::Argument;
  n.outputs.push_back({dtype, std::move(shape)});
  return {finish(std::move(n)), 0};
}

Value captured(const Tensor& t) {
  Node n;
  n.kind = NodeKind::Captured;
  n.outputs.push_back({t.dtype(), Shape(t.shape())});
  n.captured = t;
  return {finish(std::move(n)), 0};
}

Value emit(ops::OpCode op, std::span<const Value> inputs, const ops::Params& params) {
  return {emit_node(op, inputs, params), 0};
}

std::vector<Value> emit_multi(ops::OpCode op, std::span<const Value> inputs,
                              const ops::Params& params) {
  NodePtr n = emit_node(op, inputs, params);
  std::vector<Value> out;
  for (uint32_t i = 0; i < n->outputs.size(); ++i) out.push_back({n, i});
  return out;
}

NodePtr emit_node(ops::OpCode op, std::span<const Value> inputs, const ops::Params& params) {
  Node n;
  n.op = op;
  n.params = params;
  n.inputs.assign(inputs.begin(), inputs.end());
  std::vector<ops::Meta> metas;
  metas.reserve(inputs.size());
  for (const Value& v : inputs) {
    if (!v)
      fail(Status::InvalidArgument, "operand of %s is undefined",
           std::string(ops::op_def(op).name).c_str());
    metas.push_back(v.meta());
  }
  ops::ShapeGuards scope;
  if (op == ops::OpCode::Extension) {
    ops::MetaList all = ops::infer_metas(op, metas, params);
    n.outputs.assign(all.begin(), all.end());
  } else {
    n.outputs.push_back(ops::infer_meta(op, metas, params));
  }
  n.guards = scope.take();
  n.origin = OriginScope::current();
  return finish(std::move(n));
}

} // namespace tfe::graph
