// The user-facing op surface: promotion plan, left-aligned (Julia-style) broadcasting lowered to
// explicit BroadcastInDim, and the sugar of docs/design/ops-and-dtypes.md (true division,
// sum/mean/prod, matmul, stack, checked convert). Written once over the value type V:
//   V = Tensor       runs each op at once on the CPU (eager);
//   V = graph::Value appends each op to a program (tracing).
// Both call the same code, so a traced program holds exactly the ops eager code executes (one
// promotion plan, one canonicalisation). A value type provides, found by ADL:
//   V emit(OpCode, std::span<const V>, const Params&);  ops::Meta meta_of(const V&);
//   std::vector<V> emit_multi(OpCode, std::span<const V>, const Params&);  // several outputs
//   V literal(const Tensor& value, const V* tag);        // a library-made constant
#pragma once

#include <span>
#include <vector>

#include "core/operands.hpp"
#include "core/tensor.hpp"
#include "graph/node.hpp"
#include "ops/op_table.hpp"

namespace tfe {

// The eager value type's hooks.
Tensor emit(ops::OpCode code, Operands in, const ops::Params& params);
std::vector<Tensor> emit_multi(ops::OpCode code, std::span<const Tensor> in,
                               const ops::Params& params);
ops::Meta meta_of(const Tensor& t);
inline Tensor literal(const Tensor& value, const Tensor*) { return value; }

} // namespace tfe

namespace tfe::graph {
Value literal(const Tensor& value, const Value*);
} // namespace tfe::graph

namespace tfe::eager {

// Runs `code`: promotes value operands (promotion_plan), broadcasts the operands of elementwise
// ops to their common shape, then emits the op.
template <class V>
V call(ops::OpCode code, std::span<const V> in, const ops::Params& params = ops::NoParams{});
// The same on values that lie elsewhere (the C entry points' operands, read in place).
template <class V>
V call_refs(ops::OpCode code, Refs<V> in, const ops::Params& params = ops::NoParams{});

// The common left-aligned broadcast shape; ShapeMismatch naming the shapes when there is none.
Shape broadcast_shapes(std::span<const Shape> shapes);
// v viewed with `shape` (left-aligned broadcast, explicit BroadcastInDim).
template <class V> V broadcast_to(const V& v, const Shape& shape);

template <class V> V convert(const V& x, DType dtype);    // checked: lossless only
template <class V> V cast(const V& x, DType dtype);       // lossy allowed (IR Convert)
template <class V> V true_divide(const V& a, const V& b); // Bool/integers go to F64 first

// Reductions over NumPy-style axes; an empty list means every axis. sum/prod of Bool or I32
// accumulate in I64; mean of integers is F64.
template <class V> V sum(const V& x, std::span<const int64_t> axes);
template <class V> V prod(const V& x, std::span<const int64_t> axes);
template <class V> V mean(const V& x, std::span<const int64_t> axes);
template <class V> V reduce(ops::OpCode code, const V& x, std::span<const int64_t> axes);

// [M,K,B..] x [K,N,B..] -> [M,N,B..], batch dims broadcast left-aligned.
template <class V> V matmul(const V& a, const V& b);
// Inserts a new axis (NumPy-style index into the output rank) and concatenates along it.
template <class V> V stack(std::span<const V> xs, int64_t axis);
template <class V> V concatenate(std::span<const V> xs, int64_t axis);

// A compact column-major copy (the value itself when already compact and owned).
Tensor contiguous(const Tensor& t);

#define TFE_SURFACE_INSTANCES(V, EXTERN)                                                           \
  EXTERN template V call<V>(ops::OpCode, std::span<const V>, const ops::Params&);                  \
  EXTERN template V call_refs<V>(ops::OpCode, Refs<V>, const ops::Params&);                        \
  EXTERN template V broadcast_to<V>(const V&, const Shape&);                                       \
  EXTERN template V convert<V>(const V&, DType);                                                   \
  EXTERN template V cast<V>(const V&, DType);                                                      \
  EXTERN template V true_divide<V>(const V&, const V&);                                            \
  EXTERN template V sum<V>(const V&, std::span<const int64_t>);                                    \
  EXTERN template V prod<V>(const V&, std::span<const int64_t>);                                   \
  EXTERN template V mean<V>(const V&, std::span<const int64_t>);                                   \
  EXTERN template V reduce<V>(ops::OpCode, const V&, std::span<const int64_t>);                    \
  EXTERN template V matmul<V>(const V&, const V&);                                                 \
  EXTERN template V stack<V>(std::span<const V>, int64_t);                                         \
  EXTERN template V concatenate<V>(std::span<const V>, int64_t);

TFE_SURFACE_INSTANCES(Tensor, extern)
TFE_SURFACE_INSTANCES(graph::Value, extern)

} // namespace tfe::eager
