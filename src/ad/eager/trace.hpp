// The raw eager trace (ad-contract.md "Eager deferred semantic AD"). A tracked eager op appends
// one immutable RawNode: the op, its params, references to its operands' nodes and the value it
// produced. Nothing is analysed when recording: no shape inference, no scan of the history.
// Nodes hold their operands, so the trace owns every helper node it needs (seed 001): releasing
// user temporaries never breaks a later derivative request.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "core/tensor.hpp"
#include "ops/op_table.hpp"

namespace tfe::ad::eager {

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

enum class RawKind : uint8_t {
  TrackedLeaf,  // a variable (set_requires_grad): gradients accumulate into `leaf`
  ConstantLeaf, // an untracked input of a recorded op: bound to `value` at every run
  CapturedLeaf, // an untracked input recorded under capture_trace: active for vjp/jvp
  Op,           // a recorded op
};

struct RawNode {
  RawKind kind = RawKind::Op;
  ops::OpCode op = ops::OpCode::Count;
  ops::Params params;
  std::vector<RawRef> inputs;
  // What the eager execution produced (a leaf: its value). Retained, as PyTorch retains saved
  // tensors, so a derivative request binds it instead of recomputing the forward pass.
  Tensor value;
  std::shared_ptr<LeafState> leaf; // tracked leaves
  bool active() const { return kind == RawKind::TrackedLeaf || kind == RawKind::CapturedLeaf; }
};

RawRef tracked_leaf(const Tensor& value);
RawRef constant_leaf(const Tensor& value);
RawRef captured_leaf(const Tensor& value);
RawRef op_node(ops::OpCode op, const ops::Params& params, std::vector<RawRef> inputs, Tensor value);

// Count of raw nodes visited by trace collection since start (a test hook: a diamond-shaped
// history must be visited once per node).
std::atomic<int64_t>& collect_visits();

} // namespace tfe::ad::eager
