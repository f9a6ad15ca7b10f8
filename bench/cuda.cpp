// The public C API on CUDA device tensors against direct cuBLAS/cuSOLVER calls on the same device
// buffers, in one process: the device goals of docs/performance.md.
//   matmul F64 and F32 n = 4096, and F64/F32 batched 10,000 x 8 x 8 (tfe_matmul against
//     cublas{D,S}gemm / cublas{D,S}gemmStridedBatched): goal ours / cuBLAS <= 1.05;
//   solve, qr, eigh, svd, cholesky F64 n = 1024 and 4096 (tfe_linalg_* against the cuSOLVER
//     routines the library picks for one matrix of these orders, see src/backend/cuda/linalg.cu:
//     getrf + getrs, geqrf + orgqr, syevd, gesvd, potrf): goal ours / cuSOLVER <= 1.05;
//   add F32 1e8 elements (tfe_add) against the device-to-device copy: goal >= 70% of the copy's
//     bandwidth (the add moves three arrays, the copy two).
// Informational, no goal: solve of a batch of 10,000 8 x 8 systems against
// cublasDgetrfBatched + cublasDgetrsBatched, and the plugin's own potrf/getrf entries on 64
// matrices of order 256 against a loop of cuSOLVER calls.
//
// Same buffers: every input is one device tensor of the library (tfe_tensor_to_device), and the
// direct calls read its device memory through a DLPack export. The routines work in place, so
// each direct call first copies its input, as the library does. The direct calls that stand for
// a function that reads its status (cholesky, eigh, svd) read their info back too.
// Timing: the library queues its work on the plugin's stream, the direct calls on a stream of
// their own; a timing is host wall time around `reps` calls and a cudaDeviceSynchronize (which
// waits for every stream), after `warmups` untimed calls; the median of `trials` timings is
// reported. Results are checked (a few values against the direct calls' output, or exact values)
// so that a broken kernel fails loudly; goals met or missed are reported, never a failure.
// Without a device it prints `SKIP: no CUDA device (bench_cuda)` and exits 0.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <vector>

#include "backend/device/plugin_abi.h"
#include "capi/dlpack_abi.hpp"
#include "tenferro/tenferro.h"

namespace {

const tfe_device_plugin* P = nullptr;
tfe_context* g_ctx = nullptr;
int g_failures = 0;
int g_goals_met = 0, g_goals_missed = 0;

#define BENCH_CHECK(cond, what)                                                                    \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      std::fprintf(stderr, "FAIL: %s (%s)\n", what, tfe_last_error_message());                     \
      ++g_failures;                                                                                \
      return -1;                                                                                   \
    }                                                                                              \
  } while (0)

[[noreturn]] void die(const char* what, const char* detail) {
  std::fprintf(stderr, "FAIL: %s: %s\n", what, detail);
  std::exit(1);
}
void tfe_ok(tfe_status st, const char* what) {
  if (st != TFE_OK) die(what, tfe_last_error_message());
}
void cuda_ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess) die(what, cudaGetErrorString(e));
}
void blas_ok(cublasStatus_t st, const char* what) {
  if (st != CUBLAS_STATUS_SUCCESS) die(what, cublasGetStatusString(st));
}
void solver_ok(cusolverStatus_t st, const char* what) {
  if (st != CUSOLVER_STATUS_SUCCESS) {
    char detail[32];
    std::snprintf(detail, sizeof detail, "status %d", static_cast<int>(st));
    die(what, detail);
  }
}
void entry_ok(int32_t rc, const char* what) {
  if (rc != 0) die(what, P->last_error());
}

void sync_all() { cuda_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }

struct Timing {
  int warmups, reps, trials;
};

// Milliseconds per call: the median over trials of (reps calls + a device synchronisation) / reps.
double time_ms(const Timing& t, const std::function<void()>& body) {
  sync_all();
  for (int w = 0; w < t.warmups; ++w) {
    body();
    sync_all();
  }
  std::vector<double> ms;
  for (int k = 0; k < t.trials; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < t.reps; ++r) body();
    sync_all();
    const std::chrono::duration<double, std::milli> d = std::chrono::steady_clock::now() - t0;
    ms.push_back(d.count() / t.reps);
  }
  std::sort(ms.begin(), ms.end());
  const size_t h = ms.size() / 2;
  return ms.size() % 2 == 1 ? ms[h] : 0.5 * (ms[h - 1] + ms[h]);
}

// A ratio line: ours / direct with the goal `ratio <= goal` (goal 0: informational).
void report(const char* what, double ours_ms, const char* base_name, double base_ms, double goal) {
  const double ratio = ours_ms / base_ms;
  char verdict[40] = "(no goal)";
  if (goal > 0) {
    const bool met = ratio <= goal;
    (met ? g_goals_met : g_goals_missed)++;
    std::snprintf(verdict, sizeof verdict, "goal <= %.2f %s", goal, met ? "met" : "MISSED");
  }
  std::printf("%-30s ours %10.4f ms  %-30s %10.4f ms  ratio %6.3f  %s\n", what, ours_ms, base_name,
              base_ms, ratio, verdict);
}

