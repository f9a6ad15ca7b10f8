// Implementation of the direct VJP kernels (vjp_kernel.hpp).
#include "ad/vjp_kernel.hpp"

#include "ad/transforms.hpp"
#include "backend/execute.hpp"
#include "graph/compile.hpp"

namespace tfe::ad {
namespace {

thread_local VjpKernelCache* t_current = nullptr;

// given_outputs: the forward node's outputs are arguments of the compiled program (after the
// cotangents) instead of being recomputed.
std::shared_ptr<const CompiledVjp> build(ops::OpCode op, const ops::Params& params,
                                         std::span<const Tensor> operands, bool given_outputs,
                                         const graph::Placement& where) {
  std::vector<graph::Value> args;
  auto entry = std::make_shared<CompiledVjp>();
  entry->op = op;
  entry->params = params;
  for (size_t i = 0; i < operands.size(); ++i) {
    args.push_back(graph::argument(operands[i].dtype(), Shape(operands[i].shape())));
    if (is_inexact(operands[i].dtype())) entry->active.push_back(static_cast<int64_t>(i));
  }
  std::vector<graph::Value> ys = graph::emit_multi(op, args, params);
  entry->outputs = ys.size();
  graph::ProgramPtr p = graph::make_program(args, ys);
  if (entry->active.empty()) return entry;
  Derivative d = vjp(*p, entry->active); // inputs: operands..., ybars; outputs: ys, grads...
  entry->zero.assign(d.structurally_zero.begin() + static_cast<std::ptrdiff_t>(ys.size()),
                     d.structurally_zero.end());
  std::vector<ops::ConcreteMeta> metas;
  for (const Tensor& t : operands) metas.push_back({t.dtype(), t.shape()});
  for (const graph::Value& y : ys)
    metas.push_back({y.meta().dtype, ops::concrete_dims(y.meta().shape)});
  std::vector<int32_t> given;
  if (given_outputs) {
    const graph::Node* forward = ys[0].node.get();
    for (size_t k = 0; k < d.program->order.size(); ++k)
      if (d.program->order[k].get() == forward) given.push_back(static_cast<int32_t>(k));
  }
  entry->compiled = graph::compile(*d.program, metas, given, graph::backend_for(where.home),
                                   graph::fusion_enabled(), where);
  return entry;
}

std::shared_ptr<const CompiledVjp>
find_or_build(VjpKernelCache& cache, ops::OpCode op, const ops::Params& params,
              std::span<const Tensor> operands, bool given_outputs, const graph::Placement& where) {
  // One entry per placement: a program compiled for the host runs host kernels only.
  graph::CacheKey key{static_cast<uint64_t>(op), ops::hash_params(params),
                      static_cast<uint64_t>(given_outputs)};
  graph::append_key(key, where);
  for (const Tensor& t : operands) {
    key.push_back(static_cast<uint64_t>(t.dtype()) << 32 | t.shape().size());
    for (int64_t e : t.shape()) key.push_back(static_cast<uint64_t>(e));
  }
  std::shared_ptr<const CompiledVjp> k = cache.find(key);
  if (!k || k->op != op || !(k->params == params)) {
    k = build(op, params, operands, given_outputs, where);
    int64_t bytes = k->compiled ? static_cast<int64_t>(k->compiled->code.size() * 256 + 512) : 512;
    cache.insert(key, k, bytes);
  }
  return k;
}

std::vector<std::optional<Tensor>> gradients(const CompiledVjp& k, const graph::Placement& where,
                                             std::span<const Tensor> args, size_t operands) {
  std::vector<std::optional<Tensor>> out(operands);
  if (!k.compiled) return out;
  std::vector<Tensor> results = graph::execute_on(where, *k.compiled, args, {});
  for (size_t j = 0; j < k.active.size(); ++j)
    if (!k.zero[j]) out[static_cast<size_t>(k.active[j])] = results[k.outputs + j];
  return out;
}

} // namespace

VjpKernelScope::VjpKernelScope(VjpKernelCache& cache) noexcept : previous_(t_current) {
  t_current = &cache;
}
VjpKernelScope::~VjpKernelScope() { t_current = previous_; }

VjpKernelCache& VjpKernelScope::current() {
  if (!t_current) fail(Status::Internal, "a dataflow op was emitted outside a context");
  return *t_current;
}

std::vector<std::optional<Tensor>> vjp_kernel(VjpKernelCache& cache, ops::OpCode op,
                                              const ops::Params& params,
                                              std::span<const Tensor> operands,
                                              const Tensor& ybar) {
  std::vector<Tensor> args(operands.begin(), operands.end());
  args.push_back(ybar);
  const graph::Placement where = graph::placement_of(args);
  std::shared_ptr<const CompiledVjp> k = find_or_build(cache, op, params, operands, false, where);
  return gradients(*k, where, args, operands.size());
}

std::vector<std::optional<Tensor>> vjp_kernel(VjpKernelCache& cache, ops::OpCode op,
                                              const ops::Params& params,
                                              std::span<const Tensor> operands,
                                              std::span<const Tensor> outputs,
                                              std::span<const Tensor> ybars) {
  std::vector<Tensor> args(operands.begin(), operands.end());
  args.insert(args.end(), ybars.begin(), ybars.end());
  args.insert(args.end(), outputs.begin(), outputs.end());
  const graph::Placement where = graph::placement_of(args);
  std::shared_ptr<const CompiledVjp> k = find_or_build(cache, op, params, operands, true, where);
  if (outputs.size() != k->outputs || ybars.size() != k->outputs)
    fail(Status::Internal, "vjp_kernel of %s: %zu outputs and %zu cotangents for %zu outputs",
         std::string(ops::op_def(op).name).c_str(), outputs.size(), ybars.size(), k->outputs);
  return gradients(*k, where, args, operands.size());
}

} // namespace tfe::ad
