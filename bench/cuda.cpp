// The CUDA plugin against direct cuBLAS and copy calls on the same device buffers, in one process:
// gemm n = 4096 (F64, F32) and batched 10,000 x 8 x 8 against cublas{D,S}gemm(StridedBatched),
// and a 1e8-element F32 add against the device-to-device copy bandwidth. Prints ratio lines
// (plugin time / cuBLAS time; add bandwidth / copy bandwidth) or a skip line without a device.
// Dense linear algebra: potrf and getrf (F64, 256 x 256 batch 64 and 2048 x 2048) against direct
// cusolverDnDpotrf / cusolverDnDgetrf loops, syevd and gesvd (with vectors) timed alone with their
// nominal GFLOP/s. Each call factors a fresh copy of its input: the copy is in both timings. The
// direct cuSOLVER calls go to the library the plugin loaded (looked up with dlsym), so this
// program itself links only the CUDA runtime and cuBLAS.
//
// Timing: the plugin queues work on its own stream, which is not visible here, so both sides are
// timed the same way: CUDA events on an idle timing stream around a loop of calls that ends with
// a host synchronisation of the stream that ran them.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#include "backend/device/plugin_abi.h"
#include "tenferro/base.h"

namespace {

const tfe_device_plugin* P = nullptr;
cudaStream_t g_timing = nullptr;
int g_failures = 0;

#define BENCH_CHECK(cond, what)                                                                    \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      std::fprintf(stderr, "FAIL: %s (%s)\n", what, P ? P->last_error() : "");                     \
      ++g_failures;                                                                                \
      return -1;                                                                                   \
    }                                                                                              \
  } while (0)

// Milliseconds per call: the best of `trials` timings of `reps` calls, after one warm-up call.
double time_ms(int reps, int trials, const std::function<void()>& body,
               const std::function<void()>& sync) {
  body();
  sync();
  double best = 1e30;
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  for (int t = 0; t < trials; ++t) {
    cudaEventRecord(start, g_timing);
    for (int r = 0; r < reps; ++r) body();
    sync();
    cudaEventRecord(stop, g_timing);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    best = std::min(best, static_cast<double>(ms) / reps);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return best;
}

void* device_alloc(size_t bytes) {
  void* p = nullptr;
  if (P->allocate(0, bytes, &p) != 0) {
    std::fprintf(stderr, "FAIL: allocate %zu bytes: %s\n", bytes, P->last_error());
    std::exit(1);
  }
  return p;
}

template <class T> void fill(void* p, int64_t n, T value, int32_t dtype) {
  int64_t shape[1] = {n}, strides[1] = {1};
  tfe_dev_view v{p, dtype, 1, shape, strides};
  if (P->fill(0, &v, &value) != 0) {
    std::fprintf(stderr, "FAIL: fill: %s\n", P->last_error());
    std::exit(1);
  }
}

void report(const char* what, double ours_ms, double base_ms, const char* base_name) {
  std::printf("%-34s plugin %9.4f ms  %-28s %9.4f ms  ratio %.3f\n", what, ours_ms, base_name,
              base_ms, ours_ms / base_ms);
}

template <class T>
int bench_gemm(cublasHandle_t h, cudaStream_t s, int32_t dtype, int64_t n, int64_t batch, int reps,
               const char* what, const char* base_name) {
  const int64_t elems = n * n * batch;
  void* a = device_alloc(elems * sizeof(T));
  void* b = device_alloc(elems * sizeof(T));
  void* c = device_alloc(elems * sizeof(T));
  fill<T>(a, elems, T(0.5), dtype);
  fill<T>(b, elems, T(0.25), dtype);
  fill<T>(c, elems, T(0), dtype);
  const T one = 1, zero = 0;
  auto ours = [&] {
    if (P->gemm(0, dtype, 'N', 'N', n, n, n, &one, a, n, n * n, b, n, n * n, &zero, c, n, n * n,
                batch) != 0) {
      std::fprintf(stderr, "FAIL: plugin gemm: %s\n", P->last_error());
      std::exit(1);
    }
  };
  auto direct = [&] {
    const int ni = static_cast<int>(n);
    cublasStatus_t st;
    if constexpr (sizeof(T) == 8) {
      st = batch == 1
               ? cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, ni, ni, ni,
                             reinterpret_cast<const double*>(&one), static_cast<const double*>(a),
                             ni, static_cast<const double*>(b), ni,
                             reinterpret_cast<const double*>(&zero), static_cast<double*>(c), ni)
               : cublasDgemmStridedBatched(
                     h, CUBLAS_OP_N, CUBLAS_OP_N, ni, ni, ni, reinterpret_cast<const double*>(&one),
                     static_cast<const double*>(a), ni, n * n, static_cast<const double*>(b), ni,
                     n * n, reinterpret_cast<const double*>(&zero), static_cast<double*>(c), ni,
                     n * n, static_cast<int>(batch));
    } else {
      st = batch == 1
               ? cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, ni, ni, ni,
                             reinterpret_cast<const float*>(&one), static_cast<const float*>(a), ni,
                             static_cast<const float*>(b), ni,
                             reinterpret_cast<const float*>(&zero), static_cast<float*>(c), ni)
               : cublasSgemmStridedBatched(
                     h, CUBLAS_OP_N, CUBLAS_OP_N, ni, ni, ni, reinterpret_cast<const float*>(&one),
                     static_cast<const float*>(a), ni, n * n, static_cast<const float*>(b), ni,
                     n * n, reinterpret_cast<const float*>(&zero), static_cast<float*>(c), ni,
                     n * n, static_cast<int>(batch));
    }
    if (st != CUBLAS_STATUS_SUCCESS) {
      std::fprintf(stderr, "FAIL: direct cuBLAS call: %s\n", cublasGetStatusString(st));
      std::exit(1);
    }
  };
  // The result is checked once: every entry is n * 0.5 * 0.25.
  ours();
  T first = 0;
  BENCH_CHECK(P->copy_to_host(0, &first, c, sizeof(T)) == 0, "read back");
  BENCH_CHECK(first == T(n) * T(0.125), "gemm result");
  double t_ours = time_ms(reps, 5, ours, [] { P->synchronize(0); });
  double t_base = time_ms(reps, 5, direct, [&] { cudaStreamSynchronize(s); });
  report(what, t_ours, t_base, base_name);
  P->release(0, a, elems * sizeof(T));
  P->release(0, b, elems * sizeof(T));
  P->release(0, c, elems * sizeof(T));
  return 0;
}