// ---- device tensors and their memory --------------------------------------------------------

// A device tensor holding the host values (compact column-major), made by the one transfer.
tfe_tensor* device_tensor(int32_t dtype, std::initializer_list<int64_t> shape, const void* data) {
  const std::vector<int64_t> dims(shape);
  tfe_tensor* host = nullptr;
  tfe_tensor* dev = nullptr;
  tfe_ok(tfe_tensor_from_data(&host, g_ctx, dtype, static_cast<int32_t>(dims.size()), dims.data(),
                              nullptr, data),
         "tfe_tensor_from_data");
  tfe_ok(tfe_tensor_to_device(&dev, host, TFE_DEVICE_CUDA, 0), "tfe_tensor_to_device");
  tfe_tensor_release(host);
  return dev;
}

// The device memory of a tensor through a DLPack export, which keeps it alive until destroyed.
class Exported {
public:
  explicit Exported(const tfe_tensor* t) {
    tfe_ok(tfe_tensor_to_dlpack(&m_, t), "tfe_tensor_to_dlpack");
    if (m_->dl_tensor.device.device_type != kDLCUDA) die("DLPack export", "not a CUDA tensor");
    if (m_->dl_tensor.strides == nullptr && m_->dl_tensor.ndim > 0)
      die("DLPack export", "no strides");
  }
  Exported(const Exported&) = delete;
  Exported& operator=(const Exported&) = delete;
  ~Exported() {
    if (m_ != nullptr && m_->deleter != nullptr) m_->deleter(m_);
  }
  template <class T = void> T* data() const {
    return reinterpret_cast<T*>(static_cast<char*>(m_->dl_tensor.data) + m_->dl_tensor.byte_offset);
  }
  // The element at idx (one index per dim) copied to the host, as double (F32 or F64 tensors).
  double at(std::initializer_list<int64_t> idx) const {
    int64_t off = 0;
    int32_t d = 0;
    for (int64_t i : idx) off += i * m_->dl_tensor.strides[d++];
    const bool single = m_->dl_tensor.dtype.bits == 32;
    const char* p = data<char>() + off * (single ? 4 : 8);
    sync_all();
    if (single) {
      float v = 0;
      cuda_ok(cudaMemcpy(&v, p, sizeof v, cudaMemcpyDeviceToHost), "read back");
      return v;
    }
    double v = 0;
    cuda_ok(cudaMemcpy(&v, p, sizeof v, cudaMemcpyDeviceToHost), "read back");
    return v;
  }

private:
  DLManagedTensor* m_ = nullptr;
};

// Element i of a device array of T, as double.
template <class T> double device_value(const void* p, int64_t i) {
  sync_all();
  T v{};
  cuda_ok(cudaMemcpy(&v, static_cast<const T*>(p) + i, sizeof v, cudaMemcpyDeviceToHost),
          "read back");
  return static_cast<double>(v);
}

template <class T> T* device_alloc(int64_t count) {
  void* p = nullptr;
  cuda_ok(cudaMalloc(&p, static_cast<size_t>(std::max<int64_t>(count, 1)) * sizeof(T)),
          "cudaMalloc");
  return static_cast<T*>(p);
}

// The outputs of the last call of the library, released when the next call replaces them.
class Outputs {
public:
  Outputs() = default;
  Outputs(const Outputs&) = delete;
  Outputs& operator=(const Outputs&) = delete;
  ~Outputs() { clear(); }
  void clear() {
    for (tfe_tensor*& t : t_) {
      tfe_tensor_release(t);
      t = nullptr;
    }
  }
  tfe_tensor** slot(int i) { return &t_[i]; }
  const tfe_tensor* get(int i) const { return t_[i]; }

private:
  tfe_tensor* t_[3] = {nullptr, nullptr, nullptr};
};

// |a - b| <= rtol * max(|b|, floor): the plausibility test of one value against the direct call.
bool close(double a, double b, double rtol, double floor = 1.0) {
  return std::isfinite(a) && std::fabs(a - b) <= rtol * std::max(std::fabs(b), floor);
}

// ---- matmul and add -----------------------------------------------------------------------

struct Direct {
  cudaStream_t s = nullptr;
  cublasHandle_t blas = nullptr;
  cusolverDnHandle_t solver = nullptr;
};

