// Traced functions: creation from symbolic inputs and outputs, calls through the per-context
// compile cache, results, cache statistics (tenferro/program.h).
#include <memory>
#include <string>

#include "ad/transforms.hpp"
#include "capi/op_call.hpp"

using namespace tfe;
using namespace tfe::capi;

namespace {

template <class F> auto with_cache(tfe_context* ctx, int32_t cache, F&& f) {
  if (cache == TFE_CACHE_COMPILED) return f(ctx->compiled);
  if (cache == TFE_CACHE_DERIVATIVE) return f(ctx->derivatives);
  if (cache == TFE_CACHE_EINSUM) return f(ctx->einsum_plans);
  if (cache == TFE_CACHE_VJP_KERNEL) return f(ctx->vjp_kernels);
  fail(Status::InvalidArgument, "unknown cache %d", cache);
}

std::vector<Tensor> captured_values(const graph::Program& p) {
  std::vector<Tensor> v;
  for (const graph::Value& c : p.captured) v.push_back(c.node->captured);
  return v;
}

using ad::Transform;

// The transformed function: the derivative program from the context's cache, with this
// function's own captured values bound.
tfe_function* transformed(const tfe_function* f, Transform kind, int32_t n_wrt,
                          const int64_t* wrt) {
  require(f, "f");
  auto w = int64_array(wrt, n_wrt, "wrt");
  std::vector<int64_t> idx =
      ad::normalize_wrt(*f->program, std::vector<int64_t>(w.begin(), w.end()));
  std::shared_ptr<const ad::CachedDerivative> d =
      ad::transform_cached(f->ctx->derivatives, *f->program, kind, idx);
  std::vector<Tensor> bindings;
  for (size_t k : d->source_index) bindings.push_back(f->bindings[k]);
  return std::make_unique<tfe_function>(f->ctx, d->program, std::move(bindings),
                                        d->structurally_zero)
      .release();
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
  graph::bind_symbols(*f->program, metas); // reject bad arguments before the cache counts a miss
  return graph::run_cached(f->ctx->compiled, *f->program, metas, {}, values, f->bindings);
}

} // namespace

extern "C" {

tfe_status tfe_function_create(tfe_function** out, int32_t n_inputs, tfe_tensor* const* inputs,
                               int32_t n_outputs, tfe_tensor* const* outputs) {
  return guarded("tfe_function_create", [&] {
    out_slot(out);
    if (n_outputs < 1) fail(Status::InvalidArgument, "n_outputs %d must be >= 1", n_outputs);
    require(outputs, "outputs");
    tfe_context* ctx = common_context(
        std::span<tfe_tensor* const>(outputs, static_cast<size_t>(n_outputs)), "outputs");
    if (n_inputs < 0) fail(Status::InvalidArgument, "n_inputs %d is negative", n_inputs);
    std::vector<graph::Value> args;
    for (int32_t i = 0; i < n_inputs; ++i) {
      require(inputs, "inputs");
      std::string name = "inputs[" + std::to_string(i) + "]";
      const tfe_tensor* t = require(inputs[i], name.c_str());
      if (t->ctx != ctx)
        fail(Status::InvalidArgument, "inputs[%d] and outputs[0] belong to different contexts", i);
      if (!t->value.symbolic())
        fail(Status::InvalidArgument, "inputs[%d] is not a symbolic tensor (tfe_tensor_symbolic)",
             i);
      args.push_back(t->value.traced());
    }
    std::vector<graph::Value> results;
    for (int32_t i = 0; i < n_outputs; ++i) results.push_back(as_traced(outputs[i]));
    graph::ProgramPtr p = graph::make_program(std::move(args), std::move(results));
    std::vector<Tensor> bindings = captured_values(*p);
    std::vector<bool> zero(p->outputs.size(), false);
    *out = std::make_unique<tfe_function>(ctx, std::move(p), std::move(bindings), std::move(zero))
               .release();
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

tfe_status tfe_function_jvp(tfe_function** out, const tfe_function* f, int32_t n_wrt,
                            const int64_t* wrt) {
  return guarded("tfe_function_jvp", [&] {
    out_slot(out);
    *out = transformed(f, Transform::Jvp, n_wrt, wrt);
  });
}

tfe_status tfe_function_vjp(tfe_function** out, const tfe_function* f, int32_t n_wrt,
                            const int64_t* wrt) {
  return guarded("tfe_function_vjp", [&] {
    out_slot(out);
    *out = transformed(f, Transform::Vjp, n_wrt, wrt);
  });
}

tfe_status tfe_function_grad(tfe_function** out, const tfe_function* f, int32_t n_wrt,
                             const int64_t* wrt) {
  return guarded("tfe_function_grad", [&] {
    out_slot(out);
    *out = transformed(f, Transform::Grad, n_wrt, wrt);
  });
}

tfe_status tfe_function_hvp(tfe_function** out, const tfe_function* f, int32_t n_wrt,
                            const int64_t* wrt, int32_t mode) {
  return guarded("tfe_function_hvp", [&] {
    out_slot(out);
    if (mode != TFE_HVP_FORWARD_OVER_REVERSE && mode != TFE_HVP_REVERSE_OVER_REVERSE)
      fail(Status::InvalidArgument, "unknown mode %d", mode);
    *out = transformed(f,
                       mode == TFE_HVP_FORWARD_OVER_REVERSE ? Transform::HvpForwardOverReverse
                                                            : Transform::HvpReverseOverReverse,
                       n_wrt, wrt);
  });
}

tfe_status tfe_function_output_is_zero(const tfe_function* f, int32_t i, int32_t* out) {
  return guarded("tfe_function_output_is_zero", [&] {
    require(out, "out");
    require(f, "f");
    if (i < 0 || i >= static_cast<int32_t>(f->structurally_zero.size()))
      fail(Status::InvalidArgument, "output %d is out of range for %s", i,
           count_of(static_cast<long long>(f->structurally_zero.size()), "output").c_str());
    *out = f->structurally_zero[static_cast<size_t>(i)] ? 1 : 0;
  });
}

tfe_status tfe_context_cache_stats(const tfe_context* ctx, int32_t cache, int64_t* out_hits,
                                   int64_t* out_misses, int64_t* out_entries, int64_t* out_bytes) {
  return guarded("tfe_context_cache_stats", [&] {
    graph::CacheStats s = with_cache(const_cast<tfe_context*>(require(ctx, "ctx")), cache,
                                     [](auto& c) { return c.stats(); });
    if (out_hits) *out_hits = s.hits;
    if (out_misses) *out_misses = s.misses;
    if (out_entries) *out_entries = s.entries;
    if (out_bytes) *out_bytes = s.bytes;
  });
}

tfe_status tfe_context_cache_clear(tfe_context* ctx, int32_t cache) {
  return guarded("tfe_context_cache_clear",
                 [&] { with_cache(require(ctx, "ctx"), cache, [](auto& c) { c.clear(); }); });
}

tfe_status tfe_context_cache_limits(tfe_context* ctx, int32_t cache, int64_t max_entries,
                                    int64_t max_bytes) {
  return guarded("tfe_context_cache_limits", [&] {
    if (max_entries < 0 || max_bytes < 0)
      fail(Status::InvalidArgument, "limits %lld entries and %lld bytes must be >= 0",
           (long long)max_entries, (long long)max_bytes);
    with_cache(require(ctx, "ctx"), cache, [&](auto& c) { c.set_limits(max_entries, max_bytes); });
  });
}

} // extern "C"
