// The linalg extension ops (the linear algebra kernel basis): their defs, option encodings and the
// IR builders the derivative rules and composites use. One file per op in linalg/ops/.
#pragma once

#include <span>
#include <vector>

#include "linalg/op_base.hpp"
#include "ops/defs/linalg.hpp"

namespace tfe::linalg {

struct TriangularOptions {
  bool upper = false;
  bool left = true; // op(A) X = B; false: X op(A) = B
  bool unit_diagonal = false;
  Trans trans = Trans::No;
};

using tfe::SvdMode; // core/linalg_modes.hpp

// The kernel ops, one accessor <name>_op() per row of TFE_LINALG_KERNELS (ops/defs/linalg.hpp),
// defined in linalg/ops/<file>.cpp. Outputs in brackets; a, b: [rows, cols, batch..] with
// equal batch dims across operands:
//   triangular_solve_op        (a, b) -> [x]; linear in b
//   lu_factor_op               (a) -> [lu, pivots I32, info I32]
//   lu_factor_solve_op         (a, b) -> [x, lu, pivots]: one factorisation
//   lu_solve_op                (lu, pivots, b) -> [x]; linear in b
//   cholesky_op                (a) -> [l]; options {upper}
//   qr_op                      (a) -> [q, r]; options {complete}
//   svd_op                     (a) -> [u, s, vh]; options {SvdMode}
//   eigh_op                    (a) -> [w, v]; options {upper}; eps
//   eig_op                     (a) -> [w, v]; eps
//   svdvals_op                 (a) -> [s]
//   eigvalsh_op                (a) -> [w]; options {upper}
//   eigvals_op                 (a) -> [w]
//   pivots_to_permutation_op   (pivots [K,B..]) -> [perm I32 [M,B..]]; option {M}
//   det_op                     (a, lu, pivots) -> [det]; its own rule in a
//   slogdet_op                 (a, lu, pivots) -> [sign, logabs]; likewise
//   adjugate_op                (a, lu, pivots) -> [adj(a)]: det's derivative
//   pinv_op                    (a) -> [a^+]; options {hermitian}; eps = rtol
//   matrix_exp_op              (a) -> [exp(a)]
//   matrix_exp_frechet_op      (a, e) -> [L(a, e)]; linear in e
//   column_pivots_op           (a) -> [perm I64 [N, B..]]: geqp3's column order
#define TFE_LINALG_DECLARE_KERNEL(name, inputs, outputs) const LinalgOp& name##_op();
TFE_LINALG_KERNELS(TFE_LINALG_DECLARE_KERNEL)
#undef TFE_LINALG_DECLARE_KERNEL

// Every kernel op, in the rows' order (the completeness tests walk it).
std::span<const LinalgOp* const> kernel_ops();

ops::ExtensionParams triangular_solve_params(const TriangularOptions& o);
TriangularOptions triangular_options(const ops::ExtensionParams& p);

// IR builders (graph values) for rules and composites.
Value triangular_solve(const Value& a, const Value& b, const TriangularOptions& o);
Value lu_solve(const Value& lu, const Value& pivots, const Value& b, Trans trans);
std::vector<Value> lu_factor(const Value& a);
// op(m) for a Trans.
Value apply_trans(const Value& m, Trans t);
// The unit lower factor L and the upper factor U of a packed square LU.
Value unit_lower(const Value& lu);
Value upper(const Value& lu);
// The tangent of a spectral decomposition in its eigenbasis: V^H herm(dA) V for eigh (dA made
// Hermitian), V^-1 dA V for eig (dA converted to V's complex dtype).
Value hermitian_projection(const Value& v, const Value& da);
Value general_projection(const Value& v, const Value& da);
// The tangent of a packed square LU: with X = L^-1 P^T dA U^-1, dLU = L tril(X,-1) + triu(X) U.
// `a_inv_da` is A^-1 dA (from lu_solve).
Value lu_tangent(const Value& lu, const Value& a_inv_da);

} // namespace tfe::linalg
