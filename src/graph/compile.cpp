// Binding, CSE, slot assignment and liveness (compile.hpp).
#include "graph/compile.hpp"

#include <algorithm>
#include <optional>
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

namespace {

// Per slot: its device, and whether it may move to its reader's device (a host scalar argument
// or a value made from constants alone).
struct SlotPlaces {
  std::vector<Device> device;
  std::vector<bool> floating;
};

// The device of ins from its operands' (compile.hpp, Placement); its outputs' places.
void place(Instruction& ins, size_t outputs, SlotPlaces& places) {
  std::optional<Device> on;
  size_t first = 0;
  for (size_t i = 0; i < ins.inputs.size(); ++i) {
    size_t s = static_cast<size_t>(ins.inputs[i]);
    if (places.floating[s]) continue;
    Device d = places.device[s];
    if (!on) {
      on = d;
      first = i;
    } else if (d != *on) {
      fail(Status::Device,
           "%s reads operand %zu on %s and operand %zu on %s; tensors move between devices only "
           "through tfe_tensor_to_device",
           std::string(ops::op_def(ins.op).name).c_str(), first, device_name(*on).c_str(), i,
           device_name(d).c_str());
    }
  }
  bool floating = !on.has_value();
  ins.device = on.value_or(places.device[static_cast<size_t>(ins.output)]); // home until placed
  Device result = ins.device;
  if (ins.op == ops::OpCode::Transfer) {
    const auto& tp = std::get<ops::TransferParams>(ins.params);
    if (on && *on != tp.from)
      fail(Status::Device, "the transfer from %s reads a tensor on %s",
           device_name(tp.from).c_str(), device_name(*on).c_str());
    ins.device = tp.from;
    result = tp.to;
    floating = false;
  }
  for (size_t k = 0; k < outputs; ++k) {
    places.device[static_cast<size_t>(ins.output) + k] = result;
    places.floating[static_cast<size_t>(ins.output) + k] = floating;
  }
}

// Instructions that read only floating values run where their first reader runs (home when no
// instruction reads them); every instruction then knows whether an operand must move to it.
// Returns whether every instruction runs on home.
bool place_constants(std::vector<Instruction>& code, SlotPlaces& places, Device home) {
  std::vector<std::optional<Device>> wanted(places.device.size());
  auto floating_output = [&](const Instruction& ins) {
    return places.floating[static_cast<size_t>(ins.output)];
  };
  for (size_t k = code.size(); k-- > 0;) {
    Instruction& ins = code[k];
    if (floating_output(ins) && ins.op != ops::OpCode::Transfer) {
      ins.device = wanted[static_cast<size_t>(ins.output)].value_or(home);
      size_t n = std::max<size_t>(ins.outs.size(), 1);
      for (size_t j = 0; j < n; ++j)
        places.device[static_cast<size_t>(ins.output) + j] = ins.device;
    }
    for (int32_t s : ins.inputs)
      if (places.floating[static_cast<size_t>(s)]) wanted[static_cast<size_t>(s)] = ins.device;
  }
  bool one_device = true;
  for (Instruction& ins : code) {
    for (int32_t s : ins.inputs)
      ins.moves_operands |= places.device[static_cast<size_t>(s)] != ins.device;
    one_device &= ins.device == home && !ins.moves_operands &&
                  places.device[static_cast<size_t>(ins.output)] == home;
  }
  return one_device;
}

void bind_kernels(CompiledProgram& c, const backend::Backend& target, Device home) {
  c.kernels.clear();
  for (Instruction& ins : c.code) {
    ins.backend = ins.device == home ? &target : &backend_for(ins.device);
    backend::Kernel k = nullptr; // ops with several outputs run through multi_output
    if (ins.outs.empty()) {
      k = ins.backend->kernel_for(ins.op);
      if (!k)
        fail(Status::NotSupported, "%s has no %s kernel",
             std::string(ops::op_def(ins.op).name).c_str(), std::string(ins.backend->name).c_str());
    }
    c.kernels.push_back(k);
  }
}

} // namespace

