// Raw node construction (trace.hpp).
#include "ad/eager/trace.hpp"

namespace tfe::ad::eager {
namespace {
RawRef leaf(RawKind kind, const Tensor& value) {
  auto n = std::make_shared<RawNode>();
  n->kind = kind;
  n->value = value;
  if (kind == RawKind::TrackedLeaf) n->leaf = std::make_shared<LeafState>();
  return {std::move(n), 0};
}
} // namespace

RawRef tracked_leaf(const Tensor& value) { return leaf(RawKind::TrackedLeaf, value); }
RawRef constant_leaf(const Tensor& value) { return leaf(RawKind::ConstantLeaf, value); }
RawRef captured_leaf(const Tensor& value) { return leaf(RawKind::CapturedLeaf, value); }

RawRef op_node(ops::OpCode op, const ops::Params& params, std::vector<RawRef> inputs,
               Tensor value) {
  auto n = std::make_shared<RawNode>();
  n->op = op;
  n->params = params;
  n->inputs = std::move(inputs);
  n->value = std::move(value);
  return {std::move(n), 0};
}

std::atomic<int64_t>& collect_visits() {
  static std::atomic<int64_t> visits{0};
  return visits;
}

} // namespace tfe::ad::eager
