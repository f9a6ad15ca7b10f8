/* The complex-parts ops. Columns and what is generated from them: ops/defs/arithmetic.hpp. Plain
 * preprocessor tokens only, so C tests can read the list too. */
#ifndef TFE_OPS_DEFS_COMPLEX_PARTS_HPP
#define TFE_OPS_DEFS_COMPLEX_PARTS_HPP

/* clang-format off */
#define TFE_COMPLEX_PARTS_OPS(X)                                                                   \
  X(Real, real, real, Regular, 1, (x), kInexact, false, real_of_operand, Linear, 0.1, "", Any,     \
    "np.real", "Real part (F32/F64 result); the identity on real input.")                          \
  X(Imag, imag, imag, Regular, 1, (x), kInexact, false, real_of_operand, Linear, 0.1, "", Any,     \
    "np.imag", "Imaginary part (F32/F64 result); zeros for real input.")                           \
  X(Complex, complex, complex, Regular, 2, (re, im), kRealFloat, false, complex, Linear, 0.1, "",  \
    Any, "lambda re, im: (re + 1j * im).astype(np.result_type(re, np.complex64))",                 \
    "re + i*im from two real tensors of one dtype (F32 -> C32, F64 -> C64).")
/* clang-format on */

#endif
