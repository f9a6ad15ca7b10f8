// scan, arg_extremum and argsort (plugin_abi.h): work along lines, the elements of one axis for
// one position of the other dims, with kernel_bodies.hpp's line arithmetic (which the test
// double runs too).
// - scan: one thread per line folds it in order, so floating-point results round exactly as the
//   host's sequential loop does.
// - arg_extremum: one thread per short line; a block per long line, its threads folding strided
//   positions and then a fixed shared-memory tree (the combination is associative and
//   commutative, so the first extremum and the first NaN win as on the host).
// - argsort: each line laid out compact as order-preserving unsigned keys (NaN last, descending
//   folded into the key) with positions, then CUB's stable segmented sort: O(n log n) per line.
#include <algorithm>

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

// The library's running sum and product: integers wrap, complex products are the naive formula
// (host and device, for kernel_bodies).
struct SumOp {
  template <class T> __host__ __device__ T operator()(T a, T b) const {
    if constexpr (is_integer_v<T>) {
      using U = std::make_unsigned_t<T>;
      return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
    } else {
      return a + b;
    }
  }
};
struct ProdOp {
  template <class T> __host__ __device__ T operator()(T a, T b) const {
    if constexpr (is_integer_v<T>) {
      using U = std::make_unsigned_t<T>;
      return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
    } else if constexpr (is_complex_v<T>) {
      return T(a.real() * b.real() - a.imag() * b.imag(),
               a.real() * b.imag() + a.imag() * b.real());
    } else {
      return a * b;
    }
  }
};

template <class T, class Op>
__global__ void __launch_bounds__(kThreads) scan_kernel(T* out, const T* in, kb::LineGeometry g) {
  const int64_t step = int64_t{gridDim.x} * blockDim.x;
  for (int64_t l = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; l < g.lines; l += step)
    kb::scan_line(g, l, out, in, Op{});
}

template <bool Max, class T>
__global__ void __launch_bounds__(kThreads)
    arg_lines_kernel(int64_t* out, const T* in, kb::LineGeometry g) {
  const int64_t step = int64_t{gridDim.x} * blockDim.x;
  for (int64_t l = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; l < g.lines; l += step) {
    int64_t ob = 0, ib = 0;
    kb::line_bases(g, l, &ob, &ib);
    out[ob] = kb::arg_fold<Max>(in + ib, g.in_step, 0, g.extent, 1).pos;
  }
}

// A block per line; g.extent >= blockDim.x, so every thread folds at least one position.
template <bool Max, class T>
__global__ void __launch_bounds__(kThreads)
    arg_blocks_kernel(int64_t* out, const T* in, kb::LineGeometry g) {
  __shared__ alignas(16) unsigned char raw[kThreads * sizeof(kb::ArgBest<T>)];
  auto* sh = reinterpret_cast<kb::ArgBest<T>*>(raw);
  for (int64_t l = blockIdx.x; l < g.lines; l += gridDim.x) {
    int64_t ob = 0, ib = 0;
    kb::line_bases(g, l, &ob, &ib);
    sh[threadIdx.x] = kb::arg_fold<Max>(in + ib, g.in_step, threadIdx.x, g.extent, blockDim.x);
    __syncthreads();
    for (unsigned w = blockDim.x / 2; w > 0; w >>= 1) {
      if (threadIdx.x < w)
        sh[threadIdx.x] = kb::arg_better<Max>(sh[threadIdx.x], sh[threadIdx.x + w]);
      __syncthreads();
    }
    if (threadIdx.x == 0) out[ob] = sh[0].pos;
    __syncthreads();
  }
}

// Element e of the compact layout (line e / extent, position e % extent): its key and position.
template <class T>
__global__ void __launch_bounds__(kThreads)
    sort_keys_kernel(kb::sort_key_t<T>* keys, int64_t* pos, const T* in, kb::LineGeometry g,
                     int64_t total, bool descending) {
  const int64_t step = int64_t{gridDim.x} * blockDim.x;
  for (int64_t e = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; e < total; e += step) {
    const int64_t l = e / g.extent, k = e - l * g.extent;
    int64_t ob = 0, ib = 0;
    kb::line_bases(g, l, &ob, &ib);
    keys[e] = kb::sort_key(in[ib + k * g.in_step], descending);
    pos[e] = k;
  }
}

