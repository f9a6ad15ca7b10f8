// gather and scatter (plugin_abi.h): indexing along dim 1 of 3-D views by an index list (gather,
// scatter-add) and blocks at start indices clamped on the device (dynamic slices). The index
// arithmetic is kernel_bodies.hpp's, which the test double runs too. An out-of-range index
// raises a device flag that one small read brings back; scatter-add sorts the indices stably and
// lets one thread add the updates of each element in index order, so no float atomics are used
// and results never depend on scheduling.
#include "backend/cuda/device_state.cuh"
#include "backend/cuda/entries.cuh"
#include "backend/cuda/sort.cuh"
#include "backend/cuda/status.cuh"
#include "backend/cuda/types.cuh"
#include "backend/device/kernel_bodies.hpp"

namespace tfe::cuda {
namespace {

namespace kb = ::tfe::kernel_bodies;
constexpr int kThreads = 256;

template <class F> decltype(auto) visit_index(int32_t dtype, F&& f) {
  if (dtype == TFE_I32) return f(Tag<int32_t>{});
  return f(Tag<int64_t>{});
}

// Element e < total of the small side copied from the big side, and index e < n checked.
template <class E, class I>
__global__ void __launch_bounds__(kThreads)
    gather_axis_kernel(E* out, const E* in, const I* index, kb::AxisGeometry g, int64_t total,
                       int* flag) {
  const int64_t step = int64_t{gridDim.x} * blockDim.x;
  const int64_t count = total > g.n ? total : g.n;
  for (int64_t e = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; e < count; e += step) {
    if (e < g.n && !kb::in_range(kb::index_at(index, g.index_stride, e), g.extent)) *flag = 1;
    int64_t so = 0, bo = 0;
    if (e < total && kb::gather_offsets(g, index, e, &so, &bo)) out[so] = in[bo];
  }
}

template <class I>
__global__ void __launch_bounds__(kThreads)
    check_kernel(const I* index, int64_t stride, int64_t n, int64_t extent, int* flag) {
  const int64_t step = int64_t{gridDim.x} * blockDim.x;
  for (int64_t j = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; j < n; j += step)
    if (!kb::in_range(kb::index_at(index, stride, j), extent)) *flag = 1;
}

// The sort's input: the (checked, so non-negative) index as key, its position as value.
template <class I>
__global__ void __launch_bounds__(kThreads)
    index_keys_kernel(uint64_t* keys, int64_t* pos, const I* index, int64_t stride, int64_t n) {
  const int64_t step = int64_t{gridDim.x} * blockDim.x;
  for (int64_t j = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; j < n; j += step) {
    keys[j] = static_cast<uint64_t>(kb::index_at(index, stride, j));
    pos[j] = j;
  }
}

// seg[k] = the first sorted position whose index is >= k, for k <= extent.
__global__ void __launch_bounds__(kThreads)
    segments_kernel(int64_t* seg, const uint64_t* keys, int64_t n, int64_t extent) {
  const int64_t step = int64_t{gridDim.x} * blockDim.x;
  for (int64_t k = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; k <= extent; k += step)
    seg[k] = kb::lower_bound(keys, n, static_cast<uint64_t>(k));
}

// The library's addition: Bool is or, integers wrap (host and device, for kernel_bodies).
struct Add {
  template <class T> __host__ __device__ T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>) {
      return a || b;
    } else if constexpr (is_integer_v<T>) {
      using U = std::make_unsigned_t<T>;
      return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
    } else {
      return a + b;
    }
  }
};

template <class T>
__global__ void __launch_bounds__(kThreads)
    scatter_add_kernel(T* big, const T* small, const int64_t* perm, const int64_t* seg,
                       kb::AxisGeometry g, int64_t total) {
  const int64_t step = int64_t{gridDim.x} * blockDim.x;
  for (int64_t e = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; e < total; e += step)
    kb::scatter_add_element(g, e, big, small, perm, seg, Add{});
}

// Update = 0: small[x] = big[origin + x]; 1: big[origin + x] = small[x].
template <class E, class I>
__global__ void __launch_bounds__(kThreads)
    block_kernel(E* big, E* small, const I* starts, kb::BlockGeometry g, int64_t total,
                 bool update) {
  const int64_t origin = kb::block_origin(g, starts);
  const int64_t step = int64_t{gridDim.x} * blockDim.x;
  for (int64_t e = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; e < total; e += step) {
    int64_t so = 0, bo = 0;
    kb::block_offsets(g, e, &so, &bo);
    if (update)
      big[origin + bo] = small[so];
    else
      small[so] = big[origin + bo];
  }
}

int64_t count_of(const tfe_dev_view& v) {
  int64_t n = 1;
  for (int32_t d = 0; d < v.rank; ++d) n *= v.shape[d];
  return n;
}

