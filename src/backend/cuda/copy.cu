// copy_strided (with every dtype conversion), fill and triangle: strided maps over views of one
// shape. fill and triangle only move bit patterns, so they are instantiated per element size.
#include <cstring>

#include "backend/cuda/entries.cuh"
#include "backend/cuda/device_state.cuh"
#include "backend/cuda/elementwise.cuh"
#include "backend/cuda/status.cuh"

namespace tfe::cuda {
namespace {

template <class To> struct Convert : fn::Base {
  template <class From> __device__ To operator()(From v) const { return cast_value<To>(v); }
};


template <class T>
__global__ void __launch_bounds__(kEwThreads) fill_kernel(T* out, T value, Geometry g, int64_t n) {
  const int64_t step = int64_t{gridDim.x} * blockDim.x;
  for (int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += step) {
    int64_t off[1];
    offsets_of<1>(g, i, off);
    out[off[0]] = value;
  }
}

// g keeps every dim (none dropped or merged): dims 0 and 1 give the row and column.
template <class T>
__global__ void __launch_bounds__(kEwThreads)
    triangle_kernel(T* out, const T* in, Geometry g, int64_t n, bool lower, int64_t k) {
  const int64_t step = int64_t{gridDim.x} * blockDim.x;
  for (int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += step) {
    int64_t off[2];
    offsets_of<2>(g, i, off);
    const int64_t row = i % g.shape[0];
    const int64_t col = (i / g.shape[0]) % g.shape[1];
    const bool keep = lower ? col - row <= k : col - row >= k;
    out[off[0]] = keep ? in[off[1]] : T{};
  }
}

bool same_shape(const tfe_dev_view& a, const tfe_dev_view& b) {
  if (a.rank != b.rank) return false;
  for (int32_t d = 0; d < a.rank; ++d)
    if (a.shape[d] != b.shape[d]) return false;
  return true;
}

int32_t check_view(const char* what, const tfe_dev_view* v) {
  if (v == nullptr) return fail(TFE_ERR_INVALID_ARGUMENT, "cuda %s: NULL view", what);
  if (!valid_dtype(v->dtype))
    return fail(TFE_ERR_INVALID_ARGUMENT, "cuda %s: unknown dtype %d", what, v->dtype);
  if (v->rank < 0 || v->rank > TFE_PLUGIN_MAX_RANK)
    return fail(TFE_ERR_INVALID_ARGUMENT, "cuda %s: rank %d outside [0, %d]", what, v->rank,
                TFE_PLUGIN_MAX_RANK);
  return 0;
}

int32_t launched(int32_t device, const char* what) {
  cudaError_t err = cudaGetLastError();
  return err == cudaSuccess ? 0 : cuda_fail(device, err, what);
}

} // namespace

int32_t copy_strided(int32_t device, const tfe_dev_view* out, const tfe_dev_view* in) {
  TFE_CUDA_CHECK(check_view("copy_strided", out));
  TFE_CUDA_CHECK(check_view("copy_strided", in));
  if (!same_shape(*out, *in))
    return fail(TFE_ERR_SHAPE_MISMATCH, "cuda copy_strided: the views differ in shape");
  DeviceState* s = nullptr;
  TFE_CUDA_CHECK(bind_device(device, &s));
  EwLaunch a{};
  const int64_t* strides[2] = {out->strides, in->strides};
  a.n = make_geometry(out->rank, out->shape, 2, strides, &a.g);
  if (a.n == 0) return 0;
  a.stream = s->stream;
  a.grid = grid_for(*s, a.n, kEwThreads);
  a.ptr[0] = out->data;
  a.ptr[1] = in->data;
  visit_dtype(out->dtype, [&](auto to) {
    using To = typename decltype(to)::type;
    visit_dtype(in->dtype, [&](auto from) {
      using From = typename decltype(from)::type;
      ew_launch<Convert<To>, To, From, void, void>(a);
    });
  });
  return launched(device, "copy_strided");
}

int32_t fill(int32_t device, const tfe_dev_view* out, const void* value) {
  TFE_CUDA_CHECK(check_view("fill", out));
  if (value == nullptr) return fail(TFE_ERR_INVALID_ARGUMENT, "cuda fill: NULL value");
  DeviceState* s = nullptr;
  TFE_CUDA_CHECK(bind_device(device, &s));
  Geometry g;
  const int64_t* strides[1] = {out->strides};
  int64_t n = make_geometry(out->rank, out->shape, 1, strides, &g);
  if (n == 0) return 0;
  visit_size(itemsize(out->dtype), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T v;
    std::memcpy(&v, value, sizeof v);
    fill_kernel<T><<<grid_for(*s, n, kEwThreads), kEwThreads, 0, s->stream>>>(
        static_cast<T*>(out->data), v, g, n);
  });
  return launched(device, "fill");
}

int32_t triangle(int32_t device, int32_t lower, int64_t k, const tfe_dev_view* out,
                 const tfe_dev_view* in) {
  TFE_CUDA_CHECK(check_view("triangle", out));
  TFE_CUDA_CHECK(check_view("triangle", in));
  if (!same_shape(*out, *in) || out->dtype != in->dtype)
    return fail(TFE_ERR_SHAPE_MISMATCH, "cuda triangle: the views differ in shape or dtype");
  if (out->rank < 2)
    return fail(TFE_ERR_SHAPE_MISMATCH, "cuda triangle: rank %d is below 2", out->rank);
  DeviceState* s = nullptr;
  TFE_CUDA_CHECK(bind_device(device, &s));
  Geometry g;
  g.rank = out->rank;
  g.operands = 2;
  int64_t n = 1;
  for (int32_t d = 0; d < out->rank; ++d) {
    g.shape[d] = out->shape[d];
    g.stride[0][d] = out->strides[d];
    g.stride[1][d] = in->strides[d];
    n *= out->shape[d];
  }
  if (n == 0) return 0;
  visit_size(itemsize(out->dtype), [&](auto tag) {
    using T = typename decltype(tag)::type;
    triangle_kernel<T><<<grid_for(*s, n, kEwThreads), kEwThreads, 0, s->stream>>>(
        static_cast<T*>(out->data), static_cast<const T*>(in->data), g, n, lower != 0, k);
  });
  return launched(device, "triangle");
}

} // namespace tfe::cuda
