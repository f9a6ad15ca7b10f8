// Implementation of the program transforms (transforms.hpp).
#include "ad/transforms.hpp"

#include <memory>
#include <unordered_map>
#include <unordered_set>

#include "ad/rules/rules.hpp"

namespace tfe::ad {
namespace {

// Tangents by value: (node, output index).
struct ValueKey {
  const graph::Node* node;
  uint32_t index;
  bool operator==(const ValueKey&) const = default;
};
struct ValueKeyHash {
  size_t operator()(const ValueKey& k) const {
    return std::hash<const void*>{}(k.node) * 31 + k.index;
  }
};
using NodeMap = std::unordered_map<ValueKey, Tangent, ValueKeyHash>;

ValueKey key_of(const Value& v) { return {v.node.get(), v.index}; }

Tangent tangent_of(const NodeMap& m, const Value& v) {
  auto it = m.find(key_of(v));
  return it == m.end() ? Tangent{} : it->second;
}

// Forward propagation: tangents of every node of p, given tangents of some arguments.
NodeMap propagate(const graph::Program& p, const NodeMap& seeds) {
  NodeMap tan = seeds;
  std::vector<Tangent> dx, dy;
  std::vector<Value> ys;
  for (const graph::NodePtr& n : p.order) {
    dx.clear();
    for (const Value& v : n->inputs) dx.push_back(tangent_of(tan, v));
    // The rule's nodes, and its failures, name the public function being differentiated.
    std::string_view origin = graph::origin_of(*n);
    graph::OriginScope scope(origin);
    try {
      if (n->outputs.size() == 1) {
        Value y{n, 0};
        Tangent t = jvp_of(*n, n->inputs, y, dx);
        if (t) tan[{n.get(), 0}] = t;
        continue;
      }
      ys.clear();
      for (uint32_t i = 0; i < n->outputs.size(); ++i) ys.push_back({n, i});
      dy.assign(ys.size(), std::nullopt);
      jvp_multi_of(*n, n->inputs, ys, dx, dy);
    } catch (const Error& e) {
      throw graph::in_derivative_of(origin, e);
    }
    for (uint32_t i = 0; i < dy.size(); ++i)
      if (dy[i]) tan[{n.get(), i}] = dy[i];
  }
  return tan;
}

// Cotangents of the tangent arguments, by transposing the linear graph that maps them to
// `outputs` (cotangent seeds[i] for outputs[i]; undefined seeds are zero).
std::vector<Tangent> transpose_linear(std::span<const Value> tangent_args,
                                      std::span<const Value> outputs,
                                      std::span<const Tangent> seeds) {
  // Linear nodes: the tangent arguments and everything computed from them.
  std::unordered_set<const graph::Node*> args;
  for (const Value& a : tangent_args) args.insert(a.node.get());
  std::unordered_map<const graph::Node*, bool> linear;
  std::vector<graph::NodePtr> order; // linear nodes, operands first
  auto is_linear = [&](auto&& self, const graph::NodePtr& n) -> bool {
    if (auto it = linear.find(n.get()); it != linear.end()) return it->second;
    bool lin = args.count(n.get()) > 0;
    if (!lin)
      for (const Value& v : n->inputs) lin |= self(self, v.node);
    // Linear parts are made of single-output ops (decision 0013): an op with several outputs
    // only ever produces residuals.
    if (lin && n->outputs.size() > 1)
      fail(Status::Internal, "%s with %zu outputs in the linear part of a derivative",
           std::string(ops::op_def(n->op).name).c_str(), n->outputs.size());
    linear[n.get()] = lin;
    if (lin && !args.count(n.get())) order.push_back(n);
    return lin;
  };
  for (const Value& o : outputs) is_linear(is_linear, o.node);

  std::unordered_map<const graph::Node*, Value> ct;
  auto accumulate = [&](const graph::Node* n, const Value& v) {
    auto it = ct.find(n);
    if (it == ct.end())
      ct.emplace(n, v);
    else
      it->second = it->second + v;
  };
  for (size_t i = 0; i < outputs.size(); ++i)
    if (seeds[i] && linear[outputs[i].node.get()]) accumulate(outputs[i].node.get(), *seeds[i]);

  std::vector<Tangent> out;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const graph::Node& n = **it;
    auto c = ct.find(&n);
    if (c == ct.end()) continue;
    const Rules& r = rules_for(n.op);
    std::string_view origin = graph::origin_of(n);
    if (!r.transpose)
      fail(Status::Internal, "the derivative of %s: %s has no transpose rule",
           std::string(origin).c_str(), std::string(ops::op_def(n.op).name).c_str());
    auto lin = std::make_unique<bool[]>(n.inputs.size() + 1); // span<const bool> needs real bools
    for (size_t i = 0; i < n.inputs.size(); ++i) lin[i] = linear[n.inputs[i].node.get()];
    out.assign(n.inputs.size(), std::nullopt);
    graph::OriginScope scope(origin);
    try {
      r.transpose(
          TransposeArgs{n, n.inputs, std::span<const bool>(lin.get(), n.inputs.size()), c->second},
          out);
    } catch (const Error& e) {
      throw graph::in_derivative_of(origin, e);
    }
    for (size_t i = 0; i < n.inputs.size(); ++i)
      if (lin[i] && out[i]) accumulate(n.inputs[i].node.get(), *out[i]);
  }
  std::vector<Tangent> grads;
  for (const Value& a : tangent_args) {
    auto it = ct.find(a.node.get());
    grads.push_back(it == ct.end() ? Tangent{} : Tangent{it->second});
  }
  return grads;
}

struct Linearized {
  std::vector<Value> tangent_args;
  std::vector<Tangent> output_tangents;
};

Linearized linearize(const graph::Program& p, const std::vector<int64_t>& wrt) {
  Linearized l;
  NodeMap seeds;
  for (int64_t i : wrt) {
    const Value& a = p.arguments[static_cast<size_t>(i)];
    Value t = graph::argument(a.meta().dtype, a.meta().shape);
    l.tangent_args.push_back(t);
    if (is_inexact(a.meta().dtype)) seeds[key_of(a)] = t; // Bool/integers are never active
  }
  NodeMap tan = propagate(p, seeds);
  for (const Value& o : p.outputs) l.output_tangents.push_back(tangent_of(tan, o));
  return l;
}

// Gradients of `p`'s outputs contracted with `seeds`, w.r.t. the wrt inputs.
std::vector<Tangent> gradients(const graph::Program& p, const std::vector<int64_t>& wrt,
                               std::span<const Tangent> seeds) {
  Linearized l = linearize(p, wrt);
  std::vector<Value> outs;
  std::vector<Tangent> out_seeds;
  for (size_t i = 0; i < p.outputs.size(); ++i)
    if (l.output_tangents[i]) {
      outs.push_back(*l.output_tangents[i]);
      out_seeds.push_back(seeds[i]);
    }
  std::vector<Tangent> g = transpose_linear(l.tangent_args, outs, out_seeds);
  // A real input of a promoted op receives the real part of its complex cotangent.
  for (size_t k = 0; k < wrt.size(); ++k) {
    const Value& a = p.arguments[static_cast<size_t>(wrt[k])];
    if (g[k] && is_complex(g[k]->meta().dtype) && !is_complex(a.meta().dtype)) g[k] = real(*g[k]);
  }
  return g;
}

Derivative finish(std::vector<Value> args, std::vector<Value> outs, std::vector<bool> zero) {
  Derivative d;
  d.program = graph::make_program(std::move(args), std::move(outs));
  d.structurally_zero = std::move(zero);
  return d;
}

void require_scalar_output(const graph::Program& p, const char* what) {
  if (p.arguments.empty()) fail(Status::InvalidArgument, "%s of a function without inputs", what);
  if (p.outputs.size() != 1)
    fail(Status::InvalidArgument, "%s needs a function with one output, not %zu", what,
         p.outputs.size());
  for (Extent e : p.outputs[0].meta().shape)
    if (!(e == Extent(1)))
      fail(Status::InvalidArgument, "%s needs a one-element output, not shape %s", what,
           ops::format_shape(p.outputs[0].meta().shape).c_str());
  if (!is_inexact(p.outputs[0].meta().dtype))
    fail(Status::NotDifferentiable, "%s of %s output", what,
         std::string(dtype_phrase(p.outputs[0].meta().dtype)).c_str());
}

} // namespace

