// The elementwise machinery: one strided grid-stride kernel template, instantiated per (functor,
// dtypes) pair by the op tables of ew_*.cu, and the table entry that names the pair. The library
// broadcasts operands before the call, so every view has the output's shape (strides may be 0).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <span>
#include <type_traits>

#include "backend/cuda/functors.cuh"
#include "backend/cuda/geometry.cuh"
#include "backend/cuda/types.cuh"

namespace tfe::cuda {

inline constexpr int kEwThreads = 256;

struct EwLaunch {
  cudaStream_t stream;
  unsigned grid;
  int64_t param;
  int* flag; // device int raised by integer division, remainder and power
  void* ptr[kMaxOperands];
  Geometry g;
  int64_t n;
};
using EwLauncher = void (*)(const EwLaunch&);

enum : uint32_t {
  kEwNone = 0,
  kEwChecksRhs = 1, // integer division, remainder, power: reports a bad right operand
  kEwCompare = 2,   // the parameter is a comparison direction
  kEwSelect = 4,    // select: looked up by its Bool predicate, run by the values' dtype
};

struct EwEntry {
  const char* name; // the op table's name
  int32_t key;      // the dtype of the first operand (for select, the values' dtype: see kEwSelect)
  int32_t arity;
  int32_t out;
  int32_t in[3];
  uint32_t flags;
  EwLauncher launch;
};

struct EwPtrs {
  void* p[kMaxOperands];
};

template <class F, class TO, class TA, class TB, class TC>
__global__ void __launch_bounds__(kEwThreads) ew_kernel(F f, EwPtrs p, Geometry g, int64_t n) {
  constexpr int N = std::is_void_v<TB> ? 2 : std::is_void_v<TC> ? 3 : 4;
  const int64_t step = int64_t{gridDim.x} * blockDim.x;
  for (int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += step) {
    int64_t off[N];
    offsets_of<N>(g, i, off);
    TO* o = static_cast<TO*>(p.p[0]) + off[0];
    const TA a = static_cast<const TA*>(p.p[1])[off[1]];
    if constexpr (N == 2) {
      *o = f(a);
    } else if constexpr (N == 3) {
      *o = f(a, static_cast<const TB*>(p.p[2])[off[2]]);
    } else {
      *o = f(a, static_cast<const TB*>(p.p[2])[off[2]], static_cast<const TC*>(p.p[3])[off[3]]);
    }
  }
}

template <class F, class TO, class TA, class TB, class TC> void ew_launch(const EwLaunch& a) {
  F f;
  f.param = a.param;
  f.flag = a.flag;
  EwPtrs p{{a.ptr[0], a.ptr[1], a.ptr[2], a.ptr[3]}};
  ew_kernel<F, TO, TA, TB, TC><<<a.grid, kEwThreads, 0, a.stream>>>(f, p, a.g, a.n);
}

// Table rows. `same`: every operand and the result of dtype T (arity 1, 2 or 3).
template <class F, class T, int Arity>
constexpr EwEntry same(const char* name, uint32_t flags = kEwNone) {
  constexpr int32_t d = dtype_of_v<T>;
  if constexpr (Arity == 1)
    return {name, d, 1, d, {d, 0, 0}, flags, &ew_launch<F, T, T, void, void>};
  else if constexpr (Arity == 2)
    return {name, d, 2, d, {d, d, 0}, flags, &ew_launch<F, T, T, T, void>};
  else
    return {name, d, 3, d, {d, d, d}, flags, &ew_launch<F, T, T, T, T>};
}
// A unary op with a real result (abs, real, imag).
template <class F, class T> constexpr EwEntry to_real(const char* name) {
  using R = real_of_t<T>;
  return {name,
          dtype_of_v<T>,
          1,
          dtype_of_v<R>,
          {dtype_of_v<T>, 0, 0},
          kEwNone,
          &ew_launch<F, R, T, void, void>};
}
template <class T> constexpr EwEntry compare_row() {
  constexpr int32_t d = dtype_of_v<T>;
  return {
      "compare", d, 2, TFE_BOOL, {d, d, 0}, kEwCompare, &ew_launch<fn::Compare, bool, T, T, void>};
}
template <class T> constexpr EwEntry select_row() {
  constexpr int32_t d = dtype_of_v<T>;
  return {"select", d, 3, d, {TFE_BOOL, d, d}, kEwSelect, &ew_launch<fn::Select, T, bool, T, T>};
}
template <class T> constexpr EwEntry complex_row() {
  using C = ::cuda::std::complex<T>;
  constexpr int32_t d = dtype_of_v<T>;
  return {
      "complex", d, 2, dtype_of_v<C>, {d, d, 0}, kEwNone, &ew_launch<fn::Complex, C, T, T, void>};
}

// The groups' tables (ew_*.cu).
std::span<const EwEntry> ew_arithmetic_entries();
std::span<const EwEntry> ew_logical_entries(); // logical, comparison and complex parts
std::span<const EwEntry> ew_analytic_real_entries();
std::span<const EwEntry> ew_analytic_complex_entries();

// The plugin entries.
int32_t elementwise_lookup(const char* op_name, int32_t dtype, int32_t* op);
int32_t elementwise_run(int32_t device, int32_t op, int64_t param, const tfe_dev_view* out,
                        int32_t n_in, const tfe_dev_view* in);

} // namespace tfe::cuda
