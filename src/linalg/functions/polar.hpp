// polar: A = U P with U [M,N] of orthonormal columns (rows when M < N) and P [N,N] Hermitian
// positive semidefinite, from the reduced SVD A = W diag(s) Vh: U = W Vh, P = Vh^H diag(s) Vh.
// Both are invariant under the phases of the singular vectors, so the SVD's derivative rules
// give theirs in every engine (exact where the singular values are distinct and nonzero).
#pragma once

#include "linalg/entries.hpp"
#include "linalg/surface_impl.hpp"

namespace tfe::linalg::entry {

template <class V> std::vector<V> polar(const V& a) {
  using namespace api::detail;
  using namespace tfe::eager::operators;
  std::vector<V> f = api::svd(a, SvdMode::Reduced, 0.0); // w [M,K], s [K] real, vh [K,N]
  const V& vh = f[2];
  ops::Meta m = meta_of(vh);
  V u = tfe::eager::matmul(f[0], vh);
  V scaled_rows = spread(tfe::eager::cast(f[1], m.dtype), m.shape, 0) * vh;
  V p = tfe::eager::matmul(ir::mH(vh), scaled_rows);
  return {u, p};
}

} // namespace tfe::linalg::entry
