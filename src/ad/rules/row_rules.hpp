// The rules of a row of a generated elementwise group (arithmetic, logical, complex parts), from
// its AD class. The group's rules file (rules/<group>.cpp) defines one struct per differentiable
// row, named like the op code, with what the class needs:
//   Linear    transpose(TransposeArgs, out); jvp optional (default: the op applied to the
//             tangents, linear_jvp)
//   Smooth    jvp(JvpArgs) (FormulaJvp<formulas::Code, arity> supplies the shared formula);
//             transpose where the op is linear in one operand (mul, div)
//   NotDiff   nothing: the outputs carry no tangents (zero_jvp)
// and ends with TFE_DEFINE_GROUP_RULES, which checks each struct at compile time.
#pragma once

#include <concepts>
#include <span>

#include "ad/rules/ir_algebra.hpp"
#include "ad/rules/rules.hpp"

namespace tfe::ad::rules {

template <class R>
concept HasJvp = requires(const JvpArgs& a) {
  { R::jvp(a) } -> std::same_as<Tangent>;
};
template <class R>
concept HasTranspose = requires(const TransposeArgs& a, std::span<Tangent> out) {
  R::transpose(a, out);
};

template <class R> const Rules& linear_row_rules() {
  static_assert(HasTranspose<R>, "a Linear row needs its transpose");
  static const Rules r{[] {
                         if constexpr (HasJvp<R>)
                           return &R::jvp;
                         else
                           return &linear_jvp;
                       }(),
                       &R::transpose};
  return r;
}

template <class R> const Rules& smooth_row_rules() {
  static_assert(HasJvp<R>, "a Smooth row needs its jvp (FormulaJvp for a shared formula)");
  static const Rules r{&R::jvp, [] {
                         if constexpr (HasTranspose<R>)
                           return &R::transpose;
                         else
                           return TransposeRule{nullptr};
                       }()};
  return r;
}

inline const Rules& not_diff_row_rules() {
  static const Rules r{zero_jvp, nullptr};
  return r;
}

} // namespace tfe::ad::rules

#define TFE_ROW_RULES_Linear(Code) linear_row_rules<Code>()
#define TFE_ROW_RULES_Smooth(Code) smooth_row_rules<Code>()
#define TFE_ROW_RULES_NotDiff(Code) not_diff_row_rules()
#define TFE_ROW_RULES_CASE(Code, name, c_stem, entry, arity, operands, accepts, promotes, result,  \
                           ad, ...)                                                                \
  case ops::OpCode::Code: return TFE_ROW_RULES_##ad(Code);
// Defines `const Rules& function(ops::OpCode)` over the rows of LIST (declared in rules.hpp).
#define TFE_DEFINE_GROUP_RULES(function, LIST)                                                     \
  const Rules& function(ops::OpCode op) {                                                          \
    switch (op) {                                                                                  \
      LIST(TFE_ROW_RULES_CASE)                                                                     \
    default: break;                                                                                \
    }                                                                                              \
    fail(Status::Internal, "%s: op code %d is not a row of the group", #function,                  \
         static_cast<int>(op));                                                                    \
  }