__global__ void __launch_bounds__(kThreads)
    sort_store_kernel(int64_t* out, const int64_t* pos, kb::LineGeometry g, int64_t total) {
  const int64_t step = int64_t{gridDim.x} * blockDim.x;
  for (int64_t e = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; e < total; e += step) {
    const int64_t l = e / g.extent, k = e - l * g.extent;
    int64_t ob = 0, ib = 0;
    kb::line_bases(g, l, &ob, &ib);
    out[ob + k * g.out_step] = pos[e];
  }
}

// Checks shared by the three entries: in's rank, the axis, out's rank and (when same_shape) its
// extents; out's dtype is out_dtype (or in's when out_dtype is 0).
int32_t check_lines(const char* what, int32_t axis, const tfe_dev_view* out, const tfe_dev_view* in,
                    int32_t out_dtype, bool same_shape) {
  if (out == nullptr || in == nullptr)
    return fail(TFE_ERR_INVALID_ARGUMENT, "cuda %s: NULL view", what);
  if (in->rank < 1 || in->rank > TFE_PLUGIN_MAX_RANK || axis < 0 || axis >= in->rank ||
      out->rank != in->rank)
    return fail(TFE_ERR_INVALID_ARGUMENT, "cuda %s: axis %d of ranks %d and %d", what, axis,
                in->rank, out->rank);
  const int32_t want = out_dtype != 0 ? out_dtype : in->dtype;
  if (out->dtype != want)
    return fail(TFE_ERR_DTYPE_MISMATCH, "cuda %s: the result is %s, expected %s", what,
                dtype_name(out->dtype), dtype_name(want));
  for (int32_t d = 0; d < in->rank; ++d)
    if (out->shape[d] != (same_shape || d != axis ? in->shape[d] : 1))
      return fail(TFE_ERR_SHAPE_MISMATCH, "cuda %s: result extent %lld at dim %d", what,
                  static_cast<long long>(out->shape[d]), d);
  return 0;
}

// Calls f(Tag<T>{}) for the ordered dtypes (Bool, integers, real floats); false for the others.
template <class F> bool visit_ordered(int32_t d, F&& f) {
  switch (d) {
  case TFE_BOOL: f(Tag<bool>{}); return true;
  case TFE_I32: f(Tag<int32_t>{}); return true;
  case TFE_I64: f(Tag<int64_t>{}); return true;
  case TFE_F32: f(Tag<float>{}); return true;
  case TFE_F64: f(Tag<double>{}); return true;
  default: return false;
  }
}

} // namespace

int32_t scan(int32_t device, int32_t kind, int32_t axis, const tfe_dev_view* out,
             const tfe_dev_view* in) {
  TFE_CUDA_CHECK(check_lines("scan", axis, out, in, 0, true));
  if (kind != TFE_PLUGIN_REDUCE_SUM && kind != TFE_PLUGIN_REDUCE_PROD)
    return fail(TFE_ERR_INVALID_ARGUMENT, "cuda scan: unknown kind %d", kind);
  if (!valid_dtype(in->dtype) || in->dtype == TFE_BOOL)
    return fail(TFE_ERR_NOT_SUPPORTED, "scan on %s is not supported on cuda",
                dtype_name(in->dtype));
  DeviceState* s = nullptr;
  TFE_CUDA_CHECK(bind_device(device, &s));
  const kb::LineGeometry g = kb::line_geometry(*out, *in, axis);
  if (g.lines == 0 || g.extent == 0) return 0;
  const unsigned grid = grid_for(*s, g.lines, kThreads);
  visit_dtype(in->dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, bool>) {
      T* o = static_cast<T*>(out->data);
      const T* x = static_cast<const T*>(in->data);
      if (kind == TFE_PLUGIN_REDUCE_SUM)
        scan_kernel<T, SumOp><<<grid, kThreads, 0, s->stream>>>(o, x, g);
      else
        scan_kernel<T, ProdOp><<<grid, kThreads, 0, s->stream>>>(o, x, g);
    }
  });
  TFE_CUDA_TRY(device, cudaGetLastError(), "scan");
  return 0;
}