int bench_add() {
  const int64_t n = 100000000;
  const size_t bytes = n * sizeof(float);
  void* a = device_alloc(bytes);
  void* b = device_alloc(bytes);
  void* c = device_alloc(bytes);
  fill<float>(a, n, 1.5f, TFE_F32);
  fill<float>(b, n, 2.0f, TFE_F32);
  int32_t id = -1;
  BENCH_CHECK(P->elementwise_lookup("add", TFE_F32, &id) == 0, "lookup add");
  int64_t shape[1] = {n}, strides[1] = {1};
  tfe_dev_view in[2] = {{a, TFE_F32, 1, shape, strides}, {b, TFE_F32, 1, shape, strides}};
  tfe_dev_view out{c, TFE_F32, 1, shape, strides};
  auto ours = [&] {
    if (P->elementwise(0, id, 0, &out, 2, in) != 0) {
      std::fprintf(stderr, "FAIL: plugin add: %s\n", P->last_error());
      std::exit(1);
    }
  };
  ours();
  float last = 0;
  BENCH_CHECK(P->copy_to_host(0, &last, static_cast<float*>(c) + (n - 1), sizeof last) == 0,
              "read");
  BENCH_CHECK(last == 3.5f, "add result");
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  auto copy = [&] { cudaMemcpyAsync(c, a, bytes, cudaMemcpyDeviceToDevice, s); };
  double t_add = time_ms(20, 5, ours, [] { P->synchronize(0); });
  double t_copy = time_ms(20, 5, copy, [&] { cudaStreamSynchronize(s); });
  // Bytes moved: the add reads two arrays and writes one; the copy reads one and writes one.
  double bw_add = 3.0 * bytes / (t_add * 1e-3) / 1e9;
  double bw_copy = 2.0 * bytes / (t_copy * 1e-3) / 1e9;
  std::printf("%-34s plugin %9.4f ms (%.0f GB/s)  cudaMemcpy D2D %9.4f ms (%.0f GB/s)  "
              "bandwidth ratio %.3f\n",
              "add F32 1e8", t_add, bw_add, t_copy, bw_copy, bw_add / bw_copy);
  cudaStreamDestroy(s);
  P->release(0, a, bytes);
  P->release(0, b, bytes);
  P->release(0, c, bytes);
  return 0;
}

