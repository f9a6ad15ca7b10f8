// A host-memory stand-in for the CUDA plugin, so that placement, transfers, dispatch, the device
// backend's kernels and every error path run in tests on machines without a GPU. Its "device
// addresses" are host addresses with the top bit set: any host code that dereferences device
// memory by mistake faults at once instead of silently working, as it would on a real GPU.
// Kernels are the CPU backend's, run on the decoded memory, so results must equal the host's.
#include <atomic>
#include <complex>
#include <cstdlib>
#include <cstring>
#include <string>

#include "backend/cpu/kernel.hpp"
#include "backend/cpu/kernels/kernels.hpp"
#include "backend/device/plugin_abi.h"
#include "core/error.hpp"
#include "ops/op_table.hpp"

using namespace tfe;

// The dense linear algebra, in fake_linalg.cpp: the ABI's entries of the same names on host
// pointers (device checked and addresses decoded here), failing by exception.
namespace tfe::fake_linalg {
void potrf(int32_t dtype, int32_t upper, int64_t n, int64_t batch, void* a, int32_t* info);
void getrf(int32_t dtype, int64_t m, int64_t n, int64_t batch, void* a, int32_t* ipiv,
           int32_t* info);
void getrs(int32_t dtype, char trans, int64_t n, int64_t nrhs, int64_t batch, const void* lu,
           const int32_t* ipiv, void* b);
void trsm(int32_t dtype, int32_t left, int32_t upper, char trans, int32_t unit_diagonal, int64_t m,
          int64_t n, int64_t batch, const void* a, void* b);
void geqrf(int32_t dtype, int64_t m, int64_t n, int64_t batch, void* a, void* tau);
void orgqr(int32_t dtype, int64_t m, int64_t n, int64_t k, int64_t batch, void* q, const void* tau);
void syevd(int32_t dtype, int32_t upper, int32_t vectors, int64_t n, int64_t batch, void* a,
           void* w, int32_t* info);
void gesvd(int32_t dtype, int32_t mode, int64_t m, int64_t n, int64_t batch, void* a, void* s,
           void* u, void* vh, int32_t* info);
void geev(int32_t dtype, int32_t vectors, int64_t n, int64_t batch, void* a, void* w, void* v,
          int32_t* info);
} // namespace tfe::fake_linalg

namespace {

constexpr uintptr_t kDeviceBit = uintptr_t{1} << 63;
thread_local std::string t_error;
std::atomic<int64_t> g_live{0};

void* decode(const void* p) {
  return reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(p) & ~kDeviceBit);
}
// decode keeping the pointee type (NULL stays NULL).
template <class T> T* host(T* p) {
  return reinterpret_cast<T*>(reinterpret_cast<uintptr_t>(p) & ~kDeviceBit);
}
void* encode(void* p) {
  return reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(p) | kDeviceBit);
}

int32_t devices() {
  const char* env = std::getenv("TFE_FAKE_DEVICES");
  return env ? std::atoi(env) : 2;
}

// The host tensor over a device view's memory (no ownership).
Tensor host_view(const tfe_dev_view& v) {
  Dims shape(v.shape, v.shape + v.rank), strides(v.strides, v.strides + v.rank);
  auto storage = Storage::adopt(decode(v.data), 0, nullptr, nullptr);
  return Tensor(std::move(storage), static_cast<DType>(v.dtype), std::move(shape),
                std::move(strides), 0);
}

template <class F> int32_t guarded(F&& f) {
  try {
    f();
    return 0;
  } catch (const Error& e) {
    t_error = e.what();
    return static_cast<int32_t>(e.status());
  } catch (const std::exception& e) {
    t_error = e.what();
    return 100;
  }
}

int32_t bad_device(int32_t device) {
  if (device >= 0 && device < devices()) return 0;
  t_error = "fake device " + std::to_string(device) + " does not exist";
  return 6;
}

const char* last_error() { return t_error.c_str(); }
int32_t device_count(int32_t* out) {
  *out = devices();
  return 0;
}
int32_t allocate(int32_t device, size_t bytes, void** out) {
  if (int32_t s = bad_device(device)) return s;
  if (bytes > (size_t{1} << 40)) {
    t_error = "fake device out of memory for " + std::to_string(bytes) + " bytes";
    return 4;
  }
  void* p = std::malloc(bytes ? bytes : 1);
  if (!p) return 4;
  g_live.fetch_add(1);
  *out = encode(p);
  return 0;
}
void release(int32_t, void* p, size_t) {
  g_live.fetch_sub(1);
  std::free(decode(p));
}
int32_t copy_bytes(int32_t device, void* dst, const void* src, size_t bytes) {
  if (int32_t s = bad_device(device)) return s;
  std::memcpy(decode(dst), decode(src), bytes);
  return 0;
}
int32_t synchronize(int32_t device) { return bad_device(device); }

