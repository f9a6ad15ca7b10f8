// Dense linear algebra by the operands' device (lapack.hpp).
#include "backend/lapack.hpp"

#include "backend/device/lapack.hpp"
#include "backend/execute.hpp"

namespace tfe::backend::lapack {
namespace {

// Every operand on the host: the host backend. Otherwise the device rule (execute.hpp) names
// the two devices of a mixed call.
bool on_host(std::initializer_list<const Tensor*> in) {
  std::vector<Tensor> all;
  for (const Tensor* t : in) all.push_back(*t);
  return device_of(all).is_cpu();
}

} // namespace

Tensor cholesky(const Tensor& a, bool upper) {
  return on_host({&a}) ? cpu::lapack::cholesky(a, upper) : device::lapack::cholesky(a, upper);
}

Qr qr(const Tensor& a, bool complete) {
  return on_host({&a}) ? cpu::lapack::qr(a, complete) : device::lapack::qr(a, complete);
}

Svd svd(const Tensor& a, SvdMode mode) {
  return on_host({&a}) ? cpu::lapack::svd(a, mode) : device::lapack::svd(a, mode);
}

Eigh eigh(const Tensor& a, bool upper, bool vectors) {
  return on_host({&a}) ? cpu::lapack::eigh(a, upper, vectors)
                       : device::lapack::eigh(a, upper, vectors);
}

Eig eig(const Tensor& a, bool vectors) {
  return on_host({&a}) ? cpu::lapack::eig(a, vectors) : device::lapack::eig(a, vectors);
}

LuFactor lu_factor(const Tensor& a) {
  return on_host({&a}) ? cpu::lapack::lu_factor(a) : device::lapack::lu_factor(a);
}

LuFactorSolve lu_factor_solve(const Tensor& a, const Tensor& b) {
  return on_host({&a, &b}) ? cpu::lapack::lu_factor_solve(a, b)
                           : device::lapack::lu_factor_solve(a, b);
}

Tensor lu_solve(const Tensor& lu, const Tensor& pivots, const Tensor& b, Trans trans) {
  return on_host({&lu, &pivots, &b}) ? cpu::lapack::lu_solve(lu, pivots, b, trans)
                                     : device::lapack::lu_solve(lu, pivots, b, trans);
}

Tensor triangular_solve(const Tensor& a, const Tensor& b, bool upper, bool left, bool unit_diagonal,
                        Trans trans) {
  return on_host({&a, &b})
             ? cpu::lapack::triangular_solve(a, b, upper, left, unit_diagonal, trans)
             : device::lapack::triangular_solve(a, b, upper, left, unit_diagonal, trans);
}

} // namespace tfe::backend::lapack
