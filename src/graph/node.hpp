// The program IR: immutable nodes shared by reference. A node is an IR op with its params and
// operand values, or an input (a program argument, or a concrete tensor captured by a traced op).
// Every node carries its output metadata (dtype and possibly symbolic shape) and the shape
// guards its rule could not decide, so a program needs no side tables: keeping an output alive
// keeps everything it depends on alive (the metadata lifetime rule).
#pragma once

#include <memory>
#include <vector>

#include "core/tensor.hpp"
#include "ops/op_table.hpp"
#include "ops/shape_checks.hpp"

namespace tfe::graph {

struct Node;
using NodePtr = std::shared_ptr<const Node>;

// One output of a node.
struct Value {
  NodePtr node;
  uint32_t index = 0;
  const ops::Meta& meta() const;
  bool operator==(const Value& o) const { return node == o.node && index == o.index; }
  explicit operator bool() const { return node != nullptr; }
};

enum class NodeKind : uint8_t { Argument, Captured, Op };

struct Node {
  NodeKind kind = NodeKind::Op;
  ops::OpCode op = ops::OpCode::Count; // for Op
  ops::Params params;
  std::vector<Value> inputs;
  std::vector<ops::Meta> outputs;
  std::vector<ops::ShapeGuard> guards; // conditions checked when a program is bound
  Tensor captured;                     // for Captured: the value bound at every call
  uint64_t id = 0;                     // creation order, unique per process (stable orders)
  // For a node emitted by a derivative rule: the public function (C entry point, e.g.
  // "tfe_linalg_slogdet") whose derivative it computes, so that a failure names what the user
  // called. Empty for the user's own ops. Not part of the fingerprint.
  std::string_view origin;
};

// The public function of an op (its C entry point); an internal op without one: its IR name.
std::string_view public_name(ops::OpCode op, const ops::Params& params);

// While alive on this thread, emitted nodes record `origin` (the transforms open one around each
// derivative rule they run).
class OriginScope {
public:
  explicit OriginScope(std::string_view origin);
  ~OriginScope();
  OriginScope(const OriginScope&) = delete;
  OriginScope& operator=(const OriginScope&) = delete;
  static std::string_view current();

private:
  std::string_view outer_;
};

// The origin of the derivative node n belongs to, or the node's own public function: what a
// rule run on n differentiates.
std::string_view origin_of(const Node& n);

// e with "the derivative of <origin>: " before its message (e itself when origin is empty).
Error in_derivative_of(std::string_view origin, const Error& e);

// A program argument of dtype and shape (extents constant or symbolic).
Value argument(DType dtype, Shape shape);
// A concrete tensor used by a traced op: an input of the program bound to this value.
Value captured(const Tensor& t);
// Appends op to the graph: validates and infers the symbolic metadata with the op's shape rule
// (build-time errors for provable mismatches; guards for what only the binding can decide).
// Output 0 of the node (an op with several outputs: use emit_multi).
Value emit(ops::OpCode op, std::span<const Value> inputs, const ops::Params& params);
// Every output of one node (an extension op may have several; they share the node).
std::vector<Value> emit_multi(ops::OpCode op, std::span<const Value> inputs,
                              const ops::Params& params);
NodePtr emit_node(ops::OpCode op, std::span<const Value> inputs, const ops::Params& params);

// The metadata of a value (for the generic surface code, see eager/surface.hpp).
inline ops::Meta meta_of(const Value& v) { return v.meta(); }

} // namespace tfe::graph