int32_t elementwise_lookup(const char* name, int32_t dtype, int32_t* op) {
  auto code = ops::op_by_name(name);
  if (!code || !ops::op_def(*code).accepts.contains(static_cast<DType>(dtype))) {
    t_error = std::string("no fake kernel for ") + name;
    return 5;
  }
  *op = static_cast<int32_t>(*code);
  return 0;
}

int32_t elementwise(int32_t device, int32_t op, int64_t param, const tfe_dev_view* out,
                    int32_t n_in, const tfe_dev_view* in) {
  if (int32_t s = bad_device(device)) return s;
  return guarded([&] {
    std::vector<Tensor> xs;
    for (int32_t i = 0; i < n_in; ++i) xs.push_back(host_view(in[i]));
    auto code = static_cast<ops::OpCode>(op);
    ops::Params p = ops::NoParams{};
    if (code == ops::OpCode::Compare) p = ops::CompareParams{static_cast<ops::CompareDir>(param)};
    cpu::kernels::copy_into(host_view(*out), cpu::execute(code, xs, p));
  });
}

int32_t copy_strided(int32_t device, const tfe_dev_view* out, const tfe_dev_view* in) {
  if (int32_t s = bad_device(device)) return s;
  return guarded([&] {
    cpu::kernels::copy_into(
        host_view(*out), cpu::kernels::convert_to(host_view(*in), static_cast<DType>(out->dtype)));
  });
}

int32_t fill(int32_t device, const tfe_dev_view* out, const void* value) {
  if (int32_t s = bad_device(device)) return s;
  return guarded([&] {
    Tensor o = host_view(*out);
    Tensor one = Tensor::empty(o.dtype(), {});
    std::memcpy(one.raw_data(), value, static_cast<size_t>(itemsize(o.dtype())));
    cpu::kernels::copy_into(o, one.broadcast_view(o.shape(), {}));
  });
}

int32_t reduce(int32_t device, int32_t kind, uint64_t mask, const tfe_dev_view* out,
               const tfe_dev_view* in) {
  if (int32_t s = bad_device(device)) return s;
  return guarded([&] {
    Dims axes;
    for (int32_t d = 0; d < in->rank; ++d)
      if ((mask >> d) & 1u) axes.push_back(d);
    static constexpr ops::OpCode kCodes[] = {ops::OpCode::ReduceSum, ops::OpCode::ReduceProd,
                                             ops::OpCode::ReduceMax, ops::OpCode::ReduceMin};
    std::vector<Tensor> xs{host_view(*in)};
    cpu::kernels::copy_into(host_view(*out), cpu::execute(kCodes[kind], xs, ops::AxesParams{axes}));
  });
}

template <class T> T op_of(const T* m, int64_t ld, char trans, int64_t i, int64_t j) {
  if (trans == 'N') return m[i + j * ld];
  T v = m[j + i * ld];
  if constexpr (!std::is_floating_point_v<T>)
    if (trans == 'C') v = std::conj(v);
  return v;
}

template <class T>
void gemm_typed(char ta, char tb, int64_t m, int64_t n, int64_t k, const void* alpha, const void* a,
                int64_t lda, int64_t sa, const void* b, int64_t ldb, int64_t sb, const void* beta,
                void* c, int64_t ldc, int64_t sc, int64_t batch) {
  T al = *static_cast<const T*>(alpha), be = *static_cast<const T*>(beta);
  for (int64_t q = 0; q < batch; ++q) {
    const T* A = static_cast<const T*>(decode(a)) + q * sa;
    const T* B = static_cast<const T*>(decode(b)) + q * sb;
    T* C = static_cast<T*>(decode(c)) + q * sc;
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < m; ++i) {
        T acc{};
        for (int64_t p = 0; p < k; ++p) acc += op_of(A, lda, ta, i, p) * op_of(B, ldb, tb, p, j);
        C[i + j * ldc] = al * acc + (be == T{} ? T{} : be * C[i + j * ldc]);
      }
  }
}

int32_t gemm(int32_t device, int32_t dtype, char ta, char tb, int64_t m, int64_t n, int64_t k,
             const void* alpha, const void* a, int64_t lda, int64_t sa, const void* b, int64_t ldb,
             int64_t sb, const void* beta, void* c, int64_t ldc, int64_t sc, int64_t batch) {
  if (int32_t s = bad_device(device)) return s;
  switch (static_cast<DType>(dtype)) {
  case DType::F32:
    gemm_typed<float>(ta, tb, m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, c, ldc, sc, batch);
    return 0;
  case DType::F64:
    gemm_typed<double>(ta, tb, m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, c, ldc, sc, batch);
    return 0;
  case DType::C32:
    gemm_typed<std::complex<float>>(ta, tb, m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, c, ldc,
                                    sc, batch);
    return 0;
  case DType::C64:
    gemm_typed<std::complex<double>>(ta, tb, m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, c, ldc,
                                     sc, batch);
    return 0;
  default: t_error = "fake gemm has no integer types"; return 5;
  }
}

