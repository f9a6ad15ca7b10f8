#include "backend/cuda/geometry.cuh"

namespace tfe::cuda {

int64_t make_geometry(int32_t rank, const int64_t* shape, int32_t count,
                      const int64_t* const* strides, Geometry* g) {
  g->operands = count;
  g->rank = 0;
  int64_t n = 1;
  for (int32_t d = 0; d < rank; ++d) {
    n *= shape[d];
    if (shape[d] == 1) continue; // a unit dim adds nothing to any offset
    int32_t r = g->rank;
    bool merge = r > 0;
    for (int32_t k = 0; k < count && merge; ++k)
      merge = strides[k][d] == g->stride[k][r - 1] * g->shape[r - 1];
    if (merge) {
      g->shape[r - 1] *= shape[d];
      continue;
    }
    g->shape[r] = shape[d];
    for (int32_t k = 0; k < count; ++k) g->stride[k][r] = strides[k][d];
    g->rank = r + 1;
  }
  if (g->rank == 0) {
    g->rank = 1;
    g->shape[0] = 1;
    for (int32_t k = 0; k < count; ++k) g->stride[k][0] = 0;
  }
  return n;
}

} // namespace tfe::cuda
