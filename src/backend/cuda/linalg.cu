// Dense linear algebra entries (plugin_abi.h, "Dense linear algebra") on cuSOLVER and cuBLAS.
//
// Every call is queued on the device's stream through its one cuSOLVER handle (or its cuBLAS
// handle for trsm and for the batched LU of small square matrices), held under the handle's mutex
// for the whole entry because a handle is not safe for concurrent use. Workspaces come from the
// caching allocator and go back to it as soon as the work using them is queued: the next user of a
// block is ordered after it on the stream. `info` is written by cuSOLVER into the caller's device
// array; nothing here waits for it.
#include <cublas_v2.h>
#include <cuComplex.h>
#include <cusolverDn.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <initializer_list>
#include <mutex>
#include <type_traits>
#include <utility>
#include <vector>

#include "backend/cuda/device_state.cuh"
#include "backend/cuda/entries.cuh"
#include "backend/cuda/status.cuh"
#include "backend/cuda/types.cuh"

namespace tfe::cuda {
namespace {

constexpr int kThreads = 256;
// Below this order a batch goes to the batched (pointer-array) routines, which run the small
// matrices side by side; above it one matrix is enough work to fill the device.
constexpr int64_t kSmallOrder = 128;
// syevjBatched and gesvdjBatched take matrices of order 32 at most.
constexpr int64_t kJacobiMaxOrder = 32;
// Batches of square matrices up to this order are LU-factored and solved by cuBLAS's batched
// routines (getrfBatched, getrsBatched), which work on many small matrices at once; larger ones
// go one matrix after another to cuSOLVER.
constexpr int64_t kLuBatchedMaxOrder = 32;

// ---- types and the typed cuSOLVER / cuBLAS routines ----------------------------------------

template <class S> struct real_type { using type = S; };
template <> struct real_type<cuComplex> { using type = float; };
template <> struct real_type<cuDoubleComplex> { using type = double; };
template <class S> using real_t = typename real_type<S>::type;

template <class S> struct complex_type { using type = S; };
template <> struct complex_type<float> { using type = cuComplex; };
template <> struct complex_type<double> { using type = cuDoubleComplex; };
template <class S> using complex_t = typename complex_type<S>::type;

template <class S>
inline constexpr bool is_cplx_v =
    std::is_same_v<S, cuComplex> || std::is_same_v<S, cuDoubleComplex>;

// Calls f(Tag<S>{}) with the cuSOLVER element type of a floating dtype.
template <class F> int32_t visit_solver(int32_t dtype, F&& f) {
  switch (dtype) {
  case TFE_F32: return f(Tag<float>{});
  case TFE_F64: return f(Tag<double>{});
  case TFE_C32: return f(Tag<cuComplex>{});
  default: return f(Tag<cuDoubleComplex>{});
  }
}

// One name per LAPACK routine, picked by the element type S: name<S>(args...). Only the branch
// of S is instantiated, so each call checks its arguments against the one routine it calls.
#define TFE_TYPED(name, s, d, c, z)                                                                \
  template <class S, class... A> auto name(A&&... args) {                                          \
    if constexpr (std::is_same_v<S, float>)                                                        \
      return s(std::forward<A>(args)...);                                                          \
    else if constexpr (std::is_same_v<S, double>)                                                  \
      return d(std::forward<A>(args)...);                                                          \
    else if constexpr (std::is_same_v<S, cuComplex>)                                               \
      return c(std::forward<A>(args)...);                                                          \
    else                                                                                           \
      return z(std::forward<A>(args)...);                                                          \
  }

TFE_TYPED(potrf_buffer, cusolverDnSpotrf_bufferSize, cusolverDnDpotrf_bufferSize,
          cusolverDnCpotrf_bufferSize, cusolverDnZpotrf_bufferSize)
TFE_TYPED(potrf_one, cusolverDnSpotrf, cusolverDnDpotrf, cusolverDnCpotrf, cusolverDnZpotrf)
TFE_TYPED(potrf_batched, cusolverDnSpotrfBatched, cusolverDnDpotrfBatched, cusolverDnCpotrfBatched,
          cusolverDnZpotrfBatched)
TFE_TYPED(getrf_buffer, cusolverDnSgetrf_bufferSize, cusolverDnDgetrf_bufferSize,
          cusolverDnCgetrf_bufferSize, cusolverDnZgetrf_bufferSize)
TFE_TYPED(getrf_one, cusolverDnSgetrf, cusolverDnDgetrf, cusolverDnCgetrf, cusolverDnZgetrf)
TFE_TYPED(getrs_one, cusolverDnSgetrs, cusolverDnDgetrs, cusolverDnCgetrs, cusolverDnZgetrs)
TFE_TYPED(getrf_batched, cublasSgetrfBatched, cublasDgetrfBatched, cublasCgetrfBatched,
          cublasZgetrfBatched)
TFE_TYPED(getrs_batched, cublasSgetrsBatched, cublasDgetrsBatched, cublasCgetrsBatched,
          cublasZgetrsBatched)
TFE_TYPED(trsm_one, cublasStrsm, cublasDtrsm, cublasCtrsm, cublasZtrsm)
TFE_TYPED(trsm_batched, cublasStrsmBatched, cublasDtrsmBatched, cublasCtrsmBatched,
          cublasZtrsmBatched)
TFE_TYPED(geqrf_buffer, cusolverDnSgeqrf_bufferSize, cusolverDnDgeqrf_bufferSize,
          cusolverDnCgeqrf_bufferSize, cusolverDnZgeqrf_bufferSize)
TFE_TYPED(geqrf_one, cusolverDnSgeqrf, cusolverDnDgeqrf, cusolverDnCgeqrf, cusolverDnZgeqrf)
TFE_TYPED(orgqr_buffer, cusolverDnSorgqr_bufferSize, cusolverDnDorgqr_bufferSize,
          cusolverDnCungqr_bufferSize, cusolverDnZungqr_bufferSize)
TFE_TYPED(orgqr_one, cusolverDnSorgqr, cusolverDnDorgqr, cusolverDnCungqr, cusolverDnZungqr)
TFE_TYPED(syevd_buffer, cusolverDnSsyevd_bufferSize, cusolverDnDsyevd_bufferSize,
          cusolverDnCheevd_bufferSize, cusolverDnZheevd_bufferSize)
TFE_TYPED(syevd_one, cusolverDnSsyevd, cusolverDnDsyevd, cusolverDnCheevd, cusolverDnZheevd)
TFE_TYPED(syevj_batched_buffer, cusolverDnSsyevjBatched_bufferSize,
          cusolverDnDsyevjBatched_bufferSize, cusolverDnCheevjBatched_bufferSize,
          cusolverDnZheevjBatched_bufferSize)
TFE_TYPED(syevj_batched, cusolverDnSsyevjBatched, cusolverDnDsyevjBatched, cusolverDnCheevjBatched,
          cusolverDnZheevjBatched)
TFE_TYPED(gesvd_buffer, cusolverDnSgesvd_bufferSize, cusolverDnDgesvd_bufferSize,
          cusolverDnCgesvd_bufferSize, cusolverDnZgesvd_bufferSize)
TFE_TYPED(gesvd_one, cusolverDnSgesvd, cusolverDnDgesvd, cusolverDnCgesvd, cusolverDnZgesvd)
TFE_TYPED(gesvdj_batched_buffer, cusolverDnSgesvdjBatched_bufferSize,
          cusolverDnDgesvdjBatched_bufferSize, cusolverDnCgesvdjBatched_bufferSize,
          cusolverDnZgesvdjBatched_bufferSize)
TFE_TYPED(gesvdj_batched, cusolverDnSgesvdjBatched, cusolverDnDgesvdjBatched,
          cusolverDnCgesvdjBatched, cusolverDnZgesvdjBatched)
#undef TFE_TYPED

template <class S> constexpr cudaDataType data_type() {
  if constexpr (std::is_same_v<S, float>)
    return CUDA_R_32F;
  else if constexpr (std::is_same_v<S, double>)
    return CUDA_R_64F;
  else if constexpr (std::is_same_v<S, cuComplex>)
    return CUDA_C_32F;
  else
    return CUDA_C_64F;
}

template <class S> S one() {
  if constexpr (std::is_same_v<S, cuComplex>)
    return make_cuComplex(1.0f, 0.0f);
  else if constexpr (std::is_same_v<S, cuDoubleComplex>)
    return make_cuDoubleComplex(1.0, 0.0);
  else
    return S(1);
}

// LAPACK's pivot measure (i?amax: |x| for real, |re| + |im| for complex), exact zero tests and
// the two operations of the elimination, for the fallback LU below.
__device__ inline float abs1(float x) { return fabsf(x); }
__device__ inline double abs1(double x) { return fabs(x); }
__device__ inline float abs1(cuComplex z) { return fabsf(z.x) + fabsf(z.y); }
__device__ inline double abs1(cuDoubleComplex z) { return fabs(z.x) + fabs(z.y); }
__device__ inline bool is_zero(float x) { return x == 0.0f; }
__device__ inline bool is_zero(double x) { return x == 0.0; }
__device__ inline bool is_zero(cuComplex z) { return z.x == 0.0f && z.y == 0.0f; }
__device__ inline bool is_zero(cuDoubleComplex z) { return z.x == 0.0 && z.y == 0.0; }
__device__ inline float quotient(float a, float b) { return a / b; }
__device__ inline double quotient(double a, double b) { return a / b; }
__device__ inline cuComplex quotient(cuComplex a, cuComplex b) { return cuCdivf(a, b); }
__device__ inline cuDoubleComplex quotient(cuDoubleComplex a, cuDoubleComplex b) {
  return cuCdiv(a, b);
}
// c - a * b
__device__ inline float minus_product(float c, float a, float b) { return c - a * b; }
__device__ inline double minus_product(double c, double a, double b) { return c - a * b; }
__device__ inline cuComplex minus_product(cuComplex c, cuComplex a, cuComplex b) {
  return cuCsubf(c, cuCmulf(a, b));
}
__device__ inline cuDoubleComplex minus_product(cuDoubleComplex c, cuDoubleComplex a,
                                                cuDoubleComplex b) {
  return cuCsub(c, cuCmul(a, b));
}

__device__ inline float conj_of(float x) { return x; }
__device__ inline double conj_of(double x) { return x; }
__device__ inline cuComplex conj_of(cuComplex z) { return make_cuComplex(z.x, -z.y); }
__device__ inline cuDoubleComplex conj_of(cuDoubleComplex z) {
  return make_cuDoubleComplex(z.x, -z.y);
}

// ---- status mapping ----------------------------------------------------------------------------

const char* solver_status_name(cusolverStatus_t st) {
  switch (st) {
  case CUSOLVER_STATUS_NOT_INITIALIZED: return "CUSOLVER_STATUS_NOT_INITIALIZED";
  case CUSOLVER_STATUS_ALLOC_FAILED: return "CUSOLVER_STATUS_ALLOC_FAILED";
  case CUSOLVER_STATUS_INVALID_VALUE: return "CUSOLVER_STATUS_INVALID_VALUE";
  case CUSOLVER_STATUS_ARCH_MISMATCH: return "CUSOLVER_STATUS_ARCH_MISMATCH";
  case CUSOLVER_STATUS_EXECUTION_FAILED: return "CUSOLVER_STATUS_EXECUTION_FAILED";
  case CUSOLVER_STATUS_INTERNAL_ERROR: return "CUSOLVER_STATUS_INTERNAL_ERROR";
  case CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED:
    return "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
  case CUSOLVER_STATUS_NOT_SUPPORTED: return "CUSOLVER_STATUS_NOT_SUPPORTED";
  case CUSOLVER_STATUS_INVALID_WORKSPACE: return "CUSOLVER_STATUS_INVALID_WORKSPACE";
  default: return "cuSOLVER error";
  }
}

int32_t solver_fail(int32_t device, cusolverStatus_t st, const char* what) {
  int32_t status = st == CUSOLVER_STATUS_ALLOC_FAILED    ? TFE_ERR_OUT_OF_MEMORY
                   : st == CUSOLVER_STATUS_NOT_SUPPORTED ? TFE_ERR_NOT_SUPPORTED
                                                         : TFE_ERR_DEVICE;
  return fail(status, "cuda:%d: %s: %s (status %d)", static_cast<int>(device), what,
              solver_status_name(st), static_cast<int>(st));
}

#define TFE_SOLVER_TRY(device, call, what)                                                         \
  do {                                                                                             \
    cusolverStatus_t tfe_solver_st_ = (call);                                                      \
    if (tfe_solver_st_ != CUSOLVER_STATUS_SUCCESS)                                                 \
      return solver_fail((device), tfe_solver_st_, what);                                          \
  } while (0)

#define TFE_BLAS_TRY(device, call, what)                                                           \
  do {                                                                                             \
    cublasStatus_t tfe_blas_st_ = (call);                                                          \
    if (tfe_blas_st_ != CUBLAS_STATUS_SUCCESS) return blas_fail((device), tfe_blas_st_, what);     \
  } while (0)

// ---- handles and scratch -------------------------------------------------------------------

// The device's cuSOLVER handle bound to its stream, created on first use; the caller holds
// s.solver_mutex.
int32_t solver_locked(DeviceState& s, cusolverDnHandle_t* out) {
  if (s.solver == nullptr) {
    cusolverDnHandle_t h = nullptr;
    TFE_SOLVER_TRY(s.device, cusolverDnCreate(&h), "cusolverDnCreate");
    cusolverStatus_t st = cusolverDnSetStream(h, s.stream);
    if (st != CUSOLVER_STATUS_SUCCESS) {
      (void)cusolverDnDestroy(h);
      return solver_fail(s.device, st, "cusolverDnSetStream");
    }
    s.solver = h;
  }
  *out = s.solver;
  return 0;
}

// An entry's hold on the device: the bound state, its solver mutex and handle.
struct Solver {
  DeviceState* s = nullptr;
  std::unique_lock<std::mutex> lock;
  cusolverDnHandle_t h = nullptr;

