// Declarations of every CPU kernel, one per op, grouped like src/ops/defs/. The kernel table
// (../kernel_table.cpp) maps each op code to one of these with an exhaustive switch.
#pragma once

#include <optional>
#include <utility>

#include "backend/cpu/kernel.hpp"

namespace tfe::cpu::kernels {

#define TFE_KERNEL(name)                                                                           \
  Tensor name(Operands in, const ops::Params& p, const ops::ConcreteMeta& out)

// arithmetic.cpp, logical.cpp, complex_parts.cpp and analytic.cpp: one kernel per row of the
// group (ops/defs/<group>.hpp), named like the op code (analytic: like the op)
#define TFE_ROW_KERNEL(Code, ...) TFE_KERNEL(Code);
TFE_ARITHMETIC_OPS(TFE_ROW_KERNEL)
TFE_LOGICAL_OPS(TFE_ROW_KERNEL)
TFE_COMPLEX_PARTS_OPS(TFE_ROW_KERNEL)
#undef TFE_ROW_KERNEL
#define TFE_ANALYTIC_KERNEL(Code, name, ...) TFE_KERNEL(name);
TFE_ANALYTIC_OPS(TFE_ANALYTIC_KERNEL)
#undef TFE_ANALYTIC_KERNEL
// comparison.cpp
TFE_KERNEL(compare);
TFE_KERNEL(select);
TFE_KERNEL(clamp);
// contraction.cpp
TFE_KERNEL(dot_general);
// reduce.cpp
TFE_KERNEL(reduce_sum);
TFE_KERNEL(reduce_prod);
TFE_KERNEL(reduce_max);
TFE_KERNEL(reduce_min);
// structural.cpp
TFE_KERNEL(transpose);
TFE_KERNEL(reshape);
TFE_KERNEL(broadcast_in_dim);
TFE_KERNEL(convert);
TFE_KERNEL(reverse);
TFE_KERNEL(extract_diag);
TFE_KERNEL(embed_diag);
TFE_KERNEL(tril);
TFE_KERNEL(triu);
TFE_KERNEL(iota);
// order.cpp
TFE_KERNEL(cumsum);
TFE_KERNEL(cumprod);
TFE_KERNEL(argsort);
TFE_KERNEL(argmax);
TFE_KERNEL(argmin);
// indexing.cpp
TFE_KERNEL(slice);
TFE_KERNEL(dynamic_slice);
TFE_KERNEL(dynamic_update_slice);
TFE_KERNEL(gather);
TFE_KERNEL(scatter);
TFE_KERNEL(pad);
TFE_KERNEL(concatenate);
// constant.cpp
TFE_KERNEL(constant);
// extension.cpp: a single-output extension op (several outputs go through run_extension)
TFE_KERNEL(extension);

#undef TFE_KERNEL

// Shared by several groups (structural.cpp): a compact copy of t with dtype `to`.
Tensor convert_to(const Tensor& t, DType to);
// Copies src into dst (same shape and dtype; dst a writable, non-self-overlapping view).
void copy_into(const Tensor& dst, const Tensor& src);

// Views and placements the structural kernels compute, shared with the device backend so that
// each index rule is written once.
// The dims of a rank-`rank` operand in neither a nor b, in order: a contraction's free dims.
Dims free_dims(int64_t rank, const Dims& a, const Dims& b);
// The diagonal of dims a and b as one dim at a's position (b removed).
Tensor diagonal_view(const Tensor& t, int64_t a, int64_t b);
// Where pad puts its operand: the view of out that receives x's kept elements, and those
// elements; nullopt when none lands inside out.
std::optional<std::pair<Tensor, Tensor>> pad_placement(const Tensor& out, const Tensor& x,
                                                       const ops::PadParams& pp);

} // namespace tfe::cpu::kernels