int32_t arg_extremum(int32_t device, int32_t is_max, int32_t axis, const tfe_dev_view* out,
                     const tfe_dev_view* in) {
  TFE_CUDA_CHECK(check_lines("arg_extremum", axis, out, in, TFE_I64, false));
  DeviceState* s = nullptr;
  TFE_CUDA_CHECK(bind_device(device, &s));
  const kb::LineGeometry g = kb::line_geometry(*out, *in, axis);
  if (g.lines == 0) return 0;
  if (g.extent == 0)
    return fail(TFE_ERR_INVALID_ARGUMENT, "cuda arg_extremum: axis %d has extent 0", axis);
  auto* o = static_cast<int64_t*>(out->data);
  const bool blocks = g.extent >= kThreads;
  const unsigned grid =
      blocks ? static_cast<unsigned>(std::min<int64_t>(g.lines, int64_t{s->sm_count} * 32))
             : grid_for(*s, g.lines, kThreads);
  const bool known = visit_ordered(in->dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* x = static_cast<const T*>(in->data);
    if (blocks && is_max)
      arg_blocks_kernel<true, T><<<grid, kThreads, 0, s->stream>>>(o, x, g);
    else if (blocks)
      arg_blocks_kernel<false, T><<<grid, kThreads, 0, s->stream>>>(o, x, g);
    else if (is_max)
      arg_lines_kernel<true, T><<<grid, kThreads, 0, s->stream>>>(o, x, g);
    else
      arg_lines_kernel<false, T><<<grid, kThreads, 0, s->stream>>>(o, x, g);
  });
  if (!known)
    return fail(TFE_ERR_NOT_SUPPORTED, "arg_extremum on %s is not supported on cuda",
                dtype_name(in->dtype));
  TFE_CUDA_TRY(device, cudaGetLastError(), "arg_extremum");
  return 0;
}

int32_t argsort(int32_t device, int32_t descending, int32_t axis, const tfe_dev_view* out,
                const tfe_dev_view* in) {
  TFE_CUDA_CHECK(check_lines("argsort", axis, out, in, TFE_I64, true));
  if (in->dtype < TFE_BOOL || in->dtype > TFE_F64)
    return fail(TFE_ERR_NOT_SUPPORTED, "argsort on %s is not supported on cuda",
                dtype_name(in->dtype));
  DeviceState* s = nullptr;
  TFE_CUDA_CHECK(bind_device(device, &s));
  const kb::LineGeometry g = kb::line_geometry(*out, *in, axis);
  const int64_t total = g.lines * g.extent;
  if (total == 0) return 0;
  int32_t status = 0;
  visit_ordered(in->dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using K = kb::sort_key_t<T>;
    const size_t kb_bytes = static_cast<size_t>(total) * sizeof(K);
    const size_t pb_bytes = static_cast<size_t>(total) * sizeof(int64_t);
    const size_t ob_bytes = static_cast<size_t>(g.lines + 1) * sizeof(int64_t);
    const size_t sizes[5] = {kb_bytes, kb_bytes, pb_bytes, pb_bytes, ob_bytes};
    void* p[5] = {};
    for (int k = 0; k < 5 && status == 0; ++k) status = s->allocator.allocate(sizes[k], &p[k]);
    if (status == 0) {
      auto* keys_in = static_cast<K*>(p[0]);
      auto* keys_out = static_cast<K*>(p[1]);
      auto* pos_in = static_cast<int64_t*>(p[2]);
      auto* pos_out = static_cast<int64_t*>(p[3]);
      auto* offsets = static_cast<int64_t*>(p[4]);
      const unsigned grid = grid_for(*s, total, kThreads);
      sort_keys_kernel<T><<<grid, kThreads, 0, s->stream>>>(
          keys_in, pos_in, static_cast<const T*>(in->data), g, total, descending != 0);
      cudaError_t err = cudaGetLastError();
      if (err != cudaSuccess) status = cuda_fail(device, err, "argsort");
      if (status == 0) status = equal_segments(*s, offsets, g.lines, g.extent);
      if (status == 0)
        status =
            stable_sort_pairs<K>(*s, keys_in, keys_out, pos_in, pos_out, total, g.lines, offsets);
      if (status == 0) {
        sort_store_kernel<<<grid, kThreads, 0, s->stream>>>(static_cast<int64_t*>(out->data),
                                                            pos_out, g, total);
        err = cudaGetLastError();
        if (err != cudaSuccess) status = cuda_fail(device, err, "argsort");
      }
    }
    // Released at once: later users of the blocks are queued on the same stream after the sort.
    for (int k = 0; k < 5; ++k)
      if (p[k] != nullptr) s->allocator.release(p[k], sizes[k]);
  });
  return status;
}

} // namespace tfe::cuda