  int32_t open(int32_t device) {
    TFE_CUDA_CHECK(bind_device(device, &s));
    lock = std::unique_lock<std::mutex>(s->solver_mutex);
    return solver_locked(*s, &h);
  }
  int32_t params(cusolverDnParams_t* out) {
    return once(s->solver_params, cusolverDnCreateParams, "cusolverDnCreateParams", out);
  }
  // Default tolerance (machine precision), default sweep limit and sorted results: the Jacobi
  // parameters are never changed, so one object per device serves every call.
  int32_t syevj(syevjInfo_t* out) {
    return once(s->syevj, cusolverDnCreateSyevjInfo, "cusolverDnCreateSyevjInfo", out);
  }
  int32_t gesvdj(gesvdjInfo_t* out) {
    return once(s->gesvdj, cusolverDnCreateGesvdjInfo, "cusolverDnCreateGesvdjInfo", out);
  }

private:
  // The device's one object of a kind (kept in `slot`), made by `create` on first use.
  template <class T>
  int32_t once(T& slot, cusolverStatus_t (*create)(T*), const char* what, T* out) {
    if (slot == nullptr) {
      T p = nullptr;
      TFE_SOLVER_TRY(s->device, create(&p), what);
      slot = p;
    }
    *out = slot;
    return 0;
  }
};

// A block of the caching allocator for the duration of an entry.
class Scratch {
public:
  explicit Scratch(DeviceState& s) : s_(s) {}
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  ~Scratch() {
    if (ptr_ != nullptr) s_.allocator.release(ptr_, bytes_);
  }
  template <class T> int32_t get(int64_t count, T** out) {
    bytes_ = static_cast<size_t>(std::max<int64_t>(count, 1)) * sizeof(T);
    TFE_CUDA_CHECK(s_.allocator.allocate(bytes_, &ptr_));
    *out = static_cast<T*>(ptr_);
    return 0;
  }

private:
  DeviceState& s_;
  void* ptr_ = nullptr;
  size_t bytes_ = 0;
};

int32_t launched(int32_t device, const char* what) {
  TFE_CUDA_TRY(device, cudaGetLastError(), what);
  return 0;
}

// ---- small kernels ---------------------------------------------------------------------------

// out[b] = base + b * stride: the pointer arrays of the batched routines, built on the device so
// that no host array has to outlive an asynchronous upload.
template <class S> __global__ void pointer_kernel(S** out, S* base, int64_t stride, int64_t batch) {
  for (int64_t b = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; b < batch;
       b += int64_t{gridDim.x} * blockDim.x)
    out[b] = base + b * stride;
}

template <class S>
int32_t pointer_array(DeviceState& s, Scratch& holder, S* base, int64_t stride, int64_t batch,
                      S*** out) {
  TFE_CUDA_CHECK(holder.get(batch, out));
  pointer_kernel<S>
      <<<grid_for(s, batch, kThreads), kThreads, 0, s.stream>>>(*out, base, stride, batch);
  return launched(s.device, "pointer array");
}

// LAPACK's unblocked LU with partial pivoting (getf2) of the matrices of a batch whose batched
// factorisation met an exactly zero pivot (info != 0), redone from a copy of the input. cuBLAS's
// getrfBatched divides by that zero and leaves inf/NaN in L and in the trailing block, where
// LAPACK leaves the column unscaled and goes on (so that, for one, the determinant of a singular
// matrix is 0, not NaN). One thread per matrix; the nonsingular ones return at once, so this
// costs one launch when nothing is singular. info becomes the first zero pivot's order again.
template <class S>
__global__ void lu_singular_kernel(S* a, const S* saved, int32_t* ipiv, int32_t* info, int n,
                                   int64_t batch) {
  for (int64_t b = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; b < batch;
       b += int64_t{gridDim.x} * blockDim.x) {
    if (info[b] == 0) continue;
    const int64_t nn = int64_t{n} * n;
    S* m = a + b * nn;
    const S* src = saved + b * nn;
    for (int64_t t = 0; t < nn; ++t) m[t] = src[t];
    int32_t* piv = ipiv + b * n;
    int32_t first_zero = 0;
    for (int j = 0; j < n; ++j) {
      S* col = m + int64_t{j} * n;
      int p = j; // the first entry of largest measure, as i?amax picks it
      auto big = abs1(col[j]);
      for (int i = j + 1; i < n; ++i) {
        const auto v = abs1(col[i]);
        if (v > big) {
          big = v;
          p = i;
        }
      }
      piv[j] = p + 1;
      if (is_zero(col[p])) { // the whole column is zero from row j: nothing to eliminate
        if (first_zero == 0) first_zero = j + 1;
        continue;
      }
      if (p != j)
        for (int c = 0; c < n; ++c) {
          const S t = m[j + int64_t{c} * n];
          m[j + int64_t{c} * n] = m[p + int64_t{c} * n];
          m[p + int64_t{c} * n] = t;
        }
      const S pivot = col[j];
      for (int i = j + 1; i < n; ++i) col[i] = quotient(col[i], pivot);
      for (int c = j + 1; c < n; ++c) {
        S* cc = m + int64_t{c} * n;
        const S u = cc[j];
        for (int i = j + 1; i < n; ++i) cc[i] = minus_product(cc[i], col[i], u);
      }
    }
    info[b] = first_zero;
  }
}

// out [rows, cols] (compact, batch stride rows * cols) = in^H where in is [cols, rows] with
// leading dimension in_ld and batch stride in_stride: only in's first `rows` columns are read.
template <class S>
__global__ void adjoint_kernel(S* out, int64_t rows, int64_t cols, const S* in, int64_t in_ld,
                               int64_t in_stride, int64_t total) {
  for (int64_t t = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; t < total;
       t += int64_t{gridDim.x} * blockDim.x) {
    int64_t i = t % rows, rest = t / rows;
    int64_t j = rest % cols, b = rest / cols;
    out[t] = conj_of(in[b * in_stride + i * in_ld + j]);
  }
}

template <class S>
int32_t adjoint(DeviceState& s, S* out, int64_t rows, int64_t cols, const S* in, int64_t in_ld,
                int64_t in_stride, int64_t batch) {
  const int64_t total = rows * cols * batch;
  adjoint_kernel<S><<<grid_for(s, total, kThreads), kThreads, 0, s.stream>>>(
      out, rows, cols, in, in_ld, in_stride, total);
  return launched(s.device, "conjugate transpose");
}

// A real geev's eigenvalues (wr in wri[0, n), wi in wri[n, 2n) per matrix) as complex numbers.
template <class R>
__global__ void geev_values_kernel(complex_t<R>* w, const R* wri, int64_t n, int64_t total) {
  for (int64_t t = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; t < total;
       t += int64_t{gridDim.x} * blockDim.x) {
    int64_t j = t % n, b = t / n;
    w[t] = {wri[b * 2 * n + j], wri[b * 2 * n + n + j]};
  }
}

// A real geev's vectors in complex form, as the CPU backend unpacks them (cpu/lapack/eig.cpp): a
// conjugate pair (wi > 0 first, wi < 0 second, adjacent) shares two real columns, re and im of
// the first vector; the second vector is its conjugate. Other columns are real vectors.
template <class R>
__global__ void geev_vectors_kernel(complex_t<R>* v, const R* vr, const R* wri, int64_t n,
                                    int64_t total) {
  for (int64_t t = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; t < total;
       t += int64_t{gridDim.x} * blockDim.x) {
    int64_t i = t % n, rest = t / n;
    int64_t j = rest % n, b = rest / n;
    const R* wi = wri + b * 2 * n + n;
    const R* m = vr + b * n * n;
    R re = m[j * n + i], im = 0;
    if (wi[j] > 0 && j + 1 < n) {
      im = m[(j + 1) * n + i];
    } else if (wi[j] < 0 && j > 0) {
      re = m[(j - 1) * n + i];
      im = -m[j * n + i];
    }
    v[t] = {re, im};
  }
}

// ---- argument checks -------------------------------------------------------------------------

int32_t check_dtype(const char* fn, int32_t dtype) {
  if (dtype != TFE_F32 && dtype != TFE_F64 && dtype != TFE_C32 && dtype != TFE_C64)
    return fail(TFE_ERR_NOT_SUPPORTED, "cuda %s: dtype %s is not supported", fn,
                valid_dtype(dtype) ? dtype_name(dtype) : "?");
  return 0;
}

// Extents are positive and fit the 32-bit LAPACK interface (the library promises both).
int32_t check_extents(const char* fn, std::initializer_list<int64_t> extents) {
  for (int64_t e : extents)
    if (e <= 0 || e > INT_MAX)
      return fail(TFE_ERR_INVALID_ARGUMENT, "cuda %s: extent %lld is not in [1, %d]", fn,
                  static_cast<long long>(e), INT_MAX);
  return 0;
}

int32_t check_pointers(const char* fn, std::initializer_list<const void*> ptrs) {
  for (const void* p : ptrs)
    if (p == nullptr) return fail(TFE_ERR_INVALID_ARGUMENT, "cuda %s: NULL pointer", fn);
  return 0;
}

cublasFillMode_t fill_mode(int32_t upper) {
  return upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
}

bool use_batched(int64_t batch, int64_t order, int64_t limit) {
  return batch > 1 && batch <= INT_MAX && order <= limit;
}

// ---- entries, typed --------------------------------------------------------------------------

template <class S>
int32_t potrf_typed(Solver& sv, int32_t upper, int n, int64_t batch, S* a, int32_t* info) {
  const int32_t dev = sv.s->device;
  const cublasFillMode_t uplo = fill_mode(upper);
  const int64_t nn = int64_t{n} * n;
  if (use_batched(batch, n, kSmallOrder)) {
    Scratch ptr_holder(*sv.s);
    S** ptrs = nullptr;
    TFE_CUDA_CHECK(pointer_array(*sv.s, ptr_holder, a, nn, batch, &ptrs));
    TFE_SOLVER_TRY(dev, potrf_batched<S>(sv.h, uplo, n, ptrs, n, info, static_cast<int>(batch)),
                   "potrfBatched");
    return 0;
  }
  int lwork = 0;
  TFE_SOLVER_TRY(dev, potrf_buffer<S>(sv.h, uplo, n, a, n, &lwork), "potrf_bufferSize");
  Scratch work_holder(*sv.s);
  S* work = nullptr;
  TFE_CUDA_CHECK(work_holder.get(lwork, &work));
  for (int64_t b = 0; b < batch; ++b)
    TFE_SOLVER_TRY(dev, potrf_one<S>(sv.h, uplo, n, a + b * nn, n, work, lwork, info + b), "potrf");
  return 0;
}

template <class S>
int32_t getrf_typed(Solver& sv, int m, int n, int64_t batch, S* a, int32_t* ipiv, int32_t* info) {
  const int32_t dev = sv.s->device;
  int lwork = 0;
  TFE_SOLVER_TRY(dev, getrf_buffer<S>(sv.h, m, n, a, m, &lwork), "getrf_bufferSize");
  Scratch work_holder(*sv.s);
  S* work = nullptr;
  TFE_CUDA_CHECK(work_holder.get(lwork, &work));
  const int64_t mn = int64_t{m} * n, k = std::min(m, n);
  for (int64_t b = 0; b < batch; ++b)
    TFE_SOLVER_TRY(dev, getrf_one<S>(sv.h, m, n, a + b * mn, m, work, ipiv + b * k, info + b),
                   "getrf");
  return 0;
}

// getrf of a batch of small square matrices on cuBLAS, side by side. The input is copied first
// so that the rare matrix with an exactly zero pivot can be factored again as LAPACK does
// (lu_singular_kernel); nothing waits for info.
template <class S>
int32_t getrf_small_batched(DeviceState& s, int n, int64_t batch, S* a, int32_t* ipiv,
                            int32_t* info) {
  const int32_t dev = s.device;
  std::lock_guard<std::mutex> lock(s.blas_mutex);
  cublasHandle_t h = nullptr;
  TFE_CUDA_CHECK(blas_handle_locked(s, &h));
  const int64_t nn = int64_t{n} * n;
  Scratch saved_holder(s), ptr_holder(s);
  S* saved = nullptr;
  TFE_CUDA_CHECK(saved_holder.get(nn * batch, &saved));
  TFE_CUDA_TRY(dev,
               cudaMemcpyAsync(saved, a, sizeof(S) * static_cast<size_t>(nn * batch),
                               cudaMemcpyDeviceToDevice, s.stream),
               "getrf: copy of the input");
  S** ptrs = nullptr;
  TFE_CUDA_CHECK(pointer_array(s, ptr_holder, a, nn, batch, &ptrs));
  TFE_BLAS_TRY(dev, getrf_batched<S>(h, n, ptrs, n, ipiv, info, static_cast<int>(batch)),
               "getrfBatched");
  lu_singular_kernel<S>
      <<<grid_for(s, batch, kThreads), kThreads, 0, s.stream>>>(a, saved, ipiv, info, n, batch);
  return launched(dev, "getrf: zero pivots");
}

// getrs of a batch of small systems on cuBLAS. getrsBatched reports only invalid arguments, in a
// host int (no wait for the device).
template <class S>
int32_t getrs_small_batched(DeviceState& s, cublasOperation_t op, int n, int nrhs, int64_t batch,
                            const S* lu, const int32_t* ipiv, S* b) {
  const int32_t dev = s.device;
  if constexpr (!is_cplx_v<S>)
    if (op == CUBLAS_OP_C) op = CUBLAS_OP_T; // the same operation on real matrices
  std::lock_guard<std::mutex> lock(s.blas_mutex);
  cublasHandle_t h = nullptr;
  TFE_CUDA_CHECK(blas_handle_locked(s, &h));
  Scratch lu_holder(s), b_holder(s);
  S** lu_ptrs = nullptr;
  S** b_ptrs = nullptr;
  // getrsBatched reads the factors through a const pointer array; they are not written.
  TFE_CUDA_CHECK(pointer_array(s, lu_holder, const_cast<S*>(lu), int64_t{n} * n, batch, &lu_ptrs));
  TFE_CUDA_CHECK(pointer_array(s, b_holder, b, int64_t{n} * nrhs, batch, &b_ptrs));
  int arg_info = 0;
  TFE_BLAS_TRY(dev,
               getrs_batched<S>(h, op, n, nrhs, lu_ptrs, n, ipiv, b_ptrs, n, &arg_info,
                                static_cast<int>(batch)),
               "getrsBatched");
  if (arg_info != 0)
    return fail(TFE_ERR_INVALID_ARGUMENT, "cuda:%d: getrsBatched: argument %d is invalid",
                static_cast<int>(dev), -arg_info);
  return 0;
}

template <class S>
int32_t getrs_typed(Solver& sv, cublasOperation_t op, int n, int nrhs, int64_t batch, const S* lu,
                    const int32_t* ipiv, S* b) {
  const int32_t dev = sv.s->device;
  // getrs reports only illegal arguments in its info, which the checks above rule out: one
  // scratch int takes them all.
  Scratch info_holder(*sv.s);
  int* info = nullptr;
  TFE_CUDA_CHECK(info_holder.get(1, &info));
  const int64_t nn = int64_t{n} * n, nb = int64_t{n} * nrhs;
  for (int64_t i = 0; i < batch; ++i)
    TFE_SOLVER_TRY(
        dev, getrs_one<S>(sv.h, op, n, nrhs, lu + i * nn, n, ipiv + i * n, b + i * nb, n, info),
        "getrs");
  return 0;
}

template <class S>
int32_t trsm_typed(DeviceState& s, cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,
                   cublasOperation_t op, cublasDiagType_t diag, int m, int n, int64_t batch,
                   const S* a, S* b) {
  const int32_t dev = s.device;
  const int k = side == CUBLAS_SIDE_LEFT ? m : n;
  const int64_t kk = int64_t{k} * k, mn = int64_t{m} * n;
  const S alpha = one<S>();
  if (use_batched(batch, std::max(m, n), kSmallOrder)) {
    Scratch a_holder(s), b_holder(s);
    S** a_ptrs = nullptr;
    S** b_ptrs = nullptr;
    // trsmBatched reads A through a non-const pointer array type; it does not write A.
    TFE_CUDA_CHECK(pointer_array(s, a_holder, const_cast<S*>(a), kk, batch, &a_ptrs));
    TFE_CUDA_CHECK(pointer_array(s, b_holder, b, mn, batch, &b_ptrs));
    TFE_BLAS_TRY(dev,
                 trsm_batched<S>(h, side, uplo, op, diag, m, n, &alpha, a_ptrs, k, b_ptrs, m,
                                 static_cast<int>(batch)),
                 "trsmBatched");
    return 0;
  }
  for (int64_t i = 0; i < batch; ++i)
    TFE_BLAS_TRY(dev,
                 trsm_one<S>(h, side, uplo, op, diag, m, n, &alpha, a + i * kk, k, b + i * mn, m),
                 "trsm");
  return 0;
}

template <class S> int32_t geqrf_typed(Solver& sv, int m, int n, int64_t batch, S* a, S* tau) {
  const int32_t dev = sv.s->device;
  int lwork = 0;
  TFE_SOLVER_TRY(dev, geqrf_buffer<S>(sv.h, m, n, a, m, &lwork), "geqrf_bufferSize");
  Scratch work_holder(*sv.s), info_holder(*sv.s);
  S* work = nullptr;
  int* info = nullptr; // geqrf's info reports illegal arguments only
  TFE_CUDA_CHECK(work_holder.get(lwork, &work));
  TFE_CUDA_CHECK(info_holder.get(1, &info));
  const int64_t mn = int64_t{m} * n, k = std::min(m, n);
  for (int64_t b = 0; b < batch; ++b)
    TFE_SOLVER_TRY(dev, geqrf_one<S>(sv.h, m, n, a + b * mn, m, tau + b * k, work, lwork, info),
                   "geqrf");
  return 0;
}

template <class S>
int32_t orgqr_typed(Solver& sv, int m, int n, int k, int64_t batch, S* q, const S* tau) {
  const int32_t dev = sv.s->device;
  int lwork = 0;
  TFE_SOLVER_TRY(dev, orgqr_buffer<S>(sv.h, m, n, k, q, m, tau, &lwork), "orgqr_bufferSize");
  Scratch work_holder(*sv.s), info_holder(*sv.s);
  S* work = nullptr;
  int* info = nullptr; // orgqr's info reports illegal arguments only
  TFE_CUDA_CHECK(work_holder.get(lwork, &work));
  TFE_CUDA_CHECK(info_holder.get(1, &info));
  const int64_t mn = int64_t{m} * n;
  for (int64_t b = 0; b < batch; ++b)
    TFE_SOLVER_TRY(dev, orgqr_one<S>(sv.h, m, n, k, q + b * mn, m, tau + b * k, work, lwork, info),
                   "orgqr");
  return 0;
}

template <class S>
int32_t syevd_typed(Solver& sv, int32_t upper, int32_t vectors, int n, int64_t batch, S* a,
                    real_t<S>* w, int32_t* info) {
  const int32_t dev = sv.s->device;
  const cublasFillMode_t uplo = fill_mode(upper);
  const cusolverEigMode_t jobz = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const int64_t nn = int64_t{n} * n;
  Scratch work_holder(*sv.s);
  S* work = nullptr;
  int lwork = 0;
  if (use_batched(batch, n, kJacobiMaxOrder)) {
    syevjInfo_t params = nullptr;
    TFE_CUDA_CHECK(sv.syevj(&params));
    const int bs = static_cast<int>(batch);
    TFE_SOLVER_TRY(dev, syevj_batched_buffer<S>(sv.h, jobz, uplo, n, a, n, w, &lwork, params, bs),
                   "syevjBatched_bufferSize");
    TFE_CUDA_CHECK(work_holder.get(lwork, &work));
    // Sorted ascending (the default of params), info n + 1 for a matrix that did not converge.
    TFE_SOLVER_TRY(dev,
                   syevj_batched<S>(sv.h, jobz, uplo, n, a, n, w, work, lwork, info, params, bs),
                   "syevjBatched");
    return 0;
  }
  TFE_SOLVER_TRY(dev, syevd_buffer<S>(sv.h, jobz, uplo, n, a, n, w, &lwork), "syevd_bufferSize");
  TFE_CUDA_CHECK(work_holder.get(lwork, &work));
  for (int64_t b = 0; b < batch; ++b)
    TFE_SOLVER_TRY(
        dev, syevd_one<S>(sv.h, jobz, uplo, n, a + b * nn, n, w + b * n, work, lwork, info + b),
        "syevd");
  return 0;
}

// gesvd of small matrices side by side with one-sided Jacobi: gesvdjBatched gives U [m, m] and
// V [n, n] (not V^H) whatever is asked, so the outputs are cut and conjugate-transposed from them.
template <class S>
int32_t gesvd_jacobi(Solver& sv, int32_t mode, int m, int n, int64_t batch, S* a, real_t<S>* s,
                     S* u, S* vh, int32_t* info) {
  const int32_t dev = sv.s->device;
  DeviceState& st = *sv.s;
  const int k = std::min(m, n);
  gesvdjInfo_t params = nullptr;
  TFE_CUDA_CHECK(sv.gesvdj(&params));
  const cusolverEigMode_t jobz = mode ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  // U goes straight into u when u is [m, m] (full, or reduced with m <= n); V always goes through
  // scratch. Without vectors U and V still get (unread) scratch, so no routine ever sees NULL.
  const bool u_direct = mode == 2 || (mode == 1 && m <= n);
  Scratch u_holder(st), v_holder(st), work_holder(st);
  S* uu = u_direct ? u : nullptr;
  S* vv = nullptr;
  if (!u_direct) TFE_CUDA_CHECK(u_holder.get(int64_t{m} * m * batch, &uu));
  TFE_CUDA_CHECK(v_holder.get(int64_t{n} * n * batch, &vv));
  const int bs = static_cast<int>(batch);
  int lwork = 0;
  TFE_SOLVER_TRY(
      dev, gesvdj_batched_buffer<S>(sv.h, jobz, m, n, a, m, s, uu, m, vv, n, &lwork, params, bs),
      "gesvdjBatched_bufferSize");
  S* work = nullptr;
  TFE_CUDA_CHECK(work_holder.get(lwork, &work));
  // Sorted descending (the default of params), info min(m, n) + 1 where it did not converge.
  TFE_SOLVER_TRY(
      dev,
      gesvdj_batched<S>(sv.h, jobz, m, n, a, m, s, uu, m, vv, n, work, lwork, info, params, bs),
      "gesvdjBatched");
  if (mode == 0) return 0;
  if (!u_direct) {
    // Reduced with m > n: u is the first k columns of each U, a prefix of m * k elements.
    const size_t width = sizeof(S) * static_cast<size_t>(m) * static_cast<size_t>(k);
    const size_t pitch = sizeof(S) * static_cast<size_t>(m) * static_cast<size_t>(m);
    TFE_CUDA_TRY(dev,
                 cudaMemcpy2DAsync(u, width, uu, pitch, width, static_cast<size_t>(batch),
                                   cudaMemcpyDeviceToDevice, st.stream),
                 "gesvd: copy of u");
  }
  const int64_t vh_rows = mode == 2 ? n : k;
  return adjoint(st, vh, vh_rows, n, vv, n, int64_t{n} * n, batch);
}

// LAPACK's gesvd per matrix. cuSOLVER's gesvd takes only m >= n, so a wide matrix is solved as its
// conjugate transpose A^H = U' S V'^H, whence A = V' S U'^H: u = (V'^H)^H and vh = U'^H.
template <class S>
int32_t gesvd_qr(Solver& sv, int32_t mode, int m, int n, int64_t batch, S* a, real_t<S>* s, S* u,
                 S* vh, int32_t* info) {
  using R = real_t<S>;
  const int32_t dev = sv.s->device;
  DeviceState& st = *sv.s;
  const bool wide = m < n;
  const int rows = wide ? n : m, cols = wide ? m : n; // the problem solved: rows >= cols
  const int k = cols;
  Scratch at_holder(st), u_holder(st), vt_holder(st), work_holder(st), rwork_holder(st);
  S* src = a;
  if (wide) {
    TFE_CUDA_CHECK(at_holder.get(int64_t{m} * n * batch, &src));
    TFE_CUDA_CHECK(adjoint(st, src, rows, cols, a, m, int64_t{m} * n, batch));
  }
  // The left vectors of the solved problem: [rows, rows] (full) or [rows, k] (reduced); its
  // right vectors are always [k, k] since cols = k.
  const int u_cols = mode == 2 ? rows : k;
  const signed char jobu = mode == 0 ? 'N' : mode == 2 ? 'A' : 'S';
  const signed char jobvt = mode == 0 ? 'N' : 'A';
  S* uu = nullptr;
  S* vt = nullptr;
  if (mode != 0) {
    if (wide) {
      TFE_CUDA_CHECK(u_holder.get(int64_t{rows} * u_cols * batch, &uu));
      TFE_CUDA_CHECK(vt_holder.get(int64_t{k} * k * batch, &vt));
    } else {
      uu = u;
      vt = vh;
    }
  }
  int lwork = 0;
  TFE_SOLVER_TRY(dev, gesvd_buffer<S>(sv.h, rows, cols, &lwork), "gesvd_bufferSize");
  S* work = nullptr;
  R* rwork = nullptr;
  TFE_CUDA_CHECK(work_holder.get(lwork, &work));
  TFE_CUDA_CHECK(rwork_holder.get(k, &rwork));
  const int64_t a_step = int64_t{rows} * cols, u_step = int64_t{rows} * u_cols,
                vt_step = int64_t{k} * k;
  for (int64_t b = 0; b < batch; ++b)
    TFE_SOLVER_TRY(dev,
                   gesvd_one<S>(sv.h, jobu, jobvt, rows, cols, src + b * a_step, rows, s + b * k,
                                uu ? uu + b * u_step : nullptr, rows,
                                vt ? vt + b * vt_step : nullptr, k, work, lwork, rwork, info + b),
                   "gesvd");
  if (mode == 0 || !wide) return 0;
  // u [m, m] = (V'^H)^H from vt [k, k] (k = m); vh [u_cols, n] = U'^H from uu [n, u_cols].
  TFE_CUDA_CHECK(adjoint(st, u, m, m, vt, k, vt_step, batch));
  return adjoint(st, vh, u_cols, n, uu, rows, u_step, batch);
}

template <class S>
int32_t geev_typed(Solver& sv, int32_t vectors, int n, int64_t batch, S* a, void* w, void* v,
                   int32_t* info) {
  using R = real_t<S>;
  const int32_t dev = sv.s->device;
  DeviceState& st = *sv.s;
  cusolverDnParams_t params = nullptr;
  TFE_CUDA_CHECK(sv.params(&params));
  const cusolverEigMode_t jobvr = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const cudaDataType type = data_type<S>();
  const int64_t nn = int64_t{n} * n;
  // Real input: all-real types, so W holds wr then wi (2n per matrix) and VR the packed real
  // vectors; both go through scratch and are unpacked to complex form afterwards. Complex input
  // writes w and v directly.
  constexpr bool real_input = !is_cplx_v<S>;
  Scratch w_holder(st), v_holder(st), dev_holder(st);
  S* ww = static_cast<S*>(w);
  S* vv = static_cast<S*>(v);
  int64_t w_step = n;
  if constexpr (real_input) {
    w_step = 2 * int64_t{n};
    TFE_CUDA_CHECK(w_holder.get(w_step * batch, &ww));
    if (vectors) TFE_CUDA_CHECK(v_holder.get(nn * batch, &vv));
  }
  if (!vectors) vv = nullptr;
  size_t dev_bytes = 0, host_bytes = 0;
  TFE_SOLVER_TRY(dev,
                 cusolverDnXgeev_bufferSize(sv.h, params, CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n,
                                            type, a, n, type, ww, type, nullptr, n, type, vv, n,
                                            type, &dev_bytes, &host_bytes),
                 "Xgeev_bufferSize");
  char* dev_work = nullptr;
  TFE_CUDA_CHECK(dev_holder.get(static_cast<int64_t>(dev_bytes), &dev_work));
  std::vector<char> host_work(std::max<size_t>(host_bytes, 1));
  for (int64_t b = 0; b < batch; ++b)
    TFE_SOLVER_TRY(dev,
                   cusolverDnXgeev(sv.h, params, CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n, type,
                                   a + b * nn, n, type, ww + b * w_step, type, nullptr, n, type,
                                   vv ? vv + b * nn : nullptr, n, type, dev_work, dev_bytes,
                                   host_work.data(), host_bytes, info + b),
                   "Xgeev");
  // The host workspace is released on return: make sure no queued work still reads it.
  if (host_bytes > 0) TFE_CUDA_TRY(dev, cudaStreamSynchronize(st.stream), "geev");
  if constexpr (real_input) {
    using C = complex_t<R>;
    const int64_t nw = int64_t{n} * batch;
    geev_values_kernel<R>
        <<<grid_for(st, nw, kThreads), kThreads, 0, st.stream>>>(static_cast<C*>(w), ww, n, nw);
    TFE_CUDA_CHECK(launched(dev, "geev: eigenvalues"));
    if (vectors) {
      const int64_t nv = nn * batch;
      geev_vectors_kernel<R><<<grid_for(st, nv, kThreads), kThreads, 0, st.stream>>>(
          static_cast<C*>(v), vv, ww, n, nv);
      TFE_CUDA_CHECK(launched(dev, "geev: eigenvectors"));
    }
  }
  return 0;
}

} // namespace

// ---- entries -----------------------------------------------------------------------------------

int32_t potrf(int32_t device, int32_t dtype, int32_t upper, int64_t n, int64_t batch, void* a,
              int32_t* info) {
  TFE_CUDA_CHECK(check_dtype("potrf", dtype));
  TFE_CUDA_CHECK(check_extents("potrf", {n, batch}));
  TFE_CUDA_CHECK(check_pointers("potrf", {a, info}));
  Solver sv;
  TFE_CUDA_CHECK(sv.open(device));
  return visit_solver(dtype, [&](auto tag) {
    using S = typename decltype(tag)::type;
    return potrf_typed<S>(sv, upper, static_cast<int>(n), batch, static_cast<S*>(a), info);
  });
}

int32_t getrf(int32_t device, int32_t dtype, int64_t m, int64_t n, int64_t batch, void* a,
              int32_t* ipiv, int32_t* info) {
  TFE_CUDA_CHECK(check_dtype("getrf", dtype));
  TFE_CUDA_CHECK(check_extents("getrf", {m, n, batch}));
  TFE_CUDA_CHECK(check_pointers("getrf", {a, ipiv, info}));
  if (m == n && use_batched(batch, n, kLuBatchedMaxOrder)) {
    DeviceState* s = nullptr;
    TFE_CUDA_CHECK(bind_device(device, &s));
    return visit_solver(dtype, [&](auto tag) {
      using S = typename decltype(tag)::type;
      return getrf_small_batched<S>(*s, static_cast<int>(n), batch, static_cast<S*>(a), ipiv, info);
    });
  }
  Solver sv;
  TFE_CUDA_CHECK(sv.open(device));
  return visit_solver(dtype, [&](auto tag) {
    using S = typename decltype(tag)::type;
    return getrf_typed<S>(sv, static_cast<int>(m), static_cast<int>(n), batch, static_cast<S*>(a),
                          ipiv, info);
  });
}

int32_t getrs(int32_t device, int32_t dtype, char trans, int64_t n, int64_t nrhs, int64_t batch,
              const void* lu, const int32_t* ipiv, void* b) {
  TFE_CUDA_CHECK(check_dtype("getrs", dtype));
  TFE_CUDA_CHECK(check_extents("getrs", {n, nrhs, batch}));
  TFE_CUDA_CHECK(check_pointers("getrs", {lu, ipiv, b}));
  cublasOperation_t op;
  if (!to_op(trans, &op))
    return fail(TFE_ERR_INVALID_ARGUMENT, "cuda getrs: transposition '%c' is not N, T or C", trans);
  if (use_batched(batch, n, kLuBatchedMaxOrder)) {
    DeviceState* s = nullptr;
    TFE_CUDA_CHECK(bind_device(device, &s));
    return visit_solver(dtype, [&](auto tag) {
      using S = typename decltype(tag)::type;
      return getrs_small_batched<S>(*s, op, static_cast<int>(n), static_cast<int>(nrhs), batch,
                                    static_cast<const S*>(lu), ipiv, static_cast<S*>(b));
    });
  }
  Solver sv;
  TFE_CUDA_CHECK(sv.open(device));
  return visit_solver(dtype, [&](auto tag) {
    using S = typename decltype(tag)::type;
    return getrs_typed<S>(sv, op, static_cast<int>(n), static_cast<int>(nrhs), batch,
                          static_cast<const S*>(lu), ipiv, static_cast<S*>(b));
  });
}

int32_t trsm(int32_t device, int32_t dtype, int32_t left, int32_t upper, char trans,
             int32_t unit_diagonal, int64_t m, int64_t n, int64_t batch, const void* a, void* b) {
  TFE_CUDA_CHECK(check_dtype("trsm", dtype));
  TFE_CUDA_CHECK(check_extents("trsm", {m, n, batch}));
  TFE_CUDA_CHECK(check_pointers("trsm", {a, b}));
  cublasOperation_t op;
  if (!to_op(trans, &op))
    return fail(TFE_ERR_INVALID_ARGUMENT, "cuda trsm: transposition '%c' is not N, T or C", trans);
  DeviceState* s = nullptr;
  TFE_CUDA_CHECK(bind_device(device, &s));
  std::lock_guard<std::mutex> lock(s->blas_mutex);
  cublasHandle_t h = nullptr;
  TFE_CUDA_CHECK(blas_handle_locked(*s, &h));
  const cublasSideMode_t side = left ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT;
  const cublasDiagType_t diag = unit_diagonal ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
  return visit_solver(dtype, [&](auto tag) {
    using S = typename decltype(tag)::type;
    return trsm_typed<S>(*s, h, side, fill_mode(upper), op, diag, static_cast<int>(m),
                         static_cast<int>(n), batch, static_cast<const S*>(a), static_cast<S*>(b));
  });
}

int32_t geqrf(int32_t device, int32_t dtype, int64_t m, int64_t n, int64_t batch, void* a,
              void* tau) {
  TFE_CUDA_CHECK(check_dtype("geqrf", dtype));
  TFE_CUDA_CHECK(check_extents("geqrf", {m, n, batch}));
  TFE_CUDA_CHECK(check_pointers("geqrf", {a, tau}));
  Solver sv;
  TFE_CUDA_CHECK(sv.open(device));
  return visit_solver(dtype, [&](auto tag) {
    using S = typename decltype(tag)::type;
    return geqrf_typed<S>(sv, static_cast<int>(m), static_cast<int>(n), batch, static_cast<S*>(a),
                          static_cast<S*>(tau));
  });
}

int32_t orgqr(int32_t device, int32_t dtype, int64_t m, int64_t n, int64_t k, int64_t batch,
              void* q, const void* tau) {
  TFE_CUDA_CHECK(check_dtype("orgqr", dtype));
  TFE_CUDA_CHECK(check_extents("orgqr", {m, n, k, batch}));
  TFE_CUDA_CHECK(check_pointers("orgqr", {q, tau}));
  if (!(m >= n && n >= k))
    return fail(TFE_ERR_INVALID_ARGUMENT, "cuda orgqr: needs m >= n >= k (m %lld, n %lld, k %lld)",
                static_cast<long long>(m), static_cast<long long>(n), static_cast<long long>(k));
  Solver sv;
  TFE_CUDA_CHECK(sv.open(device));
  return visit_solver(dtype, [&](auto tag) {
    using S = typename decltype(tag)::type;
    return orgqr_typed<S>(sv, static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), batch,
                          static_cast<S*>(q), static_cast<const S*>(tau));
  });
}