// ---- dense linear algebra ----------------------------------------------------------------------

// batch [n, n] F64 matrices: random symmetric plus n on the diagonal (positive definite and well
// conditioned), uploaded to fresh device memory.
void* linalg_input(int64_t n, int64_t batch) {
  std::vector<double> h(static_cast<size_t>(n * n * batch));
  uint64_t state = 0x2545f4914f6cdd1dull;
  auto uniform = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(state >> 11) / 9007199254740992.0 - 0.5;
  };
  for (int64_t b = 0; b < batch; ++b) {
    double* m = h.data() + b * n * n;
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i <= j; ++i) m[i + j * n] = m[j + i * n] = uniform();
    for (int64_t i = 0; i < n; ++i) m[i * (n + 1)] += static_cast<double>(n);
  }
  void* d = device_alloc(h.size() * sizeof(double));
  if (P->copy_to_device(0, d, h.data(), h.size() * sizeof(double)) != 0) {
    std::fprintf(stderr, "FAIL: upload: %s\n", P->last_error());
    std::exit(1);
  }
  return d;
}

void entry_ok(int32_t rc, const char* what) {
  if (rc != 0) {
    std::fprintf(stderr, "FAIL: plugin %s: %s\n", what, P->last_error());
    std::exit(1);
  }
}

void solver_ok(cusolverStatus_t st, const char* what) {
  if (st != CUSOLVER_STATUS_SUCCESS) {
    std::fprintf(stderr, "FAIL: direct %s: status %d\n", what, static_cast<int>(st));
    std::exit(1);
  }
}

// The cuSOLVER entry points of the direct calls, from the libcusolver the plugin depends on.
struct Solver {
  decltype(&cusolverDnCreate) create = nullptr;
  decltype(&cusolverDnDestroy) destroy = nullptr;
  decltype(&cusolverDnSetStream) set_stream = nullptr;
  decltype(&cusolverDnDpotrf_bufferSize) potrf_buffer = nullptr;
  decltype(&cusolverDnDpotrf) potrf = nullptr;
  decltype(&cusolverDnDgetrf_bufferSize) getrf_buffer = nullptr;
  decltype(&cusolverDnDgetrf) getrf = nullptr;
  cusolverDnHandle_t h = nullptr;
};

template <class F> bool find_symbol(void* lib, const char* name, F* out) {
  void* p = dlsym(lib, name);
  std::memcpy(out, &p, sizeof p); // object to function pointer, as POSIX allows
  return p != nullptr;
}

bool load_solver(Solver* sv, cudaStream_t s) {
  char name[32];
  std::snprintf(name, sizeof name, "libcusolver.so.%d", CUSOLVER_VER_MAJOR);
  void* lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) return false;
  bool ok = find_symbol(lib, "cusolverDnCreate", &sv->create) &&
            find_symbol(lib, "cusolverDnDestroy", &sv->destroy) &&
            find_symbol(lib, "cusolverDnSetStream", &sv->set_stream) &&
            find_symbol(lib, "cusolverDnDpotrf_bufferSize", &sv->potrf_buffer) &&
            find_symbol(lib, "cusolverDnDpotrf", &sv->potrf) &&
            find_symbol(lib, "cusolverDnDgetrf_bufferSize", &sv->getrf_buffer) &&
            find_symbol(lib, "cusolverDnDgetrf", &sv->getrf);
  if (!ok || sv->create(&sv->h) != CUSOLVER_STATUS_SUCCESS) return false;
  return sv->set_stream(sv->h, s) == CUSOLVER_STATUS_SUCCESS;
}

// The device info array all zero (every factorisation succeeded).
int infos_zero(const int32_t* info, int64_t batch, const char* what) {
  std::vector<int32_t> h(static_cast<size_t>(batch));
  BENCH_CHECK(P->copy_to_host(0, h.data(), info, h.size() * sizeof(int32_t)) == 0, "read info");
  for (int32_t v : h) BENCH_CHECK(v == 0, what);
  return 0;
}

