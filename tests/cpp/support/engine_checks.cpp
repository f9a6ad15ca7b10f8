// Implementation of the engine matrix's check (engine_checks.hpp).
#include "support/engine_checks.hpp"

#include <cmath>
#include <sstream>

#include "ad/builder.hpp"
#include "dataflow/debug_scheduler.hpp"
#include "dataflow/scheduler.hpp"
#include "support/eager_env.hpp"

namespace tfe::testing {
namespace ae = tfe::ad::recording;
using dataflow::TensorVar;

const char* provenance_name(Provenance p) {
  switch (p) {
  case Provenance::Direct: return "direct";
  case Provenance::Reshape: return "through reshape";
  case Provenance::PadSlice: return "through pad and slice";
  case Provenance::Concatenate: return "through concatenate";
  }
  return "?";
}

bool provenance_applies(Provenance p, const Dims& shape) {
  switch (p) {
  case Provenance::Direct: return true;
  case Provenance::Reshape: return numel_of(shape) > 0;
  case Provenance::PadSlice: return !shape.empty();
  case Provenance::Concatenate: return !shape.empty() && shape[0] >= 2;
  }
  return false;
}

namespace {

template <class V> V op1(ops::OpCode code, const V& x, const ops::Params& p) {
  std::array<V, 1> in{x};
  return emit(code, std::span<const V>(in), p);
}

Shape shape_of(const Dims& d) { return Shape(d); }

// Rows [begin, end) of dim 0.
template <class V> V rows(const V& x, int64_t begin, int64_t end) {
  Shape s = meta_of(x).shape;
  Shape starts(s.size(), 0), limits = s;
  starts[0] = begin;
  limits[0] = end;
  return op1(ops::OpCode::Slice, x, ops::SliceParams{starts, limits, Dims(s.size(), 1)});
}

// The tracked leaf behind an input of value x.
Tensor leaf_value(Provenance p, const Tensor& x) {
  switch (p) {
  case Provenance::Direct:
  case Provenance::PadSlice: return x;
  case Provenance::Reshape:
    return op1(ops::OpCode::Reshape, x, ops::ReshapeParams{Shape{numel_of(x.shape())}});
  case Provenance::Concatenate: return rows(x, 0, 1);
  }
  return x;
}

// The input of value x computed from its leaf by recorded ops.
template <class V> V from_leaf(Provenance p, const V& leaf, const Tensor& x) {
  const Dims& s = x.shape();
  switch (p) {
  case Provenance::Direct: return leaf;
  case Provenance::Reshape: return op1(ops::OpCode::Reshape, leaf, ops::ReshapeParams{shape_of(s)});
  case Provenance::PadSlice: {
    Shape low(s.size(), 0), high(s.size(), 0);
    low[0] = 1;
    V padded = op1(ops::OpCode::Pad, leaf, ops::PadParams{low, high, Dims(s.size(), 0)});
    return rows(padded, 1, s[0] + 1);
  }
  case Provenance::Concatenate: {
    std::array<V, 2> parts{leaf, constant_of<V>(rows(x, 1, s[0]))};
    return eager::concatenate(std::span<const V>(parts), 0);
  }
  }
  return leaf;
}

// The function of the tracked leaves: constants where inputs are not differentiated.
template <class V> std::vector<V> composite(const EngineCase& c, const std::vector<V>& leaves) {
  std::vector<V> in;
  size_t k = 0;
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    if (c.active[i])
      in.push_back(from_leaf(c.provenance, leaves[k++], c.inputs[i]));
    else
      in.push_back(constant_of<V>(c.inputs[i]));
  }
  return (*c.function)(in);
}

std::vector<Tensor> leaves_of(const EngineCase& c) {
  std::vector<Tensor> out;
  for (size_t i = 0; i < c.inputs.size(); ++i)
    if (c.active[i]) out.push_back(leaf_value(c.provenance, c.inputs[i]));
  return out;
}

// L = sum_j Re<w_j, y_j>.
template <class V> V weighted_sum(const std::vector<Tensor>& w, const std::vector<V>& y) {
  V total = real_inner(w[0], y[0]);
  for (size_t j = 1; j < y.size(); ++j)
    total = binary(ops::OpCode::Add, total, real_inner(w[j], y[j]));
  return total;
}

std::vector<Tensor> randoms_like(const std::vector<Tensor>& like, uint64_t seed) {
  std::vector<Tensor> out;
  for (size_t i = 0; i < like.size(); ++i)
    out.push_back(random_tensor(like[i].dtype(), like[i].shape(), seed + 31 * i));
  return out;
}

// Equal values, or the same NaN or infinity (both engines give NaN where the derivative is).
bool same_special(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

struct Comparison {
  AdCheckResult result;
  double tol;
  EngineCounts* counts;

  // got (nullopt: the engine reports no dependence) against the traced reference.
  void check(const std::string& what, const std::optional<Tensor>& got, const Tensor& want) {
    if (counts) ++counts->requests;
    double scale = 1 + max_abs(want);
    if (!got) {
      if (max_abs(want) != 0) fail(what + ": absent, but the traced result is not zero");
      return;
    }
    if (got->dtype() != want.dtype() || got->shape() != want.shape()) {
      fail(what + ": " + describe(*got) + " but the traced result is " + describe(want));
      return;
    }
    double worst = 0;
    Dims where;
    for_each_index(want.shape(), [&](const Dims& i) {
      std::complex<double> a = value_at(*got, i), b = value_at(want, i);
      if (same_special(a.real(), b.real()) && same_special(a.imag(), b.imag())) return;
      double d = std::abs(a - b);
      if (std::isnan(d)) d = INFINITY;
      if (d > worst) {
        worst = d;
        where = i;
      }
    });
    if (worst > tol * scale) {
      std::ostringstream os;
      os.precision(3);
      os << what << ": differs from the traced result by " << worst << " at " << format_dims(where)
         << " (" << value_at(*got, where) << " vs " << value_at(want, where) << ", scale " << scale
         << ")";
      fail(os.str());
    }
  }
  void fail(const std::string& why) {
    result.ok = false;
    result.why += why + "; ";
  }
};

std::optional<Tensor> value_of(const std::optional<ae::Recorded>& r) {
  if (!r) return std::nullopt;
  return r->value;
}

} // namespace

TracedCase traced_case(const EngineCase& c) {
  TracedCase t;
  t.leaves = leaves_of(c);
  std::vector<graph::Value> args;
  for (const Tensor& l : t.leaves) args.push_back(graph::argument(l.dtype(), Shape(l.shape())));
  t.program = graph::make_program(args, composite(c, args));
  return t;
}

AdCheckResult check_engines(const EngineCase& c, EngineCounts* counts) {
  Comparison cmp{{}, c.tol, counts};
  if (counts) ++counts->cases;
  TracedCase tc = traced_case(c);
  const graph::Program& p = *tc.program;
  const std::vector<Tensor>& leaves = tc.leaves;
  std::vector<int64_t> all;
  for (size_t k = 0; k < leaves.size(); ++k) all.push_back(static_cast<int64_t>(k));
  for (const graph::Value& o : p.outputs)
    if (!is_inexact(o.meta().dtype)) {
      cmp.fail("the function has a " + std::string(dtype_name(o.meta().dtype)) + " output");
      return cmp.result;
    }

  // The traced references.
  std::vector<Tensor> y = run_program(p, leaves);
  std::vector<Tensor> ybar = randoms_like(y, c.seed + 100), dx = randoms_like(leaves, c.seed + 200);
  std::vector<Tensor> w = randoms_like(y, c.seed + 300), v = randoms_like(leaves, c.seed + 400);
  const size_t n_out = y.size(), n_in = leaves.size();
  std::vector<Tensor> args = leaves;
  args.insert(args.end(), ybar.begin(), ybar.end());
  std::vector<Tensor> vjp_ref = run_program(*ad::vjp(p, all).program, args);
  args = leaves;
  args.insert(args.end(), dx.begin(), dx.end());
  std::vector<Tensor> jvp_ref = run_program(*ad::jvp(p, all).program, args);
  std::vector<Tensor> hvp_ref;
  if (c.second_order) {
    std::vector<graph::Value> outs;
    for (size_t j = 0; j < n_out; ++j) outs.push_back(p.outputs[j]);
    graph::ProgramPtr L = graph::make_program(p.arguments, {weighted_sum(w, outs)});
    args = leaves;
    args.insert(args.end(), v.begin(), v.end());
    hvp_ref = run_program(*ad::hvp(*L, all, ad::HvpMode::ForwardOverReverse).program, args);
  }

  // Eager: tracked leaves, the function run at once and recorded.
  EagerEnv env;
  std::vector<ae::Recorded> xs;
  for (const Tensor& l : leaves) xs.push_back({l, ae::tracked_leaf(l)});
  std::vector<ae::Recorded> ys = composite(c, xs);
  for (size_t j = 0; j < n_out; ++j)
    cmp.check("eager value " + std::to_string(j), ys[j].value, y[j]);
  // One output: vjp with its seed; several: the gradient of sum_j Re<ybar_j, y_j>.
  ae::Recorded loss = n_out == 1 ? ys[0] : weighted_sum(ybar, ys);
  std::optional<ae::Recorded> seed;
  if (n_out == 1) seed = ae::Recorded{ybar[0], {}};
  for (bool record : {false, true}) {
    auto g = ae::vjp(loss, xs, seed, env.caches, record);
    for (size_t k = 0; k < n_in; ++k)
      cmp.check(std::string(record ? "recorded " : "") + "eager vjp " + std::to_string(k),
                value_of(g[k]), vjp_ref[n_out + k]);
  }
  if (!loss.ref) { // the function does not depend on its inputs (matrix_power 0)
    try {
      ae::backward(loss, std::nullopt, env.caches);
      cmp.fail("eager backward of an untracked loss did not fail");
    } catch (const Error& e) {
      if (e.status() != Status::NotDifferentiable)
        cmp.fail("eager backward of an untracked loss: " + e.message());
    }
    for (size_t k = 0; k < n_in; ++k)
      cmp.check("eager backward " + std::to_string(k), std::nullopt, vjp_ref[n_out + k]);
  } else {
    std::vector<ae::LeafGrad> g =
        ae::backward(loss, n_out == 1 ? std::optional<Tensor>(ybar[0]) : std::nullopt, env.caches);
    for (size_t k = 0; k < n_in; ++k) {
      std::optional<Tensor> got;
      for (const ae::LeafGrad& lg : g)
        if (lg.leaf == xs[k].ref.node->leaf) got = lg.grad;
      cmp.check("eager backward " + std::to_string(k), got, vjp_ref[n_out + k]);
    }
  }
  std::vector<std::optional<ae::Recorded>> tangents;
  for (const Tensor& t : dx) tangents.push_back(ae::Recorded{t, {}});
  for (size_t j = 0; j < n_out; ++j) {
    bool record = j == 0;
    std::optional<Tensor> got = value_of(ae::jvp(ys[j], xs, tangents, env.caches, record));
    cmp.check(std::string(record ? "recorded " : "") + "eager jvp " + std::to_string(j), got,
              jvp_ref[n_out + j]);
  }
  if (c.second_order) {
    ae::Recorded l = weighted_sum(w, ys);
    std::vector<std::optional<ae::Recorded>> g = ae::vjp(l, xs, std::nullopt, env.caches, true);
    std::vector<std::optional<ae::Recorded>> dirs;
    for (const Tensor& t : v) dirs.push_back(ae::Recorded{t, {}});
    std::optional<ae::Recorded> h;
    for (size_t k = 0; k < n_in; ++k) {
      if (!g[k] || !g[k]->ref) { // no dependence, or constant in x: a zero Hessian row
        cmp.check("eager forward-over-reverse " + std::to_string(k), std::nullopt, hvp_ref[k]);
        continue;
      }
      cmp.check("eager forward-over-reverse " + std::to_string(k),
                value_of(ae::jvp(*g[k], xs, dirs, env.caches, false)), hvp_ref[k]);
      ae::Recorded term = real_inner(v[k], *g[k]);
      h = h ? binary(ops::OpCode::Add, *h, term) : term;
    }
    if (h && h->ref) {
      auto hv = ae::vjp(*h, xs, std::nullopt, env.caches, false);
      for (size_t k = 0; k < n_in; ++k)
        cmp.check("eager reverse-over-reverse " + std::to_string(k), value_of(hv[k]), hvp_ref[k]);
    } else {
      for (size_t k = 0; k < n_in; ++k)
        cmp.check("eager reverse-over-reverse " + std::to_string(k), std::nullopt, hvp_ref[k]);
    }
  }

  // Dataflow: the same function scheduled on the deterministic scheduler; each output seeded.
  if (c.dataflow) {
    dataflow::DebugScheduler debug;
    dataflow::ScopedScheduler scope(debug);
    std::vector<TensorVar> vs;
    for (const Tensor& l : leaves) vs.emplace_back(l, true);
    std::vector<TensorVar> outs = composite(c, vs);
    for (size_t j = 0; j < n_out; ++j)
      if (outs[j].tracked()) outs[j].seed(ybar[j]);
    for (size_t k = 0; k < n_in; ++k)
      cmp.check("dataflow gradient " + std::to_string(k), vs[k].grad_wait(), vjp_ref[n_out + k]);
  }
  return cmp.result;
}

} // namespace tfe::testing
