// The C++ example: the ground-state energy E0(h) of a 4-site transverse-field Ising ring,
//   H(h) = -J sum_i Z_i Z_{i+1} - h sum_i X_i   (periodic, 16 x 16),
// from tfe::eigh, and its derivative dE0/dh by reverse-mode AD, checked against a central finite
// difference. Exits non-zero when the two disagree. Run by the test suite.
#include <tenferro/tenferro.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace {

constexpr int kSites = 4;
constexpr int kDim = 1 << kSites;

// The two parts of H as dense column-major matrices in the Z basis (bit i of a basis index is
// the state of site i): the diagonal coupling sum_i Z_i Z_{i+1} and the field term sum_i X_i.
std::vector<double> zz_coupling() {
  std::vector<double> m(kDim * kDim, 0.0);
  for (int s = 0; s < kDim; ++s) {
    double e = 0;
    for (int i = 0; i < kSites; ++i) {
      const int zi = (s >> i) & 1 ? -1 : 1;
      const int zj = (s >> ((i + 1) % kSites)) & 1 ? -1 : 1;
      e += zi * zj;
    }
    m[s + s * kDim] = e;
  }
  return m;
}

std::vector<double> x_field() {
  std::vector<double> m(kDim * kDim, 0.0);
  for (int s = 0; s < kDim; ++s)
    for (int i = 0; i < kSites; ++i) m[(s ^ (1 << i)) + s * kDim] += 1; // X_i flips bit i
  return m;
}

} // namespace

int main() {
  try {
    tfe::Context ctx;
    const double coupling = 1.0;
    const tfe::Tensor zz = tfe::tensor(ctx, zz_coupling(), {kDim, kDim});
    const tfe::Tensor xf = tfe::tensor(ctx, x_field(), {kDim, kDim});

    // E0 as a function of a rank-0 field tensor; eigh returns ascending eigenvalues.
    auto ground_energy = [&](const tfe::Tensor& h) {
      const tfe::Tensor hamiltonian = -coupling * zz - h * xf;
      return tfe::sum(tfe::slice(tfe::eigh(hamiltonian).w, {0}, {1}));
    };

    const double h0 = 0.7;
    tfe::Tensor h = tfe::scalar(ctx, h0).set_requires_grad();
    const tfe::Tensor e0 = ground_energy(h);
    e0.backward();
    const double de0_dh = h.grad().item<double>();

    // The finite difference runs without recording: it needs values only.
    const tfe::NoGrad no_grad(ctx);
    const double step = 1e-5;
    const double up = ground_energy(tfe::scalar(ctx, h0 + step)).item<double>();
    const double down = ground_energy(tfe::scalar(ctx, h0 - step)).item<double>();
    const double fd = (up - down) / (2 * step);

    std::printf("4-site transverse-field Ising ring, J = %g, h = %g\n", coupling, h0);
    std::printf("E0 = %.12f\n", e0.item<double>());
    std::printf("dE0/dh: AD %.10f, central difference %.10f\n", de0_dh, fd);
    if (std::abs(de0_dh - fd) > 1e-6 * std::max(1.0, std::abs(fd))) {
      std::printf("ising: MISMATCH\n");
      return 1;
    }
    std::printf("ising: OK\n");
  } catch (const tfe::Error& e) {
    std::fprintf(stderr, "%s: %s\n", e.status_name(), e.what());
    return 1;
  }
  return tfe::debug_live_objects() == 0 ? 0 : 1;
}
