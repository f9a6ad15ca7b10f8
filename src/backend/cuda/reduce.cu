// reduce: sum, prod, max and min over a set of dims. Few reduced elements per output: one thread
// per output element. Otherwise one block per output element (split over several blocks when
// there are too few outputs to fill the device, the partials then folded in a fixed order, so
// results do not depend on timing).
#include <cuda/std/limits>

#include <algorithm>

#include "backend/cuda/device_state.cuh"
#include "backend/cuda/entries.cuh"
#include "backend/cuda/geometry.cuh"
#include "backend/cuda/scalar_math.cuh"
#include "backend/cuda/status.cuh"

namespace tfe::cuda {
namespace {

constexpr int kThreads = 256;
constexpr int64_t kSerialLimit = 64; // reduced elements per output below which a thread does one

struct SumR {
  template <class T> __device__ static T identity() { return T(0); }
  template <class T> __device__ static T combine(T a, T b) { return wrap_add(a, b); }
};
struct ProdR {
  template <class T> __device__ static T identity() { return T(1); }
  template <class T> __device__ static T combine(T a, T b) { return wrap_mul(a, b); }
};
struct MaxR {
  template <class T> __device__ static T identity() {
    if constexpr (std::is_floating_point_v<T>)
      return -::cuda::std::numeric_limits<T>::infinity();
    else
      return ::cuda::std::numeric_limits<T>::lowest();
  }
  template <class T> __device__ static T combine(T a, T b) { return max_of(a, b); }
};
struct MinR {
  template <class T> __device__ static T identity() {
    if constexpr (std::is_floating_point_v<T>)
      return ::cuda::std::numeric_limits<T>::infinity();
    else
      return ::cuda::std::numeric_limits<T>::max();
  }
  template <class T> __device__ static T combine(T a, T b) { return min_of(a, b); }
};

// kept: operand 0 the output, operand 1 the input, over the kept dims; red: the input over the
// reduced dims.
template <class R, class T>
__global__ void __launch_bounds__(kThreads)
    reduce_serial(T* out, const T* in, Geometry kept, Geometry red, int64_t n_out, int64_t n_red) {
  const int64_t step = int64_t{gridDim.x} * blockDim.x;
  for (int64_t o = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; o < n_out; o += step) {
    int64_t ko[2];
    offsets_of<2>(kept, o, ko);
    T acc = R::template identity<T>();
    for (int64_t r = 0; r < n_red; ++r) {
      int64_t ro[1];
      offsets_of<1>(red, r, ro);
      acc = R::combine(acc, in[ko[1] + ro[0]]);
    }
    out[ko[0]] = acc;
  }
}

// Block b folds chunk (b % splits) of output b / splits; with splits > 1 it writes partial[b].
template <class R, class T>
__global__ void __launch_bounds__(kThreads)
    reduce_blocks(T* out, T* partial, const T* in, Geometry kept, Geometry red, int64_t n_out,
                  int64_t n_red, int64_t splits, int64_t chunk) {
  __shared__ alignas(16) unsigned char raw[kThreads * sizeof(T)];
  T* sh = reinterpret_cast<T*>(raw);
  for (int64_t b = blockIdx.x; b < n_out * splits; b += gridDim.x) {
    const int64_t o = b / splits;
    const int64_t lo = (b % splits) * chunk;
    const int64_t hi = lo + chunk < n_red ? lo + chunk : n_red;
    int64_t ko[2];
    offsets_of<2>(kept, o, ko);
    T acc = R::template identity<T>();
    for (int64_t r = lo + threadIdx.x; r < hi; r += blockDim.x) {
      int64_t ro[1];
      offsets_of<1>(red, r, ro);
      acc = R::combine(acc, in[ko[1] + ro[0]]);
    }
    sh[threadIdx.x] = acc;
    __syncthreads();
    for (unsigned w = blockDim.x / 2; w > 0; w >>= 1) {
      if (threadIdx.x < w) sh[threadIdx.x] = R::combine(sh[threadIdx.x], sh[threadIdx.x + w]);
      __syncthreads();
    }
    if (threadIdx.x == 0) {
      if (splits > 1)
        partial[b] = sh[0];
      else
        out[ko[0]] = sh[0];
    }
    __syncthreads();
  }
}

template <class R, class T>
__global__ void __launch_bounds__(kThreads)
    reduce_partials(T* out, const T* partial, Geometry kept, int64_t n_out, int64_t splits) {
  const int64_t step = int64_t{gridDim.x} * blockDim.x;
  for (int64_t o = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; o < n_out; o += step) {
    int64_t ko[2];
    offsets_of<2>(kept, o, ko);
    T acc = R::template identity<T>();
    for (int64_t s = 0; s < splits; ++s) acc = R::combine(acc, partial[o * splits + s]);
    out[ko[0]] = acc;
  }
}

template <class R, class T>
int32_t run(DeviceState& s, T* out, const T* in, const Geometry& kept, const Geometry& red,
            int64_t n_out, int64_t n_red) {
  const int32_t dev = s.device;
  if (n_red <= kSerialLimit) {
    reduce_serial<R, T>
        <<<grid_for(s, n_out, kThreads), kThreads, 0, s.stream>>>(out, in, kept, red, n_out, n_red);
    TFE_CUDA_TRY(dev, cudaGetLastError(), "reduce");
    return 0;
  }
  // Enough blocks to fill the device four times over, but chunks of at least 8 per thread.
  const int64_t want = (4 * int64_t{s.sm_count} + n_out - 1) / n_out;
  const int64_t most = (n_red + kThreads * 8 - 1) / (kThreads * 8);
  const int64_t splits = std::max<int64_t>(1, std::min(want, most));
  const int64_t chunk = (n_red + splits - 1) / splits;
  const int64_t blocks = std::min<int64_t>(n_out * splits, int64_t{s.sm_count} * 64);
  void* partial = nullptr;
  const size_t partial_bytes = static_cast<size_t>(n_out * splits) * sizeof(T);
  if (splits > 1) TFE_CUDA_CHECK(s.allocator.allocate(partial_bytes, &partial));
  reduce_blocks<R, T><<<static_cast<unsigned>(blocks), kThreads, 0, s.stream>>>(
      out, static_cast<T*>(partial), in, kept, red, n_out, n_red, splits, chunk);
  cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess && splits > 1) {
    reduce_partials<R, T><<<grid_for(s, n_out, kThreads), kThreads, 0, s.stream>>>(
        out, static_cast<const T*>(partial), kept, n_out, splits);
    err = cudaGetLastError();
  }
  // Released at once: later users of the block are queued on the same stream after these kernels.
  if (partial != nullptr) s.allocator.release(partial, partial_bytes);
  if (err != cudaSuccess) return cuda_fail(dev, err, "reduce");
  return 0;
}

template <class R, class... Ts> struct Dispatch {
  static int32_t go(int32_t dtype, DeviceState& s, void* out, const void* in, const Geometry& kept,
                    const Geometry& red, int64_t n_out, int64_t n_red) {
    int32_t status = -1;
    ((dtype == dtype_of_v<Ts>
          ? (status = run<R, Ts>(s, static_cast<Ts*>(out), static_cast<const Ts*>(in), kept, red,
                                 n_out, n_red),
             true)
          : false) ||
     ...);
    return status;
  }
};
using SumDispatch = Dispatch<SumR, int32_t, int64_t, float, double, c32, c64>;
using ProdDispatch = Dispatch<ProdR, int32_t, int64_t, float, double, c32, c64>;
using MaxDispatch = Dispatch<MaxR, bool, int32_t, int64_t, float, double>;
using MinDispatch = Dispatch<MinR, bool, int32_t, int64_t, float, double>;

const char* kind_name(int32_t kind) {
  switch (kind) {
  case TFE_PLUGIN_REDUCE_SUM: return "sum";
  case TFE_PLUGIN_REDUCE_PROD: return "prod";
  case TFE_PLUGIN_REDUCE_MAX: return "max";
  default: return "min";
  }
}

} // namespace