void report_flops(const char* what, double ms, double flops) {
  std::printf("%-34s plugin %9.4f ms  %8.1f GFLOP/s (nominal)\n", what, ms, flops / (ms * 1e6));
}

// potrf or getrf on F64 [n, n] x batch, the plugin entry against a loop of direct cuSOLVER calls.
int bench_factor(const Solver& sv, cudaStream_t s, bool lu, int64_t n, int64_t batch, int reps) {
  const size_t bytes = static_cast<size_t>(n * n * batch) * sizeof(double);
  void* src = linalg_input(n, batch);
  void* a = device_alloc(bytes);
  auto* info = static_cast<int32_t*>(device_alloc(static_cast<size_t>(batch) * sizeof(int32_t)));
  auto* ipiv =
      static_cast<int32_t*>(device_alloc(static_cast<size_t>(n * batch) * sizeof(int32_t)));
  const int ni = static_cast<int>(n);
  int lwork = 0;
  if (lu)
    solver_ok(sv.getrf_buffer(sv.h, ni, ni, static_cast<double*>(a), ni, &lwork),
              "getrf_bufferSize");
  else
    solver_ok(
        sv.potrf_buffer(sv.h, CUBLAS_FILL_MODE_LOWER, ni, static_cast<double*>(a), ni, &lwork),
        "potrf_bufferSize");
  double* work = nullptr;
  cudaMalloc(&work, static_cast<size_t>(std::max(lwork, 1)) * sizeof(double));
  auto ours = [&] {
    entry_ok(P->copy_on_device(0, a, src, bytes), "copy");
    entry_ok(lu ? P->getrf(0, TFE_F64, n, n, batch, a, ipiv, info)
                : P->potrf(0, TFE_F64, 0, n, batch, a, info),
             lu ? "getrf" : "potrf");
  };
  auto direct = [&] {
    cudaMemcpyAsync(a, src, bytes, cudaMemcpyDeviceToDevice, s);
    for (int64_t b = 0; b < batch; ++b) {
      double* m = static_cast<double*>(a) + b * n * n;
      if (lu)
        solver_ok(sv.getrf(sv.h, ni, ni, m, ni, work, ipiv + b * n, info + b), "getrf");
      else
        solver_ok(sv.potrf(sv.h, CUBLAS_FILL_MODE_LOWER, ni, m, ni, work, lwork, info + b),
                  "potrf");
    }
  };
  char what[64];
  std::snprintf(what, sizeof what, "%s F64 %lldx%lld batch %lld", lu ? "getrf" : "potrf",
                static_cast<long long>(n), static_cast<long long>(n),
                static_cast<long long>(batch));
  ours();
  P->synchronize(0);
  if (infos_zero(info, batch, what) != 0) return -1;
  double t_ours = time_ms(reps, 3, ours, [] { P->synchronize(0); });
  double t_base = time_ms(reps, 3, direct, [&] { cudaStreamSynchronize(s); });
  report(what, t_ours, t_base, lu ? "cusolverDnDgetrf loop" : "cusolverDnDpotrf loop");
  const double nn = static_cast<double>(n);
  report_flops(what, t_ours, (lu ? 2.0 / 3.0 : 1.0 / 3.0) * nn * nn * nn * batch);
  cudaFree(work);
  P->release(0, src, bytes);
  P->release(0, a, bytes);
  P->release(0, info, static_cast<size_t>(batch) * sizeof(int32_t));
  P->release(0, ipiv, static_cast<size_t>(n * batch) * sizeof(int32_t));
  return 0;
}

