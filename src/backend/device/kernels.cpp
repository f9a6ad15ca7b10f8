// Device kernels over the plugin's primitives (kernels.hpp).
#include "backend/device/kernels.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <atomic>
#include <utility>

#include "backend/cpu/kernels/kernels.hpp"
#include "backend/device/plugin.hpp"
#include "backend/execute.hpp"
#include "backend/transfer.hpp"
#include "core/error.hpp"
#include "ops/extension.hpp"

namespace tfe::device {
namespace {

using ops::OpCode;
using ops::OpGroup;

thread_local Device t_current{};

std::string op_text(OpCode code) { return std::string(ops::op_def(code).name); }

[[noreturn]] void lacks(OpCode code, DType dtype, Device d) {
  fail(Status::NotSupported, "the CUDA backend has no %s kernel for %s tensors (on %s)",
       op_text(code).c_str(), std::string(dtype_name(dtype)).c_str(), device_name(d).c_str());
}

Tensor zeros(Device d, DType dtype, const Dims& shape) {
  std::array<std::byte, 16> zero{};
  return filled(d, dtype, shape, zero.data());
}

// ---- elementwise: one plugin kernel per (op, dtype), looked up once ----

constexpr bool is_elementwise(OpGroup g) {
  return g == OpGroup::Arithmetic || g == OpGroup::Logical || g == OpGroup::Analytic ||
         g == OpGroup::ComplexParts || g == OpGroup::Comparison;
}

// Plugin ids by op and dtype: kUnknown until looked up, kMissing when the plugin lacks the pair.
constexpr int32_t kUnknown = -2, kMissing = -1;
struct IdCache {
  std::array<std::array<std::atomic<int32_t>, kNumDTypes + 1>, ops::kNumOps> ids;
  IdCache() {
    for (auto& row : ids)
      for (auto& v : row) v.store(kUnknown, std::memory_order_relaxed);
  }
};

int32_t elementwise_id(const tfe_device_plugin& api, OpCode code, DType dtype) {
  static IdCache cache;
  auto& slot = cache.ids[static_cast<size_t>(code)][static_cast<size_t>(dtype)];
  int32_t id = slot.load(std::memory_order_relaxed);
  if (id == kUnknown) {
    // Two threads may both look up: the plugin answers the same, so either store is right.
    std::string name = op_text(code);
    int32_t got = 0;
    id = api.elementwise_lookup(name.c_str(), static_cast<int32_t>(dtype), &got) == 0 && got >= 0
             ? got
             : kMissing;
    slot.store(id, std::memory_order_relaxed);
  }
  return id;
}

template <OpCode Op>
Tensor elementwise(Operands in, const ops::Params& p, const ops::ConcreteMeta& m) {
  Device d = in[0].device();
  const tfe_device_plugin& api = serving(d);
  int32_t id = elementwise_id(api, Op, in[0].dtype());
  if (id == kMissing) lacks(Op, in[0].dtype(), d);
  Tensor out = empty(d, m.dtype, m.shape);
  if (out.numel() == 0) return out;
  int64_t param = 0;
  if constexpr (Op == OpCode::Compare)
    param = static_cast<int64_t>(std::get<ops::CompareParams>(p).dir);
  std::array<tfe_dev_view, 3> views{};
  for (size_t i = 0; i < in.size(); ++i) views[i] = view_of(in[i]);
  tfe_dev_view o = view_of(out);
  check(api,
        api.elementwise(d.ordinal, id, param, &o, static_cast<int32_t>(in.size()), views.data()),
        op_text(Op).c_str());
  return out;
}

// ---- reductions ----

template <int32_t Kind>
Tensor reduce(Operands in, const ops::Params& p, const ops::ConcreteMeta& m) {
  Device d = in[0].device();
  const tfe_device_plugin& api = serving(d);
  Tensor out = empty(d, m.dtype, m.shape);
  if (out.numel() == 0) return out;
  uint64_t mask = 0;
  for (int64_t a : std::get<ops::AxesParams>(p).axes) mask |= uint64_t{1} << a;
  tfe_dev_view o = view_of(out), i = view_of(in[0]);
  check(api, api.reduce(d.ordinal, Kind, mask, &o, &i), "a reduction on the device");
  return out;
}

// ---- contraction: operands laid out as [M,K,B] and [K,N,B], then one batched GEMM ----

Dims concat(std::initializer_list<const Dims*> parts) {
  Dims out;
  for (const Dims* p : parts) out.insert(out.end(), p->begin(), p->end());
  return out;
}

int64_t extent_of(const Tensor& t, const Dims& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= t.dim(d);
  return n;
}

Tensor dot_general(Operands in, const ops::Params& params, const ops::ConcreteMeta& m) {
  const auto& p = std::get<ops::DotGeneralParams>(params);
  Device d = in[0].device();
  const tfe_device_plugin& api = serving(d);
  Dims lfree = cpu::kernels::free_dims(in[0].ndim(), p.lhs_batch, p.lhs_contracting);
  Dims rfree = cpu::kernels::free_dims(in[1].ndim(), p.rhs_batch, p.rhs_contracting);
  int64_t M = extent_of(in[0], lfree), K = extent_of(in[0], p.lhs_contracting);
  int64_t N = extent_of(in[1], rfree), B = extent_of(in[0], p.lhs_batch);
  if (M * N * B == 0) return empty(d, m.dtype, m.shape);
  if (K == 0) return zeros(d, m.dtype, m.shape);
  // Permuted views are free; a copy happens only when the permuted layout is not compact.
  Tensor a = compact(in[0].permuted(concat({&lfree, &p.lhs_contracting, &p.lhs_batch})));
  Tensor b = compact(in[1].permuted(concat({&p.rhs_contracting, &rfree, &p.rhs_batch})));
  Tensor out = empty(d, m.dtype, m.shape);
  if (is_inexact(m.dtype)) {
    std::array<std::byte, 16> one{}, zero{};
    visit_dtype(m.dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (is_inexact(dtype_of_v<T>)) {
        T v = T(1);
        std::memcpy(one.data(), &v, sizeof(T));
      }
    });
    check(api,
          api.gemm(d.ordinal, static_cast<int32_t>(m.dtype), 'N', 'N', M, N, K, one.data(),
                   a.raw_data(), M, M * K, b.raw_data(), K, K * N, zero.data(), out.raw_data(), M,
                   M * N, B),
          "a matrix product on the device");
    return out;
  }
  // Integer and Bool contractions (no BLAS type): the product of broadcast views, summed over
  // K. Memory M*K*N*B, which integer contractions on a device are not expected to stress.
  Dims full{M, K, N, B};
  Tensor av = a.with_layout(full, Dims{1, M, 0, M * K}, a.offset());
  Tensor bv = b.with_layout(full, Dims{0, 1, K, K * N}, b.offset());
  ops::ConcreteMeta pm{m.dtype, full};
  std::array<Tensor, 2> operands{av, bv};
  Tensor prod = m.dtype == DType::Bool ? elementwise<OpCode::And>(operands, ops::NoParams{}, pm)
                                       : elementwise<OpCode::Mul>(operands, ops::NoParams{}, pm);
  ops::ConcreteMeta rm{m.dtype, Dims{M, N, B}};
  std::array<Tensor, 1> summed{prod};
  Tensor r = m.dtype == DType::Bool
                 ? reduce<TFE_PLUGIN_REDUCE_MAX>(summed, ops::AxesParams{Dims{1}}, rm)
                 : reduce<TFE_PLUGIN_REDUCE_SUM>(summed, ops::AxesParams{Dims{1}}, rm);
  return r.with_layout(m.shape, compact_strides(m.shape), r.offset());
}

// ---- structural ----

Tensor reshape(Operands in, const ops::Params&, const ops::ConcreteMeta& m) {
  if (auto view = in[0].reshaped_view(m.shape)) return *view;
  Tensor c = compact(in[0]);
  return c.with_layout(m.shape, compact_strides(m.shape), c.offset());
}

Tensor convert(Operands in, const ops::Params&, const ops::ConcreteMeta& m) {
  Tensor out = empty(in[0].device(), m.dtype, m.shape);
  copy_into(out, in[0]);
  return out;
}

Tensor embed_diag(Operands in, const ops::Params& p, const ops::ConcreteMeta& m) {
  const auto& dp = std::get<ops::DiagParams>(p);
  Tensor out = zeros(in[0].device(), m.dtype, m.shape);
  copy_into(cpu::kernels::diagonal_view(out, dp.axis_a, dp.axis_b), in[0]);
  return out;
}

template <bool Lower>
Tensor triangle(Operands in, const ops::Params& p, const ops::ConcreteMeta& m) {
  Device d = in[0].device();
  const tfe_device_plugin& api = serving(d);
  Tensor out = empty(d, m.dtype, m.shape);
  if (out.numel() == 0) return out;
  // Beyond [-rows, cols] every k gives the same result; clamping keeps the plugin's j - i - k
  // from overflowing for extreme k.
  int64_t k = std::clamp(std::get<ops::TriangleParams>(p).k, -m.shape[0], m.shape[1]);
  tfe_dev_view o = view_of(out), i = view_of(in[0]);
  check(api, api.triangle(d.ordinal, Lower ? 1 : 0, k, &o, &i), "tril/triu on the device");
  return out;
}

Tensor pad(Operands in, const ops::Params& p, const ops::ConcreteMeta& m) {
  Tensor out = zeros(in[0].device(), m.dtype, m.shape);
  if (auto place = cpu::kernels::pad_placement(out, in[0], std::get<ops::PadParams>(p)))
    copy_into(place->first, place->second);
  return out;
}

Tensor concatenate(Operands in, const ops::Params& p, const ops::ConcreteMeta& m) {
  int64_t axis = std::get<ops::AxisParams>(p).axis;
  Tensor out = empty(in[0].device(), m.dtype, m.shape);
  size_t r = m.shape.size();
  Dims starts(r, 0), limits = m.shape, steps(r, 1);
  int64_t at = 0;
  for (const Tensor& t : in) {
    starts[static_cast<size_t>(axis)] = at;
    at += t.dim(axis);
    limits[static_cast<size_t>(axis)] = at;
    if (t.numel() > 0) copy_into(out.sliced(starts, limits, steps), t);
  }
  return out;
}

// ---- indexing by device tensors (gather, scatter, dynamic slices) ----

// t as a view of `shape` (same elements in column-major order): a view where the strides allow
// it, else a compact copy. A tensor without elements gets compact strides (nothing is read).
Tensor viewed_as(const Tensor& t, const Dims& shape) {
  if (t.numel() == 0) return t.with_layout(shape, compact_strides(shape), t.offset());
  if (auto v = t.reshaped_view(shape)) return *v;
  Tensor c = compact(t);
  return c.with_layout(shape, compact_strides(shape), c.offset());
}

// Dims before the axis, the axis, dims after, as the host's kernels split them: without elements
// on one side neither side counts (their product may not be representable).
struct AxisSplit {
  int64_t inner = 1, extent = 1, outer = 1;
};
AxisSplit split_at(const Dims& shape, int64_t axis) {
  std::span<const int64_t> all(shape);
  size_t a = static_cast<size_t>(axis);
  AxisSplit s{numel_of(all.first(a)), shape[a], numel_of(all.subspan(a + 1))};
  if (s.inner == 0 || s.outer == 0) s.inner = s.outer = 0;
  return s;
}

// A plugin indexing call that checks indices: an out-of-range index is named as the host names
// it (the indices are read to the host on this failure path only).
void check_indexing(const tfe_device_plugin& api, int32_t status, const Tensor& indices,
                    int64_t extent, const char* what) {
  if (status == static_cast<int32_t>(Status::InvalidArgument)) {
    Tensor h = cpu::kernels::convert_to(to_device(indices, Device{}), DType::I64);
    const int64_t* v = h.data<int64_t>();
    for (int64_t i = 0; i < h.numel(); ++i)
      if (v[i] < 0 || v[i] >= extent)
        fail(Status::InvalidArgument, "index %lld at position %zu is out of range [0, %lld)",
             (long long)v[i], static_cast<size_t>(i), (long long)extent);
  }
  check(api, status, what);
}

Tensor gather(Operands in, const ops::Params& p, const ops::ConcreteMeta& m) {
  Device d = in[0].device();
  const tfe_device_plugin& api = serving(d);
  AxisSplit s = split_at(in[0].shape(), std::get<ops::AxisParams>(p).axis);
  int64_t n = in[1].numel();
  Tensor out = empty(d, m.dtype, m.shape);
  if (n == 0) return out; // no index to check, no element to copy
  Tensor x = viewed_as(in[0], {s.inner, s.extent, s.outer});
  Tensor idx = viewed_as(in[1], {n});
  Tensor o = viewed_as(out, {s.inner, n, s.outer});
  tfe_dev_view ov = view_of(o), xv = view_of(x), iv = view_of(idx);
  check_indexing(api, api.gather(d.ordinal, TFE_PLUGIN_INDEX_AXIS, &ov, &xv, &iv), in[1], s.extent,
                 "gather on the device");
  return out;
}

Tensor scatter(Operands in, const ops::Params& p, const ops::ConcreteMeta&) {
  Device d = in[0].device();
  const tfe_device_plugin& api = serving(d);
  AxisSplit s = split_at(in[0].shape(), std::get<ops::AxisParams>(p).axis);
  int64_t n = in[1].numel();
  Tensor out = copy(in[0]);
  if (n == 0) return out;
  Tensor o = viewed_as(out, {s.inner, s.extent, s.outer});
  Tensor idx = viewed_as(in[1], {n});
  Tensor u = viewed_as(in[2], {s.inner, n, s.outer});
  tfe_dev_view ov = view_of(o), uv = view_of(u), iv = view_of(idx);
  check_indexing(api, api.scatter(d.ordinal, TFE_PLUGIN_INDEX_AXIS, &ov, &uv, &iv), in[1], s.extent,
                 "scatter on the device");
  return out;
}

// The start indices are read on the device, so the block is a copy (the host's is a view).
Tensor dynamic_slice(Operands in, const ops::Params&, const ops::ConcreteMeta& m) {
  Device d = in[0].device();
  const tfe_device_plugin& api = serving(d);
  Tensor out = empty(d, m.dtype, m.shape);
  if (out.numel() == 0) return out;
  tfe_dev_view ov = view_of(out), xv = view_of(in[0]), iv = view_of(in[1]);
  check(api, api.gather(d.ordinal, TFE_PLUGIN_INDEX_BLOCK, &ov, &xv, &iv),
        "dynamic_slice on the device");
  return out;
}

Tensor dynamic_update_slice(Operands in, const ops::Params&, const ops::ConcreteMeta&) {
  Device d = in[0].device();
  const tfe_device_plugin& api = serving(d);
  Tensor out = copy(in[0]);
  if (in[1].numel() == 0) return out;
  tfe_dev_view ov = view_of(out), uv = view_of(in[1]), iv = view_of(in[2]);
  check(api, api.scatter(d.ordinal, TFE_PLUGIN_INDEX_BLOCK, &ov, &uv, &iv),
        "dynamic_update_slice on the device");
  return out;
}

// ---- order: scans, arg-extrema and argsort along one axis ----

int64_t axis_of(const ops::Params& p) {
  if (const auto* s = std::get_if<ops::SortParams>(&p)) return s->axis;
  return std::get<ops::AxisParams>(p).axis;
}

template <int32_t Kind> Tensor scan(Operands in, const ops::Params& p, const ops::ConcreteMeta& m) {
  Device d = in[0].device();
  const tfe_device_plugin& api = serving(d);
  Tensor out = empty(d, m.dtype, m.shape);
  if (out.numel() == 0) return out;
  tfe_dev_view ov = view_of(out), xv = view_of(in[0]);
  check(api, api.scan(d.ordinal, Kind, static_cast<int32_t>(axis_of(p)), &ov, &xv),
        Kind == TFE_PLUGIN_REDUCE_SUM ? "cumsum on the device" : "cumprod on the device");
  return out;
}

template <bool Max>
Tensor arg_extremum(Operands in, const ops::Params& p, const ops::ConcreteMeta& m) {
  Device d = in[0].device();
  const tfe_device_plugin& api = serving(d);
  int64_t axis = axis_of(p);
  Tensor out = empty(d, DType::I64, m.shape);
  if (out.numel() == 0) return out;
  if (in[0].dim(axis) == 0)
    fail(Status::InvalidArgument, "%s of an empty axis (axis %lld has extent 0)",
         Max ? "argmax" : "argmin", (long long)axis);
  // The result seen with the operand's rank: extent 1 (any stride) at the axis.
  Dims shape = in[0].shape(), strides(shape.size(), 0);
  shape[static_cast<size_t>(axis)] = 1;
  Dims cs = compact_strides(m.shape);
  for (size_t k = 0, j = 0; k < shape.size(); ++k)
    if (k != static_cast<size_t>(axis)) strides[k] = cs[j++];
  Tensor o = out.with_layout(shape, strides, out.offset());
  tfe_dev_view ov = view_of(o), xv = view_of(in[0]);
  check(api, api.arg_extremum(d.ordinal, Max ? 1 : 0, static_cast<int32_t>(axis), &ov, &xv),
        Max ? "argmax on the device" : "argmin on the device");
  return out;
}

Tensor argsort(Operands in, const ops::Params& p, const ops::ConcreteMeta& m) {
  const auto& sp = std::get<ops::SortParams>(p);
  Device d = in[0].device();
  const tfe_device_plugin& api = serving(d);
  Tensor out = empty(d, DType::I64, m.shape);
  if (out.numel() == 0) return out;
  tfe_dev_view ov = view_of(out), xv = view_of(in[0]);
  check(api, api.argsort(d.ordinal, sp.descending ? 1 : 0, static_cast<int32_t>(sp.axis), &ov, &xv),
        "argsort on the device");
  return out;
}

// Ops without operands build their (small) result on the host and upload it to the device the
// running program targets.
template <backend::Kernel HostKernel>
Tensor uploaded(Operands in, const ops::Params& p, const ops::ConcreteMeta& m) {
  return to_device(HostKernel(in, p, m), CurrentDevice::get());
}

// The kernels that are views on the CPU are views on any device: they only build metadata.
backend::Kernel view_kernel(OpCode code) {
  namespace k = cpu::kernels;
  switch (code) {
  case OpCode::Transpose: return k::transpose;
  case OpCode::BroadcastInDim: return k::broadcast_in_dim;
  case OpCode::Reverse: return k::reverse;
  case OpCode::ExtractDiag: return k::extract_diag;
  case OpCode::Slice: return k::slice;
  default: return nullptr;
  }
}

template <size_t... I> constexpr auto elementwise_table(std::index_sequence<I...>) {
  return std::array<backend::Kernel, sizeof...(I)>{(is_elementwise(ops::kOpTable[I].group)
                                                        ? &elementwise<static_cast<OpCode>(I)>
                                                        : backend::Kernel{nullptr})...};
}
constexpr auto kElementwise =
    elementwise_table(std::make_index_sequence<static_cast<size_t>(ops::kNumOps)>{});

// The linear algebra ops: those whose kernels take device operands run (backend/lapack.hpp
// picks the device's solver); the others are NotSupported naming the op.
void multi_output(Operands in, const ops::Params& params, std::span<const ops::ConcreteMeta> out,
                  std::span<Tensor> results) {
  const auto& p = std::get<ops::ExtensionParams>(params);
  if (!p.def->runs_on_devices())
    fail(Status::NotSupported, "the CUDA backend has no %s kernel for %s tensors (on %s)",
         std::string(p.def->name()).c_str(),
         std::string(dtype_name(in.empty() ? DType::F64 : in[0].dtype())).c_str(),
         device_name(in.empty() ? CurrentDevice::get() : in[0].device()).c_str());
  p.def->run(in, p, out, results);
}

Tensor extension(Operands in, const ops::Params& p, const ops::ConcreteMeta& out) {
  std::array<Tensor, 1> result;
  multi_output(in, p, std::span<const ops::ConcreteMeta>(&out, 1), result);
  return std::move(result[0]);
}

backend::Kernel kernel_for(OpCode code) {
  if (backend::Kernel k = kElementwise[static_cast<size_t>(code)]) return k;
  if (backend::Kernel k = view_kernel(code)) return k;
  switch (code) {
  case OpCode::DotGeneral: return dot_general;
  case OpCode::ReduceSum: return reduce<TFE_PLUGIN_REDUCE_SUM>;
  case OpCode::ReduceProd: return reduce<TFE_PLUGIN_REDUCE_PROD>;
  case OpCode::ReduceMax: return reduce<TFE_PLUGIN_REDUCE_MAX>;
  case OpCode::ReduceMin: return reduce<TFE_PLUGIN_REDUCE_MIN>;
  case OpCode::Reshape: return reshape;
  case OpCode::Convert: return convert;
  case OpCode::EmbedDiag: return embed_diag;
  case OpCode::Tril: return triangle<true>;
  case OpCode::Triu: return triangle<false>;
  case OpCode::Pad: return pad;
  case OpCode::Concatenate: return concatenate;
  case OpCode::Iota: return uploaded<cpu::kernels::iota>;
  case OpCode::Transfer: return backend::transfer;
  case OpCode::Constant: return uploaded<cpu::kernels::constant>;
  case OpCode::Extension: return extension;
  case OpCode::DynamicSlice: return dynamic_slice;
  case OpCode::DynamicUpdateSlice: return dynamic_update_slice;
  case OpCode::Gather: return gather;
  case OpCode::Scatter: return scatter;
  case OpCode::Cumsum: return scan<TFE_PLUGIN_REDUCE_SUM>;
  case OpCode::Cumprod: return scan<TFE_PLUGIN_REDUCE_PROD>;
  case OpCode::Argsort: return argsort;
  case OpCode::Argmax: return arg_extremum<true>;
  case OpCode::Argmin: return arg_extremum<false>;
  default: return nullptr;
  }
}

} // namespace

