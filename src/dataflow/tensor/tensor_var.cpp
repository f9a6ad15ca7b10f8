// The tasks of a TensorVar op (tensor_var.hpp) and its surface hooks. Task bodies keep to named
// locals and one co_await per statement (GCC 12, task.hpp).
#include "dataflow/tensor/tensor_var.hpp"

#include <mutex>
#include <string>
#include <unordered_map>

#include "ad/vjp_kernel.hpp"
#include "backend/device/kernels.hpp"
#include "backend/device/plugin.hpp"
#include "eager/creation.hpp"
#include "eager/surface.hpp"
#include "ops/extension.hpp"
#include "ops/op_table.hpp"
#include "ops/shape_checks.hpp"

namespace tfe {

void accumulate_gradient(Tensor& sum, const Tensor& v) {
  std::array<Tensor, 2> in{sum, v};
  sum = emit(ops::OpCode::Add, in, ops::NoParams{});
}

} // namespace tfe

namespace tfe::dataflow {
namespace {

// What both tasks of one op share.
struct OpCall {
  ops::OpCode code;
  ops::Params params;
  std::vector<ops::Meta> inputs, outputs;
  Device device; // where its operands are, so where its constants and zeros go
  // The VJP-kernel cache of the context the op was emitted in (it outlives the op's tasks: a
  // context's scheduler is destroyed before its caches).
  ad::VjpKernelCache* vjp_kernels = nullptr;
};
using CallPtr = std::shared_ptr<const OpCall>;
using ReadList = std::vector<ReadBuffer<Tensor>>;

std::string_view op_name(const OpCall& c) {
  if (c.code == ops::OpCode::Extension)
    if (const auto* p = std::get_if<ops::ExtensionParams>(&c.params); p && p->def)
      return p->def->name();
  return ops::op_def(c.code).name;
}

// Task names are kept, not copied (scheduler.hpp). Op names are string literals, so a forward
// task uses its op's name; "<op>.reverse" is made once per op for the process and then found in
// a per-thread cache without a lock.
const char* reverse_task_name(std::string_view op) {
  thread_local std::unordered_map<const char*, const char*> cached;
  if (auto it = cached.find(op.data()); it != cached.end()) return it->second;
  static std::mutex mu;
  static auto* const names =
      std::make_unique<std::unordered_map<const char*, std::string>>().release();
  const char* name;
  {
    std::lock_guard lock(mu);
    name = names->try_emplace(op.data(), std::string(op) + ".reverse").first->second.c_str();
  }
  cached.emplace(op.data(), name);
  return name;
}

std::vector<Tensor> run_kernel(const OpCall& c, std::span<const Tensor> xs) {
  if (c.outputs.size() == 1 && c.code != ops::OpCode::Extension)
    return {emit(c.code, xs, c.params)};
  return emit_multi(c.code, xs, c.params);
}

Tensor zeros_of(const ops::Meta& m) { return eager::zeros(m.dtype, ops::concrete_dims(m.shape)); }

Task forward_task(CallPtr call, ReadList in, OutputList<WriteBuffer<Tensor>> out) {
  std::vector<Tensor> xs;
  xs.reserve(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    ReadBuffer<Tensor>& b = in[i]; // named: GCC 12 copies a subscripted awaitable
    const Tensor& v = co_await b;
    xs.push_back(v);
    b.release();
  }
  std::vector<Tensor> ys;
  { // the scope ends before the next suspension: the task may resume on another thread
    device::CurrentDevice on(call->device);
    ys = run_kernel(*call, xs);
  }
  for (size_t k = 0; k < out.size(); ++k) {
    WriteBuffer<Tensor>& w = out[k];
    co_await w;
    w.set(std::move(ys[k]));
  }
}

// Reads the output cotangents first: none present (nothing seeded depends on the op, or every
// path was pruned) ends the task before it reads anything else, so its contributions are absent.
// A single-output op is cancelled by its absent cotangent before its body runs.
Task reverse_task(CallPtr call, ReadList ybar, ReadList in, ReadList out,
                  OutputList<GradSink<Tensor>> sinks) {
  std::vector<Tensor> g(ybar.size());
  bool any = false;
  for (size_t k = 0; k < ybar.size(); ++k) {
    ReadBuffer<Tensor>& b = ybar[k];
    if (ybar.size() == 1) {
      const Tensor& v = co_await b;
      g[k] = v;
      any = true;
    } else if (b) {
      const Tensor* p = co_await b.maybe();
      if (p) {
        g[k] = *p;
        any = true;
      }
    }
    b.release();
  }
  if (!any) co_return;
  std::vector<Tensor> xs(in.size()), ys(out.size());
  for (size_t i = 0; i < in.size(); ++i) {
    ReadBuffer<Tensor>& b = in[i];
    const Tensor& v = co_await b;
    xs[i] = v;
    b.release();
  }
  for (size_t k = 0; k < out.size(); ++k) {
    ReadBuffer<Tensor>& b = out[k];
    const Tensor& v = co_await b;
    ys[k] = v;
    b.release();
  }
  for (size_t k = 0; k < g.size(); ++k)
    if (!g[k].defined()) g[k] = device::to_device(zeros_of(call->outputs[k]), call->device);
  std::vector<std::optional<Tensor>> grads =
      ad::vjp_kernel(*call->vjp_kernels, call->code, call->params, xs, ys, g);
  // A structurally zero cotangent stays absent (the sink is released unwritten), as in eager AD:
  // the operand's own reverse work is pruned, not run on zeros (the factors of a singular det
  // must not be differentiated).
  for (size_t i = 0; i < sinks.size(); ++i)
    if (sinks[i] && grads[i]) sinks[i].put(*grads[i]);
}

std::vector<TensorVar> emit_impl(ops::OpCode code, std::span<const TensorVar> in,
                                 const ops::Params& params) {
  auto call = std::make_shared<OpCall>();
  call->vjp_kernels = &ad::VjpKernelScope::current();
  call->code = code;
  call->params = params;
  for (size_t i = 0; i < in.size(); ++i) {
    if (!in[i])
      fail(Status::InvalidArgument, "%s: operand %zu is an empty TensorVar",
           std::string(ops::op_def(code).name).c_str(), i);
    call->inputs.push_back(in[i].meta());
    if (call->device.is_cpu()) call->device = in[i].device();
  }
  if (in.empty()) call->device = device::CurrentDevice::get();
  {
    ops::ShapeGuards guards; // concrete shapes: every check is decided here
    if (code == ops::OpCode::Extension) {
      ops::MetaList all = ops::infer_metas(code, call->inputs, params);
      call->outputs.assign(all.begin(), all.end());
    } else {
      call->outputs.push_back(ops::infer_meta(code, call->inputs, params));
    }
  }
  std::vector<WriteBuffer<Tensor>> writers;
  // A transfer's result is where it goes; every other op's is where its operands are.
  const Device result_device =
      code == ops::OpCode::Transfer ? std::get<ops::TransferParams>(params).to : call->device;
  std::vector<TensorVar> outs = TensorVar::pending(call->outputs, result_device, writers);
  const std::string_view name = op_name(*call);

  ReadList reads;
  reads.reserve(in.size());
  for (const TensorVar& x : in) reads.push_back(x.value().read());
  OutputList<WriteBuffer<Tensor>> written;
  for (WriteBuffer<Tensor>& w : writers) written.push_back(std::move(w));
  schedule(forward_task(call, std::move(reads), std::move(written)), name.data());

  // Contributions: one per inexact operand whose gradient is open, when an output is inexact
  // (the operand then joins the graph of every inexact output).
  std::vector<size_t> inexact_outputs;
  for (size_t k = 0; k < outs.size(); ++k)
    if (is_inexact(call->outputs[k].dtype)) inexact_outputs.push_back(k);
  OutputList<GradSink<Tensor>> sinks;
  bool any = false;
  if (!inexact_outputs.empty()) {
    detail::GraphLock lock;
    for (const TensorVar& x : in) {
      GradSink<Tensor> s;
      if (is_inexact(x.meta().dtype))
        s = detail::track(lock, x.grad(), outs[inexact_outputs[0]].grad());
      if (s)
        for (size_t k : inexact_outputs) lock.join(*x.grad().node(), *outs[k].grad().node());
      any = any || static_cast<bool>(s);
      sinks.push_back(std::move(s));
    }
  }
  for (size_t k = 0; k < outs.size(); ++k)
    if (!any || !is_inexact(call->outputs[k].dtype)) outs[k].finalize(); // untracked
  if (!any) return outs;

  ReadList ybar, xs, ys;
  for (const TensorVar& y : outs)
    ybar.push_back(is_inexact(y.meta().dtype) ? y.grad().input() : ReadBuffer<Tensor>());
  for (const TensorVar& x : in) xs.push_back(x.value().read());
  for (const TensorVar& y : outs) ys.push_back(y.value().read());
  schedule(reverse_task(call, std::move(ybar), std::move(xs), std::move(ys), std::move(sinks)),
           reverse_task_name(name));
  return outs;
}

} // namespace

TensorVar::TensorVar(Tensor value, bool requires_grad) : node_(std::make_shared<Node>()) {
  node_->meta = tfe::meta_of(value);
  node_->device = value.device();
  node_->value = Async<Tensor>(std::move(value));
  if (!requires_grad) node_->grad.finalize();
}

TensorVar::Node& TensorVar::node() const {
  if (!node_) detail::throw_empty("TensorVar");
  return *node_;
}

bool TensorVar::tracked() const { return node().grad.is_open(); }

bool TensorVar::seeded() const { return node().grad.node()->seeded(); }

TensorVar TensorVar::as_leaf(bool requires_grad) const {
  TensorVar v;
  v.node_ = std::make_shared<Node>();
  v.node_->meta = node().meta;
  v.node_->device = node().device;
  v.node_->value = node().value;
  if (!requires_grad) v.node_->grad.finalize();
  return v;
}

Tensor TensorVar::value_wait() const { return node().value.get_wait(); }

void TensorVar::seed(const Tensor& cotangent) const {
  const Node& n = node();
  if (cotangent.dtype() != n.meta.dtype || Shape(cotangent.shape()) != n.meta.shape)
    fail(Status::InvalidArgument, "TensorVar::seed: the seed is %s%s, the tensor %s%s",
         std::string(dtype_name(cotangent.dtype())).c_str(),
         ops::format_shape(Shape(cotangent.shape())).c_str(),
         std::string(dtype_name(n.meta.dtype)).c_str(), ops::format_shape(n.meta.shape).c_str());
  n.grad.seed(cotangent);
}

std::optional<Tensor> TensorVar::grad_wait() const { return node().grad.maybe_wait(); }

void TensorVar::finalize() const { node().grad.finalize(); }

std::vector<TensorVar> TensorVar::pending(std::span<const ops::Meta> metas, Device d,
                                          std::vector<WriteBuffer<Tensor>>& writers) {
  std::vector<TensorVar> out;
  out.reserve(metas.size());
  for (const ops::Meta& m : metas) {
    auto [value, writer] = Async<Tensor>::pending();
    TensorVar v;
    v.node_ = std::make_shared<Node>();
    v.node_->meta = m;
    v.node_->device = d;
    v.node_->value = std::move(value);
    v.node_->leaf = false;
    writers.push_back(std::move(writer));
    out.push_back(std::move(v));
  }
  return out;
}

TensorVar emit(ops::OpCode code, std::span<const TensorVar> in, const ops::Params& params) {
  return emit_impl(code, in, params).at(0);
}

std::vector<TensorVar> emit_multi(ops::OpCode code, std::span<const TensorVar> in,
                                  const ops::Params& params) {
  return emit_impl(code, in, params);
}

ops::Meta meta_of(const TensorVar& v) { return v.meta(); }

TensorVar literal(const Tensor& value, const TensorVar*) { return TensorVar(value, false); }

} // namespace tfe::dataflow