// C = A B with A = 0.5 and B = 0.25 everywhere, [n, n, batch]: every entry is exactly n / 8.
template <class T>
int bench_matmul(const Direct& d, int32_t dtype, int64_t n, int64_t batch, const Timing& t,
                 const char* what, const char* base_name) {
  const int64_t elems = n * n * batch;
  std::vector<T> ha(static_cast<size_t>(elems), T(0.5)), hb(static_cast<size_t>(elems), T(0.25));
  tfe_tensor* a = batch == 1 ? device_tensor(dtype, {n, n}, ha.data())
                             : device_tensor(dtype, {n, n, batch}, ha.data());
  tfe_tensor* b = batch == 1 ? device_tensor(dtype, {n, n}, hb.data())
                             : device_tensor(dtype, {n, n, batch}, hb.data());
  std::vector<T>().swap(ha); // the host copies are no longer needed
  std::vector<T>().swap(hb);
  Exported ea(a), eb(b);
  T* c = device_alloc<T>(elems);
  Outputs out;
  auto ours = [&] {
    out.clear();
    tfe_ok(tfe_matmul(out.slot(0), a, b), "tfe_matmul");
  };
  const int ni = static_cast<int>(n);
  const T one = 1, zero = 0;
  auto direct = [&] {
    const T* pa = ea.data<T>();
    const T* pb = eb.data<T>();
    if constexpr (sizeof(T) == 8) {
      blas_ok(batch == 1 ? cublasDgemm(d.blas, CUBLAS_OP_N, CUBLAS_OP_N, ni, ni, ni, &one, pa, ni,
                                       pb, ni, &zero, c, ni)
                         : cublasDgemmStridedBatched(d.blas, CUBLAS_OP_N, CUBLAS_OP_N, ni, ni, ni,
                                                     &one, pa, ni, n * n, pb, ni, n * n, &zero, c,
                                                     ni, n * n, static_cast<int>(batch)),
              base_name);
    } else {
      blas_ok(batch == 1 ? cublasSgemm(d.blas, CUBLAS_OP_N, CUBLAS_OP_N, ni, ni, ni, &one, pa, ni,
                                       pb, ni, &zero, c, ni)
                         : cublasSgemmStridedBatched(d.blas, CUBLAS_OP_N, CUBLAS_OP_N, ni, ni, ni,
                                                     &one, pa, ni, n * n, pb, ni, n * n, &zero, c,
                                                     ni, n * n, static_cast<int>(batch)),
              base_name);
    }
  };
  const double t_ours = time_ms(t, ours);
  const double t_base = time_ms(t, direct);
  const double expect = static_cast<double>(n) / 8.0;
  {
    Exported ec(out.get(0));
    const double first = batch == 1 ? ec.at({0, 0}) : ec.at({0, 0, 0});
    const double last = batch == 1 ? ec.at({n - 1, n - 1}) : ec.at({n - 1, n - 1, batch - 1});
    BENCH_CHECK(first == expect && last == expect, "tfe_matmul result");
    BENCH_CHECK(device_value<T>(c, 0) == expect && device_value<T>(c, elems - 1) == expect,
                "direct cuBLAS result");
  }
  report(what, t_ours, base_name, t_base, 1.05);
  cuda_ok(cudaFree(c), "cudaFree");
  tfe_tensor_release(a);
  tfe_tensor_release(b);
  return 0;
}

int bench_add(const Direct& d) {
  const int64_t n = 100000000;
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  std::vector<float> h(static_cast<size_t>(n), 1.5f);
  tfe_tensor* a = device_tensor(TFE_F32, {n}, h.data());
  std::fill(h.begin(), h.end(), 2.0f);
  tfe_tensor* b = device_tensor(TFE_F32, {n}, h.data());
  std::vector<float>().swap(h);
  Exported ea(a);
  float* c = device_alloc<float>(n);
  Outputs out;
  auto ours = [&] {
    out.clear();
    tfe_ok(tfe_add(out.slot(0), a, b), "tfe_add");
  };
  auto copy = [&] {
    cuda_ok(cudaMemcpyAsync(c, ea.data(), bytes, cudaMemcpyDeviceToDevice, d.s), "cudaMemcpyAsync");
  };
  const Timing t{1, 20, 5};
  const double t_add = time_ms(t, ours);
  const double t_copy = time_ms(t, copy);
  {
    Exported ec(out.get(0));
    BENCH_CHECK(ec.at({0}) == 3.5 && ec.at({n - 1}) == 3.5, "tfe_add result");
    BENCH_CHECK(device_value<float>(c, n - 1) == 1.5f, "device-to-device copy");
  }
  // Bytes moved: the add reads two arrays and writes one; the copy reads one and writes one.
  const double bw_add = 3.0 * static_cast<double>(bytes) / (t_add * 1e-3) / 1e9;
  const double bw_copy = 2.0 * static_cast<double>(bytes) / (t_copy * 1e-3) / 1e9;
  const double ratio = bw_add / bw_copy;
  const bool met = ratio >= 0.70;
  (met ? g_goals_met : g_goals_missed)++;
  std::printf("%-30s ours %10.4f ms (%5.0f GB/s)  cudaMemcpy D2D %10.4f ms (%5.0f GB/s)  "
              "bandwidth ratio %.3f  goal >= 0.70 %s\n",
              "add F32 1e8", t_add, bw_add, t_copy, bw_copy, ratio, met ? "met" : "MISSED");
  cuda_ok(cudaFree(c), "cudaFree");
  tfe_tensor_release(a);
  tfe_tensor_release(b);
  return 0;
}

// ---- dense linear algebra (F64) --------------------------------------------------------------

uint64_t g_rng = 0x2545f4914f6cdd1dull;
double uniform() { // in [-0.5, 0.5)
  g_rng = g_rng * 6364136223846793005ull + 1442695040888963407ull;
  return static_cast<double>(g_rng >> 11) / 9007199254740992.0 - 0.5;
}

