// Shared sample builders of the elementwise groups and the group dispatch (op_samples.hpp).
#include <limits>

#include "op_samples/op_samples.hpp"
#include "support/ad_checks.hpp"

namespace tfe::testing {

using ops::OpGroup;

bool differentiable_at(const Sample& s) {
  if (!s.smooth) return false;
  for (const Tensor& t : s.inputs)
    if (!all_finite(t)) return false;
  return true;
}

OneOpProgram one_op_program(const ops::OpDef& def, const Sample& s) {
  std::vector<graph::Value> args;
  OneOpProgram c;
  for (size_t i = 0; i < s.inputs.size(); ++i) {
    args.push_back(graph::argument(s.inputs[i].dtype(), Shape(s.inputs[i].shape())));
    if (is_inexact(s.inputs[i].dtype())) c.active.push_back(static_cast<int64_t>(i));
  }
  graph::Value out = graph::emit(def.code, args, s.params);
  c.program = graph::make_program(args, {out});
  return c;
}

std::optional<OpSamples> samples_for(ops::OpCode op) {
  switch (ops::op_def(op).group) {
  case OpGroup::Arithmetic: return arithmetic_samples(op);
  case OpGroup::Logical: return logical_samples(op);
  case OpGroup::Analytic: return analytic_samples(op);
  case OpGroup::ComplexParts: return complex_parts_samples(op);
  case OpGroup::Comparison: return comparison_samples(op);
  case OpGroup::Contraction: return contraction_samples(op);
  case OpGroup::Reduce: return reduce_samples(op);
  case OpGroup::Structural: return structural_samples(op);
  case OpGroup::Indexing: return indexing_samples(op);
  case OpGroup::Order: return order_samples(op);
  case OpGroup::Constant: return constant_samples(op);
  case OpGroup::Extension: return extension_samples(op);
  }
  return std::nullopt;
}

int64_t wrap_to(DType d, int64_t v) {
  if (d == DType::I32) return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v)));
  if (d == DType::Bool) return v != 0;
  return v;
}

Tensor build(const ops::ConcreteMeta& out, const std::function<Scalar(const Dims&)>& f) {
  Tensor t = Tensor::empty(out.dtype, out.shape);
  for_each_index(out.shape, [&](const Dims& idx) { set_value(t, idx, f(idx)); });
  return t;
}

Tensor build_int(const ops::ConcreteMeta& out, const std::function<int64_t(const Dims&)>& f) {
  Tensor t = Tensor::empty(out.dtype, out.shape);
  for_each_index(out.shape, [&](const Dims& idx) { set_int(t, idx, f(idx)); });
  return t;
}

namespace {

// Values that exercise NaN, infinities and signed zero, for real or complex dtypes.
Tensor specials(DType d, size_t which) {
  const double inf = std::numeric_limits<double>::infinity(),
               nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> a{nan, inf, -inf, 0.0, -0.0, 1.5, -2.5, nan, 3.0};
  std::vector<double> b{1.0, 2.0, inf, -0.0, 0.0, nan, -2.5, nan, -inf};
  std::vector<double> c{0.5, -1.0, 0.0, 1.0, -3.0, 2.0, 4.0, 0.0, nan};
  const std::vector<double>& v = which == 0 ? a : which == 1 ? b : c;
  return tensor_of(d, {static_cast<int64_t>(v.size())}, v);
}

} // namespace

OpSamples elementwise_samples(std::vector<Domain> domains, ElementwiseRef ref, ops::Params params) {
  OpSamples s;
  s.make = [domains, params](DType d) {
    std::vector<Sample> out;
    uint64_t seed = 1;
    auto operands = [&](const Dims& shape) {
      std::vector<Tensor> in;
      for (Domain dom : domains) in.push_back(random_tensor(d, shape, seed++, dom));
      return in;
    };
    out.push_back({"rank0", operands({}), params});
    out.push_back({"zero_extent", operands({0, 3}), params});
    out.push_back({"vector", operands({7}), params});
    out.push_back({"batched", operands({3, 4, 2}), params});
    // A stride-0 operand: the last operand broadcast along dim 1.
    std::vector<Tensor> bc = operands({3, 4, 2});
    Tensor small = random_tensor(d, {3, 1, 2}, seed++, domains.back());
    bc.back() = small.broadcast_view({3, 4, 2}, Dims{0, 1, 2});
    out.push_back({"broadcast_operand", bc, params});
    bool any_positive_domain = false;
    for (Domain dom : domains) any_positive_domain |= dom != Domain::Any;
    if (is_inexact(d) && !any_positive_domain) {
      std::vector<Tensor> sp;
      for (size_t i = 0; i < domains.size(); ++i) sp.push_back(specials(d, i));
      out.push_back({"special_values", sp, params});
    }
    return out;
  };
  s.reference = [ref](const Sample& sm, const ops::ConcreteMeta& out) {
    DType in = sm.inputs.empty() ? out.dtype : sm.inputs.back().dtype();
    bool integral = in == DType::Bool || is_integer(in);
    if (integral) {
      return build_int(out, [&](const Dims& idx) {
        std::vector<int64_t> v;
        for (const Tensor& t : sm.inputs) v.push_back(int_at(t, idx));
        return ref.integral(v, in);
      });
    }
    return build(out, [&](const Dims& idx) {
      std::vector<Scalar> v;
      for (const Tensor& t : sm.inputs) v.push_back(value_at(t, idx));
      return ref.inexact(v, in);
    });
  };
  size_t arity = domains.size();
  s.errors = [arity] { return elementwise_errors(arity, DType::F64, DType::F32); };
  return s;
}

std::vector<ErrorSample> elementwise_errors(size_t arity, DType good, DType other) {
  std::vector<ErrorSample> e;
  if (arity >= 2) {
    std::vector<Tensor> shapes, dtypes;
    for (size_t i = 0; i < arity; ++i) {
      shapes.push_back(Tensor::zeros(good, i == 1 ? Dims{3} : Dims{2}));
      dtypes.push_back(Tensor::zeros(i == 1 ? other : good, {2}));
    }
    e.push_back({"C1", shapes, ops::NoParams{}, Status::ShapeMismatch, "operand 1 has shape [3]"});
    e.push_back({"C2", dtypes, ops::NoParams{}, Status::DtypeMismatch, "operand 1 is"});
  }
  return e;
}

} // namespace tfe::testing
