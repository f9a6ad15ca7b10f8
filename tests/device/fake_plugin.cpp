// A host-memory stand-in for the CUDA plugin, so that placement, transfers, dispatch, the device
// backend's kernels and every error path run in tests on machines without a GPU. Its "device
// addresses" are host addresses with the top bit set: any host code that dereferences device
// memory by mistake faults at once instead of silently working, as it would on a real GPU.
// Kernels are the CPU backend's, run on the decoded memory, so results must equal the host's;
// the indexing and ordering entries instead run the CUDA kernels' own per-element and per-line
// code (backend/device/kernel_bodies.hpp) in serial loops, with std::stable_sort for CUB's sort.
#include <algorithm>
#include <atomic>
#include <complex>
#include <cstdlib>
#include <cstring>
#include <string>

#include "backend/cpu/kernel.hpp"
#include "backend/cpu/kernels/kernels.hpp"
#include "backend/cpu/kernels/scalar_math.hpp"
#include "backend/device/kernel_bodies.hpp"
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

// ---- indexing and ordering: the CUDA plugin's bodies (kernel_bodies.hpp) in serial loops ----

namespace kb = tfe::kernel_bodies;

int64_t count_of(const tfe_dev_view& v) {
  int64_t n = 1;
  for (int32_t d = 0; d < v.rank; ++d) n *= v.shape[d];
  return n;
}

// f(index pointer) for an I32 or I64 index view.
template <class F> void visit_index(const tfe_dev_view& index, F&& f) {
  if (index.dtype == static_cast<int32_t>(DType::I32))
    f(host(static_cast<const int32_t*>(index.data)));
  else if (index.dtype == static_cast<int32_t>(DType::I64))
    f(host(static_cast<const int64_t*>(index.data)));
  else
    fail(Status::DtypeMismatch, "fake indexing: indices must be I32 or I64");
}

template <class I> bool all_in_range(const I* idx, int64_t n, int64_t stride, int64_t extent) {
  bool ok = true;
  for (int64_t j = 0; j < n; ++j) ok = ok && kb::in_range(kb::index_at(idx, stride, j), extent);
  return ok;
}

// Stable sort of (key, value) pairs in each segment [offsets[s], offsets[s + 1]) by key, as
// cub::DeviceSegmentedSort::StableSortPairs does on the GPU.
template <class K>
void segmented_stable_sort(std::vector<K>& keys, std::vector<int64_t>& values,
                           const std::vector<int64_t>& offsets) {
  std::vector<std::pair<K, int64_t>> pairs(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) pairs[i] = {keys[i], values[i]};
  for (size_t s = 0; s + 1 < offsets.size(); ++s)
    std::stable_sort(pairs.begin() + offsets[s], pairs.begin() + offsets[s + 1],
                     [](const auto& a, const auto& b) { return a.first < b.first; });
  for (size_t i = 0; i < keys.size(); ++i) {
    keys[i] = pairs[i].first;
    values[i] = pairs[i].second;
  }
}

int32_t gather(int32_t device, int32_t mode, const tfe_dev_view* out, const tfe_dev_view* in,
               const tfe_dev_view* index) {
  if (int32_t s = bad_device(device)) return s;
  return guarded([&] {
    visit_dtype(static_cast<DType>(out->dtype), [&](auto tag) {
      using T = typename decltype(tag)::type;
      T* o = host(static_cast<T*>(out->data));
      const T* x = host(static_cast<const T*>(in->data));
      visit_index(*index, [&](const auto* idx) {
        if (mode == TFE_PLUGIN_INDEX_AXIS) {
          kb::AxisGeometry g = kb::axis_geometry(*in, *out, *index);
          bool ok = all_in_range(idx, g.n, g.index_stride, g.extent);
          int64_t total = g.inner * g.n * g.outer, so = 0, bo = 0;
          for (int64_t e = 0; e < total; ++e)
            if (kb::gather_offsets(g, idx, e, &so, &bo)) o[so] = x[bo];
          if (!ok) fail(Status::InvalidArgument, "fake gather: an index is out of range");
        } else {
          kb::BlockGeometry g = kb::block_geometry(*in, *out, *index);
          int64_t origin = kb::block_origin(g, idx), total = count_of(*out), so = 0, bo = 0;
          for (int64_t e = 0; e < total; ++e) {
            kb::block_offsets(g, e, &so, &bo);
            o[so] = x[origin + bo];
          }
        }
      });
    });
  });
}

template <class T> T add_of(T a, T b) {
  if constexpr (std::is_same_v<T, bool>)
    return a || b;
  else
    return cpu::wrap_add(a, b);
}