// batch [n, n] matrices: random symmetric plus `shift` on the diagonal (positive definite and
// well conditioned for shift n), column-major, matrix after matrix.
std::vector<double> spd_matrices(int64_t n, int64_t batch, double shift) {
  std::vector<double> h(static_cast<size_t>(n * n * batch));
  for (int64_t b = 0; b < batch; ++b) {
    double* m = h.data() + b * n * n;
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i <= j; ++i) m[i + j * n] = m[j + i * n] = uniform();
    for (int64_t i = 0; i < n; ++i) m[i * (n + 1)] += shift;
  }
  return h;
}

std::vector<double> random_values(int64_t count) {
  std::vector<double> h(static_cast<size_t>(count));
  for (double& v : h) v = uniform();
  return h;
}

// One F64 problem of order n on the device: a [n, n] (symmetric positive definite) and a
// right-hand side b [n, 1], both library tensors, with their device memory.
struct Problem {
  int64_t n;
  tfe_tensor* a;
  tfe_tensor* b;
  Exported* ea;
  Exported* eb;
};

Problem make_problem(int64_t n) {
  std::vector<double> a = spd_matrices(n, 1, static_cast<double>(n));
  std::vector<double> b = random_values(n);
  Problem p{n, device_tensor(TFE_F64, {n, n}, a.data()), device_tensor(TFE_F64, {n, 1}, b.data()),
            nullptr, nullptr};
  p.ea = new Exported(p.a);
  p.eb = new Exported(p.b);
  return p;
}

void release_problem(Problem& p) {
  delete p.ea;
  delete p.eb;
  tfe_tensor_release(p.a);
  tfe_tensor_release(p.b);
}

// The info of the direct call read back, as a caller of cuSOLVER checks it.
void direct_info_zero(const Direct& d, const int* info, const char* what) {
  int h = -1;
  cuda_ok(cudaMemcpyAsync(&h, info, sizeof h, cudaMemcpyDeviceToHost, d.s), "read info");
  cuda_ok(cudaStreamSynchronize(d.s), "cudaStreamSynchronize");
  if (h != 0) {
    char detail[32];
    std::snprintf(detail, sizeof detail, "info %d", h);
    die(what, detail);
  }
}

void label(char* buf, size_t size, const char* fn, int64_t n) {
  std::snprintf(buf, size, "%s F64 n=%lld", fn, static_cast<long long>(n));
}

// solve: X with A X = b; getrf + getrs on copies of A and b.
int bench_solve(const Direct& d, const Problem& p, const Timing& t) {
  const int64_t n = p.n;
  const int ni = static_cast<int>(n);
  const size_t a_bytes = static_cast<size_t>(n * n) * sizeof(double);
  double* w = device_alloc<double>(n * n);
  double* x = device_alloc<double>(n);
  int* ipiv = device_alloc<int>(n);
  int* info = device_alloc<int>(1);
  int lwork = 0;
  solver_ok(cusolverDnDgetrf_bufferSize(d.solver, ni, ni, w, ni, &lwork), "getrf_bufferSize");
  double* work = device_alloc<double>(lwork);
  Outputs out;
  auto ours = [&] {
    out.clear();
    tfe_ok(tfe_linalg_solve(out.slot(0), p.a, p.b), "tfe_linalg_solve");
  };
  auto direct = [&] {
    cuda_ok(cudaMemcpyAsync(w, p.ea->data(), a_bytes, cudaMemcpyDeviceToDevice, d.s), "copy");
    cuda_ok(cudaMemcpyAsync(x, p.eb->data(), sizeof(double) * static_cast<size_t>(n),
                            cudaMemcpyDeviceToDevice, d.s),
            "copy");
    solver_ok(cusolverDnDgetrf(d.solver, ni, ni, w, ni, work, ipiv, info), "cusolverDnDgetrf");
    solver_ok(cusolverDnDgetrs(d.solver, CUBLAS_OP_N, ni, 1, w, ni, ipiv, x, ni, info),
              "cusolverDnDgetrs");
  };
  const double t_ours = time_ms(t, ours);
  const double t_base = time_ms(t, direct);
  char what[64];
  label(what, sizeof what, "solve", n);
  {
    Exported ex(out.get(0));
    for (int64_t i : {int64_t{0}, n / 2, n - 1})
      BENCH_CHECK(close(ex.at({i, 0}), device_value<double>(x, i), 1e-8, 1e-3), what);
  }
  report(what, t_ours, "cusolverDnDgetrf + getrs", t_base, 1.05);
  for (void* q : {static_cast<void*>(w), static_cast<void*>(x), static_cast<void*>(ipiv),
                  static_cast<void*>(info), static_cast<void*>(work)})
    cuda_ok(cudaFree(q), "cudaFree");
  return 0;
}

