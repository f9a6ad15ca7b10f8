// LU for small matrices (n <= kSmallLu) without LAPACK: for a batch of 4 x 4 systems the calls
// into getrf and trsm cost more than the arithmetic. The algorithm is LAPACK's unblocked getf2
// (partial pivoting on |re| + |im|, the first maximum on ties, as i?amax), so pivots and info
// equal LAPACK's; the values agree to rounding.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <utility>

#include "backend/cpu/lapack/typed.hpp"

namespace tfe::cpu::lapack::detail {

inline constexpr int64_t kSmallLu = 8;

template <class T> double pivot_size(const T& v) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::abs(static_cast<double>(v));
  } else {
    return std::abs(static_cast<double>(v.real())) + std::abs(static_cast<double>(v.imag()));
  }
}

// In place on a (n x n, leading dimension n); ipiv 1-based; returns getrf's info.
template <class T> lint small_getrf(int64_t n, T* a, lint* ipiv) {
  lint info = 0;
  for (int64_t j = 0; j < n; ++j) {
    int64_t p = j;
    double best = pivot_size(a[j + j * n]);
    for (int64_t i = j + 1; i < n; ++i)
      if (double s = pivot_size(a[i + j * n]); s > best) {
        best = s;
        p = i;
      }
    ipiv[j] = static_cast<lint>(p + 1);
    if (a[p + j * n] != T(0)) {
      if (p != j)
        for (int64_t c = 0; c < n; ++c) std::swap(a[j + c * n], a[p + c * n]);
      const T d = a[j + j * n];
      for (int64_t i = j + 1; i < n; ++i) a[i + j * n] /= d;
    } else if (info == 0) {
      info = static_cast<lint>(j + 1);
    }
    for (int64_t c = j + 1; c < n; ++c) {
      const T u = a[j + c * n];
      for (int64_t i = j + 1; i < n; ++i) a[i + c * n] -= a[i + j * n] * u;
    }
  }
  return info;
}

// x (n x nrhs, leading dimension n) <- A^-1 x from small_getrf's factors.
template <class T> void small_getrs(int64_t n, int64_t nrhs, const T* lu, const lint* ipiv, T* x) {
  for (int64_t k = 0; k < nrhs; ++k) {
    T* col = x + k * n;
    for (int64_t j = 0; j < n; ++j)
      if (const int64_t p = ipiv[j] - 1; p != j) std::swap(col[j], col[p]);
    for (int64_t j = 0; j < n; ++j) // L y = P^T b, unit diagonal
      for (int64_t i = j + 1; i < n; ++i) col[i] -= lu[i + j * n] * col[j];
    for (int64_t j = n; j-- > 0;) { // U x = y
      col[j] /= lu[j + j * n];
      for (int64_t i = 0; i < j; ++i) col[i] -= lu[i + j * n] * col[j];
    }
  }
}

} // namespace tfe::cpu::lapack::detail
