// CUB's stable segmented sort for argsort and scatter-add (sort.cuh).
#include <cub/device/device_segmented_sort.cuh>

#include "backend/cuda/sort.cuh"
#include "backend/cuda/status.cuh"

namespace tfe::cuda {
namespace {

constexpr int kThreads = 256;

__global__ void __launch_bounds__(kThreads)
    equal_segments_kernel(int64_t* offsets, int64_t segments, int64_t length) {
  const int64_t step = int64_t{gridDim.x} * blockDim.x;
  for (int64_t l = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; l <= segments; l += step)
    offsets[l] = l * length;
}

} // namespace

template <class K>
int32_t stable_sort_pairs(DeviceState& s, const K* keys_in, K* keys_out, const int64_t* values_in,
                          int64_t* values_out, int64_t n, int64_t segments,
                          const int64_t* offsets) {
  const int32_t dev = s.device;
  size_t bytes = 0;
  TFE_CUDA_TRY(dev,
               cub::DeviceSegmentedSort::StableSortPairs(nullptr, bytes, keys_in, keys_out,
                                                         values_in, values_out, n, segments,
                                                         offsets, offsets + 1, s.stream),
               "sort (workspace query)");
  void* temp = nullptr;
  TFE_CUDA_CHECK(s.allocator.allocate(bytes, &temp));
  cudaError_t err = cub::DeviceSegmentedSort::StableSortPairs(temp, bytes, keys_in, keys_out,
                                                              values_in, values_out, n, segments,
                                                              offsets, offsets + 1, s.stream);
  // Released at once: later users of the block are queued on the same stream after the sort.
  s.allocator.release(temp, bytes);
  if (err != cudaSuccess) return cuda_fail(dev, err, "sort");
  return 0;
}

template int32_t stable_sort_pairs<uint32_t>(DeviceState&, const uint32_t*, uint32_t*,
                                             const int64_t*, int64_t*, int64_t, int64_t,
                                             const int64_t*);
template int32_t stable_sort_pairs<uint64_t>(DeviceState&, const uint64_t*, uint64_t*,
                                             const int64_t*, int64_t*, int64_t, int64_t,
                                             const int64_t*);

int32_t equal_segments(DeviceState& s, int64_t* offsets, int64_t segments, int64_t length) {
  equal_segments_kernel<<<grid_for(s, segments + 1, kThreads), kThreads, 0, s.stream>>>(
      offsets, segments, length);
  TFE_CUDA_TRY(s.device, cudaGetLastError(), "sort offsets");
  return 0;
}

} // namespace tfe::cuda