// qr: reduced Q and R; geqrf on a copy of A (R in its upper triangle), orgqr on a copy of that.
int bench_qr(const Direct& d, const Problem& p, const Timing& t) {
  const int64_t n = p.n;
  const int ni = static_cast<int>(n);
  const size_t a_bytes = static_cast<size_t>(n * n) * sizeof(double);
  double* f = device_alloc<double>(n * n);
  double* q = device_alloc<double>(n * n);
  double* tau = device_alloc<double>(n);
  int* info = device_alloc<int>(1);
  int lwork_f = 0, lwork_q = 0;
  solver_ok(cusolverDnDgeqrf_bufferSize(d.solver, ni, ni, f, ni, &lwork_f), "geqrf_bufferSize");
  solver_ok(cusolverDnDorgqr_bufferSize(d.solver, ni, ni, ni, q, ni, tau, &lwork_q),
            "orgqr_bufferSize");
  const int lwork = std::max(lwork_f, lwork_q);
  double* work = device_alloc<double>(lwork);
  Outputs out;
  auto ours = [&] {
    out.clear();
    tfe_ok(tfe_linalg_qr(out.slot(0), out.slot(1), p.a), "tfe_linalg_qr");
  };
  auto direct = [&] {
    cuda_ok(cudaMemcpyAsync(f, p.ea->data(), a_bytes, cudaMemcpyDeviceToDevice, d.s), "copy");
    solver_ok(cusolverDnDgeqrf(d.solver, ni, ni, f, ni, tau, work, lwork, info),
              "cusolverDnDgeqrf");
    cuda_ok(cudaMemcpyAsync(q, f, a_bytes, cudaMemcpyDeviceToDevice, d.s), "copy");
    solver_ok(cusolverDnDorgqr(d.solver, ni, ni, ni, q, ni, tau, work, lwork, info),
              "cusolverDnDorgqr");
  };
  const double t_ours = time_ms(t, ours);
  const double t_base = time_ms(t, direct);
  char what[64];
  label(what, sizeof what, "qr", n);
  {
    // Magnitudes: a sign gauge of the library would flip rows of R and columns of Q together.
    Exported eq(out.get(0)), er(out.get(1));
    for (int64_t i : {int64_t{0}, n / 2, n - 1}) {
      BENCH_CHECK(
          close(std::fabs(er.at({i, i})), std::fabs(device_value<double>(f, i * (n + 1))), 1e-8),
          what);
      BENCH_CHECK(close(std::fabs(er.at({0, i})), std::fabs(device_value<double>(f, i * n)), 1e-8),
                  what);
      BENCH_CHECK(close(std::fabs(eq.at({n - 1 - i, i})),
                        std::fabs(device_value<double>(q, (n - 1 - i) + i * n)), 1e-6, 1e-3),
                  what);
    }
    BENCH_CHECK(er.at({n - 1, 0}) == 0.0, "qr: R is upper triangular");
  }
  report(what, t_ours, "cusolverDnDgeqrf + orgqr", t_base, 1.05);
  for (void* v : {static_cast<void*>(f), static_cast<void*>(q), static_cast<void*>(tau),
                  static_cast<void*>(info), static_cast<void*>(work)})
    cuda_ok(cudaFree(v), "cudaFree");
  return 0;
}

// eigh: values and vectors; syevd (lower) on a copy of A, info read back.
int bench_eigh(const Direct& d, const Problem& p, const Timing& t) {
  const int64_t n = p.n;
  const int ni = static_cast<int>(n);
  const size_t a_bytes = static_cast<size_t>(n * n) * sizeof(double);
  double* v = device_alloc<double>(n * n);
  double* w = device_alloc<double>(n);
  int* info = device_alloc<int>(1);
  int lwork = 0;
  solver_ok(cusolverDnDsyevd_bufferSize(d.solver, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER,
                                        ni, v, ni, w, &lwork),
            "syevd_bufferSize");
  double* work = device_alloc<double>(lwork);
  Outputs out;
  auto ours = [&] {
    out.clear();
    tfe_ok(tfe_linalg_eigh(out.slot(0), out.slot(1), p.a), "tfe_linalg_eigh");
  };
  auto direct = [&] {
    cuda_ok(cudaMemcpyAsync(v, p.ea->data(), a_bytes, cudaMemcpyDeviceToDevice, d.s), "copy");
    solver_ok(cusolverDnDsyevd(d.solver, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, ni, v,
                               ni, w, work, lwork, info),
              "cusolverDnDsyevd");
    direct_info_zero(d, info, "cusolverDnDsyevd");
  };
  const double t_ours = time_ms(t, ours);
  const double t_base = time_ms(t, direct);
  char what[64];
  label(what, sizeof what, "eigh", n);
  {
    Exported ew(out.get(0));
    for (int64_t i : {int64_t{0}, n / 2, n - 1})
      BENCH_CHECK(close(ew.at({i}), device_value<double>(w, i), 1e-9), what);
  }
  report(what, t_ours, "cusolverDnDsyevd", t_base, 1.05);
  for (void* q : {static_cast<void*>(v), static_cast<void*>(w), static_cast<void*>(info),
                  static_cast<void*>(work)})
    cuda_ok(cudaFree(q), "cudaFree");
  return 0;
}

