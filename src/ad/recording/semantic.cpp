// Implementation of the deferred analysis (semantic.hpp).
#include "ad/recording/semantic.hpp"

#include <map>
#include <unordered_map>

namespace tfe::ad::recording {
namespace {

struct Builder {
  explicit Builder(ops::ShapeWitness& w) : witness(w) {}
  ops::ShapeWitness& witness;                                 // each symbol's recorded extent
  std::map<int64_t, int64_t> symbol_of;                       // equality classes of leaf extents
  std::unordered_map<const RawNode*, graph::NodePtr> emitted; // every output of a raw node
  std::unordered_map<const graph::Node*, RawRef> raw_of;      // op nodes
  std::vector<graph::Value> args;
  Semantic out;

  Shape symbolic(const Dims& d) {
    Shape s;
    for (int64_t e : d) {
      if (e == 1) {
        s.push_back(1);
        continue;
      }
      auto [it, fresh] = symbol_of.emplace(e, static_cast<int64_t>(symbol_of.size()) + 1);
      if (fresh) witness.bind(it->second, e);
      s.push_back(Extent::symbol(it->second));
    }
    return s;
  }

  graph::Value add_argument(const RawRef& ref, const Tensor& value) {
    graph::Value a = graph::argument(value.dtype(), symbolic(value.shape()));
    args.push_back(a);
    out.arguments.push_back(ref);
    out.values.push_back(value);
    return a;
  }

  // Iterative post-order over the raw DAG: each node is expanded once (pointer de-duplication),
  // so shared histories and diamonds cost one visit per node. Refs on the stack point into
  // immutable nodes (or the roots), so they stay valid.
  graph::Value visit(const RawRef& root) {
    std::vector<std::pair<const RawRef*, size_t>> stack{{&root, 0}};
    while (!stack.empty()) {
      const RawRef& ref = *stack.back().first;
      const RawNode* n = ref.node.get();
      if (emitted.count(n)) {
        stack.pop_back();
        continue;
      }
      size_t next = stack.back().second;
      if (n->kind == RawKind::Op && next < n->inputs.size()) {
        ++stack.back().second;
        const RawRef& child = n->inputs[next];
        if (!emitted.count(child.node.get())) stack.push_back({&child, 0});
        continue;
      }
      stack.pop_back();
      ++out.visited;
      if (n->kind != RawKind::Op) {
        emitted[n] = add_argument(ref, n->value).node;
        continue;
      }
      std::vector<graph::Value> in;
      in.reserve(n->inputs.size());
      for (const RawRef& r : n->inputs) in.push_back({emitted.at(r.node.get()), r.index});
      graph::NodePtr v = graph::emit_node(n->op, in, n->params);
      raw_of.emplace(v.get(), RawRef{ref.node, 0});
      emitted[n] = std::move(v);
    }
    return {emitted.at(root.node.get()), root.index};
  }
};

} // namespace

Semantic analyze(std::span<const RawRef> roots, std::span<const Cut> cuts,
                 ops::ShapeWitness& witness) {
  Builder b(witness);
  for (const Cut& c : cuts) {
    if (c.ref.node->more_values.size() > 0)
      fail(Status::NotSupported,
           "differentiating with respect to one output of an op with several outputs (output %u)",
           c.ref.index);
    if (!b.emitted.count(c.ref.node.get()))
      b.emitted[c.ref.node.get()] = b.add_argument(c.ref, c.value).node;
  }
  std::vector<graph::Value> outs;
  for (const RawRef& r : roots) outs.push_back(b.visit(r));
  b.out.program = graph::make_program(b.args, outs);
  b.out.computed.reserve(b.out.program->order.size());
  for (const graph::NodePtr& n : b.out.program->order)
    b.out.computed.push_back(b.raw_of.at(n.get()));
  return std::move(b.out);
}

int64_t argument_index(const Semantic& s, const RawRef& ref) {
  for (size_t i = 0; i < s.arguments.size(); ++i)
    if (s.arguments[i].node == ref.node) return static_cast<int64_t>(i);
  return -1;
}

} // namespace tfe::ad::recording