void copy_into(const Tensor& dst, const Tensor& src) {
  if (dst.numel() == 0) return;
  const tfe_device_plugin& api = serving(dst.device());
  tfe_dev_view o = view_of(dst), i = view_of(src);
  check(api, api.copy_strided(dst.device().ordinal, &o, &i), "a strided copy on the device");
}

void fill_view(const Tensor& dst, const void* value) {
  if (dst.numel() == 0) return;
  const tfe_device_plugin& api = serving(dst.device());
  tfe_dev_view o = view_of(dst);
  check(api, api.fill(dst.device().ordinal, &o, value), "filling on the device");
}

Tensor filled(Device d, DType dtype, const Dims& shape, const void* value) {
  Tensor out = empty(d, dtype, shape);
  fill_view(out, value);
  return out;
}

Tensor copy(const Tensor& t) {
  Tensor out = empty(t.device(), t.dtype(), t.shape());
  copy_into(out, t);
  return out;
}

Tensor compact(const Tensor& t) { return t.is_compact() ? t : copy(t); }

CurrentDevice::CurrentDevice(Device d) : saved_(t_current) { t_current = d; }
CurrentDevice::~CurrentDevice() { t_current = saved_; }
Device CurrentDevice::get() { return t_current; }

const backend::Backend& cuda_backend() {
  static constexpr backend::Backend kCuda{"cuda", &kernel_for, &multi_output, nullptr};
  return kCuda;
}

