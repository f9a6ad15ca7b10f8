// The stable segmented sort behind argsort and scatter-add (sort.cu): CUB's
// DeviceSegmentedSort::StableSortPairs on unsigned keys, with scratch from the caching allocator,
// queued on the device's stream.
#pragma once

#include <cstdint>

#include "backend/cuda/device_state.cuh"

namespace tfe::cuda {

// values_out/keys_out <- the pairs of each segment [offsets[s], offsets[s + 1]) sorted stably by
// key (equal keys keep their order). offsets has segments + 1 entries. K: uint32_t or uint64_t.
template <class K>
int32_t stable_sort_pairs(DeviceState& s, const K* keys_in, K* keys_out, const int64_t* values_in,
                          int64_t* values_out, int64_t n, int64_t segments, const int64_t* offsets);

// offsets[l] = l * length for l <= segments: equal segments laid end to end.
int32_t equal_segments(DeviceState& s, int64_t* offsets, int64_t segments, int64_t length);

} // namespace tfe::cuda
