// Traced functions: creation from symbolic inputs and outputs, calls through the per-context
// compile cache, results, cache statistics (tenferro/program.h).
#include <memory>

#include "capi/op_call.hpp"

using namespace tfe;
using namespace tfe::capi;

namespace {

template <class T> void release_counted(T* p) {
  if (p && p->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) std::unique_ptr<T> owned(p);
}

graph::LruCache<graph::CompiledProgram>& cache_of(tfe_context* ctx, int32_t cache) {
  if (cache != TFE_CACHE_COMPILED) fail(Status::InvalidArgument, "unknown cache %d", cache);
  return ctx->compiled;
}

// The compiled program for these argument shapes, from the context's cache when possible.
graph::CompiledPtr compiled_for(const tfe_function* f, std::span<const ops::ConcreteMeta> args) {
  graph::CacheKey key{f->program->fingerprint, f->program->fingerprint2};
  for (const ops::ConcreteMeta& m : args) {
    key.push_back(static_cast<uint64_t>(m.dtype) << 32 | m.shape.size());
    for (int64_t e : m.shape) key.push_back(static_cast<uint64_t>(e));
  }
  if (auto hit = f->ctx->compiled.find(key)) return hit;
  graph::CompiledPtr c = graph::compile(*f->program, args);
  int64_t bytes = static_cast<int64_t>(sizeof(graph::CompiledProgram) +
                                       c->code.size() * sizeof(graph::Instruction));
  f->ctx->compiled.insert(key, c, bytes);
  return c;
}

std::vector<Tensor> call(const tfe_function* f, int32_t n, tfe_tensor* const* args) {
  require(f, "f");
  if (n < 0) fail(Status::InvalidArgument, "n %d is negative", n);
  if (n > 0) require(args, "args");
  std::vector<Tensor> values;
  std::vector<ops::ConcreteMeta> metas;
  for (int32_t i = 0; i < n; ++i) {
    std::string name = "args[" + std::to_string(i) + "]";
    const Tensor& v = concrete_value(args[i], name.c_str());
    if (args[i]->ctx != f->ctx)
      fail(Status::InvalidArgument, "%s and the function belong to different contexts",
           name.c_str());
    values.push_back(v);
    metas.push_back({v.dtype(), v.shape()});
  }
  graph::CompiledPtr c = compiled_for(f, metas);
  std::vector<Tensor> captured;
  for (const graph::Value& v : f->program->captured) captured.push_back(v.node->captured);
  return graph::execute(*c, values, captured);
}

} // namespace