CompiledPtr compile(const Program& p, std::span<const ops::ConcreteMeta> arguments,
                    std::span<const int32_t> given, const backend::Backend& target, bool fuse,
                    const Placement& where) {
  std::vector<int64_t> symbols = bind_symbols(p, arguments);
  for (const ops::ShapeGuard& g : p.guards) {
    int64_t a = evaluate(g.a, symbols), b = evaluate(g.b, symbols);
    if (!ops::holds(g, symbols).value_or(false))
      fail(g.status, "%s, with %s = %lld and %s = %lld", g.message.c_str(), to_string(g.a).c_str(),
           (long long)a, to_string(g.b).c_str(), (long long)b);
  }

  auto c = std::make_shared<CompiledProgram>();
  // A node's outputs occupy consecutive slots from slot_of[node].
  std::unordered_map<const Node*, int32_t> slot_of;
  std::vector<ops::Meta> slot_meta;
  SlotPlaces places;
  auto new_slot = [&](const Node* n, ops::Meta m) {
    int32_t s = c->num_slots++;
    slot_of.emplace(n, s);
    slot_meta.push_back(std::move(m));
    places.device.push_back(where.home);
    places.floating.push_back(false);
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
  for (size_t i = 0; i < c->argument_slots.size(); ++i) {
    size_t s = static_cast<size_t>(c->argument_slots[i]);
    if (i < where.devices.size()) places.device[s] = where.devices[i];
    if (i < where.floating.size()) places.floating[s] = where.floating[i];
  }
  for (const Value& v : p.captured) {
    // Captured constants belong to the program: they may go where their readers run.
    c->captured_slots.push_back(new_slot(v.node.get(), v.meta()));
    places.floating.back() = true;
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
    ins.op = n->op;
    ins.origin = n->origin;
    ins.params = bind_params(n->params, symbols);
    // Concrete inference: the rules' own checks run again on the bound shapes.
    ins.inputs = key.inputs;
    if (n->outputs.size() == 1) {
      ops::Meta out = ops::infer_meta(n->op, in_metas, ins.params);
      ins.out = ops::concrete(out);
      ins.output = new_slot(n.get(), out);
    } else {
      ops::MetaList outs = ops::infer_metas(n->op, in_metas, ins.params);
      for (const ops::Meta& m : outs) ins.outs.push_back(ops::concrete(m));
      ins.out = ins.outs[0];
      ins.output = new_slot(n.get(), outs[0]);
      for (size_t i = 1; i < outs.size(); ++i) new_slot(n.get(), outs[i]);
    }
    place(ins, n->outputs.size(), places);
    seen.emplace(key, ins.output);
    c->code.push_back(std::move(ins));
  }
  for (const Value& o : p.outputs) c->output_slots.push_back(slot(o));
  bool one_device = place_constants(c->code, places, where.home);
  bind_kernels(*c, target, where.home);
  c->backend = one_device ? &target : nullptr;
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
                           std::span<const int32_t> given, const backend::Backend& target,
                           const Placement& where) {
  bool fuse = fusion_enabled();
  CacheKey key{p.fingerprint, p.fingerprint2, reinterpret_cast<uintptr_t>(&target), fuse};
  for (const ops::ConcreteMeta& m : arguments) {
    key.push_back(static_cast<uint64_t>(m.dtype) << 32 | m.shape.size());
    for (int64_t e : m.shape) key.push_back(static_cast<uint64_t>(e));
  }
  key.push_back(~uint64_t{0} - given.size()); // cannot be read as a dtype/rank word
  for (int32_t g : given) key.push_back(static_cast<uint64_t>(g));
  append_key(key, where);
  if (auto hit = cache.find(key)) return hit;
  CompiledPtr c = compile(p, arguments, given, target, fuse, where);
  cache.insert(
      key, c,
      static_cast<int64_t>(sizeof(CompiledProgram) +
                           c->code.size() * (sizeof(Instruction) + sizeof(backend::Kernel))));
  return c;
}

const backend::Backend& backend_for(Device d) {
  return d.is_cpu() ? backend::cpu() : device::cuda_backend();
}

Placement placement_of(std::span<const Tensor> arguments) {
  Placement w;
  size_t first = arguments.size();
  for (size_t i = 0; i < arguments.size() && first == arguments.size(); ++i)
    if (!arguments[i].device().is_cpu()) first = i;
  if (first < arguments.size())
    w.home = arguments[first].device();
  else if (arguments.empty())
    w.home = device::CurrentDevice::get();
  w.devices.reserve(arguments.size());
  w.floating.reserve(arguments.size());
  for (const Tensor& t : arguments) {
    bool scalar = backend::is_host_scalar(t);
    w.floating.push_back(scalar);
    w.devices.push_back(scalar ? w.home : t.device());
  }
  return w;
}

void append_key(CacheKey& key, const Placement& w) {
  auto word = [](Device d) {
    return static_cast<uint64_t>(d.kind) << 32 | static_cast<uint32_t>(d.ordinal);
  };
  key.push_back(word(w.home));
  for (size_t i = 0; i < w.devices.size(); ++i)
    key.push_back(word(w.devices[i]) << 1 | (i < w.floating.size() && w.floating[i] ? 1 : 0));
}

std::vector<Tensor> execute_on(const Placement& where, const CompiledProgram& c,
                               std::span<const Tensor> arguments,
                               std::span<const Tensor> captured) {
  if (where.home.is_cpu()) return execute(c, arguments, captured);
  std::vector<Tensor> placed(arguments.begin(), arguments.end());
  for (size_t i = 0; i < placed.size(); ++i)
    if (i < where.floating.size() && where.floating[i])
      placed[i] = device::to_device(placed[i], where.home);
  return execute(c, placed, captured);
}

std::vector<Tensor> run_cached(CompileCache& cache, const Program& p,
                               std::span<const ops::ConcreteMeta> metas,
                               std::span<const int32_t> given, std::span<const Tensor> arguments,
                               std::span<const Tensor> captured) {
  Placement where = placement_of(arguments);
  std::vector<Tensor> moved;
  for (size_t i = 0; i < captured.size(); ++i) {
    if (captured[i].device() == where.home) continue;
    if (moved.empty()) moved.assign(captured.begin(), captured.end());
    moved[i] = device::to_device(captured[i], where.home);
  }
  std::span<const Tensor> constants = moved.empty() ? captured : std::span<const Tensor>(moved);
  return execute_on(where, *compile_cached(cache, p, metas, given, backend_for(where.home), where),
                    arguments, constants);
}

namespace {

// An operand the compiler let move (Instruction::moves_operands) on device d: a host scalar's one
// element is uploaded and broadcast again; a value made from constants is copied.
Tensor moved_to(const Tensor& t, Device d) {
  if (t.device() == d) return t;
  if (!backend::is_host_scalar(t)) return device::to_device(t, d);
  Tensor one = device::to_device(t.with_layout({}, {}, t.offset()), d);
  return one.with_layout(t.shape(), Dims(t.shape().size(), 0), one.offset());
}

} // namespace

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
    std::optional<device::CurrentDevice> on;
    if (!ins.device.is_cpu()) on.emplace(ins.device);
    try {
      if (ins.moves_operands)
        for (Tensor& t : in) t = moved_to(t, ins.device);
      if (ins.fused_kernel) {
        std::vector<Tensor> results(ins.fused_outputs.size());
        ins.fused_kernel->run(in, results);
        for (size_t k = 0; k < results.size(); ++k)
          slots[static_cast<size_t>(ins.fused_outputs[k])] = std::move(results[k]);
      } else if (ins.outs.empty()) {
        slots[static_cast<size_t>(ins.output)] = c.kernels[i](in, ins.params, ins.out);
      } else {
        ins.backend->multi_output(
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
