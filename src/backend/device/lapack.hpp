// Dense factorisations and solves on an accelerator through the plugin's solver entries
// (plugin_abi.h): the contract of backend/cpu/lapack/lapack.hpp on device operands. The library
// keeps the semantics here (validation, output shapes, empty cases, the checks that fail on NaN
// or inf, failures naming the batch); the plugin runs LAPACK's routines on compact scratch
// copies. Status reads follow the device status policy of backend/lapack.hpp.
#pragma once

#include "backend/cpu/lapack/lapack.hpp"

namespace tfe::device::lapack {

Tensor cholesky(const Tensor& a, bool upper);
cpu::lapack::Qr qr(const Tensor& a, bool complete);
cpu::lapack::Svd svd(const Tensor& a, SvdMode mode);
cpu::lapack::Eigh eigh(const Tensor& a, bool upper, bool vectors);
cpu::lapack::Eig eig(const Tensor& a, bool vectors);
cpu::lapack::LuFactor lu_factor(const Tensor& a);
cpu::lapack::LuFactorSolve lu_factor_solve(const Tensor& a, const Tensor& b);
Tensor lu_solve(const Tensor& lu, const Tensor& pivots, const Tensor& b, Trans trans);
Tensor triangular_solve(const Tensor& a, const Tensor& b, bool upper, bool left, bool unit_diagonal,
                        Trans trans);

} // namespace tfe::device::lapack
