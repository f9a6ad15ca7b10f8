// The elementwise entries: lookup by the op table's name and a dtype, then checked launches.
#include <cstring>

#include "backend/cuda/device_state.cuh"
#include "backend/cuda/elementwise.cuh"
#include "backend/cuda/status.cuh"

namespace tfe::cuda {
namespace {

std::span<const EwEntry> group(int i) {
  switch (i) {
  case 0: return ew_arithmetic_entries();
  case 1: return ew_logical_entries();
  case 2: return ew_analytic_real_entries();
  case 3: return ew_analytic_complex_entries();
  default: return {};
  }
}
constexpr int kGroups = 4;

// Op ids number the rows of the groups in order.
const EwEntry* entry_by_id(int32_t id) {
  if (id < 0) return nullptr;
  size_t i = static_cast<size_t>(id);
  for (int k = 0; k < kGroups; ++k) {
    auto rows = group(k);
    if (i < rows.size()) return &rows[i];
    i -= rows.size();
  }
  return nullptr;
}

bool same_shape(const tfe_dev_view& a, const tfe_dev_view& b) {
  if (a.rank != b.rank) return false;
  for (int32_t d = 0; d < a.rank; ++d)
    if (a.shape[d] != b.shape[d]) return false;
  return true;
}

const char* rhs_message(const EwEntry& e) {
  if (std::strcmp(e.name, "pow") == 0) return "integer power with a negative exponent";
  if (std::strcmp(e.name, "rem") == 0) return "integer remainder by zero";
  return "integer division by zero";
}

// The id of the row named op_name keyed by dtype, or -1.
int32_t find_row(const char* op_name, int32_t dtype) {
  int32_t id = 0;
  for (int k = 0; k < kGroups; ++k)
    for (const EwEntry& e : group(k)) {
      if (e.key == dtype && std::strcmp(e.name, op_name) == 0) return id;
      ++id;
    }
  return -1;
}

} // namespace

// select's first operand is its Bool predicate, so the library looks it up by Bool: the id
// returned is the Bool-valued row's, and elementwise picks the row of the values' dtype.
int32_t elementwise_lookup(const char* op_name, int32_t dtype, int32_t* op) {
  if (op_name == nullptr || op == nullptr)
    return fail(TFE_ERR_INVALID_ARGUMENT, "cuda elementwise lookup: NULL op name or output");
  if (std::strcmp(op_name, "select") == 0 && dtype != TFE_BOOL)
    return fail(TFE_ERR_NOT_SUPPORTED, "select with %s predicates is not supported on cuda",
                dtype_name(dtype));
  int32_t id = 0;
  for (int k = 0; k < kGroups; ++k)
    for (const EwEntry& e : group(k)) {
      if (e.key == dtype && std::strcmp(e.name, op_name) == 0) {
        *op = id;
        return 0;
      }
      ++id;
    }
  return fail(TFE_ERR_NOT_SUPPORTED, "%s on %s is not supported on cuda", op_name,
              dtype_name(dtype));
}

int32_t elementwise_run(int32_t device, int32_t op, int64_t param, const tfe_dev_view* out,
                        int32_t n_in, const tfe_dev_view* in) {
  const EwEntry* e = entry_by_id(op);
  if (e == nullptr) return fail(TFE_ERR_INVALID_ARGUMENT, "cuda: unknown elementwise op id %d", op);
  if ((e->flags & kEwSelect) && n_in == 3 && in != nullptr && in[1].dtype != e->key) {
    e = entry_by_id(find_row("select", in[1].dtype));
    if (e == nullptr)
      return fail(TFE_ERR_NOT_SUPPORTED, "select of %s values is not supported on cuda",
                  dtype_name(in[1].dtype));
  }
  if (out == nullptr || (n_in > 0 && in == nullptr) || n_in != e->arity)
    return fail(TFE_ERR_INVALID_ARGUMENT, "cuda %s: expected %d operands, got %d", e->name,
                e->arity, n_in);
  if (out->dtype != e->out)
    return fail(TFE_ERR_DTYPE_MISMATCH, "cuda %s: the result is %s, expected %s", e->name,
                dtype_name(out->dtype), dtype_name(e->out));
  if (out->rank < 0 || out->rank > TFE_PLUGIN_MAX_RANK)
    return fail(TFE_ERR_INVALID_ARGUMENT, "cuda %s: rank %d is above %d", e->name, out->rank,
                TFE_PLUGIN_MAX_RANK);
  for (int32_t k = 0; k < n_in; ++k) {
    if (in[k].dtype != e->in[k])
      return fail(TFE_ERR_DTYPE_MISMATCH, "cuda %s: operand %d is %s, expected %s", e->name, k + 1,
                  dtype_name(in[k].dtype), dtype_name(e->in[k]));
    if (!same_shape(in[k], *out))
      return fail(TFE_ERR_SHAPE_MISMATCH, "cuda %s: operand %d does not have the result's shape",
                  e->name, k + 1);
  }
  if (e->flags & kEwCompare) {
    const bool complex = e->in[0] == TFE_C32 || e->in[0] == TFE_C64;
    if (param < 0 || param > 5 || (complex && param > 1))
      return fail(TFE_ERR_INVALID_ARGUMENT, "cuda compare: direction %lld is not supported on %s",
                  static_cast<long long>(param), dtype_name(e->in[0]));
  }

  DeviceState* s = nullptr;
  TFE_CUDA_CHECK(bind_device(device, &s));
  EwLaunch a{};
  const int64_t* strides[kMaxOperands] = {out->strides};
  for (int32_t k = 0; k < n_in; ++k) strides[k + 1] = in[k].strides;
  a.n = make_geometry(out->rank, out->shape, n_in + 1, strides, &a.g);
  if (a.n == 0) return 0;
  a.stream = s->stream;
  a.grid = grid_for(*s, a.n, kEwThreads);
  a.param = param;
  a.ptr[0] = out->data;
  for (int32_t k = 0; k < n_in; ++k) a.ptr[k + 1] = in[k].data;

  const bool checks = (e->flags & kEwChecksRhs) && (e->in[0] == TFE_I32 || e->in[0] == TFE_I64);
  void* flag = nullptr;
  if (checks) {
    TFE_CUDA_CHECK(s->allocator.allocate(sizeof(int), &flag));
    cudaError_t err = cudaMemsetAsync(flag, 0, sizeof(int), s->stream);
    if (err != cudaSuccess) {
      s->allocator.release(flag, sizeof(int));
      return cuda_fail(device, err, "cudaMemsetAsync");
    }
    a.flag = static_cast<int*>(flag);
  }
  e->launch(a);
  cudaError_t err = cudaGetLastError();
  int raised = 0;
  if (checks) {
    if (err == cudaSuccess)
      err = cudaMemcpyAsync(&raised, flag, sizeof(int), cudaMemcpyDeviceToHost, s->stream);
    if (err == cudaSuccess) err = cudaStreamSynchronize(s->stream);
    s->allocator.release(flag, sizeof(int));
  }
  if (err != cudaSuccess) return cuda_fail(device, err, e->name);
  if (raised) return fail(TFE_ERR_NUMERICAL, "%s", rhs_message(*e));
  return 0;
}

} // namespace tfe::cuda