// The checks every indexing call shares; `what` names the entry.
int32_t check_views(const char* what, int32_t mode, const tfe_dev_view* big,
                    const tfe_dev_view* small, const tfe_dev_view* index) {
  if (big == nullptr || small == nullptr || index == nullptr)
    return fail(TFE_ERR_INVALID_ARGUMENT, "cuda %s: NULL view", what);
  if (mode != TFE_PLUGIN_INDEX_AXIS && mode != TFE_PLUGIN_INDEX_BLOCK)
    return fail(TFE_ERR_INVALID_ARGUMENT, "cuda %s: unknown mode %d", what, mode);
  if (!valid_dtype(big->dtype) || big->dtype != small->dtype)
    return fail(TFE_ERR_DTYPE_MISMATCH, "cuda %s: operands of %s and %s", what,
                dtype_name(big->dtype), dtype_name(small->dtype));
  if (index->dtype != TFE_I32 && index->dtype != TFE_I64)
    return fail(TFE_ERR_DTYPE_MISMATCH, "cuda %s: %s indices (I32 or I64 expected)", what,
                dtype_name(index->dtype));
  const bool axis = mode == TFE_PLUGIN_INDEX_AXIS;
  if (index->rank != 1 || (axis && (big->rank != 3 || small->rank != 3)) ||
      (!axis && (big->rank != small->rank || big->rank > TFE_PLUGIN_MAX_RANK ||
                 index->shape[0] != big->rank)))
    return fail(TFE_ERR_SHAPE_MISMATCH, "cuda %s: views of ranks %d, %d and %d", what, big->rank,
                small->rank, index->rank);
  if (axis && (big->shape[0] != small->shape[0] || big->shape[2] != small->shape[2] ||
               index->shape[0] != small->shape[1]))
    return fail(TFE_ERR_SHAPE_MISMATCH, "cuda %s: extents do not agree", what);
  if (!axis)
    for (int32_t d = 0; d < big->rank; ++d)
      if (small->shape[d] > big->shape[d])
        return fail(TFE_ERR_SHAPE_MISMATCH, "cuda %s: the block does not fit at dim %d", what, d);
  return 0;
}

// A zeroed device flag, and its value read back (the one wait of a checked call).
int32_t new_flag(DeviceState& s, void** flag) {
  TFE_CUDA_CHECK(s.allocator.allocate(sizeof(int), flag));
  cudaError_t err = cudaMemsetAsync(*flag, 0, sizeof(int), s.stream);
  if (err != cudaSuccess) {
    s.allocator.release(*flag, sizeof(int));
    return cuda_fail(s.device, err, "cudaMemsetAsync");
  }
  return 0;
}
int32_t read_flag(DeviceState& s, void* flag, cudaError_t err, const char* what, int* raised) {
  if (err == cudaSuccess)
    err = cudaMemcpyAsync(raised, flag, sizeof(int), cudaMemcpyDeviceToHost, s.stream);
  if (err == cudaSuccess) err = cudaStreamSynchronize(s.stream);
  s.allocator.release(flag, sizeof(int));
  if (err != cudaSuccess) return cuda_fail(s.device, err, what);
  return 0;
}

int32_t block_copy(DeviceState& s, bool update, const tfe_dev_view& big, const tfe_dev_view& small,
                   const tfe_dev_view& index) {
  const int64_t total = count_of(small);
  if (total == 0) return 0;
  const kb::BlockGeometry g = kb::block_geometry(big, small, index);
  const unsigned grid = grid_for(s, total, kThreads);
  visit_size(itemsize(big.dtype), [&](auto tag) {
    using E = typename decltype(tag)::type;
    visit_index(index.dtype, [&](auto itag) {
      using I = typename decltype(itag)::type;
      block_kernel<E, I>
          <<<grid, kThreads, 0, s.stream>>>(static_cast<E*>(big.data), static_cast<E*>(small.data),
                                            static_cast<const I*>(index.data), g, total, update);
    });
  });
  TFE_CUDA_TRY(s.device, cudaGetLastError(), update ? "scatter (block)" : "gather (block)");
  return 0;
}

// The scratch of a scatter-add, released together (stream-ordered: later users queue after).
struct Scratch {
  DeviceState& s;
  void* p[5] = {};
  size_t bytes[5] = {};
  int32_t get(int k, size_t b) {
    bytes[k] = b;
    return s.allocator.allocate(b, &p[k]);
  }
  ~Scratch() {
    for (int k = 0; k < 5; ++k)
      if (p[k] != nullptr) s.allocator.release(p[k], bytes[k]);
  }
};