int32_t scatter(int32_t device, int32_t mode, const tfe_dev_view* out, const tfe_dev_view* in,
                const tfe_dev_view* index) {
  if (int32_t s = bad_device(device)) return s;
  return guarded([&] {
    visit_dtype(static_cast<DType>(out->dtype), [&](auto tag) {
      using T = typename decltype(tag)::type;
      T* o = host(static_cast<T*>(out->data));
      const T* u = host(static_cast<const T*>(in->data));
      visit_index(*index, [&](const auto* idx) {
        if (mode == TFE_PLUGIN_INDEX_AXIS) {
          kb::AxisGeometry g = kb::axis_geometry(*out, *in, *index);
          if (!all_in_range(idx, g.n, g.index_stride, g.extent))
            fail(Status::InvalidArgument, "fake scatter: an index is out of range");
          int64_t total = g.inner * g.extent * g.outer;
          if (total == 0) return;
          std::vector<uint64_t> keys(static_cast<size_t>(g.n));
          std::vector<int64_t> perm(keys.size());
          for (int64_t j = 0; j < g.n; ++j) {
            keys[static_cast<size_t>(j)] =
                static_cast<uint64_t>(kb::index_at(idx, g.index_stride, j));
            perm[static_cast<size_t>(j)] = j;
          }
          segmented_stable_sort(keys, perm, {0, g.n});
          std::vector<int64_t> seg(static_cast<size_t>(g.extent + 1));
          for (int64_t k = 0; k <= g.extent; ++k)
            seg[static_cast<size_t>(k)] =
                kb::lower_bound(keys.data(), g.n, static_cast<uint64_t>(k));
          for (int64_t e = 0; e < total; ++e)
            kb::scatter_add_element(g, e, o, u, perm.data(), seg.data(),
                                    [](T a, T b) { return add_of(a, b); });
        } else {
          kb::BlockGeometry g = kb::block_geometry(*out, *in, *index);
          int64_t origin = kb::block_origin(g, idx), total = count_of(*in), so = 0, bo = 0;
          for (int64_t e = 0; e < total; ++e) {
            kb::block_offsets(g, e, &so, &bo);
            o[origin + bo] = u[so];
          }
        }
      });
    });
  });
}

int32_t scan(int32_t device, int32_t kind, int32_t axis, const tfe_dev_view* out,
             const tfe_dev_view* in) {
  if (int32_t s = bad_device(device)) return s;
  return guarded([&] {
    visit_dtype(static_cast<DType>(in->dtype), [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_same_v<T, bool>) {
        fail(Status::NotSupported, "fake scan: no Bool scans");
      } else {
        kb::LineGeometry g = kb::line_geometry(*out, *in, axis);
        T* o = host(static_cast<T*>(out->data));
        const T* x = host(static_cast<const T*>(in->data));
        for (int64_t line = 0; line < g.lines; ++line) {
          if (kind == TFE_PLUGIN_REDUCE_SUM)
            kb::scan_line(g, line, o, x, [](T a, T b) { return cpu::wrap_add(a, b); });
          else
            kb::scan_line(g, line, o, x, [](T a, T b) { return cpu::wrap_mul(a, b); });
        }
      }
    });
  });
}

// arg_extremum and argsort: the lines of in (a real or integer dtype) along axis, with out's
// I64 positions; f(x, g, o) for the element type T of x.
template <class F>
int32_t over_ordered_lines(int32_t device, const char* what, int32_t axis, const tfe_dev_view* out,
                           const tfe_dev_view* in, F&& f) {
  if (int32_t s = bad_device(device)) return s;
  return guarded([&] {
    visit_dtype(static_cast<DType>(in->dtype), [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (is_complex_v<T>) {
        fail(Status::NotSupported, "fake %s: no complex values", what);
      } else {
        f(host(static_cast<const T*>(in->data)), kb::line_geometry(*out, *in, axis),
          host(static_cast<int64_t*>(out->data)));
      }
    });
  });
}

int32_t arg_extremum(int32_t device, int32_t is_max, int32_t axis, const tfe_dev_view* out,
                     const tfe_dev_view* in) {
  return over_ordered_lines(
      device, "arg_extremum", axis, out, in,
      [&](const auto* x, const kb::LineGeometry& g, int64_t* o) {
        for (int64_t line = 0; line < g.lines; ++line) {
          int64_t ob = 0, ib = 0;
          kb::line_bases(g, line, &ob, &ib);
          o[ob] = is_max ? kb::arg_fold<true>(x + ib, g.in_step, 0, g.extent, 1).pos
                         : kb::arg_fold<false>(x + ib, g.in_step, 0, g.extent, 1).pos;
        }
      });
}

int32_t argsort(int32_t device, int32_t descending, int32_t axis, const tfe_dev_view* out,
                const tfe_dev_view* in) {
  return over_ordered_lines(
      device, "argsort", axis, out, in, [&](const auto* x, const kb::LineGeometry& g, int64_t* o) {
        // As on the GPU: every line laid out compact as keys and positions, one segmented sort.
        size_t n = static_cast<size_t>(g.lines * g.extent);
        using T = std::remove_cv_t<std::remove_pointer_t<decltype(x)>>;
        std::vector<kb::sort_key_t<T>> keys(n);
        std::vector<int64_t> pos(n), offsets(static_cast<size_t>(g.lines + 1));
        for (int64_t line = 0; line < g.lines; ++line) {
          int64_t ob = 0, ib = 0;
          kb::line_bases(g, line, &ob, &ib);
          offsets[static_cast<size_t>(line)] = line * g.extent;
          for (int64_t k = 0; k < g.extent; ++k) {
            size_t e = static_cast<size_t>(line * g.extent + k);
            keys[e] = kb::sort_key(x[ib + k * g.in_step], descending != 0);
            pos[e] = k;
          }
        }
        offsets.back() = g.lines * g.extent;
        segmented_stable_sort(keys, pos, offsets);
        for (int64_t line = 0; line < g.lines; ++line) {
          int64_t ob = 0, ib = 0;
          kb::line_bases(g, line, &ob, &ib);
          for (int64_t k = 0; k < g.extent; ++k)
            o[ob + k * g.out_step] = pos[static_cast<size_t>(line * g.extent + k)];
        }
      });
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
                                geev,
                                gather,
                                scatter,
                                scan,
                                arg_extremum,
                                argsort};

} // namespace

extern "C" __attribute__((visibility("default"))) const tfe_device_plugin* tfe_device_plugin_v1() {
  return &kPlugin;
}

// Live device allocations, so tests can check that every device block was given back.
extern "C" __attribute__((visibility("default"))) int64_t tfe_fake_device_live_blocks() {
  return g_live.load();
}
