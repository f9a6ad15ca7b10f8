// The raw eager trace (docs/design/ad-contract.md "Eager recording"). A tracked eager op appends
// one immutable RawNode: the op, its params, references to its operands' nodes and the value it
// produced. Nothing is analysed when recording: no shape inference, no scan of the history.
// Nodes hold their operands, so the trace owns every helper node it needs (the metadata lifetime
// rule): releasing user temporaries never breaks a later derivative request.
#pragma once

#include <array>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "core/tensor.hpp"
#include "ops/op_table.hpp"

namespace tfe::ad::recording {

struct RawNode;
using RawPtr = std::shared_ptr<const RawNode>;

// One output of a raw node.
struct RawRef {
  RawPtr node;
  uint32_t index = 0;
  explicit operator bool() const { return node != nullptr; }
};

// A tracked leaf's gradient slot. Grads are detached values; accumulation replaces the stored
// tensor under the mutex, so a grad fetched earlier keeps its value and concurrent backward calls
// commit atomically per leaf.
struct LeafState {
  std::mutex mutex;
  std::optional<Tensor> grad;
};

// Operand references of a raw node: inline up to three (every op but a long concatenate), so
// recording an op allocates only its node.
class RawInputs {
public:
  void push_back(RawRef r);
  size_t size() const { return size_; }
  const RawRef& operator[](size_t i) const { return data()[i]; }
  const RawRef* begin() const { return data(); }
  const RawRef* end() const { return data() + size_; }

private:
  const RawRef* data() const { return heap_.empty() ? inline_.data() : heap_.data(); }
  std::array<RawRef, 3> inline_{};
  std::vector<RawRef> heap_;
  size_t size_ = 0;
};

enum class RawKind : uint8_t {
  TrackedLeaf,  // a variable (set_requires_grad): gradients accumulate into `leaf`
  ConstantLeaf, // an untracked input of a recorded op: bound to `value` at every run
  CapturedLeaf, // an untracked input recorded under capture_trace: active for vjp/jvp
  Op,           // a recorded op
};

struct RawNode {
  // User-provided so that make_shared does not zero the whole node before constructing it.
  RawNode() {} // NOLINT(modernize-use-equals-default)
  // A recorded op's node, built in place: default-constructing the parameters and the value
  // and then assigning them was a measurable part of recording one op.
  RawNode(ops::OpCode op_, const ops::Params& params_, Tensor value_)
      : op(op_), params(params_), value(std::move(value_)) {}
  RawKind kind = RawKind::Op;
  ops::OpCode op = ops::OpCode::Count;
  ops::Params params;
  RawInputs inputs;
  // What the eager execution produced (a leaf: its value). Retained, as PyTorch retains saved
  // tensors, so a derivative request binds it instead of recomputing the forward pass.
  Tensor value;
  std::vector<Tensor> more_values; // outputs 1, 2, ... of an op with several (one history)
  std::shared_ptr<LeafState> leaf; // tracked leaves
  const Tensor& output(uint32_t i) const { return i == 0 ? value : more_values.at(i - 1); }
  bool active() const { return kind == RawKind::TrackedLeaf || kind == RawKind::CapturedLeaf; }
};

RawRef tracked_leaf(const Tensor& value);
RawRef constant_leaf(const Tensor& value);
RawRef captured_leaf(const Tensor& value);
// A recorded op with operands input(0), ..., input(n - 1) (each a RawRef); an op with several
// outputs passes outputs 1, 2, ... as more_values.
template <class InputAt>
RawRef op_node(ops::OpCode op, const ops::Params& params, Tensor value, size_t n, InputAt input,
               std::vector<Tensor> more_values = {}) {
  auto node = std::make_shared<RawNode>(op, params, std::move(value));
  for (size_t i = 0; i < n; ++i) node->inputs.push_back(input(i));
  node->more_values = std::move(more_values);
  return {std::move(node), 0};
}

} // namespace tfe::ad::recording