// svd: reduced U, S, Vh; gesvd ('S', 'A': the library's call for a square matrix) on a copy of A,
// info read back.
int bench_svd(const Direct& d, const Problem& p, const Timing& t) {
  const int64_t n = p.n;
  const int ni = static_cast<int>(n);
  const size_t a_bytes = static_cast<size_t>(n * n) * sizeof(double);
  double* a = device_alloc<double>(n * n);
  double* s = device_alloc<double>(n);
  double* u = device_alloc<double>(n * n);
  double* vt = device_alloc<double>(n * n);
  int* info = device_alloc<int>(1);
  int lwork = 0;
  solver_ok(cusolverDnDgesvd_bufferSize(d.solver, ni, ni, &lwork), "gesvd_bufferSize");
  double* work = device_alloc<double>(lwork);
  Outputs out;
  auto ours = [&] {
    out.clear();
    tfe_ok(tfe_linalg_svd(out.slot(0), out.slot(1), out.slot(2), p.a), "tfe_linalg_svd");
  };
  auto direct = [&] {
    cuda_ok(cudaMemcpyAsync(a, p.ea->data(), a_bytes, cudaMemcpyDeviceToDevice, d.s), "copy");
    solver_ok(cusolverDnDgesvd(d.solver, 'S', 'A', ni, ni, a, ni, s, u, ni, vt, ni, work, lwork,
                               nullptr, info),
              "cusolverDnDgesvd");
    direct_info_zero(d, info, "cusolverDnDgesvd");
  };
  const double t_ours = time_ms(t, ours);
  const double t_base = time_ms(t, direct);
  char what[64];
  label(what, sizeof what, "svd", n);
  {
    Exported es(out.get(1));
    for (int64_t i : {int64_t{0}, n / 2, n - 1})
      BENCH_CHECK(close(es.at({i}), device_value<double>(s, i), 1e-9), what);
  }
  report(what, t_ours, "cusolverDnDgesvd", t_base, 1.05);
  for (void* q : {static_cast<void*>(a), static_cast<void*>(s), static_cast<void*>(u),
                  static_cast<void*>(vt), static_cast<void*>(info), static_cast<void*>(work)})
    cuda_ok(cudaFree(q), "cudaFree");
  return 0;
}

// cholesky: L; potrf (lower) on a copy of A, info read back.
int bench_cholesky(const Direct& d, const Problem& p, const Timing& t) {
  const int64_t n = p.n;
  const int ni = static_cast<int>(n);
  const size_t a_bytes = static_cast<size_t>(n * n) * sizeof(double);
  double* l = device_alloc<double>(n * n);
  int* info = device_alloc<int>(1);
  int lwork = 0;
  solver_ok(cusolverDnDpotrf_bufferSize(d.solver, CUBLAS_FILL_MODE_LOWER, ni, l, ni, &lwork),
            "potrf_bufferSize");
  double* work = device_alloc<double>(lwork);
  Outputs out;
  auto ours = [&] {
    out.clear();
    tfe_ok(tfe_linalg_cholesky(out.slot(0), p.a), "tfe_linalg_cholesky");
  };
  auto direct = [&] {
    cuda_ok(cudaMemcpyAsync(l, p.ea->data(), a_bytes, cudaMemcpyDeviceToDevice, d.s), "copy");
    solver_ok(cusolverDnDpotrf(d.solver, CUBLAS_FILL_MODE_LOWER, ni, l, ni, work, lwork, info),
              "cusolverDnDpotrf");
    direct_info_zero(d, info, "cusolverDnDpotrf");
  };
  const double t_ours = time_ms(t, ours);
  const double t_base = time_ms(t, direct);
  char what[64];
  label(what, sizeof what, "cholesky", n);
  {
    Exported el(out.get(0));
    for (int64_t i : {int64_t{0}, n / 2, n - 1})
      BENCH_CHECK(close(el.at({n - 1, i}), device_value<double>(l, (n - 1) + i * n), 1e-9, 1e-3),
                  what);
    BENCH_CHECK(el.at({0, n - 1}) == 0.0, "cholesky: L is lower triangular");
  }
  report(what, t_ours, "cusolverDnDpotrf", t_base, 1.05);
  for (void* q : {static_cast<void*>(l), static_cast<void*>(info), static_cast<void*>(work)})
    cuda_ok(cudaFree(q), "cudaFree");
  return 0;
}

