// Dense factorisations and solves on any device: the host's LAPACK (backend/cpu/lapack) or the
// device plugin's solver (backend/device/lapack), chosen by the device of the operands. Both
// keep the contract written in backend/cpu/lapack/lapack.hpp: the same shapes, dtypes,
// validation and failures. The one difference is the status policy on a device, where a
// factorisation's status costs a round trip to the host: the solves (solve, lu_solve's
// factor-and-solve) do not read it, so an exactly singular matrix gives inf/nan there instead
// of Status::Singular (docs/cuda.md).
#pragma once

#include "backend/cpu/lapack/lapack.hpp"

namespace tfe::backend::lapack {

using cpu::lapack::Eig;
using cpu::lapack::Eigh;
using cpu::lapack::LuFactor;
using cpu::lapack::LuFactorSolve;
using cpu::lapack::Qr;
using cpu::lapack::Svd;

Tensor cholesky(const Tensor& a, bool upper);
Qr qr(const Tensor& a, bool complete);
Svd svd(const Tensor& a, SvdMode mode);
Eigh eigh(const Tensor& a, bool upper, bool vectors);
Eig eig(const Tensor& a, bool vectors);
LuFactor lu_factor(const Tensor& a);
LuFactorSolve lu_factor_solve(const Tensor& a, const Tensor& b);
Tensor lu_solve(const Tensor& lu, const Tensor& pivots, const Tensor& b, Trans trans);
Tensor triangular_solve(const Tensor& a, const Tensor& b, bool upper, bool left, bool unit_diagonal,
                        Trans trans);

} // namespace tfe::backend::lapack
