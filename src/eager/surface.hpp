// The user-facing eager surface: runs IR ops on concrete tensors with the promotion plan and
// left-aligned (Julia-style) broadcasting lowered to explicit BroadcastInDim, plus the sugar of
// ops-and-dtypes.md (true division, sum/mean/prod, matmul, stack, checked convert).
// Later the AD recorder hooks in here: the same plan decides what executes and what is recorded.
#pragma once

#include <span>

#include "core/tensor.hpp"
#include "ops/op_table.hpp"

namespace tfe::eager {

// Runs `code`: promotes value operands (promotion_plan), broadcasts the operands of elementwise
// ops to their common shape, then executes the op.
Tensor call(ops::OpCode code, std::span<const Tensor> in,
            const ops::Params& params = ops::NoParams{});

// The common left-aligned broadcast shape; ShapeMismatch naming the shapes when there is none.
Dims broadcast_shapes(std::span<const Tensor> in);
Dims broadcast_shapes(std::span<const Dims> shapes);
// t viewed with `shape` (left-aligned broadcast, explicit BroadcastInDim).
Tensor broadcast_to(const Tensor& t, const Dims& shape);

Tensor convert(const Tensor& x, DType dtype);         // checked: only lossless conversions
Tensor cast(const Tensor& x, DType dtype);            // lossy allowed (IR Convert)
Tensor true_divide(const Tensor& a, const Tensor& b); // integers and Bool go to F64 first

// Reductions over NumPy-style axes; an empty list means every axis. sum/prod of Bool or I32
// accumulate in I64; mean of integers is F64.
Tensor sum(const Tensor& x, std::span<const int64_t> axes);
Tensor prod(const Tensor& x, std::span<const int64_t> axes);
Tensor mean(const Tensor& x, std::span<const int64_t> axes);
Tensor reduce(ops::OpCode code, const Tensor& x, std::span<const int64_t> axes);

// [M,K,B..] x [K,N,B..] -> [M,N,B..], batch dims broadcast left-aligned.
Tensor matmul(const Tensor& a, const Tensor& b);
// Inserts a new axis (NumPy-style index into the output rank) and concatenates along it.
Tensor stack(std::span<const Tensor> xs, int64_t axis);
Tensor concatenate(std::span<const Tensor> xs, int64_t axis);

// A compact column-major copy (the value unchanged; `t` itself when already compact and owned).
Tensor contiguous(const Tensor& t);

} // namespace tfe::eager