// solve of batch systems of order n (one right-hand side each): the batched cuBLAS LU against
// direct cublasDgetrfBatched + cublasDgetrsBatched on copies of A and b (their pointer arrays
// built once, outside the timing).
int bench_solve_batched(const Direct& d, int64_t n, int64_t batch, const Timing& t) {
  std::vector<double> ha = random_values(n * n * batch);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < n; ++i) ha[static_cast<size_t>(b * n * n + i * (n + 1))] += 2.0 * n;
  std::vector<double> hb = random_values(n * batch);
  tfe_tensor* a = device_tensor(TFE_F64, {n, n, batch}, ha.data());
  tfe_tensor* b = device_tensor(TFE_F64, {n, 1, batch}, hb.data());
  Exported ea(a), eb(b);
  double* w = device_alloc<double>(n * n * batch);
  double* x = device_alloc<double>(n * batch);
  int* ipiv = device_alloc<int>(n * batch);
  int* info = device_alloc<int>(batch);
  std::vector<double*> hw(static_cast<size_t>(batch)), hx(static_cast<size_t>(batch));
  for (int64_t i = 0; i < batch; ++i) {
    hw[static_cast<size_t>(i)] = w + i * n * n;
    hx[static_cast<size_t>(i)] = x + i * n;
  }
  double** w_ptrs = device_alloc<double*>(batch);
  double** x_ptrs = device_alloc<double*>(batch);
  cuda_ok(cudaMemcpy(w_ptrs, hw.data(), hw.size() * sizeof(double*), cudaMemcpyHostToDevice),
          "upload");
  cuda_ok(cudaMemcpy(x_ptrs, hx.data(), hx.size() * sizeof(double*), cudaMemcpyHostToDevice),
          "upload");
  const int ni = static_cast<int>(n), bi = static_cast<int>(batch);
  Outputs out;
  auto ours = [&] {
    out.clear();
    tfe_ok(tfe_linalg_solve(out.slot(0), a, b), "tfe_linalg_solve");
  };
  auto direct = [&] {
    cuda_ok(
        cudaMemcpyAsync(w, ea.data(), sizeof(double) * ha.size(), cudaMemcpyDeviceToDevice, d.s),
        "copy");
    cuda_ok(
        cudaMemcpyAsync(x, eb.data(), sizeof(double) * hb.size(), cudaMemcpyDeviceToDevice, d.s),
        "copy");
    blas_ok(cublasDgetrfBatched(d.blas, ni, w_ptrs, ni, ipiv, info, bi), "cublasDgetrfBatched");
    int arg_info = 0;
    blas_ok(cublasDgetrsBatched(d.blas, CUBLAS_OP_N, ni, 1, w_ptrs, ni, ipiv, x_ptrs, ni, &arg_info,
                                bi),
            "cublasDgetrsBatched");
    if (arg_info != 0) die("cublasDgetrsBatched", "invalid argument");
  };
  const double t_ours = time_ms(t, ours);
  const double t_base = time_ms(t, direct);
  char what[64];
  std::snprintf(what, sizeof what, "solve F64 %lldx%lldx%lld", static_cast<long long>(batch),
                static_cast<long long>(n), static_cast<long long>(n));
  {
    Exported ex(out.get(0));
    for (int64_t bb : {int64_t{0}, batch / 2, batch - 1})
      for (int64_t i : {int64_t{0}, n - 1})
        BENCH_CHECK(close(ex.at({i, 0, bb}), device_value<double>(x, bb * n + i), 1e-9, 1e-3),
                    what);
  }
  report(what, t_ours, "cublasDgetrf/getrsBatched", t_base, 0);
  for (void* q : {static_cast<void*>(w), static_cast<void*>(x), static_cast<void*>(ipiv),
                  static_cast<void*>(info), static_cast<void*>(w_ptrs), static_cast<void*>(x_ptrs)})
    cuda_ok(cudaFree(q), "cudaFree");
  tfe_tensor_release(a);
  tfe_tensor_release(b);
  return 0;
}