int32_t triangle(int32_t device, int32_t lower, int64_t k, const tfe_dev_view* out,
                 const tfe_dev_view* in) {
  if (int32_t s = bad_device(device)) return s;
  return guarded([&] {
    std::vector<Tensor> xs{host_view(*in)};
    cpu::kernels::copy_into(
        host_view(*out),
        cpu::execute(lower ? ops::OpCode::Tril : ops::OpCode::Triu, xs, ops::TriangleParams{k}));
  });
}

int32_t potrf(int32_t device, int32_t dtype, int32_t upper, int64_t n, int64_t batch, void* a,
              int32_t* info) {
  if (int32_t s = bad_device(device)) return s;
  return guarded([&] { fake_linalg::potrf(dtype, upper, n, batch, host(a), host(info)); });
}

int32_t getrf(int32_t device, int32_t dtype, int64_t m, int64_t n, int64_t batch, void* a,
              int32_t* ipiv, int32_t* info) {
  if (int32_t s = bad_device(device)) return s;
  return guarded([&] { fake_linalg::getrf(dtype, m, n, batch, host(a), host(ipiv), host(info)); });
}

int32_t getrs(int32_t device, int32_t dtype, char trans, int64_t n, int64_t nrhs, int64_t batch,
              const void* lu, const int32_t* ipiv, void* b) {
  if (int32_t s = bad_device(device)) return s;
  return guarded(
      [&] { fake_linalg::getrs(dtype, trans, n, nrhs, batch, host(lu), host(ipiv), host(b)); });
}

int32_t trsm(int32_t device, int32_t dtype, int32_t left, int32_t upper, char trans,
             int32_t unit_diagonal, int64_t m, int64_t n, int64_t batch, const void* a, void* b) {
  if (int32_t s = bad_device(device)) return s;
  return guarded([&] {
    fake_linalg::trsm(dtype, left, upper, trans, unit_diagonal, m, n, batch, host(a), host(b));
  });
}

int32_t geqrf(int32_t device, int32_t dtype, int64_t m, int64_t n, int64_t batch, void* a,
              void* tau) {
  if (int32_t s = bad_device(device)) return s;
  return guarded([&] { fake_linalg::geqrf(dtype, m, n, batch, host(a), host(tau)); });
}

int32_t orgqr(int32_t device, int32_t dtype, int64_t m, int64_t n, int64_t k, int64_t batch,
              void* q, const void* tau) {
  if (int32_t s = bad_device(device)) return s;
  return guarded([&] { fake_linalg::orgqr(dtype, m, n, k, batch, host(q), host(tau)); });
}

int32_t syevd(int32_t device, int32_t dtype, int32_t upper, int32_t vectors, int64_t n,
              int64_t batch, void* a, void* w, int32_t* info) {
  if (int32_t s = bad_device(device)) return s;
  return guarded(
      [&] { fake_linalg::syevd(dtype, upper, vectors, n, batch, host(a), host(w), host(info)); });
}

int32_t gesvd(int32_t device, int32_t dtype, int32_t mode, int64_t m, int64_t n, int64_t batch,
              void* a, void* s, void* u, void* vh, int32_t* info) {
  if (int32_t st = bad_device(device)) return st;
  return guarded([&] {
    fake_linalg::gesvd(dtype, mode, m, n, batch, host(a), host(s), host(u), host(vh), host(info));
  });
}

int32_t geev(int32_t device, int32_t dtype, int32_t vectors, int64_t n, int64_t batch, void* a,
             void* w, void* v, int32_t* info) {
  if (int32_t s = bad_device(device)) return s;
  return guarded(
      [&] { fake_linalg::geev(dtype, vectors, n, batch, host(a), host(w), host(v), host(info)); });
}

const tfe_device_plugin kPlugin{TFE_DEVICE_PLUGIN_ABI,
                                sizeof(tfe_device_plugin),
                                "cuda",
                                last_error,
                                device_count,
                                allocate,
                                release,
                                copy_bytes,
                                copy_bytes,
                                copy_bytes,
                                synchronize,
                                elementwise_lookup,
                                elementwise,
                                copy_strided,
                                fill,
                                reduce,
                                gemm,
                                triangle,
                                potrf,
                                getrf,
                                getrs,
                                trsm,
                                geqrf,
                                orgqr,
                                syevd,
                                gesvd,
                                geev};

} // namespace

extern "C" __attribute__((visibility("default"))) const tfe_device_plugin* tfe_device_plugin_v1() {
  return &kPlugin;
}

// Live device allocations, so tests can check that every device block was given back.
extern "C" __attribute__((visibility("default"))) int64_t tfe_fake_device_live_blocks() {
  return g_live.load();
}
