// Binding, CSE, slot assignment and liveness (compile.hpp).
#include "graph/compile.hpp"

#include <unordered_map>

#include "backend/device/kernels.hpp"
#include "backend/device/plugin.hpp"
#include "backend/execute.hpp"
#include "ops/extension.hpp"

namespace tfe::graph {
namespace {

Shape bind_shape(const Shape& s, std::span<const int64_t> symbols) {
  Shape out(s.size());
  for (size_t i = 0; i < s.size(); ++i) out[i] = evaluate(s[i], symbols);
  return out;
}

} // namespace

// Params with every extent evaluated.
ops::Params bind_params(const ops::Params& p, std::span<const int64_t> symbols) {
  return std::visit(
      [&](const auto& q) -> ops::Params {
        using Q = std::decay_t<decltype(q)>;
        Q r = q;
        if constexpr (std::is_same_v<Q, ops::ReshapeParams> ||
                      std::is_same_v<Q, ops::BroadcastInDimParams> ||
                      std::is_same_v<Q, ops::IotaParams>) {
          r.shape = bind_shape(q.shape, symbols);
        } else if constexpr (std::is_same_v<Q, ops::SliceParams>) {
          r.starts = bind_shape(q.starts, symbols);
          r.limits = bind_shape(q.limits, symbols);
        } else if constexpr (std::is_same_v<Q, ops::DynamicSliceParams>) {
          r.sizes = bind_shape(q.sizes, symbols);
        } else if constexpr (std::is_same_v<Q, ops::PadParams>) {
          r.low = bind_shape(q.low, symbols);
          r.high = bind_shape(q.high, symbols);
        }
        return r;
      },
      p);
}

namespace {

struct CseKey {
  ops::OpCode op;
  const ops::Params* params;
  SmallVector<int32_t, 4> inputs;
  size_t hash;
  bool operator==(const CseKey& o) const {
    return op == o.op && inputs == o.inputs && *params == *o.params;
  }
};
struct CseHash {
  size_t operator()(const CseKey& k) const { return k.hash; }
};

} // namespace

std::vector<int64_t> bind_symbols(const Program& p, std::span<const ops::ConcreteMeta> arguments) {
  if (arguments.size() != p.arguments.size())
    fail(Status::InvalidArgument, "the function takes %s, got %zu",
         count_of(static_cast<long long>(p.arguments.size()), "input").c_str(), arguments.size());
  std::vector<int64_t> symbols(static_cast<size_t>(p.num_symbols), -1);
  for (size_t i = 0; i < arguments.size(); ++i) {
    const ops::Meta& want = p.arguments[i].meta();
    const ops::ConcreteMeta& got = arguments[i];
    if (got.dtype != want.dtype)
      fail(Status::DtypeMismatch, "input %zu is %s but the function takes %s", i,
           std::string(dtype_name(got.dtype)).c_str(), std::string(dtype_name(want.dtype)).c_str());
    if (got.shape.size() != want.shape.size())
      fail(Status::ShapeMismatch, "input %zu has shape %s but the function takes rank %zu (%s)", i,
           format_dims(got.shape).c_str(), want.shape.size(),
           ops::format_shape(want.shape).c_str());
    for (size_t d = 0; d < got.shape.size(); ++d) {
      Extent e = want.shape[d];
      int64_t actual = got.shape[d];
      if (e.is_const()) {
        if (e.value() != actual)
          fail(Status::ShapeMismatch, "input %zu has shape %s but the function takes %s (dim %zu)",
               i, format_dims(got.shape).c_str(), ops::format_shape(want.shape).c_str(), d);
        continue;
      }
      int64_t k = symbol_id(e);
      if (k == 0) continue; // an expression over symbols: checked once all are bound (below)
      int64_t& slot = symbols[static_cast<size_t>(k - 1)];
      if (slot < 0) {
        slot = actual;
      } else if (slot != actual) {
        fail(Status::ShapeMismatch,
             "input %zu has shape %s: dim %zu is symbol s%lld, already bound to %lld by an earlier "
             "input",
             i, format_dims(got.shape).c_str(), d, (long long)k, (long long)slot);
      }
    }
  }
  // Inputs whose extents are expressions (a cotangent of shape [min(s1,s2)]) bind nothing; they
  // must equal the expression's value.
  for (size_t i = 0; i < arguments.size(); ++i) {
    const Shape& want = p.arguments[i].meta().shape;
    for (size_t d = 0; d < want.size(); ++d) {
      Extent e = want[d];
      if (e.is_const() || symbol_id(e) != 0) continue;
      int64_t actual = arguments[i].shape[d];
      int64_t value = evaluate(e, symbols);
      if (value != actual)
        fail(Status::ShapeMismatch,
             "input %zu has shape %s but the function takes %s (dim %zu is %s = %lld)", i,
             format_dims(arguments[i].shape).c_str(), ops::format_shape(want).c_str(), d,
             to_string(e).c_str(), (long long)value);
    }
  }
  for (size_t k = 0; k < symbols.size(); ++k)
    if (symbols[k] < 0) symbols[k] = 0; // a symbol no argument uses is never read
  return symbols;
}

std::vector<bool> nodes_to_run(const Program& p, std::span<const int32_t> given) {
  std::vector<bool> run(p.order.size(), true);
  if (given.empty()) return run;
  std::unordered_map<const Node*, size_t> position;
  for (size_t k = 0; k < p.order.size(); ++k) position.emplace(p.order[k].get(), k);
  std::vector<bool> needed(p.order.size(), false), is_given(p.order.size(), false);
  for (int32_t g : given) is_given.at(static_cast<size_t>(g)) = true;
  auto need = [&](const Value& v) {
    if (auto it = position.find(v.node.get()); it != position.end()) needed[it->second] = true;
  };
  for (const Value& o : p.outputs) need(o);
  for (size_t k = p.order.size(); k-- > 0;)
    if (needed[k] && !is_given[k])
      for (const Value& v : p.order[k]->inputs) need(v);
  for (size_t k = 0; k < p.order.size(); ++k) run[k] = needed[k] && !is_given[k];
  return run;
}

CompiledPtr compile(const Program& p, std::span<const ops::ConcreteMeta> arguments,
                    std::span<const int32_t> given, const backend::Backend& target, bool fuse) {
  std::vector<int64_t> symbols = bind_symbols(p, arguments);
  for (const ops::ShapeGuard& g : p.guards) {
    int64_t a = evaluate(g.a, symbols), b = evaluate(g.b, symbols);
    if (!ops::holds(g, symbols).value_or(false))
      fail(g.status, "%s, with %s = %lld and %s = %lld", g.message.c_str(), to_string(g.a).c_str(),
           (long long)a, to_string(g.b).c_str(), (long long)b);
  }

  auto c = std::make_shared<CompiledProgram>();
  c->backend = &target;
  // A node's outputs occupy consecutive slots from slot_of[node].
  std::unordered_map<const Node*, int32_t> slot_of;
  std::vector<ops::Meta> slot_meta;
  auto new_slot = [&](const Node* n, ops::Meta m) {
    int32_t s = c->num_slots++;
    slot_of.emplace(n, s);
    slot_meta.push_back(std::move(m));
    return s;
  };
  auto slot = [&](const Value& v) {
    return slot_of.at(v.node.get()) + static_cast<int32_t>(v.index);
  };
  for (size_t i = 0; i < p.arguments.size(); ++i)
    c->argument_slots.push_back(
        new_slot(p.arguments[i].node.get(), {arguments[i].dtype, Shape(arguments[i].shape)}));
  c->arguments.assign(arguments.begin(), arguments.end());
  for (int32_t g : given) {
    const Node* n = p.order.at(static_cast<size_t>(g)).get();
    for (const ops::Meta& m : n->outputs) {
      ops::ConcreteMeta bound = ops::concrete({m.dtype, bind_shape(m.shape, symbols)});
      c->argument_slots.push_back(new_slot(n, {bound.dtype, Shape(bound.shape)}));
      c->arguments.push_back(std::move(bound));
    }
  }
  for (const Value& v : p.captured) {
    c->captured_slots.push_back(new_slot(v.node.get(), v.meta()));
    c->captured.push_back(ops::concrete({v.meta().dtype, bind_shape(v.meta().shape, symbols)}));
  }
  std::vector<bool> run = nodes_to_run(p, given);

  std::unordered_map<CseKey, int32_t, CseHash> seen;
  for (size_t k = 0; k < p.order.size(); ++k) {
    if (!run[k]) continue;
    const NodePtr& n = p.order[k];
    CseKey key{n->op, &n->params, {}, 0};
    std::vector<ops::Meta> in_metas;
    for (const Value& v : n->inputs) {
      int32_t s = slot(v);
      key.inputs.push_back(s);
      in_metas.push_back(slot_meta[static_cast<size_t>(s)]);
    }
    key.hash = ops::hash_params(n->params) ^ (static_cast<size_t>(n->op) * 0x9e3779b97f4a7c15ull);
    for (int32_t s : key.inputs) key.hash = key.hash * 31 + static_cast<size_t>(s);
    if (auto it = seen.find(key); it != seen.end()) {
      slot_of[n.get()] = it->second;
      ++c->eliminated;
      continue;
    }
    Instruction ins;
    backend::Kernel kernel = nullptr; // ops with several outputs run through multi_output
    ins.op = n->op;
    ins.origin = n->origin;
    ins.params = bind_params(n->params, symbols);
    // Concrete inference: the rules' own checks run again on the bound shapes.
    ins.inputs = key.inputs;
    if (n->outputs.size() == 1) {
      ops::Meta out = ops::infer_meta(n->op, in_metas, ins.params);
      ins.out = ops::concrete(out);
      kernel = target.kernel_for(n->op);
      if (!kernel)
        fail(Status::NotSupported, "%s has no %s kernel",
             std::string(ops::op_def(n->op).name).c_str(), std::string(target.name).c_str());
      ins.output = new_slot(n.get(), out);
    } else {
      ops::MetaList outs = ops::infer_metas(n->op, in_metas, ins.params);
      for (const ops::Meta& m : outs) ins.outs.push_back(ops::concrete(m));
      ins.out = ins.outs[0];
      ins.output = new_slot(n.get(), outs[0]);
      for (size_t i = 1; i < outs.size(); ++i) new_slot(n.get(), outs[i]);
    }
    seen.emplace(key, ins.output);
    c->code.push_back(std::move(ins));
    c->kernels.push_back(kernel);
  }
  for (const Value& o : p.outputs) c->output_slots.push_back(slot(o));
  if (fuse) {
    fuse_elementwise(*c);
    for (const Instruction& ins : c->code)
      if (ins.fused) c->fused += static_cast<int64_t>(ins.fused->steps.size());
  }

  // Liveness: free each intermediate slot after its last reader (never outputs or inputs).
  std::vector<int32_t> last_use(static_cast<size_t>(c->num_slots), -1);
  for (size_t i = 0; i < c->code.size(); ++i)
    for (int32_t s : c->code[i].inputs) last_use[static_cast<size_t>(s)] = static_cast<int32_t>(i);
  std::vector<bool> keep(static_cast<size_t>(c->num_slots), false);
  for (int32_t s : c->output_slots) keep[static_cast<size_t>(s)] = true;
  for (int32_t s : c->argument_slots) keep[static_cast<size_t>(s)] = true;
  for (int32_t s : c->captured_slots) keep[static_cast<size_t>(s)] = true;
  for (size_t s = 0; s < last_use.size(); ++s)
    if (last_use[s] >= 0 && !keep[s])
      c->code[static_cast<size_t>(last_use[s])].free_after.push_back(static_cast<int32_t>(s));
  return c;
}

CompiledPtr compile_cached(CompileCache& cache, const Program& p,
                           std::span<const ops::ConcreteMeta> arguments,
                           std::span<const int32_t> given, const backend::Backend& target) {
  bool fuse = fusion_enabled();
  CacheKey key{p.fingerprint, p.fingerprint2, reinterpret_cast<uintptr_t>(&target), fuse};
  for (const ops::ConcreteMeta& m : arguments) {
    key.push_back(static_cast<uint64_t>(m.dtype) << 32 | m.shape.size());
    for (int64_t e : m.shape) key.push_back(static_cast<uint64_t>(e));
  }
  key.push_back(~uint64_t{0} - given.size()); // cannot be read as a dtype/rank word
  for (int32_t g : given) key.push_back(static_cast<uint64_t>(g));
  if (auto hit = cache.find(key)) return hit;
  CompiledPtr c = compile(p, arguments, given, target, fuse);
  cache.insert(
      key, c,
      static_cast<int64_t>(sizeof(CompiledProgram) +
                           c->code.size() * (sizeof(Instruction) + sizeof(backend::Kernel))));
  return c;
}

const backend::Backend& backend_for(Device d) {
  return d.is_cpu() ? backend::cpu() : device::cuda_backend();
}

std::vector<Tensor> execute_on(Device d, const CompiledProgram& c,
                               std::span<const Tensor> arguments,
                               std::span<const Tensor> captured) {
  if (d.is_cpu()) return execute(c, arguments, captured);
  std::vector<Tensor> placed(arguments.begin(), arguments.end());
  for (Tensor& t : placed) t = device::to_device(t, d); // only host scalars move (device_of)
  device::CurrentDevice on(d);
  return execute(c, placed, captured);
}

std::vector<Tensor> run_cached(CompileCache& cache, const Program& p,
                               std::span<const ops::ConcreteMeta> metas,
                               std::span<const int32_t> given, std::span<const Tensor> arguments,
                               std::span<const Tensor> captured) {
  Device d = backend::device_of(arguments);
  std::vector<Tensor> moved;
  for (size_t i = 0; i < captured.size(); ++i) {
    if (captured[i].device() == d) continue;
    if (moved.empty()) moved.assign(captured.begin(), captured.end());
    moved[i] = device::to_device(captured[i], d);
  }
  std::span<const Tensor> constants = moved.empty() ? captured : std::span<const Tensor>(moved);
  return execute_on(d, *compile_cached(cache, p, metas, given, backend_for(d)), arguments,
                    constants);
}

std::vector<Tensor> execute(const CompiledProgram& c, std::span<const Tensor> arguments,
                            std::span<const Tensor> captured) {
  std::vector<Tensor> slots(static_cast<size_t>(c.num_slots));
  for (size_t i = 0; i < arguments.size(); ++i)
    slots[static_cast<size_t>(c.argument_slots[i])] = arguments[i];
  for (size_t i = 0; i < captured.size(); ++i)
    slots[static_cast<size_t>(c.captured_slots[i])] = captured[i];
  std::vector<Tensor> in;
  for (size_t i = 0; i < c.code.size(); ++i) {
    const Instruction& ins = c.code[i];
    in.clear();
    for (int32_t s : ins.inputs) in.push_back(slots[static_cast<size_t>(s)]);
    try {
      if (ins.fused_kernel) {
        std::vector<Tensor> results(ins.fused_outputs.size());
        ins.fused_kernel->run(in, results);
        for (size_t k = 0; k < results.size(); ++k)
          slots[static_cast<size_t>(ins.fused_outputs[k])] = std::move(results[k]);
      } else if (ins.outs.empty()) {
        slots[static_cast<size_t>(ins.output)] = c.kernels[i](in, ins.params, ins.out);
      } else {
        c.backend->multi_output(
            in, ins.params, ins.outs,
            std::span<Tensor>(slots).subspan(static_cast<size_t>(ins.output), ins.outs.size()));
      }
    } catch (const Error& e) {
      throw in_derivative_of(ins.origin, e);
    }
    for (int32_t s : ins.free_after) slots[static_cast<size_t>(s)] = Tensor();
  }
  std::vector<Tensor> out;
  out.reserve(c.output_slots.size());
  for (int32_t s : c.output_slots) out.push_back(slots[static_cast<size_t>(s)]);
  return out;
}

} // namespace tfe::graph