// The plugin's potrf or getrf entry on F64 [n, n] x batch against a loop of direct cuSOLVER calls
// on the same buffers (each call factors a fresh copy: the copy is in both timings).
int bench_plugin_factor(const Direct& d, bool lu, int64_t n, int64_t batch, const Timing& t) {
  const size_t bytes = static_cast<size_t>(n * n * batch) * sizeof(double);
  std::vector<double> h = spd_matrices(n, batch, static_cast<double>(n));
  double* src = device_alloc<double>(n * n * batch);
  double* a = device_alloc<double>(n * n * batch);
  cuda_ok(cudaMemcpy(src, h.data(), bytes, cudaMemcpyHostToDevice), "upload");
  int* info = device_alloc<int>(batch);
  int* ipiv = device_alloc<int>(n * batch);
  const int ni = static_cast<int>(n);
  int lwork = 0;
  if (lu)
    solver_ok(cusolverDnDgetrf_bufferSize(d.solver, ni, ni, a, ni, &lwork), "getrf_bufferSize");
  else
    solver_ok(cusolverDnDpotrf_bufferSize(d.solver, CUBLAS_FILL_MODE_LOWER, ni, a, ni, &lwork),
              "potrf_bufferSize");
  double* work = device_alloc<double>(lwork);
  auto ours = [&] {
    entry_ok(P->copy_on_device(0, a, src, bytes), "plugin copy_on_device");
    entry_ok(lu ? P->getrf(0, TFE_F64, n, n, batch, a, ipiv, info)
                : P->potrf(0, TFE_F64, 0, n, batch, a, info),
             lu ? "plugin getrf" : "plugin potrf");
  };
  auto direct = [&] {
    cuda_ok(cudaMemcpyAsync(a, src, bytes, cudaMemcpyDeviceToDevice, d.s), "copy");
    for (int64_t b = 0; b < batch; ++b) {
      double* m = a + b * n * n;
      if (lu)
        solver_ok(cusolverDnDgetrf(d.solver, ni, ni, m, ni, work, ipiv + b * n, info + b),
                  "cusolverDnDgetrf");
      else
        solver_ok(
            cusolverDnDpotrf(d.solver, CUBLAS_FILL_MODE_LOWER, ni, m, ni, work, lwork, info + b),
            "cusolverDnDpotrf");
    }
  };
  char what[64];
  std::snprintf(what, sizeof what, "plugin %s F64 %lldx%lldx%lld", lu ? "getrf" : "potrf",
                static_cast<long long>(batch), static_cast<long long>(n),
                static_cast<long long>(n));
  const double t_ours = time_ms(t, ours);
  std::vector<int> hi(static_cast<size_t>(batch));
  sync_all();
  cuda_ok(cudaMemcpy(hi.data(), info, hi.size() * sizeof(int), cudaMemcpyDeviceToHost), "info");
  for (int v : hi) BENCH_CHECK(v == 0, what);
  const double first = device_value<double>(a, 0);
  const double t_base = time_ms(t, direct);
  BENCH_CHECK(close(first, device_value<double>(a, 0), 1e-12), what);
  report(what, t_ours, lu ? "cusolverDnDgetrf loop" : "cusolverDnDpotrf loop", t_base, 0);
  for (void* q : {static_cast<void*>(src), static_cast<void*>(a), static_cast<void*>(info),
                  static_cast<void*>(ipiv), static_cast<void*>(work)})
    cuda_ok(cudaFree(q), "cudaFree");
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0); // every line out at once, even under a time limit
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
  // The library loads this same plugin (one stream, one allocator), unless told otherwise.
  setenv("TFE_CUDA_PLUGIN", path, 0);
  int32_t lib_count = 0;
  tfe_ok(tfe_device_count(&lib_count), "tfe_device_count");
  if (lib_count == 0) die("tfe_device_count", "the library sees no CUDA device");
  tfe_ok(tfe_context_create(&g_ctx), "tfe_context_create");
  cudaDeviceProp prop{};
  cuda_ok(cudaSetDevice(0), "cudaSetDevice");
  cuda_ok(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  std::printf("bench_cuda on %s: ours = the public C API on device tensors, direct = cuBLAS / "
              "cuSOLVER on the same buffers; ms per call, median\n",
              prop.name);
  Direct d;
  cuda_ok(cudaStreamCreateWithFlags(&d.s, cudaStreamNonBlocking), "cudaStreamCreate");
  blas_ok(cublasCreate(&d.blas), "cublasCreate");
  blas_ok(cublasSetStream(d.blas, d.s), "cublasSetStream");
  solver_ok(cusolverDnCreate(&d.solver), "cusolverDnCreate");
  solver_ok(cusolverDnSetStream(d.solver, d.s), "cusolverDnSetStream");
  const auto start = std::chrono::steady_clock::now();

  bench_matmul<double>(d, TFE_F64, 4096, 1, {1, 5, 5}, "matmul F64 n=4096", "cublasDgemm");
  bench_matmul<float>(d, TFE_F32, 4096, 1, {1, 10, 5}, "matmul F32 n=4096", "cublasSgemm");
  bench_matmul<double>(d, TFE_F64, 8, 10000, {1, 200, 5}, "matmul F64 10000x8x8",
                       "cublasDgemmStridedBatched");
  bench_matmul<float>(d, TFE_F32, 8, 10000, {1, 200, 5}, "matmul F32 10000x8x8",
                      "cublasSgemmStridedBatched");
  bench_add(d);

  // n = 1024: a warm-up call, then the median of three timings. n = 4096: fewer calls; its eigh
  // and svd take seconds per call, so they run last (a time limit cuts them first), without a
  // warm-up (n = 1024 has warmed their code and handles).
  Problem p1 = make_problem(1024);
  bench_solve(d, p1, {1, 5, 3});
  bench_qr(d, p1, {1, 3, 3});
  bench_cholesky(d, p1, {1, 5, 3});
  bench_eigh(d, p1, {1, 2, 3});
  bench_svd(d, p1, {1, 1, 3});
  release_problem(p1);
  Problem p4 = make_problem(4096);
  bench_solve(d, p4, {1, 2, 3});
  bench_qr(d, p4, {1, 1, 3});
  bench_cholesky(d, p4, {1, 3, 3});

  bench_solve_batched(d, 8, 10000, {1, 50, 5});
  bench_plugin_factor(d, false, 256, 64, {1, 3, 3});
  bench_plugin_factor(d, true, 256, 64, {1, 3, 3});

  bench_eigh(d, p4, {0, 1, 2});
  bench_svd(d, p4, {0, 1, 1});
  release_problem(p4);

  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  std::printf("goals: %d met, %d missed (%.0f s)\n", g_goals_met, g_goals_missed, took.count());
  cusolverDnDestroy(d.solver);
  cublasDestroy(d.blas);
  cudaStreamDestroy(d.s);
  tfe_context_release(g_ctx);
  std::printf("bench_cuda: %s\n", g_failures == 0 ? "done" : "FAILED");
  return g_failures == 0 ? 0 : 1;
}
