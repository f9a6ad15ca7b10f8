// Program construction and fingerprinting (program.hpp).
#include "graph/program.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace tfe::graph {
namespace {

struct Hash {
  uint64_t h = 0xcbf29ce484222325ull, h2 = 0x84222325cbf29ce4ull;
  void mix(uint64_t v) {
    h = (h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2))) * 0x100000001b3ull;
    h2 = (h2 + v * 0xff51afd7ed558ccdull) ^ (h2 >> 29);
    h2 *= 0xc4ceb9fe1a85ec53ull;
  }
  void mix(const ops::Meta& m) {
    mix(static_cast<uint64_t>(m.dtype));
    mix(m.shape.size());
    for (Extent e : m.shape) {
      mix(e.expr());
      mix(static_cast<uint64_t>(e.value()));
    }
  }
};

} // namespace

ProgramPtr make_program(std::vector<Value> arguments, std::vector<Value> outputs) {
  auto p = std::make_shared<Program>();
  std::unordered_map<const Node*, size_t> arg_pos;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const Value& a = arguments[i];
    if (!a || a.node->kind != NodeKind::Argument)
      fail(Status::InvalidArgument, "input %zu is not a symbolic tensor (tfe_tensor_symbolic)", i);
    if (!arg_pos.emplace(a.node.get(), i).second)
      fail(Status::InvalidArgument, "input %zu is listed twice", i);
    for (Extent e : a.meta().shape) p->num_symbols = std::max(p->num_symbols, max_symbol(e));
  }
  for (size_t i = 0; i < outputs.size(); ++i)
    if (!outputs[i]) fail(Status::InvalidArgument, "output %zu is undefined", i);

  // Iterative post-order DFS: each shared node is visited once.
  std::unordered_set<const Node*> seen;
  std::vector<std::pair<const NodePtr*, size_t>> stack;
  for (const Value& out : outputs) {
    if (!seen.insert(out.node.get()).second) continue;
    stack.push_back({&out.node, 0});
    while (!stack.empty()) {
      const NodePtr* np = stack.back().first;
      const Node& n = **np;
      size_t next = stack.back().second;
      if (next < n.inputs.size()) {
        ++stack.back().second;
        // Nodes are immutable and alive, so pointers into their operand lists stay valid.
        const NodePtr& child = n.inputs[next].node;
        if (seen.insert(child.get()).second) stack.push_back({&child, 0});
        continue;
      }
      switch (n.kind) {
      case NodeKind::Argument:
        if (!arg_pos.count(&n))
          fail(Status::InvalidArgument,
               "an output depends on a symbolic tensor that is not an input of the function");
        break;
      case NodeKind::Captured: p->captured.push_back({*np, 0}); break;
      case NodeKind::Op:
        p->order.push_back(*np);
        p->guards.insert(p->guards.end(), n.guards.begin(), n.guards.end());
        break;
      }
      stack.pop_back();
    }
  }

  // Fingerprint over the canonical order: arguments, captured metas, then op nodes by position.
  std::unordered_map<const Node*, uint64_t> pos;
  Hash h;
  for (const Value& a : arguments) {
    pos[a.node.get()] = pos.size();
    h.mix(a.meta());
  }
  for (const Value& c : p->captured) {
    pos[c.node.get()] = pos.size();
    h.mix(1000003);
    h.mix(c.meta());
  }
  for (const NodePtr& n : p->order) {
    h.mix(static_cast<uint64_t>(n->op));
    h.mix(ops::hash_params(n->params));
    for (const Value& v : n->inputs) {
      h.mix(pos.at(v.node.get()));
      h.mix(v.index);
    }
    pos[n.get()] = pos.size();
  }
  for (const Value& o : outputs) {
    h.mix(pos.at(o.node.get()));
    h.mix(o.index);
  }
  p->fingerprint = h.h;
  p->fingerprint2 = h.h2;
  p->arguments = std::move(arguments);
  p->outputs = std::move(outputs);
  return p;
}

ProgramPtr without_data(const Program& p) {
  std::unordered_map<const Node*, NodePtr> copy;
  auto clone = [&](const NodePtr& n) {
    Node c;
    c.kind = n->kind;
    c.op = n->op;
    c.params = n->params;
    c.outputs = n->outputs;
    c.guards = n->guards;
    c.origin = n->origin;
    c.id = n->id; // same creation order: orders and fingerprints are unchanged
    for (const Value& v : n->inputs) c.inputs.push_back({copy.at(v.node.get()), v.index});
    copy[n.get()] = std::make_shared<const Node>(std::move(c));
  };
  for (const Value& a : p.arguments) clone(a.node);
  for (const Value& c : p.captured) clone(c.node); // Node::captured is left empty
  for (const NodePtr& n : p.order) clone(n);
  auto map = [&](const std::vector<Value>& vs) {
    std::vector<Value> out;
    for (const Value& v : vs) out.push_back({copy.at(v.node.get()), v.index});
    return out;
  };
  return make_program(map(p.arguments), map(p.outputs));
}

} // namespace tfe::graph
