// Sample inputs and reference results per op (OpInfo style), keyed by op code. Each group file
// (same stem as src/ops/defs/<group>.hpp) returns the samples of its ops; test_op_matrix.cpp runs
// every row of the op table over them and fails when an op has none.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "graph/program.hpp"
#include "ops/op_table.hpp"
#include "support/tensor_testing.hpp"

namespace tfe::testing {

struct Sample {
  std::string label;          // "rank0", "batched", ...
  std::vector<Tensor> inputs; // IR operands: equal dtypes and shapes where the op needs them
  ops::Params params = ops::NoParams{};
  // False for samples placed on purpose at kinks or jumps (halves for round, ties): finite
  // differences are meaningless there, so the AD matrix leaves them to the forward matrix.
  bool smooth = true;
};

struct ErrorSample {
  std::string label; // the constraint label it violates ("C1"), or "dtype"/"arity"
  std::vector<Tensor> inputs;
  ops::Params params = ops::NoParams{};
  Status status;
  std::string substring; // expected in the message
};

struct OpSamples {
  // Valid samples whose value operands have dtype d (d is one of the op's accepted dtypes).
  std::function<std::vector<Sample>(DType d)> make;
  // The straightforward reference result (compact) for a sample; `out` is the inferred metadata.
  std::function<Tensor(const Sample& s, const ops::ConcreteMeta& out)> reference;
  std::function<std::vector<ErrorSample>()> errors;
  double rtol_scale = 1; // loosens the default tolerance for ops with ill-conditioned references
  // Whether a strided re-layout of the inputs must give a bitwise identical result. Reductions
  // and BLAS contractions may group their sums by memory layout, so they compare with tolerance.
  bool layout_exact = true;
};

std::optional<OpSamples> arithmetic_samples(ops::OpCode op);
std::optional<OpSamples> logical_samples(ops::OpCode op);
std::optional<OpSamples> analytic_samples(ops::OpCode op);
std::optional<OpSamples> complex_parts_samples(ops::OpCode op);
std::optional<OpSamples> comparison_samples(ops::OpCode op);
std::optional<OpSamples> contraction_samples(ops::OpCode op);
std::optional<OpSamples> reduce_samples(ops::OpCode op);
std::optional<OpSamples> structural_samples(ops::OpCode op);
std::optional<OpSamples> indexing_samples(ops::OpCode op);
std::optional<OpSamples> order_samples(ops::OpCode op);
std::optional<OpSamples> constant_samples(ops::OpCode op);
std::optional<OpSamples> extension_samples(ops::OpCode op);

// The samples of any op (dispatches on its group); nullopt when the group file has none.
std::optional<OpSamples> samples_for(ops::OpCode op);

// Whether derivatives can be checked at s: smooth there, with finite inputs.
bool differentiable_at(const Sample& s);

// The program applying def to arguments of s's dtypes and shapes, and the indices of its
// differentiable (inexact) arguments.
struct OneOpProgram {
  graph::ProgramPtr program;
  std::vector<int64_t> active;
};
OneOpProgram one_op_program(const ops::OpDef& def, const Sample& s);

// ---- helpers shared by the group files ----

using Scalar = std::complex<double>;
// Reference of an elementwise op: the value from the operand values (as complex doubles) for
// inexact dtypes, or from int64 operand values for Bool/integer dtypes (wrapped by the caller).
struct ElementwiseRef {
  std::function<Scalar(const std::vector<Scalar>&, DType in)> inexact;
  std::function<int64_t(const std::vector<int64_t>&, DType in)> integral;
};

// Samples of an n-ary elementwise op: rank 0, a zero extent, a vector, a batched rank-3 shape,
// a stride-0 broadcast operand, and for floats the special values (nan, inf, -0).
OpSamples elementwise_samples(std::vector<Domain> domains, ElementwiseRef ref,
                              ops::Params params = ops::NoParams{});
// Error samples shared by elementwise ops: a shape mismatch (C1) and, for binary ops, a dtype
// mismatch (C2).
std::vector<ErrorSample> elementwise_errors(size_t arity, DType good, DType other);

// Wraps an integer result to the width of dtype (two's complement).
int64_t wrap_to(DType d, int64_t v);
// Applies f at every index of `out` (compact, metadata `out`).
Tensor build(const ops::ConcreteMeta& out, const std::function<Scalar(const Dims&)>& f);
Tensor build_int(const ops::ConcreteMeta& out, const std::function<int64_t(const Dims&)>& f);

} // namespace tfe::testing
