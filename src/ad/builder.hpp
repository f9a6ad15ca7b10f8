// Small IR builders the AD rules use, beside the arithmetic operators of the op surface
// (eager/operators.hpp). Rules give operands of one dtype and shape (scalars are broadcast
// explicitly by `full`/`like`), so an operator emits exactly its op.
// Symbolic zeros (a missing tangent) are std::nullopt: a zero tensor is made only where an op
// needs one, as a broadcast scalar (docs/design/ad-contract.md).
#pragma once

#include <complex>
#include <optional>

#include "eager/operators.hpp"
#include "graph/node.hpp"

namespace tfe::ad {

// a + b, a - b, a * b, a / b and -a on values: the op surface's operators (eager/operators.hpp).
using namespace tfe::eager::operators;

using graph::Value;
using Tangent = std::optional<Value>;

Value emit1(ops::OpCode op, const Value& a, const ops::Params& p = ops::NoParams{});
Value emit2(ops::OpCode op, const Value& a, const Value& b, const ops::Params& p = ops::NoParams{});
Value emit3(ops::OpCode op, const Value& a, const Value& b, const Value& c);

// A rank-0 constant of dtype with value v (the imaginary part is dropped for real dtypes).
Value scalar(DType dtype, std::complex<double> v);
// A tensor of dtype and shape filled with v (a broadcast scalar).
Value full(DType dtype, const Shape& shape, std::complex<double> v);
Value zeros_like(const Value& x);
// `v` (rank 0) broadcast to the shape of x.
Value broadcast_scalar(const Value& v, const Shape& shape);

Value conj(const Value& a); // identity for real dtypes (no node)
Value real(const Value& a); // identity for real dtypes
Value imag(const Value& a);
Value complex(const Value& re, const Value& im);
Value convert(const Value& a, DType dtype); // no node when the dtype already matches
Value select(const Value& pred, const Value& t, const Value& f);
Value compare(const Value& a, const Value& b, ops::CompareDir dir);
// x * c for a constant c (a broadcast scalar of x's dtype).
Value scale(const Value& x, std::complex<double> c);
// A real tensor (0/1/0.5...) multiplied into x, converted to x's dtype first.
Value mul_real(const Value& x, const Value& real_factor);
Value reduce_sum(const Value& x, const Dims& axes);
Value broadcast_in_dim(const Value& x, const Shape& shape, const Dims& dims);
Value reshape(const Value& x, const Shape& shape);
Value transpose(const Value& x, const Dims& perm);

// Tangent arithmetic with symbolic zeros.
Tangent add(const Tangent& a, const Tangent& b);
Tangent neg(const Tangent& a);

} // namespace tfe::ad
