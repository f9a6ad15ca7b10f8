// TensorVar: a tensor of the dataflow engine. Its dtype and shape are known
// at once; its value and its gradient are channels (Async<Tensor>, ReverseValue<Tensor>) filled by
// scheduled tasks. It is the fourth value type of the op surface (eager/surface.hpp): every op of
// the surface (promotion, broadcasting, sum/mean, matmul, linalg...) runs on TensorVars by
// scheduling, per IR op, a forward task (the eager kernel) and, when an operand is tracked, a
// reverse task whose formulas are the op's direct VJP kernel (ad/vjp_kernel.hpp: derived from
// the op's JVP and transpose rules, the one formula source of docs/design/ad-contract.md). Nothing
// waits: shape and dtype errors are thrown at once by the op; failures of the computation reach
// whoever reads the value or anything downstream of it.
//
// - Copies share the tensor (no deep copy, no gradient link): a TensorVar is a handle.
// - Tracked = its gradient is open: a leaf made with requires_grad, or the result of an op with a
//   tracked operand. Untracked tensors schedule no reverse work. Requesting a gradient seals the
//   graph (dataflow/graph.hpp): its tensors feed later ops as untracked values.
// - Gradients accumulate in registration order (the same bits under any scheduler), each
//   addition outside the accumulator's lock; an absent gradient (nothing seeded depends on it) is
//   not a zero tensor.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "core/tensor.hpp"
#include "dataflow/async.hpp"
#include "dataflow/reverse_value.hpp"
#include "ops/op_def.hpp"
#include "ops/params.hpp"

namespace tfe {
// Tensor gradients add up out of place (a contribution may be shared with other gradients).
void accumulate_gradient(Tensor& sum, const Tensor& v);
} // namespace tfe

namespace tfe::dataflow {

class TensorVar {
public:
  TensorVar() = default; // empty
  // A leaf holding `value`; tracked (its gradient open) when requires_grad.
  TensorVar(Tensor value, bool requires_grad);

  explicit operator bool() const noexcept { return static_cast<bool>(node_); }
  const ops::Meta& meta() const { return node().meta; }
  // Where its value is (or will be) computed: a leaf's tensor's device; an op's result is on its
  // operands' device (that of its first operand off the host), or for an op without operands
  // the current device when it was made (device::CurrentDevice).
  Device device() const { return node().device; }
  // Whether new ops on it register gradient contributions (its gradient is open).
  bool tracked() const;
  // Made from a value or by as_leaf (not the output of an op).
  bool is_leaf() const { return node().leaf; }
  // Whether its gradient was seeded.
  bool seeded() const;
  // A leaf sharing this value (no wait, no copy) with a fresh gradient: open when requires_grad.
  // Turns any value, a pending one included, into a new variable (a pipelined optimiser step).
  TensorVar as_leaf(bool requires_grad) const;

  // Blocks (driving the current scheduler) until the value is computed; rethrows a failure with
  // its original type.
  Tensor value_wait() const;
  // Seeds dL/d(this) (its dtype and shape). Once; tfe::Error when sealed or seeded already.
  void seed(const Tensor& cotangent) const;
  // Seals its graph, waits, and returns the gradient (nullopt when absent).
  std::optional<Tensor> grad_wait() const;
  // Closes its gradient: no op registers contributions into it from now on.
  void finalize() const;

  Async<Tensor>& value() const { return node().value; }
  ReverseValue<Tensor>& grad() const { return node().grad; }
  // Identity of the shared tensor (two copies of one TensorVar compare equal).
  const void* id() const noexcept { return node_.get(); }

  // The outputs of an op on device d: pending values written by `writers`, gradients open.
  static std::vector<TensorVar> pending(std::span<const ops::Meta> metas, Device d,
                                        std::vector<WriteBuffer<Tensor>>& writers);

private:
  struct Node {
    ops::Meta meta;
    Device device;
    mutable Async<Tensor> value;
    mutable ReverseValue<Tensor> grad;
    bool leaf = true;
  };
  Node& node() const;
  std::shared_ptr<Node> node_;
};

// The surface's value-type hooks (found by argument-dependent lookup).
TensorVar emit(ops::OpCode code, std::span<const TensorVar> in, const ops::Params& params);
std::vector<TensorVar> emit_multi(ops::OpCode code, std::span<const TensorVar> in,
                                  const ops::Params& params);
ops::Meta meta_of(const TensorVar& v);
TensorVar literal(const Tensor& value, const TensorVar*);

} // namespace tfe::dataflow
