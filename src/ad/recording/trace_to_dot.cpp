// Graphviz DOT text of an eager trace (trace_to_dot.hpp).
#include "ad/recording/trace_to_dot.hpp"

#include <unordered_map>
#include <vector>

#include "graph/to_dot.hpp"

namespace tfe::ad::recording {

namespace {

std::string describe(const Tensor& t) {
  return graph::describe(ops::Meta{t.dtype(), Shape(t.shape())});
}

std::string leaf_label(const RawNode& n) {
  switch (n.kind) {
  case RawKind::TrackedLeaf: return "variable\n" + describe(n.value);
  case RawKind::CapturedLeaf: return "captured\n" + describe(n.value);
  case RawKind::ConstantLeaf: return "constant\n" + describe(n.value);
  case RawKind::Op: break;
  }
  std::string label = graph::display_name(n.op, n.params) + "\n" + describe(n.value);
  for (const Tensor& t : n.more_values) label += "\n" + describe(t);
  return label;
}

std::string leaf_style(RawKind kind) {
  switch (kind) {
  case RawKind::TrackedLeaf: return "style=\"rounded,filled\", fillcolor=\"#dbe8f6\", ";
  case RawKind::CapturedLeaf: return "style=\"rounded,filled\", fillcolor=\"#e8f6db\", ";
  case RawKind::ConstantLeaf: return "style=dashed, ";
  case RawKind::Op: break;
  }
  return "";
}

} // namespace

std::string trace_to_dot(const RawRef& root) {
  // Iterative depth-first numbering from the root; each shared node is printed once.
  std::unordered_map<const RawNode*, int> ids;
  std::vector<const RawNode*> order;
  std::vector<const RawNode*> stack{root.node.get()};
  while (!stack.empty()) {
    const RawNode* n = stack.back();
    stack.pop_back();
    if (ids.count(n)) continue;
    ids[n] = static_cast<int>(order.size());
    order.push_back(n);
    for (const RawRef& in : n->inputs) stack.push_back(in.node.get());
  }
  std::string out = "digraph \"eager trace\" {\n";
  out += "  rankdir=TB;\n  node [shape=box, fontname=\"Helvetica\", fontsize=10];\n";
  out += "  edge [fontname=\"Helvetica\", fontsize=9];\n";
  // Operands before users, so the text reads like the code that recorded it.
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const RawNode& n = **it;
    std::string name = "t" + std::to_string(ids[&n]);
    out += "  " + name + " [" + leaf_style(n.kind) + "label=" + graph::dot_quote(leaf_label(n)) +
           "];\n";
    for (const RawRef& in : n.inputs) {
      out += "  t" + std::to_string(ids[in.node.get()]) + " -> " + name;
      if (!in.node->more_values.empty()) out += " [label=\"" + std::to_string(in.index) + "\"]";
      out += ";\n";
    }
  }
  out += "  result [shape=plaintext, label=\"tensor\"];\n";
  out += "  t0 -> result";
  if (!root.node->more_values.empty()) out += " [label=\"" + std::to_string(root.index) + "\"]";
  return out + ";\n}\n";
}

} // namespace tfe::ad::recording
