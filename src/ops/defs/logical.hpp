/* The logical ops: logical on Bool, bitwise on integers. Columns and what is generated from them:
 * ops/defs/arithmetic.hpp. Plain preprocessor tokens only, so C tests can read the list too. */
#ifndef TFE_OPS_DEFS_LOGICAL_HPP
#define TFE_OPS_DEFS_LOGICAL_HPP

/* clang-format off */
#define TFE_LOGICAL_OPS(X)                                                                         \
  X(And, and, and, Regular, 2, (a, b), kLogical, false, same_as_operands, NotDiff, 0.1, "", Any,   \
    "np.bitwise_and", "Logical and on Bool, bitwise and on integers; both operands of one dtype.") \
  X(Or, or, or, Regular, 2, (a, b), kLogical, false, same_as_operands, NotDiff, 0.1, "", Any,      \
    "np.bitwise_or", "Logical or on Bool, bitwise or on integers; both operands of one dtype.")    \
  X(Xor, xor, xor, Regular, 2, (a, b), kLogical, false, same_as_operands, NotDiff, 0.1, "", Any,   \
    "np.bitwise_xor",                                                                              \
    "Logical exclusive or on Bool, bitwise on integers; both operands of one dtype.")              \
  X(Not, not, not, Regular, 1, (x), kLogical, false, same_as_operands, NotDiff, 0.1, "", Any,      \
    "np.invert", "Logical not on Bool, bitwise complement on integers.")
/* clang-format on */

#endif