int32_t syevd(int32_t device, int32_t dtype, int32_t upper, int32_t vectors, int64_t n,
              int64_t batch, void* a, void* w, int32_t* info) {
  TFE_CUDA_CHECK(check_dtype("syevd", dtype));
  TFE_CUDA_CHECK(check_extents("syevd", {n, batch}));
  TFE_CUDA_CHECK(check_pointers("syevd", {a, w, info}));
  Solver sv;
  TFE_CUDA_CHECK(sv.open(device));
  return visit_solver(dtype, [&](auto tag) {
    using S = typename decltype(tag)::type;
    return syevd_typed<S>(sv, upper, vectors, static_cast<int>(n), batch, static_cast<S*>(a),
                          static_cast<real_t<S>*>(w), info);
  });
}

int32_t gesvd(int32_t device, int32_t dtype, int32_t mode, int64_t m, int64_t n, int64_t batch,
              void* a, void* s, void* u, void* vh, int32_t* info) {
  TFE_CUDA_CHECK(check_dtype("gesvd", dtype));
  TFE_CUDA_CHECK(check_extents("gesvd", {m, n, batch}));
  TFE_CUDA_CHECK(check_pointers("gesvd", {a, s, info}));
  if (mode < 0 || mode > 2)
    return fail(TFE_ERR_INVALID_ARGUMENT, "cuda gesvd: mode %d is not 0, 1 or 2",
                static_cast<int>(mode));
  if (mode != 0) TFE_CUDA_CHECK(check_pointers("gesvd", {u, vh}));
  Solver sv;
  TFE_CUDA_CHECK(sv.open(device));
  return visit_solver(dtype, [&](auto tag) {
    using S = typename decltype(tag)::type;
    const int mi = static_cast<int>(m), ni = static_cast<int>(n);
    if (use_batched(batch, std::max(m, n), kJacobiMaxOrder))
      return gesvd_jacobi<S>(sv, mode, mi, ni, batch, static_cast<S*>(a),
                             static_cast<real_t<S>*>(s), static_cast<S*>(u), static_cast<S*>(vh),
                             info);
    return gesvd_qr<S>(sv, mode, mi, ni, batch, static_cast<S*>(a), static_cast<real_t<S>*>(s),
                       static_cast<S*>(u), static_cast<S*>(vh), info);
  });
}

int32_t geev(int32_t device, int32_t dtype, int32_t vectors, int64_t n, int64_t batch, void* a,
             void* w, void* v, int32_t* info) {
  TFE_CUDA_CHECK(check_dtype("geev", dtype));
  TFE_CUDA_CHECK(check_extents("geev", {n, batch}));
  TFE_CUDA_CHECK(check_pointers("geev", {a, w, info}));
  if (vectors) TFE_CUDA_CHECK(check_pointers("geev", {v}));
  Solver sv;
  TFE_CUDA_CHECK(sv.open(device));
  return visit_solver(dtype, [&](auto tag) {
    using S = typename decltype(tag)::type;
    return geev_typed<S>(sv, vectors, static_cast<int>(n), batch, static_cast<S*>(a), w, v, info);
  });
}

} // namespace tfe::cuda
