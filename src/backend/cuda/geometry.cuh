// The iteration space of a strided kernel: up to four views of one shape (operand 0 the output),
// with unit dims dropped and dims merged wherever every view is contiguous across them. Passed to
// kernels by value; a rank-1 result is the fast path (one multiply per operand and element).
#pragma once

#include <cstdint>

#include "backend/device/plugin_abi.h"

namespace tfe::cuda {

inline constexpr int kMaxOperands = 4;

struct Geometry {
  int32_t rank = 0;
  int32_t operands = 0;
  int64_t shape[TFE_PLUGIN_MAX_RANK];
  int64_t stride[kMaxOperands][TFE_PLUGIN_MAX_RANK];
};

// Builds the merged geometry of `count` views sharing `shape` (strides[k] the strides of view k).
// Returns the element count; a rank-0 or all-unit shape becomes rank 1 of extent 1.
int64_t make_geometry(int32_t rank, const int64_t* shape, int32_t count,
                      const int64_t* const* strides, Geometry* g);

// The element offsets of linear (column-major) index i in every operand.
template <int N>
__device__ __forceinline__ void offsets_of(const Geometry& g, int64_t i, int64_t* off) {
#pragma unroll
  for (int k = 0; k < N; ++k) off[k] = 0;
  if (g.rank == 1) {
#pragma unroll
    for (int k = 0; k < N; ++k) off[k] = i * g.stride[k][0];
    return;
  }
  for (int d = 0; d < g.rank; ++d) {
    int64_t e = g.shape[d];
    int64_t q = i / e;
    int64_t r = i - q * e;
    i = q;
#pragma unroll
    for (int k = 0; k < N; ++k) off[k] += r * g.stride[k][d];
  }
}

} // namespace tfe::cuda
