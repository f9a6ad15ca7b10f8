// Implementation of the eager derivative requests (engine.hpp).
#include "ad/recording/engine.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "ad/builder.hpp"
#include "ad/recording/semantic.hpp"
#include "backend/execute.hpp"
#include "eager/surface.hpp"
#include "graph/fusion.hpp"

namespace tfe::ad::recording {
namespace {

std::vector<ops::ConcreteMeta> metas_of(std::span<const Tensor> values) {
  std::vector<ops::ConcreteMeta> m;
  m.reserve(values.size());
  for (const Tensor& t : values) m.push_back({t.dtype(), t.shape()});
  return m;
}

// Whether a primal node is cheaper to recompute inside the derivative program's fused region
// than to read back: an arithmetic or complex-part op (not pow) of one shape, a few cycles per
// element, where its recorded value would be one more stream read from memory.
bool cheap_to_recompute(const graph::Node& n) {
  if (n.kind != graph::NodeKind::Op || n.outputs.size() != 1 || n.op == ops::OpCode::Pow)
    return false;
  const ops::OpDef& def = ops::op_def(n.op);
  if (def.group != ops::OpGroup::Arithmetic && def.group != ops::OpGroup::ComplexParts)
    return false;
  return std::all_of(n.inputs.begin(), n.inputs.end(),
                     [&](const graph::Value& v) { return v.meta().shape == n.outputs[0].shape; });
}

// The derivative program d of sem.program, compiled with the primal nodes it would recompute
// bound to the values the eager run produced (the trace retains them). When the host's fused
// regions will run it, the cheap nodes whose operands are at hand (arguments, bound or themselves
// recomputed) are recomputed instead: the same kernels give the same bits, and the derivative
// reads fewer recorded values (the eager backward is bound by that memory traffic).
std::vector<Tensor> run_compiled(Caches& c, const CachedDerivative& d, const Semantic& sem,
                                 std::vector<Tensor> args) {
  std::vector<ops::ConcreteMeta> metas = metas_of(args);
  std::vector<int32_t> given;
  given.reserve(d.primal.size());
  const bool recompute =
      graph::fusion_enabled() &&
      std::all_of(args.begin(), args.end(), [](const Tensor& t) { return t.device().is_cpu(); });
  std::unordered_set<const graph::Node*> at_hand;
  for (const graph::Value& a : d.program->arguments) at_hand.insert(a.node.get());
  for (const graph::Value& a : d.program->captured) at_hand.insert(a.node.get());
  for (const PrimalNode& pn : d.primal) {
    const graph::Node* n = d.program->order[static_cast<size_t>(pn.position)].get();
    const bool again = recompute && cheap_to_recompute(*n) &&
                       std::all_of(n->inputs.begin(), n->inputs.end(), [&](const graph::Value& v) {
                         return at_hand.count(v.node.get()) > 0;
                       });
    at_hand.insert(n);
    if (again) continue;
    given.push_back(pn.position);
    const RawNode& raw = *sem.computed[static_cast<size_t>(pn.source_position)].node;
    args.push_back(raw.value); // compile binds every output of a given node
    args.insert(args.end(), raw.more_values.begin(), raw.more_values.end());
  }
  return graph::run_cached(c.prepared, *d.program, metas, given, args, {});
}

// Replays d op by op through the recording emit (results stay in the trace), with its symbolic
// params bound to the arguments' shapes. Its primal nodes are the recorded ones (value and node),
// so the results hang off the original trace and nothing of the forward pass runs again.
std::vector<Recorded> run_recorded(const CachedDerivative& d, const Semantic& sem,
                                   std::span<const Recorded> args) {
  const graph::Program& p = *d.program;
  std::vector<ops::ConcreteMeta> metas;
  for (const Recorded& a : args) metas.push_back({a.value.dtype(), a.value.shape()});
  std::vector<int64_t> symbols = graph::bind_symbols(p, metas);
  // Every output of a node, by node.
  std::unordered_map<const graph::Node*, std::vector<Recorded>> value;
  auto at = [&](const graph::Value& v) -> const Recorded& {
    return value.at(v.node.get()).at(v.index);
  };
  for (size_t i = 0; i < p.arguments.size(); ++i) value[p.arguments[i].node.get()] = {args[i]};
  std::vector<int32_t> given;
  for (const PrimalNode& pn : d.primal) {
    const RawRef& raw = sem.computed[static_cast<size_t>(pn.source_position)];
    std::vector<Recorded>& outs = value[p.order[static_cast<size_t>(pn.position)].get()];
    for (uint32_t i = 0; i <= raw.node->more_values.size(); ++i)
      outs.push_back(Recorded{raw.node->output(i), RawRef{raw.node, i}});
    given.push_back(pn.position);
  }
  std::vector<bool> run = graph::nodes_to_run(p, given);
  std::vector<Recorded> in;
  for (size_t k = 0; k < p.order.size(); ++k) {
    if (!run[k]) continue;
    const graph::Node* n = p.order[k].get();
    in.clear();
    for (const graph::Value& v : n->inputs) in.push_back(at(v));
    ops::Params params = graph::bind_params(n->params, symbols);
    try {
      if (n->outputs.size() == 1)
        value[n] = {emit(n->op, in, params)};
      else
        value[n] = emit_multi(n->op, in, params);
    } catch (const Error& e) {
      throw graph::in_derivative_of(n->origin, e);
    }
  }
  std::vector<Recorded> out;
  for (const graph::Value& o : p.outputs) out.push_back(at(o));
  return out;
}

} // namespace

template <class V> V checked_seed(const ops::Meta& y, const std::optional<V>& seed) {
  Dims shape = ops::concrete_dims(y.shape);
  if (!seed) {
    if (numel_of(shape) != 1)
      fail(Status::InvalidArgument, "without a seed the output must have one element, not shape %s",
           format_dims(shape).c_str());
    Tensor one = tfe::eager::cast(Tensor::scalar(1.0), y.dtype);
    return literal(tfe::eager::broadcast_to(one, y.shape), static_cast<const V*>(nullptr));
  }
  ops::Meta s = meta_of(*seed);
  if (s.shape != y.shape)
    fail(Status::ShapeMismatch, "the seed has shape %s but the output has %s",
         ops::format_shape(s.shape).c_str(), format_dims(shape).c_str());
  if (s.dtype == y.dtype) return *seed;
  if (is_complex(y.dtype) && s.dtype == real_dtype(y.dtype))
    return tfe::eager::cast(*seed, y.dtype); // cast up
  fail(Status::DtypeMismatch,
       "%s seed for %s output (the seed has the output's dtype, or its real dtype)",
       std::string(dtype_phrase(s.dtype)).c_str(), std::string(dtype_phrase(y.dtype)).c_str());
}

template Recorded checked_seed<Recorded>(const ops::Meta&, const std::optional<Recorded>&);
template Tensor checked_seed<Tensor>(const ops::Meta&, const std::optional<Tensor>&);

std::vector<LeafGrad> backward(const Recorded& loss, const std::optional<Tensor>& seed,
                               Caches& caches) {
  if (!loss.ref) fail(Status::NotDifferentiable, "the loss does not depend on a tracked tensor");
  std::optional<Recorded> s;
  if (seed) s = Recorded{*seed, {}};
  Recorded seed_value = checked_seed(meta_of(loss), s);
  std::array<RawRef, 1> roots{loss.ref};
  ops::ShapeWitness witness;
  Semantic sem = analyze(roots, {}, witness);
  std::vector<int64_t> wrt;
  for (size_t i = 0; i < sem.arguments.size(); ++i)
    if (sem.arguments[i].node->kind == RawKind::TrackedLeaf) wrt.push_back(static_cast<int64_t>(i));
  if (wrt.empty()) fail(Status::NotDifferentiable, "the loss does not depend on a tracked tensor");
  auto d = transform_cached(caches.transforms, *sem.program, Transform::Vjp, wrt);
  std::vector<Tensor> args = sem.values;
  args.push_back(seed_value.value);
  std::vector<Tensor> out = run_compiled(caches, *d, sem, std::move(args));
  std::vector<LeafGrad> grads;
  for (size_t k = 0; k < wrt.size(); ++k) {
    if (d->structurally_zero[1 + k]) continue;
    grads.push_back({sem.arguments[static_cast<size_t>(wrt[k])].node->leaf, out[1 + k]});
  }
  return grads;
}

void commit(std::vector<LeafGrad> grads) {
  // One leaf may appear once only (arguments are distinct); lock in address order.
  std::sort(grads.begin(), grads.end(),
            [](const LeafGrad& a, const LeafGrad& b) { return a.leaf < b.leaf; });
  std::vector<std::unique_lock<std::mutex>> locks;
  locks.reserve(grads.size());
  for (const LeafGrad& g : grads) locks.emplace_back(g.leaf->mutex);
  std::vector<Tensor> sums;
  sums.reserve(grads.size());
  for (const LeafGrad& g : grads) {
    if (!g.leaf->grad) {
      sums.push_back(g.grad);
      continue;
    }
    std::array<Tensor, 2> in{*g.leaf->grad, g.grad};
    sums.push_back(tfe::eager::call<Tensor>(ops::OpCode::Add, in));
  }
  for (size_t i = 0; i < grads.size(); ++i) grads[i].leaf->grad = std::move(sums[i]);
}

std::vector<std::optional<Recorded>> vjp(const Recorded& y, std::span<const Recorded> xs,
                                         const std::optional<Recorded>& seed, Caches& caches,
                                         bool record) {
  std::vector<std::optional<Recorded>> result(xs.size());
  Recorded seed_value = checked_seed(meta_of(y), seed);
  if (!y.ref) return result;
  std::vector<Cut> cuts;
  for (const Recorded& x : xs)
    if (x.ref && x.ref.node->kind == RawKind::Op) cuts.push_back({x.ref, x.value});
  std::array<RawRef, 1> roots{y.ref};
  ops::ShapeWitness witness;
  Semantic sem = analyze(roots, cuts, witness);
  std::vector<int64_t> wrt;
  std::vector<size_t> which;
  for (size_t i = 0; i < xs.size(); ++i) {
    if (!xs[i].ref) continue;
    const RawNode& n = *xs[i].ref.node;
    if (n.kind == RawKind::ConstantLeaf) continue; // never active
    int64_t a = argument_index(sem, xs[i].ref);
    if (a < 0 || std::find(wrt.begin(), wrt.end(), a) != wrt.end()) continue;
    wrt.push_back(a);
    which.push_back(i);
  }
  if (wrt.empty()) return result;
  auto d = transform_cached(caches.transforms, *sem.program, Transform::Vjp, wrt);
  if (record) {
    std::vector<Recorded> args;
    for (size_t i = 0; i < sem.arguments.size(); ++i)
      args.push_back({sem.values[i], sem.arguments[i].node->kind == RawKind::ConstantLeaf
                                         ? RawRef{}
                                         : sem.arguments[i]});
    args.push_back(seed_value);
    std::vector<Recorded> out = run_recorded(*d, sem, args);
    for (size_t k = 0; k < wrt.size(); ++k)
      if (!d->structurally_zero[1 + k]) result[which[k]] = out[1 + k];
  } else {
    std::vector<Tensor> args = sem.values;
    args.push_back(seed_value.value);
    std::vector<Tensor> out = run_compiled(caches, *d, sem, std::move(args));
    for (size_t k = 0; k < wrt.size(); ++k)
      if (!d->structurally_zero[1 + k]) result[which[k]] = Recorded{out[1 + k], {}};
  }
  return result;
}

std::optional<Recorded> jvp(const Recorded& y, std::span<const Recorded> xs,
                            std::span<const std::optional<Recorded>> tangents, Caches& caches,
                            bool record) {
  if (!y.ref) return std::nullopt;
  std::vector<Cut> cuts;
  for (const Recorded& x : xs)
    if (x.ref && x.ref.node->kind == RawKind::Op) cuts.push_back({x.ref, x.value});
  std::array<RawRef, 1> roots{y.ref};
  ops::ShapeWitness witness;
  Semantic sem = analyze(roots, cuts, witness);
  std::vector<int64_t> wrt;
  std::vector<Recorded> dx;
  for (size_t i = 0; i < xs.size(); ++i) {
    if (!xs[i].ref || xs[i].ref.node->kind == RawKind::ConstantLeaf) continue;
    int64_t a = argument_index(sem, xs[i].ref);
    if (a < 0 || std::find(wrt.begin(), wrt.end(), a) != wrt.end()) continue;
    wrt.push_back(a);
    const Tensor& xv = xs[i].value;
    if (!tangents[i]) {
      dx.push_back({Tensor::zeros(xv.dtype(), xv.shape()), {}});
      continue;
    }
    const Recorded& t = *tangents[i];
    if (t.value.shape() != xv.shape())
      fail(Status::ShapeMismatch, "tangent %zu has shape %s but its input has %s", i,
           format_dims(t.value.shape()).c_str(), format_dims(xv.shape()).c_str());
    if (t.value.dtype() == xv.dtype())
      dx.push_back(t);
    else if (is_complex(xv.dtype()) && t.value.dtype() == real_dtype(xv.dtype()))
      dx.push_back(tfe::eager::cast(t, xv.dtype())); // a real tangent is cast up
    else
      fail(Status::DtypeMismatch, "tangent %zu is %s but its input is %s", i,
           std::string(dtype_name(t.value.dtype())).c_str(),
           std::string(dtype_name(xv.dtype())).c_str());
  }
  if (wrt.empty()) return std::nullopt;
  auto d = transform_cached(caches.transforms, *sem.program, Transform::Jvp, wrt);
  if (d->structurally_zero[1]) return std::nullopt;
  if (record) {
    std::vector<Recorded> args;
    for (size_t i = 0; i < sem.arguments.size(); ++i)
      args.push_back({sem.values[i], sem.arguments[i].node->kind == RawKind::ConstantLeaf
                                         ? RawRef{}
                                         : sem.arguments[i]});
    args.insert(args.end(), dx.begin(), dx.end());
    return run_recorded(*d, sem, args)[1];
  }
  std::vector<Tensor> args = sem.values;
  for (const Recorded& t : dx) args.push_back(t.value);
  return Recorded{run_compiled(caches, *d, sem, std::move(args))[1], {}};
}

} // namespace tfe::ad::recording
