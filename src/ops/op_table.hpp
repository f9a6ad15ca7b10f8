// The op table: one row per IR op, joined from the group files in defs/. Every layer reads it:
// eager execution and recording (promotion plan, shape inference), the kernel table, the C API's
// op list, the docs and the generated tests.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string_view>

#include "ops/defs/analytic.hpp"
#include "ops/defs/arithmetic.hpp"
#include "ops/defs/comparison.hpp"
#include "ops/defs/complex_parts.hpp"
#include "ops/defs/constant.hpp"
#include "ops/defs/contraction.hpp"
#include "ops/defs/extension.hpp"
#include "ops/defs/indexing.hpp"
#include "ops/defs/logical.hpp"
#include "ops/defs/order.hpp"
#include "ops/defs/reduce.hpp"
#include "ops/defs/structural.hpp"
#include "ops/defs/elementwise_rules.hpp"

namespace tfe::ops {

namespace defs {
// One row per entry of the analytic list (defs/analytic.hpp); binary rows promote.
// clang-format off
#define TFE_ANALYTIC_ROW(Code, name, arity, accepts, ad, since, domain, numpy, summary)            \
  OpDef{OpCode::Code, #name, "tfe_" #name, OpGroup::Analytic, arity, arity, ParamsKind::None,       \
        dtypes::accepts, kAllOperands, (arity) > 1, true, rules::same_as_operands, AdClass::ad,     \
        (arity) > 1 ? "C1 C2" : "", summary},
// clang-format on
inline constexpr OpDef kAnalytic[] = {TFE_ANALYTIC_OPS(TFE_ANALYTIC_ROW)};
#undef TFE_ANALYTIC_ROW

// One row per entry of the arithmetic, logical and complex-parts lists (defs/arithmetic.hpp).
// clang-format off
#define TFE_BASIC_ROW(Group, Code, name, c_stem, entry, arity, operands, accepts, promotes, result, \
                      ad, since, errors, domain, numpy, summary)                                   \
  OpDef{OpCode::Code, #name, "tfe_" #c_stem, OpGroup::Group, arity, arity, ParamsKind::None,       \
        dtypes::accepts, kAllOperands, promotes, true, rules::result, AdClass::ad,                 \
        (arity) > 1 ? "C1 C2" : "", summary},
#define TFE_ARITHMETIC_ROW(...) TFE_BASIC_ROW(Arithmetic, __VA_ARGS__)
#define TFE_LOGICAL_ROW(...) TFE_BASIC_ROW(Logical, __VA_ARGS__)
#define TFE_COMPLEX_PARTS_ROW(...) TFE_BASIC_ROW(ComplexParts, __VA_ARGS__)
// clang-format on
inline constexpr OpDef kArithmetic[] = {TFE_ARITHMETIC_OPS(TFE_ARITHMETIC_ROW)};
inline constexpr OpDef kLogical[] = {TFE_LOGICAL_OPS(TFE_LOGICAL_ROW)};
inline constexpr OpDef kComplexParts[] = {TFE_COMPLEX_PARTS_OPS(TFE_COMPLEX_PARTS_ROW)};
#undef TFE_COMPLEX_PARTS_ROW
#undef TFE_LOGICAL_ROW
#undef TFE_ARITHMETIC_ROW
#undef TFE_BASIC_ROW
} // namespace defs

namespace detail {
template <size_t... N> consteval auto join_rows(const OpDef (&... groups)[N]) {
  std::array<OpDef, (N + ...)> out{};
  size_t i = 0;
  ((std::copy(std::begin(groups), std::end(groups), out.begin() + static_cast<long>(i)), i += N),
   ...);
  return out;
}

consteval bool rows_are_dense(std::span<const OpDef> rows) {
  for (size_t i = 0; i < rows.size(); ++i) {
    if (static_cast<size_t>(rows[i].code) != i) return false;
    if (rows[i].name.empty() || rows[i].c_name.empty()) return false;
    for (size_t j = 0; j < i; ++j)
      if (rows[j].name == rows[i].name) return false;
  }
  return true;
}
} // namespace detail

inline constexpr auto kOpTable =
    detail::join_rows(defs::kArithmetic, defs::kLogical, defs::kAnalytic, defs::kComplexParts,
                      defs::kComparison, defs::kContraction, defs::kReduce, defs::kStructural,
                      defs::kIndexing, defs::kOrder, defs::kConstant, defs::kExtension);

static_assert(kOpTable.size() == static_cast<size_t>(kNumOps), "one row per OpCode");
static_assert(detail::rows_are_dense(kOpTable), "row i describes OpCode i; names unique");

inline const OpDef& op_def(OpCode code) { return kOpTable[static_cast<size_t>(code)]; }
std::optional<OpCode> op_by_name(std::string_view name);

// Validates arity, the params alternative and the accepted dtypes of the value operands, then
// runs the row's shape rule. Operands must already carry their execution dtypes.
Meta infer_meta(OpCode code, std::span<const Meta> inputs, const Params& params);

// The promotion plan (docs/design/ops-and-dtypes.md, "Promotion"): the dtype each operand executes
// in. Value operands of a promoting op get the join of their dtypes; every other operand keeps its
// dtype. Eager execution and AD recording both call this one function.
void promotion_plan(OpCode code, std::span<const DType> inputs, std::span<DType> out_targets);

} // namespace tfe::ops