extern "C" {

tfe_status tfe_function_create(tfe_function** out, int32_t n_inputs, tfe_tensor* const* inputs,
                               int32_t n_outputs, tfe_tensor* const* outputs) {
  return guarded("tfe_function_create", [&] {
    out_slot(out);
    if (n_outputs < 1) fail(Status::InvalidArgument, "n_outputs %d must be >= 1", n_outputs);
    TensorList outs = tensor_list(n_outputs, outputs, "outputs");
    if (n_inputs < 0) fail(Status::InvalidArgument, "n_inputs %d is negative", n_inputs);
    std::vector<graph::Value> args;
    for (int32_t i = 0; i < n_inputs; ++i) {
      require(inputs, "inputs");
      const tfe_tensor* t = inputs[i];
      if (!t) fail(Status::InvalidArgument, "inputs[%d] is NULL", i);
      if (t->ctx != outs.ctx)
        fail(Status::InvalidArgument, "inputs[%d] and outputs[0] belong to different contexts", i);
      if (!t->is_traced())
        fail(Status::InvalidArgument, "inputs[%d] is not a symbolic tensor (tfe_tensor_symbolic)",
             i);
      args.push_back(t->traced);
    }
    std::vector<graph::Value> results;
    for (int32_t i = 0; i < n_outputs; ++i) results.push_back(as_traced(outputs[i]));
    graph::ProgramPtr p = graph::make_program(std::move(args), std::move(results));
    *out = std::make_unique<tfe_function>(outs.ctx, std::move(p)).release();
  });
}

tfe_status tfe_function_retain(tfe_function* f) {
  return guarded("tfe_function_retain",
                 [&] { require(f, "f")->refs.fetch_add(1, std::memory_order_relaxed); });
}

void tfe_function_release(tfe_function* f) { release_counted(f); }

tfe_status tfe_function_num_inputs(const tfe_function* f, int32_t* out) {
  return guarded("tfe_function_num_inputs", [&] {
    *require(out, "out") = static_cast<int32_t>(require(f, "f")->program->arguments.size());
  });
}

tfe_status tfe_function_num_outputs(const tfe_function* f, int32_t* out) {
  return guarded("tfe_function_num_outputs", [&] {
    *require(out, "out") = static_cast<int32_t>(require(f, "f")->program->outputs.size());
  });
}

tfe_status tfe_function_call(tfe_results** out, const tfe_function* f, int32_t n,
                             tfe_tensor* const* args) {
  return guarded("tfe_function_call", [&] {
    out_slot(out);
    std::vector<Tensor> values = call(f, n, args);
    *out = std::make_unique<tfe_results>(f->ctx, std::move(values)).release();
  });
}

tfe_status tfe_function_call1(tfe_tensor** out, const tfe_function* f, int32_t n,
                              tfe_tensor* const* args) {
  return guarded("tfe_function_call1", [&] {
    out_slot(out);
    require(f, "f");
    if (f->program->outputs.size() != 1)
      fail(Status::InvalidArgument, "the function has %zu outputs (use tfe_function_call)",
           f->program->outputs.size());
    std::vector<Tensor> values = call(f, n, args);
    *out = new_tensor(f->ctx, std::move(values[0]));
  });
}

tfe_status tfe_results_count(const tfe_results* r, int32_t* out) {
  return guarded("tfe_results_count", [&] {
    *require(out, "out") = static_cast<int32_t>(require(r, "r")->values.size());
  });
}

tfe_status tfe_results_get(tfe_tensor** out, const tfe_results* r, int32_t i) {
  return guarded("tfe_results_get", [&] {
    out_slot(out);
    require(r, "r");
    if (i < 0 || i >= static_cast<int32_t>(r->values.size()))
      fail(Status::InvalidArgument, "index %d is out of range for %zu results", i,
           r->values.size());
    *out = new_tensor(r->ctx, r->values[static_cast<size_t>(i)]);
  });
}

void tfe_results_release(tfe_results* r) { release_counted(r); }

tfe_status tfe_context_cache_stats(const tfe_context* ctx, int32_t cache, int64_t* out_hits,
                                   int64_t* out_misses, int64_t* out_entries, int64_t* out_bytes) {
  return guarded("tfe_context_cache_stats", [&] {
    graph::CacheStats s = cache_of(const_cast<tfe_context*>(require(ctx, "ctx")), cache).stats();
    if (out_hits) *out_hits = s.hits;
    if (out_misses) *out_misses = s.misses;
    if (out_entries) *out_entries = s.entries;
    if (out_bytes) *out_bytes = s.bytes;
  });
}

tfe_status tfe_context_cache_clear(tfe_context* ctx, int32_t cache) {
  return guarded("tfe_context_cache_clear", [&] { cache_of(require(ctx, "ctx"), cache).clear(); });
}

tfe_status tfe_context_cache_limits(tfe_context* ctx, int32_t cache, int64_t max_entries,
                                    int64_t max_bytes) {
  return guarded("tfe_context_cache_limits", [&] {
    if (max_entries < 0 || max_bytes < 0)
      fail(Status::InvalidArgument, "limits %lld entries and %lld bytes must be >= 0",
           (long long)max_entries, (long long)max_bytes);
    cache_of(require(ctx, "ctx"), cache).set_limits(max_entries, max_bytes);
  });
}

} // extern "C"