namespace {

// Host scalars (backend::is_host_scalar) among in, uploaded as their one element and broadcast
// on d again; empty when every operand is on d already.
std::vector<Tensor> placed_on(Device d, Operands in) {
  std::vector<Tensor> placed;
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i].device() == d) continue;
    if (placed.empty()) placed.assign(in.begin(), in.end());
    Tensor one = to_device(in[i].with_layout({}, {}, in[i].offset()), d);
    placed[i] = one.with_layout(in[i].shape(), Dims(in[i].shape().size(), 0), one.offset());
  }
  return placed;
}

} // namespace

Tensor execute(OpCode code, Operands in, const ops::Params& params) {
  std::array<ops::Meta, 4> small;
  std::vector<ops::Meta> big;
  std::span<ops::Meta> metas;
  if (in.size() <= small.size()) {
    metas = std::span<ops::Meta>(small.data(), in.size());
  } else {
    big.resize(in.size());
    metas = big;
  }
  for (size_t i = 0; i < in.size(); ++i) metas[i] = {in[i].dtype(), in[i].shape()};
  ops::ConcreteMeta out = ops::concrete(ops::infer_meta(code, metas, params));
  Device d = backend::device_of(in);
  backend::Kernel k = kernel_for(code);
  if (!k) lacks(code, in.empty() ? out.dtype : in[0].dtype(), d);
  CurrentDevice on(d);
  std::vector<Tensor> placed = placed_on(d, in);
  return k(placed.empty() ? in : Operands(std::span<const Tensor>(placed)), params, out);
}

std::vector<Tensor> execute_multi(OpCode code, Operands in, const ops::Params& params) {
  if (code != OpCode::Extension) return {execute(code, in, params)};
  std::vector<ops::Meta> metas;
  for (const Tensor& t : in) metas.push_back({t.dtype(), t.shape()});
  std::vector<ops::ConcreteMeta> out;
  for (const ops::Meta& m : ops::infer_metas(code, metas, params)) out.push_back(ops::concrete(m));
  Device d = backend::device_of(in);
  CurrentDevice on(d);
  std::vector<Tensor> placed = placed_on(d, in);
  std::vector<Tensor> results(out.size());
  multi_output(placed.empty() ? in : Operands(std::span<const Tensor>(placed)), params, out,
               results);
  return results;
}

} // namespace tfe::device