std::vector<int64_t> normalize_wrt(const graph::Program& p, std::vector<int64_t> wrt) {
  int64_t n = static_cast<int64_t>(p.arguments.size());
  if (wrt.empty())
    for (int64_t i = 0; i < n; ++i) wrt.push_back(i);
  std::unordered_set<int64_t> seen;
  for (int64_t& i : wrt) {
    int64_t k = i < 0 ? i + n : i;
    if (k < 0 || k >= n)
      fail(Status::InvalidArgument, "input index %lld is out of range for %s", (long long)i,
           count_of(n, "input").c_str());
    if (!seen.insert(k).second)
      fail(Status::InvalidArgument, "input %lld is listed twice", (long long)k);
    i = k;
  }
  return wrt;
}

Derivative jvp(const graph::Program& p, std::vector<int64_t> wrt) {
  wrt = normalize_wrt(p, std::move(wrt));
  Linearized l = linearize(p, wrt);
  std::vector<Value> args = p.arguments, outs = p.outputs;
  args.insert(args.end(), l.tangent_args.begin(), l.tangent_args.end());
  std::vector<bool> zero(p.outputs.size(), false);
  for (size_t i = 0; i < p.outputs.size(); ++i) {
    zero.push_back(!l.output_tangents[i]);
    outs.push_back(l.output_tangents[i] ? *l.output_tangents[i] : zeros_like(p.outputs[i]));
  }
  return finish(std::move(args), std::move(outs), std::move(zero));
}