template <class I>
int32_t scatter_add(DeviceState& s, const tfe_dev_view& big, const tfe_dev_view& small,
                    const tfe_dev_view& index) {
  const kb::AxisGeometry g = kb::axis_geometry(big, small, index);
  const I* idx = static_cast<const I*>(index.data);
  if (g.n > 0) {
    void* flag = nullptr;
    TFE_CUDA_CHECK(new_flag(s, &flag));
    check_kernel<I><<<grid_for(s, g.n, kThreads), kThreads, 0, s.stream>>>(
        idx, g.index_stride, g.n, g.extent, static_cast<int*>(flag));
    int raised = 0;
    TFE_CUDA_CHECK(read_flag(s, flag, cudaGetLastError(), "scatter", &raised));
    if (raised) return fail(TFE_ERR_INVALID_ARGUMENT, "cuda scatter: an index is out of range");
  }
  const int64_t total = g.inner * g.extent * g.outer;
  if (total == 0 || g.n == 0) return 0;
  Scratch sc{s};
  const size_t nb = static_cast<size_t>(g.n) * 8;
  TFE_CUDA_CHECK(sc.get(0, nb));
  TFE_CUDA_CHECK(sc.get(1, nb));
  TFE_CUDA_CHECK(sc.get(2, nb));
  TFE_CUDA_CHECK(sc.get(3, nb));
  TFE_CUDA_CHECK(sc.get(4, static_cast<size_t>(g.extent + 1) * 8));
  auto* keys_in = static_cast<uint64_t*>(sc.p[0]);
  auto* keys = static_cast<uint64_t*>(sc.p[1]);
  auto* pos_in = static_cast<int64_t*>(sc.p[2]);
  auto* perm = static_cast<int64_t*>(sc.p[3]);
  auto* seg = static_cast<int64_t*>(sc.p[4]);
  index_keys_kernel<I><<<grid_for(s, g.n, kThreads), kThreads, 0, s.stream>>>(keys_in, pos_in, idx,
                                                                              g.index_stride, g.n);
  TFE_CUDA_TRY(s.device, cudaGetLastError(), "scatter");
  // One segment: its offsets {0, n} are the two entries of an equal-segments array.
  TFE_CUDA_CHECK(equal_segments(s, seg, 1, g.n));
  TFE_CUDA_CHECK(stable_sort_pairs<uint64_t>(s, keys_in, keys, pos_in, perm, g.n, 1, seg));
  segments_kernel<<<grid_for(s, g.extent + 1, kThreads), kThreads, 0, s.stream>>>(seg, keys, g.n,
                                                                                  g.extent);
  TFE_CUDA_TRY(s.device, cudaGetLastError(), "scatter");
  const unsigned grid = grid_for(s, total, kThreads);
  visit_dtype(big.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    scatter_add_kernel<T><<<grid, kThreads, 0, s.stream>>>(
        static_cast<T*>(big.data), static_cast<const T*>(small.data), perm, seg, g, total);
  });
  TFE_CUDA_TRY(s.device, cudaGetLastError(), "scatter");
  return 0;
}

} // namespace

int32_t gather(int32_t device, int32_t mode, const tfe_dev_view* out, const tfe_dev_view* in,
               const tfe_dev_view* index) {
  TFE_CUDA_CHECK(check_views("gather", mode, in, out, index));
  DeviceState* s = nullptr;
  TFE_CUDA_CHECK(bind_device(device, &s));
  if (mode == TFE_PLUGIN_INDEX_BLOCK) return block_copy(*s, false, *in, *out, *index);
  const kb::AxisGeometry g = kb::axis_geometry(*in, *out, *index);
  const int64_t total = g.inner * g.n * g.outer;
  const int64_t count = total > g.n ? total : g.n;
  if (count == 0) return 0;
  void* flag = nullptr;
  TFE_CUDA_CHECK(new_flag(*s, &flag));
  const unsigned grid = grid_for(*s, count, kThreads);
  visit_size(itemsize(out->dtype), [&](auto tag) {
    using E = typename decltype(tag)::type;
    visit_index(index->dtype, [&](auto itag) {
      using I = typename decltype(itag)::type;
      gather_axis_kernel<E, I><<<grid, kThreads, 0, s->stream>>>(
          static_cast<E*>(out->data), static_cast<const E*>(in->data),
          static_cast<const I*>(index->data), g, total, static_cast<int*>(flag));
    });
  });
  int raised = 0;
  TFE_CUDA_CHECK(read_flag(*s, flag, cudaGetLastError(), "gather", &raised));
  if (raised) return fail(TFE_ERR_INVALID_ARGUMENT, "cuda gather: an index is out of range");
  return 0;
}

int32_t scatter(int32_t device, int32_t mode, const tfe_dev_view* out, const tfe_dev_view* in,
                const tfe_dev_view* index) {
  TFE_CUDA_CHECK(check_views("scatter", mode, out, in, index));
  DeviceState* s = nullptr;
  TFE_CUDA_CHECK(bind_device(device, &s));
  if (mode == TFE_PLUGIN_INDEX_BLOCK) return block_copy(*s, true, *out, *in, *index);
  return visit_index(index->dtype, [&](auto itag) {
    using I = typename decltype(itag)::type;
    return scatter_add<I>(*s, *out, *in, *index);
  });
}

} // namespace tfe::cuda
