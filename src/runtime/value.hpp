// runtime::Value: the one value a tensor handle holds, in exactly one of four representations:
//   Plain     a concrete tensor, not tracked;
//   Tracked   a concrete tensor with its reference into the eager AD trace (a variable, or the
//             result of a recorded op);
//   Symbolic  a value of a traced program (graph::Value);
//   Flow      a dataflow engine tensor (its value may still be computing).
// Beside the representation, three slots that const use may fill, each once and thread-safely:
// the constant leaf a Plain value records as, the captured leaf capture_trace turns a Plain value
// into (after which it counts as tracked), and the resolved value of a Flow tensor. No const
// member writes anything else, so a const handle can be shared between threads.
#pragma once

#include <atomic>
#include <mutex>
#include <variant>

#include "ad/recording/recorded.hpp"
#include "dataflow/tensor/tensor_var.hpp"
#include "graph/node.hpp"
#include "runtime/context.hpp"

namespace tfe::runtime {

class Value {
public:
  enum class Kind : uint8_t { Plain, Tracked, Symbolic, Flow };

  explicit Value(Tensor&& v) : rep_(std::move(v)) {}
  // Tracked when r.ref is set, else Plain.
  explicit Value(ad::recording::Recorded&& r);
  explicit Value(graph::Value&& v) : rep_(std::move(v)) {}
  explicit Value(dataflow::TensorVar&& v) : rep_(std::move(v)) {}
  // A concrete value in ctx: a dataflow leaf in a dataflow context (its value known at once),
  // else Plain. An undefined tensor (a handle filled later, set_concrete) stays Plain.
  static Value concrete(const Context& ctx, Tensor&& v);
  ~Value();
  Value(const Value&) = delete;
  Value& operator=(const Value&) = delete;

  Kind kind() const { return static_cast<Kind>(rep_.index()); }
  bool symbolic() const { return kind() == Kind::Symbolic; }
  bool flow() const { return kind() == Kind::Flow; }
  // An eager value that records: Tracked, or Plain turned into a captured leaf.
  bool tracked() const {
    return kind() == Kind::Tracked || captured_.load(std::memory_order_acquire) != nullptr;
  }
  ops::Meta meta() const;

  // The concrete tensor of a Plain or Tracked value.
  const Tensor& tensor() const {
    if (const Tensor* t = std::get_if<Tensor>(&rep_)) return *t;
    return std::get<ad::recording::Recorded>(rep_).value;
  }
  // The concrete tensor of any non-symbolic value; a Flow value is waited for (driving ctx's
  // scheduler) and its failure rethrown.
  const Tensor& resolved(const Context& ctx) const;
  const graph::Value& traced() const { return std::get<graph::Value>(rep_); }
  const dataflow::TensorVar& var() const { return std::get<dataflow::TensorVar>(rep_); }

  // The trace reference of an eager value (null when not tracked).
  ad::recording::RawRef trace() const;
  // The eager value with its trace reference, by value (AD entry points).
  ad::recording::Recorded recorded() const { return {tensor(), trace()}; }

  // The operand forms of each engine (runtime/dispatch.hpp).
  // Recorded: itself when tracked; under capture a Plain value becomes a captured leaf, kept in
  // its slot so that a later derivative can be taken with respect to it; else the same constant
  // leaf every time (made on first use, so an untracked operand allocates no leaf per op).
  const ad::recording::Recorded& operand(bool capturing) const;
  // Traced: itself, or a captured constant of its concrete value.
  graph::Value as_traced(const Context& ctx) const;
  // Dataflow: the engine tensor, or under no_grad an untracked view of it.
  dataflow::TensorVar flow_operand(bool no_grad) const {
    return no_grad ? var().as_leaf(false) : var();
  }

  // Changes through a non-const handle (the caller owns it for the call).
  // An eager value's trace: a tracked leaf, or null to stop tracking.
  void set_trace(ad::recording::RawRef ref);
  void set_var(dataflow::TensorVar v) { rep_ = std::move(v); }
  // Fills a handle made empty (adopted buffers, DLPack).
  void set_concrete(const Context& ctx, Tensor v);

private:
  struct KnownFlow {};
  Value(KnownFlow, const Tensor& v);

  // In Kind order.
  using Rep = std::variant<Tensor, ad::recording::Recorded, graph::Value, dataflow::TensorVar>;
  Rep rep_;
  mutable std::atomic<ad::recording::Recorded*> constant_{nullptr}; // owned
  mutable std::atomic<ad::recording::Recorded*> captured_{nullptr}; // owned
  mutable std::mutex resolve_mu_; // the first read of a Flow value
  mutable Tensor resolved_;
};

} // namespace tfe::runtime
