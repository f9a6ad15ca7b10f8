// The test binary links the library's core statically, so this definition of
// LAPACKE_dgetrf_work takes the place of liblapacke's for the library's calls: it counts, then
// forwards to the real one. The shipped library has no counter of its own.
#include "support/lapack_spy.hpp"

#include <dlfcn.h>
#include <lapacke.h>

#include <cstdlib>

namespace tfe::testing {
std::atomic<int64_t>& lapack_dgetrf_calls() {
  static std::atomic<int64_t> count{0};
  return count;
}
} // namespace tfe::testing

extern "C" lapack_int LAPACKE_dgetrf_work(int matrix_layout, lapack_int m, lapack_int n, double* a,
                                          lapack_int lda, lapack_int* ipiv) {
  using Fn = lapack_int (*)(int, lapack_int, lapack_int, double*, lapack_int, lapack_int*);
  static const Fn real = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, "LAPACKE_dgetrf_work"));
  if (!real) std::abort(); // liblapacke is linked into every test binary
  tfe::testing::lapack_dgetrf_calls().fetch_add(1, std::memory_order_relaxed);
  return real(matrix_layout, m, n, a, lda, ipiv);
}
