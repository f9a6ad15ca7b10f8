/* The arithmetic ops. One row per op; the rows of the logical and complex-parts groups have the
 * same columns. Generated from these rows: the op code, the op-table row, the CPU kernel (the
 * functor named like the code in backend/cpu/kernels/<group>.hpp mapped over the operands, unfused
 * and fused), the AD rules (from the row's AD class and the struct named like the code in
 * ad/rules/<group>.cpp, ad/rules/row_rules.hpp), the C entry point and its declaration
 * (include/tenferro/ops_arith.h, written by tools/emit_ops) for a Regular row, the Python
 * function, its NumPy tests and completeness test, the C completeness rows and docs/ops/table.md.
 * A row without its functor, or without the rule struct its AD class needs, does not compile.
 *
 * Plain preprocessor tokens only (no includes, no C++), so C tests can read the list too.
 *
 * X(Code, name, c_stem, entry, arity, operands, accepts, promotes, result, ad, since, errors,
 *   domain, numpy, summary)
 *   Code      the op code
 *   name      the op's name in the IR and the op table
 *   c_stem    the C function tfe_<c_stem>; Python and the other bindings use the same stem (a
 *             Python keyword gets a trailing underscore: and_, or_, not_)
 *   entry     Regular: the C function is generated (it runs the op on its operands with
 *             promotion and broadcasting); Custom: written by hand (checks of its own)
 *   arity     1 or 2
 *   operands  the C parameter names, in parentheses
 *   accepts   the dtype set (core/dtype.hpp dtypes::k...)
 *   promotes  true: the operands promote to the join of their dtypes
 *   result    the shape rule (ops/defs/elementwise_rules.hpp rules::...)
 *   ad        Linear, Smooth (derivative rules) or NotDiff
 *   since     the library version that added it
 *   errors    statuses beyond the common ones, for the C documentation ("" if none)
 *   domain    where the Python tests sample the operands: Any, Nonzero (a nonzero right operand),
 *             Power (positive bases, small non-negative integer exponents)
 *   numpy     the NumPy reference the Python tests compare with (an expression; a name such as
 *             ref_sign is a helper of bindings/python/tests/test_elementwise.py)
 *   summary   one sentence: the C header, the bindings' documentation and the op table show it
 */
#ifndef TFE_OPS_DEFS_ARITHMETIC_HPP
#define TFE_OPS_DEFS_ARITHMETIC_HPP

/* clang-format off */
#define TFE_ARITHMETIC_OPS(X)                                                                      \
  X(Add, add, add, Regular, 2, (a, b), kNumeric, true, same_as_operands, Linear, 0.1, "", Any,     \
    "np.add", "a + b elementwise; integers wrap.")                                                 \
  X(Sub, sub, sub, Regular, 2, (a, b), kNumeric, true, same_as_operands, Linear, 0.1, "", Any,     \
    "np.subtract", "a - b elementwise; integers wrap.")                                            \
  X(Mul, mul, mul, Regular, 2, (a, b), kNumeric, true, same_as_operands, Smooth, 0.1, "", Any,     \
    "np.multiply", "a * b elementwise; integers wrap.")                                            \
  X(Div, div, div_trunc, Custom, 2, (a, b), kNumeric, true, same_as_operands, Smooth, 0.1,         \
    "TFE_ERR_NUMERICAL (a zero integer divisor)", Nonzero, "trunc_div",                            \
    "Quotient: truncates toward zero on integers (MIN / -1 wraps); a zero integer divisor is an "  \
    "error.")                                                                                      \
  X(Rem, rem, rem, Regular, 2, (a, b), kRealNumeric, true, same_as_operands, Smooth, 0.1,          \
    "TFE_ERR_NUMERICAL (a zero integer divisor)", Nonzero, "np.fmod",                              \
    "Remainder with the dividend's sign (C fmod); MIN % -1 is 0, a zero integer divisor is an "    \
    "error.")                                                                                      \
  X(Pow, pow, pow, Regular, 2, (a, b), kNumeric, true, same_as_operands, Smooth, 0.1,              \
    "TFE_ERR_NUMERICAL (a negative integer exponent)", Power, "np.power",                          \
    "a raised to b; integers wrap, a negative integer exponent is an error.")                      \
  X(Neg, neg, neg, Regular, 1, (x), kNumeric, false, same_as_operands, Linear, 0.1, "", Any,       \
    "np.negative", "-x; integers wrap.")                                                           \
  X(Conj, conj, conj, Regular, 1, (x), kNumeric, false, same_as_operands, Linear, 0.1, "", Any,    \
    "np.conj", "Complex conjugate; the identity on real and integer values.")                      \
  X(Abs, abs, abs, Regular, 1, (x), kNumeric, false, real_of_operand, Smooth, 0.1, "", Any,        \
    "np.abs", "Absolute value; complex input gives its real modulus, abs(MIN) wraps to MIN.")      \
  X(Sign, sign, sign, Regular, 1, (x), kNumeric, false, same_as_operands, Smooth, 0.1, "", Any,    \
    "ref_sign", "-1, 0 or 1 (NaN stays NaN); z/|z| for complex z != 0, else 0.")                   \
  X(Maximum, maximum, maximum, Regular, 2, (a, b), kOrdered, true, same_as_operands, Smooth, 0.1,  \
    "", Any, "np.maximum", "Elementwise maximum, NaN propagates; logical or on Bool.")             \
  X(Minimum, minimum, minimum, Regular, 2, (a, b), kOrdered, true, same_as_operands, Smooth, 0.1,  \
    "", Any, "np.minimum", "Elementwise minimum, NaN propagates; logical and on Bool.")           \
  X(Fmax, fmax, fmax, Regular, 2, (a, b), kOrdered, true, same_as_operands, Smooth, 0.2, "", Any,  \
    "np.fmax", "Elementwise maximum ignoring NaN: a NaN operand gives the other (NaN if both are).") \
  X(Fmin, fmin, fmin, Regular, 2, (a, b), kOrdered, true, same_as_operands, Smooth, 0.2, "", Any,  \
    "np.fmin", "Elementwise minimum ignoring NaN: a NaN operand gives the other (NaN if both are).")
/* clang-format on */

#endif
