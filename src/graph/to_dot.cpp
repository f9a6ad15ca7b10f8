// Graphviz DOT text of a program (to_dot.hpp).
#include "graph/to_dot.hpp"

#include <unordered_map>

#include "ops/params.hpp"

namespace tfe::graph {

std::string display_name(ops::OpCode op, const ops::Params& params) {
  if (op == ops::OpCode::Constant) return "constant"; // made by the library, not by a call
  std::string name(public_name(op, params));
  if (name.rfind("tfe_", 0) == 0) name.erase(0, 4);
  return name;
}

std::string describe(const ops::Meta& meta) {
  return std::string(dtype_name(meta.dtype)) + " " + ops::format_shape(meta.shape);
}

std::string dot_quote(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '\n') {
      out += "\\n"; // a centred line break in Graphviz
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

namespace {

std::string node_label(const Node& n) {
  std::string label = display_name(n.op, n.params);
  for (const ops::Meta& m : n.outputs) label += "\n" + describe(m);
  return label;
}

} // namespace

std::string to_dot(const Program& program, std::string_view title) {
  // Names follow the program's own orders, so equal programs print equal text.
  std::unordered_map<const Node*, std::string> names;
  std::string out = "digraph " + dot_quote(title) + " {\n";
  out += "  rankdir=TB;\n  node [shape=box, fontname=\"Helvetica\", fontsize=10];\n";
  out += "  edge [fontname=\"Helvetica\", fontsize=9];\n";
  for (size_t i = 0; i < program.arguments.size(); ++i) {
    const Node* n = program.arguments[i].node.get();
    names[n] = "in" + std::to_string(i);
    out += "  " + names[n] + " [style=\"rounded,filled\", fillcolor=\"#dbe8f6\", label=" +
           dot_quote("input " + std::to_string(i) + "\n" + describe(n->outputs.at(0))) + "];\n";
  }
  for (size_t i = 0; i < program.captured.size(); ++i) {
    const Node* n = program.captured[i].node.get();
    names[n] = "c" + std::to_string(i);
    out += "  " + names[n] +
           " [style=dashed, label=" + dot_quote("constant\n" + describe(n->outputs.at(0))) + "];\n";
  }
  auto name_of = [&](const Value& v) {
    auto it = names.find(v.node.get());
    if (it != names.end()) return it->second;
    // An input node not listed (never the case for a built program): name it on first sight.
    std::string name = "x" + std::to_string(names.size());
    names[v.node.get()] = name;
    out += "  " + name + " [style=dotted, label=" + dot_quote(describe(v.meta())) + "];\n";
    return name;
  };
  for (size_t i = 0; i < program.order.size(); ++i) {
    const Node& n = *program.order[i];
    if (n.kind != NodeKind::Op) continue;
    names[&n] = "n" + std::to_string(i);
    out += "  " + names[&n] + " [label=" + dot_quote(node_label(n)) + "];\n";
    for (const Value& in : n.inputs) {
      out += "  " + name_of(in) + " -> " + names[&n];
      if (in.node->outputs.size() > 1) out += " [label=\"" + std::to_string(in.index) + "\"]";
      out += ";\n";
    }
  }
  for (size_t i = 0; i < program.outputs.size(); ++i) {
    const Value& v = program.outputs[i];
    std::string o = "out" + std::to_string(i);
    out +=
        "  " + o + " [shape=plaintext, label=" + dot_quote("output " + std::to_string(i)) + "];\n";
    out += "  " + name_of(v) + " -> " + o;
    if (v.node->outputs.size() > 1) out += " [label=\"" + std::to_string(v.index) + "\"]";
    out += ";\n";
  }
  return out + "}\n";
}

} // namespace tfe::graph
