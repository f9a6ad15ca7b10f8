// The IR vocabulary: one code per row of the op registry (docs/ops/table.md; linalg extension ops
// come with the linalg layer). Row i of the op table (op_table.hpp) describes code i.
#pragma once

#include <cstdint>

#include "ops/defs/analytic.hpp"
#include "ops/defs/arithmetic.hpp"
#include "ops/defs/complex_parts.hpp"
#include "ops/defs/logical.hpp"

namespace tfe::ops {

enum class OpCode : uint16_t {
// arithmetic and logical (defs/arithmetic.hpp, defs/logical.hpp: one generated code per row)
#define TFE_ROW_CODE(Code, ...) Code,
  TFE_ARITHMETIC_OPS(TFE_ROW_CODE) TFE_LOGICAL_OPS(TFE_ROW_CODE)
  // analytic (defs/analytic.hpp: one generated code per row)
  TFE_ANALYTIC_OPS(TFE_ROW_CODE)
  // complex parts (defs/complex_parts.hpp)
  TFE_COMPLEX_PARTS_OPS(TFE_ROW_CODE)
#undef TFE_ROW_CODE
  // comparison and selection (defs/comparison.hpp)
  Compare,
  Select,
  Clamp,
  // contraction (defs/contraction.hpp)
  DotGeneral,
  // reductions (defs/reduce.hpp)
  ReduceSum,
  ReduceProd,
  ReduceMax,
  ReduceMin,
  // structural (defs/structural.hpp)
  Transpose,
  Reshape,
  BroadcastInDim,
  Convert,
  Reverse,
  ExtractDiag,
  EmbedDiag,
  Tril,
  Triu,
  Iota,
  Transfer,
  // indexing (defs/indexing.hpp)
  Slice,
  DynamicSlice,
  DynamicUpdateSlice,
  Gather,
  Scatter,
  Pad,
  Concatenate,
  // order: scans, sorting, arg-reductions (defs/order.hpp)
  Cumsum,
  Cumprod,
  Argsort,
  Argmax,
  Argmin,
  // constants (defs/constant.hpp)
  Constant,
  // extension ops of later layers, e.g. linalg (defs/extension.hpp, ops/extension.hpp)
  Extension,
  Count
};

inline constexpr int kNumOps = static_cast<int>(OpCode::Count);

enum class OpGroup : uint8_t {
  Arithmetic,
  Logical,
  Analytic,
  ComplexParts,
  Comparison,
  Contraction,
  Reduce,
  Structural,
  Indexing,
  Order,
  Constant,
  Extension
};

} // namespace tfe::ops
