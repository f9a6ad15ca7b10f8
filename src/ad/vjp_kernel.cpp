// Implementation of the direct VJP kernels (vjp_kernel.hpp).
#include "ad/vjp_kernel.hpp"

#include "ad/transforms.hpp"
#include "graph/compile.hpp"

namespace tfe::ad {
namespace {

struct CompiledVjp {
  ops::OpCode op;
  ops::Params params;          // exact, checked on every hit (the key holds only a hash)
  std::vector<int64_t> active; // operand index of each gradient output
  std::vector<bool> zero;      // per active operand: structurally zero
  graph::CompiledPtr compiled;
};

graph::LruCache<CompiledVjp>& cache() {
  // Shared by every context: the entries hold compiled programs only, never tensor data.
  static graph::LruCache<CompiledVjp>* const c =
      std::make_unique<graph::LruCache<CompiledVjp>>(1024, int64_t{64} << 20).release();
  return *c;
}

std::shared_ptr<const CompiledVjp> build(ops::OpCode op, const ops::Params& params,
                                         std::span<const Tensor> operands) {
  std::vector<graph::Value> args;
  auto entry = std::make_shared<CompiledVjp>();
  entry->op = op;
  entry->params = params;
  for (size_t i = 0; i < operands.size(); ++i) {
    args.push_back(graph::argument(operands[i].dtype(), Shape(operands[i].shape())));
    if (is_inexact(operands[i].dtype())) entry->active.push_back(static_cast<int64_t>(i));
  }
  graph::Value y = graph::emit(op, args, params);
  graph::ProgramPtr p = graph::make_program(args, {y});
  if (entry->active.empty()) return entry;
  Derivative d = vjp(*p, entry->active); // inputs: operands..., ybar; outputs: y, grads...
  entry->zero.assign(d.structurally_zero.begin() + 1, d.structurally_zero.end());
  std::vector<ops::ConcreteMeta> metas;
  for (const Tensor& t : operands) metas.push_back({t.dtype(), t.shape()});
  metas.push_back({y.meta().dtype, ops::concrete_dims(y.meta().shape)});
  entry->compiled = graph::compile(*d.program, metas);
  return entry;
}

} // namespace

std::vector<std::optional<Tensor>> vjp_kernel(ops::OpCode op, const ops::Params& params,
                                              std::span<const Tensor> operands,
                                              const Tensor& ybar) {
  graph::CacheKey key{static_cast<uint64_t>(op), ops::hash_params(params)};
  for (const Tensor& t : operands) {
    key.push_back(static_cast<uint64_t>(t.dtype()) << 32 | t.shape().size());
    for (int64_t e : t.shape()) key.push_back(static_cast<uint64_t>(e));
  }
  std::shared_ptr<const CompiledVjp> k = cache().find(key);
  if (!k || k->op != op || !(k->params == params)) {
    k = build(op, params, operands);
    int64_t bytes = k->compiled ? static_cast<int64_t>(k->compiled->code.size() * 256 + 512) : 512;
    cache().insert(key, k, bytes);
  }
  std::vector<std::optional<Tensor>> out(operands.size());
  if (!k->compiled) return out;
  std::vector<Tensor> args(operands.begin(), operands.end());
  args.push_back(ybar);
  std::vector<Tensor> results = graph::execute(*k->compiled, args, {});
  for (size_t j = 0; j < k->active.size(); ++j)
    if (!k->zero[j]) out[static_cast<size_t>(k->active[j])] = results[1 + j];
  return out;
}

graph::CacheStats vjp_kernel_cache_stats() { return cache().stats(); }

} // namespace tfe::ad
