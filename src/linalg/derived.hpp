// matrix_rank, logdet and cholesky_solve: compositions over the linalg surface (svdvals,
// eigvalsh, slogdet, solve_triangular) and core ops, so every engine runs them and the
// derivatives come from the rules of the ops they are built from.
#pragma once

#include "linalg/surface.hpp"

namespace tfe::linalg::api {

// The number of singular values (|eigenvalues| with hermitian) above max(atol, rtol * s_max),
// per matrix, as I64 [B..]. rtol < 0: max(M, N) * eps of the dtype when atol <= 0, else 0
// (NumPy's and PyTorch's default); atol <= 0 means no absolute cut-off.
template <class V> V matrix_rank(const V& a, double atol, double rtol, bool hermitian);
// log det(A): real input gives NaN for a negative determinant and -inf for a zero one (as
// torch.logdet); complex input gives the principal log of the complex determinant.
template <class V> V logdet(const V& a);
// X with A X = B for A = L L^H (lower) or A = U^H U (upper) given the factor: two triangular
// solves.
template <class V> V cholesky_solve(const V& l, const V& b, bool upper);

} // namespace tfe::linalg::api