int32_t reduce(int32_t device, int32_t kind, uint64_t axes_mask, const tfe_dev_view* out,
               const tfe_dev_view* in) {
  if (out == nullptr || in == nullptr)
    return fail(TFE_ERR_INVALID_ARGUMENT, "cuda reduce: NULL view");
  if (kind < TFE_PLUGIN_REDUCE_SUM || kind > TFE_PLUGIN_REDUCE_MIN)
    return fail(TFE_ERR_INVALID_ARGUMENT, "cuda reduce: unknown reduction %d", kind);
  if (in->rank < 0 || in->rank > TFE_PLUGIN_MAX_RANK ||
      (in->rank < 64 && (axes_mask >> in->rank) != 0))
    return fail(TFE_ERR_INVALID_ARGUMENT, "cuda reduce: axes mask 0x%llx outside rank %d",
                static_cast<unsigned long long>(axes_mask), in->rank);
  if (out->dtype != in->dtype)
    return fail(TFE_ERR_DTYPE_MISMATCH, "cuda reduce: result %s differs from operand %s",
                dtype_name(out->dtype), dtype_name(in->dtype));
  Geometry kept, red;
  int64_t kshape[TFE_PLUGIN_MAX_RANK], kin[TFE_PLUGIN_MAX_RANK], rshape[TFE_PLUGIN_MAX_RANK],
      rin[TFE_PLUGIN_MAX_RANK];
  int32_t nk = 0, nr = 0;
  for (int32_t d = 0; d < in->rank; ++d) {
    if ((axes_mask >> d) & 1u) {
      rshape[nr] = in->shape[d];
      rin[nr++] = in->strides[d];
    } else {
      kshape[nk] = in->shape[d];
      kin[nk++] = in->strides[d];
    }
  }
  if (out->rank != nk)
    return fail(TFE_ERR_SHAPE_MISMATCH, "cuda reduce: result rank %d, expected %d", out->rank, nk);
  for (int32_t d = 0; d < nk; ++d)
    if (out->shape[d] != kshape[d])
      return fail(TFE_ERR_SHAPE_MISMATCH,
                  "cuda reduce: result extent %lld at dim %d, expected %lld",
                  static_cast<long long>(out->shape[d]), d, static_cast<long long>(kshape[d]));
  const int64_t* kstrides[2] = {out->strides, kin};
  const int64_t n_out = make_geometry(nk, kshape, 2, kstrides, &kept);
  const int64_t* rstrides[1] = {rin};
  const int64_t n_red = make_geometry(nr, rshape, 1, rstrides, &red);

  DeviceState* s = nullptr;
  TFE_CUDA_CHECK(bind_device(device, &s));
  if (n_out == 0) return 0;
  int32_t status = -1;
  switch (kind) {
  case TFE_PLUGIN_REDUCE_SUM:
    status = SumDispatch::go(in->dtype, *s, out->data, in->data, kept, red, n_out, n_red);
    break;
  case TFE_PLUGIN_REDUCE_PROD:
    status = ProdDispatch::go(in->dtype, *s, out->data, in->data, kept, red, n_out, n_red);
    break;
  case TFE_PLUGIN_REDUCE_MAX:
    status = MaxDispatch::go(in->dtype, *s, out->data, in->data, kept, red, n_out, n_red);
    break;
  default: status = MinDispatch::go(in->dtype, *s, out->data, in->data, kept, red, n_out, n_red);
  }
  if (status == -1)
    return fail(TFE_ERR_NOT_SUPPORTED, "reduce %s on %s is not supported on cuda", kind_name(kind),
                dtype_name(in->dtype));
  return status;
}

} // namespace tfe::cuda
