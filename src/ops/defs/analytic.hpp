/* The analytic ops: elementwise mathematical functions of one or two operands. One row per op;
 * everything else with one entry per analytic op is generated from these rows: the op code, the
 * op-table row, the CPU kernel (from the functor of the same name in
 * backend/cpu/kernels/analytic.hpp), the AD rules (from the formula of the same name in
 * ad/formulas/analytic.hpp, or none for zero-derivative rows), the dataflow scalar ops, the C
 * entry point and its declaration (include/tenferro/ops_math.h, written by tools/emit_ops), the
 * Python functions and their NumPy-reference tests, the C completeness rows and docs/ops/table.md.
 * docs/contributing.md walks through adding a row.
 *
 * Plain preprocessor tokens only (no includes, no C++), so C tests can read the list too.
 *
 * X(Code, name, arity, accepts, ad, since, domain, numpy, summary)
 *   Code     the op code (and the functor and formula names)
 *   name     the op's name: tfe_<name> in C, tenferro.<name> in Python
 *   arity    1 or 2; binary rows promote their operands and broadcast them left-aligned
 *   accepts  the dtype set (core/dtype.hpp dtypes::k...)
 *   ad       Smooth (a formula) or ZeroDerivative (piecewise constant)
 *   since    the library version that added it
 *   domain   where tests sample it: Any, Positive (> 0; the plane minus 0 for complex), Unit
 *            (|x| < 0.9) or AboveOne (x > 1, away from acosh's branch point)
 *   numpy    the NumPy expression the Python tests compare with (SciPy's where NumPy has none)
 *   summary  one sentence: the C header, the Python docstring and the op table show it
 */
#ifndef TFE_OPS_DEFS_ANALYTIC_HPP
#define TFE_OPS_DEFS_ANALYTIC_HPP

/* clang-format off */
#define TFE_ANALYTIC_OPS(X)                                                                        \
  X(Exp, exp, 1, kInexact, Smooth, 0.1, Any, "np.exp", "e^x.")                                     \
  X(Log, log, 1, kInexact, Smooth, 0.1, Positive, "np.log",                                        \
    "Natural logarithm (principal branch for complex).")                                           \
  X(Sin, sin, 1, kInexact, Smooth, 0.1, Any, "np.sin", "Sine.")                                    \
  X(Cos, cos, 1, kInexact, Smooth, 0.1, Any, "np.cos", "Cosine.")                                  \
  X(Tan, tan, 1, kInexact, Smooth, 0.1, Unit, "np.tan", "Tangent.")                                \
  X(Tanh, tanh, 1, kInexact, Smooth, 0.1, Any, "np.tanh", "Hyperbolic tangent.")                   \
  X(Sqrt, sqrt, 1, kInexact, Smooth, 0.1, Positive, "np.sqrt",                                     \
    "Square root (principal branch for complex).")                                                 \
  X(Rsqrt, rsqrt, 1, kInexact, Smooth, 0.1, Positive, "lambda x: 1 / np.sqrt(x)", "1/sqrt(x).")    \
  X(Expm1, expm1, 1, kInexact, Smooth, 0.1, Any, "np.expm1", "e^x - 1, accurate near 0.")          \
  X(Log1p, log1p, 1, kInexact, Smooth, 0.1, Unit, "np.log1p", "log(1 + x), accurate near 0.")      \
  X(Floor, floor, 1, kRealFloat, ZeroDerivative, 0.1, Any, "np.floor",                             \
    "Largest integer value not above x.")                                                          \
  X(Ceil, ceil, 1, kRealFloat, ZeroDerivative, 0.1, Any, "np.ceil",                                \
    "Smallest integer value not below x.")                                                         \
  X(Round, round, 1, kRealFloat, ZeroDerivative, 0.1, Any, "np.round",                             \
    "Nearest integer value, halves to even (as NumPy).")                                           \
  X(Sinh, sinh, 1, kInexact, Smooth, 0.2, Any, "np.sinh", "Hyperbolic sine.")                      \
  X(Cosh, cosh, 1, kInexact, Smooth, 0.2, Any, "np.cosh", "Hyperbolic cosine.")                    \
  X(Erf, erf, 1, kRealFloat, Smooth, 0.2, Any, "np.vectorize(math.erf, otypes=[float])",        \
    "Error function: 2/sqrt(pi) times the integral of e^(-t^2) from 0 to x.")                      \
  X(Atan2, atan2, 2, kRealFloat, Smooth, 0.2, Any, "np.arctan2",                                   \
    "atan2(a, b): the angle in [-pi, pi] of the point (b, a), as C's atan2(y, x).")                \
  X(Asin, asin, 1, kInexact, Smooth, 0.2, Unit, "np.arcsin",                                       \
    "Inverse sine (principal branch for complex).")                                                \
  X(Acos, acos, 1, kInexact, Smooth, 0.2, Unit, "np.arccos",                                       \
    "Inverse cosine (principal branch for complex).")                                              \
  X(Atan, atan, 1, kInexact, Smooth, 0.2, Unit, "np.arctan",                                       \
    "Inverse tangent (principal branch for complex).")                                             \
  X(Asinh, asinh, 1, kInexact, Smooth, 0.2, Unit, "np.arcsinh",                                    \
    "Inverse hyperbolic sine (principal branch for complex).")                                     \
  X(Acosh, acosh, 1, kInexact, Smooth, 0.2, AboveOne, "np.arccosh",                                \
    "Inverse hyperbolic cosine (principal branch for complex).")                                   \
  X(Atanh, atanh, 1, kInexact, Smooth, 0.2, Unit, "np.arctanh",                                    \
    "Inverse hyperbolic tangent (principal branch for complex).")                                  \
  X(Exp2, exp2, 1, kInexact, Smooth, 0.2, Any, "np.exp2", "2^x.")                                  \
  X(Log2, log2, 1, kInexact, Smooth, 0.2, Positive, "np.log2",                                     \
    "Base-2 logarithm (principal branch for complex).")                                            \
  X(Log10, log10, 1, kInexact, Smooth, 0.2, Positive, "np.log10",                                  \
    "Base-10 logarithm (principal branch for complex).")                                           \
  X(Erfc, erfc, 1, kRealFloat, Smooth, 0.2, Any, "np.vectorize(math.erfc, otypes=[float])",        \
    "Complementary error function 1 - erf(x), accurate where erf(x) is near 1.")                   \
  X(Trunc, trunc, 1, kRealFloat, ZeroDerivative, 0.2, Any, "np.trunc",                             \
    "x rounded toward zero.")                                                                      \
  X(Lgamma, lgamma, 1, kRealFloat, Smooth, 0.2, Positive,                                          \
    "__import__('scipy.special').special.gammaln",                                                 \
    "log(abs(Gamma(x))); +inf at the poles 0, -1, -2, ...")                                        \
  X(Digamma, digamma, 1, kRealFloat, Smooth, 0.2, Positive,                                        \
    "__import__('scipy.special').special.digamma",                                                 \
    "The digamma function psi(x), the derivative of lgamma; NaN at the poles 0, -1, -2, ...")      \
  X(Polygamma, polygamma, 2, kRealFloat, Smooth, 0.2, Positive,                                    \
    "lambda n, x: __import__('scipy.special').special.polygamma(np.round(n), x)",                  \
    "polygamma(n, x): the n-th derivative of digamma at x; n is rounded to the nearest integer "   \
    "(no derivative in n); n < 0 or n > 10^6 gives NaN.")
/* clang-format on */

#endif