// syevd (vectors) or gesvd (full vectors) on F64 [n, n] x batch, timed alone. Nominal flops as
// LAPACK's working notes count them: 9 n^3 for a symmetric eigendecomposition with vectors,
// 22 n^3 for a square SVD with both sets of vectors.
int bench_spectral(bool svd, int64_t n, int64_t batch, int reps) {
  const size_t bytes = static_cast<size_t>(n * n * batch) * sizeof(double);
  const size_t vec = static_cast<size_t>(n * batch) * sizeof(double);
  void* src = linalg_input(n, batch);
  void* a = device_alloc(bytes);
  void* w = device_alloc(vec);
  void* u = svd ? device_alloc(bytes) : nullptr;
  void* vh = svd ? device_alloc(bytes) : nullptr;
  auto* info = static_cast<int32_t*>(device_alloc(static_cast<size_t>(batch) * sizeof(int32_t)));
  auto ours = [&] {
    entry_ok(P->copy_on_device(0, a, src, bytes), "copy");
    entry_ok(svd ? P->gesvd(0, TFE_F64, 2, n, n, batch, a, w, u, vh, info)
                 : P->syevd(0, TFE_F64, 0, 1, n, batch, a, w, info),
             svd ? "gesvd" : "syevd");
  };
  char what[64];
  std::snprintf(what, sizeof what, "%s F64 %lldx%lld batch %lld", svd ? "gesvd" : "syevd",
                static_cast<long long>(n), static_cast<long long>(n),
                static_cast<long long>(batch));
  double t = time_ms(reps, 2, ours, [] { P->synchronize(0); });
  if (infos_zero(info, batch, what) != 0) return -1;
  const double nn = static_cast<double>(n);
  report_flops(what, t, (svd ? 22.0 : 9.0) * nn * nn * nn * batch);
  P->release(0, src, bytes);
  P->release(0, a, bytes);
  P->release(0, w, vec);
  if (svd) {
    P->release(0, u, bytes);
    P->release(0, vh, bytes);
  }
  P->release(0, info, static_cast<size_t>(batch) * sizeof(int32_t));
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  const char* path = argc > 1 ? argv[1] : TFE_CUDA_PLUGIN_PATH;
  void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    std::fprintf(stderr, "FAIL: dlopen %s: %s\n", path, dlerror());
    return 1;
  }
  void* sym = dlsym(lib, TFE_DEVICE_PLUGIN_ENTRY);
  tfe_device_plugin_entry entry = nullptr;
  std::memcpy(&entry, &sym, sizeof entry);
  if (entry == nullptr) {
    std::fprintf(stderr, "FAIL: %s has no %s\n", path, TFE_DEVICE_PLUGIN_ENTRY);
    return 1;
  }
  P = entry();
  int32_t count = 0;
  if (P->device_count(&count) != 0 || count == 0) {
    std::printf("SKIP: no CUDA device (bench_cuda)\n");
    return 0;
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  std::printf("bench_cuda on %s\n", prop.name);
  cudaSetDevice(0);
  cudaStreamCreateWithFlags(&g_timing, cudaStreamNonBlocking);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "FAIL: cublasCreate\n");
    return 1;
  }
  cublasSetStream(h, s);
  bench_gemm<double>(h, s, TFE_F64, 4096, 1, 5, "gemm F64 n=4096", "cublasDgemm");
  bench_gemm<float>(h, s, TFE_F32, 4096, 1, 10, "gemm F32 n=4096", "cublasSgemm");
  bench_gemm<double>(h, s, TFE_F64, 8, 10000, 200, "gemm F64 batched 10000x8x8",
                     "cublasDgemmStridedBatched");
  bench_gemm<float>(h, s, TFE_F32, 8, 10000, 200, "gemm F32 batched 10000x8x8",
                    "cublasSgemmStridedBatched");
  bench_add();
  Solver sv;
  if (!load_solver(&sv, s)) {
    std::fprintf(stderr, "FAIL: the plugin's cuSOLVER library: %s\n", dlerror());
    return 1;
  }
  bench_factor(sv, s, false, 256, 64, 5);
  bench_factor(sv, s, false, 2048, 1, 5);
  bench_factor(sv, s, true, 256, 64, 5);
  bench_factor(sv, s, true, 2048, 1, 5);
  bench_spectral(false, 256, 64, 1);
  bench_spectral(false, 2048, 1, 1);
  bench_spectral(true, 256, 64, 1);
  bench_spectral(true, 2048, 1, 1);
  sv.destroy(sv.h);
  cublasDestroy(h);
  cudaStreamDestroy(s);
  std::printf("bench_cuda: %s\n", g_failures == 0 ? "done" : "FAILED");
  return g_failures == 0 ? 0 : 1;
}
