// Running an einsum plan through the op surface, instantiated for the four value types.
#include <array>

#include "ad/recording/recorded.hpp"
#include "dataflow/tensor/surface.hpp"
#include "einsum/einsum.hpp"
#include "einsum/unary_op.hpp"
#include "eager/surface.hpp"

namespace tfe::einsum {

namespace {

template <class V> V prepare(const V& x, const OperandPrep& op) {
  V v = x;
  for (auto [a, b] : op.diags) v = unary_op(ops::OpCode::ExtractDiag, v, ops::DiagParams{a, b});
  if (op.squeeze) v = unary_op(ops::OpCode::Reshape, v, ops::ReshapeParams{op.squeezed});
  if (!op.sums.empty()) v = unary_op(ops::OpCode::ReduceSum, v, ops::AxesParams{op.sums});
  return v;
}

template <class V> V widen(const V& x, const Widen& w) {
  V v = x;
  if (w.reshape) v = unary_op(ops::OpCode::Reshape, v, ops::ReshapeParams{w.reshaped});
  if (w.broadcast) v = unary_op(ops::OpCode::BroadcastInDim, v, w.to);
  return v;
}

} // namespace

template <class V> std::vector<Shape> shapes_of(std::span<const V> operands) {
  std::vector<Shape> shapes;
  for (const V& v : operands) shapes.push_back(meta_of(v).shape);
  return shapes;
}

template <class V>
V einsum(std::string_view subscripts, std::span<const V> operands, PlanCache* cache) {
  std::vector<Shape> shapes = shapes_of(operands);
  std::shared_ptr<const Plan> plan = plan_cached(cache, subscripts, shapes);

  DType joined = meta_of(operands.front()).dtype;
  for (const V& v : operands) joined = join(joined, meta_of(v).dtype);
  // dot_general and reduce_sum take no Bool; integers give the same truth values.
  DType compute = joined == DType::Bool ? DType::I64 : joined;

  std::vector<V> list;
  list.reserve(operands.size());
  for (size_t k = 0; k < operands.size(); ++k) {
    const V& x = operands[k];
    V v = meta_of(x).dtype == compute ? x : eager::cast(x, compute);
    list.push_back(prepare(v, plan->prep[k]));
  }
  for (const Step& st : plan->steps) {
    V a = list[static_cast<size_t>(st.i)], b = list[static_cast<size_t>(st.j)];
    if (!st.sum_i.empty()) a = unary_op(ops::OpCode::ReduceSum, a, ops::AxesParams{st.sum_i});
    if (!st.sum_j.empty()) b = unary_op(ops::OpCode::ReduceSum, b, ops::AxesParams{st.sum_j});
    std::array<V, 2> in{a, b};
    const bool multiply = st.kind == StepKind::Multiply;
    if (multiply) in = {widen(a, st.widen_i), widen(b, st.widen_j)};
    V r = multiply ? eager::call<V>(ops::OpCode::Mul, std::span<const V>(in))
                   : eager::call<V>(ops::OpCode::DotGeneral, std::span<const V>(in), st.dot);
    list.erase(list.begin() + st.j);
    list.erase(list.begin() + st.i);
    list.push_back(std::move(r));
  }
  V out = list.front();
  if (!plan->perm.empty())
    out = unary_op(ops::OpCode::Transpose, out, ops::TransposeParams{plan->perm});
  if (joined == DType::Bool) out = eager::cast(out, DType::Bool);
  return out;
}

#define TFE_EINSUM_INSTANCES(V)                                                                    \
  template V einsum<V>(std::string_view, std::span<const V>, PlanCache*);                          \
  template std::vector<Shape> shapes_of<V>(std::span<const V>);

TFE_EINSUM_INSTANCES(Tensor)
TFE_EINSUM_INSTANCES(graph::Value)
TFE_EINSUM_INSTANCES(ad::recording::Recorded)
TFE_EINSUM_INSTANCES(dataflow::TensorVar)

} // namespace tfe::einsum