Derivative vjp(const graph::Program& p, std::vector<int64_t> wrt) {
  wrt = normalize_wrt(p, std::move(wrt));
  std::vector<Value> args = p.arguments, outs = p.outputs;
  std::vector<Tangent> seeds;
  for (const Value& o : p.outputs) {
    Value c = graph::argument(o.meta().dtype, o.meta().shape);
    args.push_back(c);
    seeds.push_back(is_inexact(o.meta().dtype) ? Tangent{c} : Tangent{});
  }
  std::vector<Tangent> g = gradients(p, wrt, seeds);
  std::vector<bool> zero(p.outputs.size(), false);
  for (size_t k = 0; k < wrt.size(); ++k) {
    zero.push_back(!g[k]);
    outs.push_back(g[k] ? *g[k] : zeros_like(p.arguments[static_cast<size_t>(wrt[k])]));
  }
  return finish(std::move(args), std::move(outs), std::move(zero));
}

Derivative grad(const graph::Program& p, std::vector<int64_t> wrt) {
  wrt = normalize_wrt(p, std::move(wrt));
  require_scalar_output(p, "grad");
  const Value& y = p.outputs[0];
  std::vector<Tangent> seeds{full(y.meta().dtype, y.meta().shape, 1.0)};
  std::vector<Tangent> g = gradients(p, wrt, seeds);
  std::vector<Value> outs;
  std::vector<bool> zero;
  for (size_t k = 0; k < wrt.size(); ++k) {
    zero.push_back(!g[k]);
    outs.push_back(g[k] ? *g[k] : zeros_like(p.arguments[static_cast<size_t>(wrt[k])]));
  }
  return finish(p.arguments, std::move(outs), std::move(zero));
}

Derivative hvp(const graph::Program& p, std::vector<int64_t> wrt, HvpMode mode) {
  wrt = normalize_wrt(p, std::move(wrt));
  Derivative g = grad(p, wrt); // inputs: p's inputs; outputs: one gradient per wrt input
  const graph::Program& gp = *g.program;
  std::vector<Value> args = gp.arguments, outs;
  std::vector<Value> directions;
  for (int64_t i : wrt) {
    const Value& a = gp.arguments[static_cast<size_t>(i)];
    directions.push_back(graph::argument(a.meta().dtype, a.meta().shape));
  }
  args.insert(args.end(), directions.begin(), directions.end());
  std::vector<Tangent> hv;
  if (mode == HvpMode::ForwardOverReverse) {
    NodeMap seeds;
    for (size_t k = 0; k < wrt.size(); ++k) {
      const Value& a = gp.arguments[static_cast<size_t>(wrt[k])];
      if (is_inexact(a.meta().dtype)) seeds[key_of(a)] = directions[k];
    }
    NodeMap tan = propagate(gp, seeds);
    for (const Value& o : gp.outputs) hv.push_back(tangent_of(tan, o));
  } else {
    // Reverse over reverse: the gradient of h(x) = sum_k Re<grad_k f(x), v_k>.
    Tangent h;
    for (size_t k = 0; k < wrt.size(); ++k) {
      const Value& gk = gp.outputs[k];
      Value term = real(conj(gk) * directions[k]);
      Dims all;
      for (int64_t d = 0; d < static_cast<int64_t>(gk.meta().shape.size()); ++d) all.push_back(d);
      h = add(h, Tangent{reduce_sum(term, all)});
    }
    std::vector<Value> h_out{*h};
    graph::ProgramPtr hp = graph::make_program(args, h_out); // inputs: x..., v...
    Derivative hg = grad(*hp, wrt);
    for (const Value& o : hg.program->outputs) hv.push_back(o);
  }
  std::vector<bool> zero;
  for (size_t k = 0; k < wrt.size(); ++k) {
    zero.push_back(!hv[k]);
    outs.push_back(hv[k] ? *hv[k] : zeros_like(gp.arguments[static_cast<size_t>(wrt[k])]));
  }
  return finish(std::move(args), std::move(outs), std::move(zero));
}

} // namespace tfe::ad
