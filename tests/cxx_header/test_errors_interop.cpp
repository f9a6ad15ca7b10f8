// Every status the library can be driven to, as tfe::Error; zero-copy buffers and DLPack.
#include "support.hpp"

#include <atomic>
#include <cmath>

using cxxtest::check_close;
using cxxtest::require_status;
using cxxtest::values;

// TFE_ERR_INTERNAL needs a library bug and cannot be provoked; every other status is (a transfer
// to a CUDA device that does not exist is TFE_ERR_DEVICE on any machine).
TFE_TEST("every reachable status becomes a tfe::Error with that status", "[errors]") {
  tfe::Context ctx;
  const tfe::Tensor m = tfe::tensor(ctx, {1.0, 2.0, 3.0, 4.0, 5.0, 6.0}, {2, 3});
  const tfe::Tensor v3 = tfe::tensor(ctx, {1.0, 2.0, 3.0});
  const double nan = std::nan("");

  require_status([&] { tfe::transpose(m, {0, 0}); }, TFE_ERR_INVALID_ARGUMENT, "tfe_transpose");
  require_status([&] { tfe::set_num_threads(0); }, TFE_ERR_INVALID_ARGUMENT, "tfe_set_num_threads");
  require_status([&] { m.to(tfe::Device::cuda(99)); }, TFE_ERR_DEVICE, "tfe_tensor_to_device");
  CHECK(m.device() == tfe::Device::cpu());
  require_status([&] { tfe::DeviceScope on(ctx, tfe::Device::cuda(99)); }, TFE_ERR_DEVICE,
                 "tfe_device_scope_enter");
  {
    const tfe::DeviceScope on(ctx, tfe::Device::cpu()); // scopes nest; the host is a device too
    const tfe::DeviceScope again(ctx, tfe::Device::cpu());
    CHECK(tfe::zeros(ctx, tfe::DType::F64, {2}).device() == tfe::Device::cpu());
  }
  require_status([&] { tfe::detail::check(tfe_device_scope_exit(ctx.get())); },
                 TFE_ERR_INVALID_ARGUMENT, "tfe_device_scope_exit");
  require_status([&] { tfe::Tensor().numel(); }, TFE_ERR_INVALID_ARGUMENT, "tfe_tensor_numel");
  require_status([&] { tfe::sum(m, {5}); }, TFE_ERR_INVALID_ARGUMENT, "tfe_sum");
  require_status([&] { tfe::Function({v3}, {v3}); }, TFE_ERR_INVALID_ARGUMENT,
                 "tfe_function_create");
  {
    tfe::Context other;
    require_status([&] { m + tfe::tensor(other, {1.0}); }, TFE_ERR_INVALID_ARGUMENT, "tfe_add");
  }

  require_status([&] { m + v3; }, TFE_ERR_SHAPE_MISMATCH, "tfe_add");
  require_status([&] { tfe::matmul(m, m); }, TFE_ERR_SHAPE_MISMATCH, "tfe_matmul");
  require_status([&] { tfe::inv(m); }, TFE_ERR_SHAPE_MISMATCH, "tfe_linalg_inv");

  require_status([&] { tfe::exp(tfe::tensor(ctx, {int32_t{1}})); }, TFE_ERR_DTYPE_MISMATCH,
                 "tfe_exp");
  require_status([&] { tfe::convert(m, tfe::DType::I32); }, TFE_ERR_DTYPE_MISMATCH, "tfe_convert");
  require_status([&] { tfe::tensor(ctx, {int64_t{1}}).set_requires_grad(); },
                 TFE_ERR_DTYPE_MISMATCH, "tfe_tensor_set_requires_grad");

  // 2^45 doubles: 256 TiB, beyond any allocator.
  require_status([&] { tfe::zeros(ctx, tfe::DType::F64, {int64_t{1} << 45}); },
                 TFE_ERR_OUT_OF_MEMORY, "tfe_zeros");

  {
    const tfe::Context df = tfe::Context::dataflow();
    const tfe::Tensor x = tfe::tensor(df, {1.0}).set_requires_grad();
    require_status([&] { tfe::vjp(x * x, {x}); }, TFE_ERR_NOT_SUPPORTED, "tfe_vjp");
    require_status([&] { tfe::CaptureTrace capture(df); }, TFE_ERR_NOT_SUPPORTED,
                   "tfe_capture_trace_enter");
  }

  require_status([&] { tfe::sum(m * m).backward(); }, TFE_ERR_NOT_DIFFERENTIABLE, "tfe_backward");

  const tfe::Tensor singular = tfe::tensor(ctx, {1.0, 2.0, 2.0, 4.0}, {2, 2});
  require_status(
      [&] {
        tfe::solve(singular, tfe::tensor(ctx, {1.0, 1.0}, {2, 1}));
      },
      TFE_ERR_SINGULAR, "tfe_linalg_solve");
  {
    tfe::Tensor s = singular;
    s.set_requires_grad();
    const tfe::Tensor logabs = tfe::slogdet(s).logabs;
    require_status([&] { logabs.backward(); }, TFE_ERR_SINGULAR, "tfe_backward");
    CHECK(!s.grad()); // a failing backward stores nothing
  }

  const tfe::Tensor bad = tfe::tensor(ctx, {nan, 1.0, 1.0, 2.0}, {2, 2});
  require_status([&] { tfe::eigh(bad); }, TFE_ERR_NON_CONVERGENCE, "tfe_linalg_eigh");
  require_status([&] { tfe::svd(bad); }, TFE_ERR_NON_CONVERGENCE, "tfe_linalg_svd");

  require_status(
      [&] {
        tfe::cholesky(tfe::tensor(ctx, {1.0, 2.0, 2.0, 1.0}, {2, 2}));
      },
      TFE_ERR_NUMERICAL, "tfe_linalg_cholesky");
  require_status(
      [&] { tfe::div_trunc(tfe::tensor(ctx, {int32_t{1}}), tfe::tensor(ctx, {int32_t{0}})); },
      TFE_ERR_NUMERICAL, "tfe_div_trunc");
  require_status(
      [&] {
        tfe::zeros(ctx, tfe::DType::F64, {int64_t{1} << 62, 4});
      },
      TFE_ERR_NUMERICAL, "tfe_zeros");
}

TFE_TEST("a failing constructor or op leaks nothing", "[errors][handles]") {
  const int64_t base = tfe::debug_live_objects();
  tfe::Context ctx;
  const tfe::Tensor a = tfe::tensor(ctx, {1.0, 2.0});
  for (int i = 0; i < 3; ++i) {
    CHECK_THROWS_AS(a + tfe::tensor(ctx, {1.0, 2.0, 3.0}), tfe::Error);
    CHECK_THROWS_AS(tfe::eigh(a), tfe::Error);
    CHECK_THROWS_AS(tfe::Function({a}, {a}), tfe::Error);
  }
  CHECK(tfe::debug_live_objects() == base + 2);
}

namespace {

std::atomic<int> g_deleted{0};
void count_delete(void* data, void* user) {
  CHECK(data == user);
  ++g_deleted;
}

} // namespace

// The DLPack structs, from the DLPack specification (tenferro's header only declares them).
struct DLDevice {
  int32_t device_type;
  int32_t device_id;
};
struct DLDataType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
};
struct DLTensor {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;
  uint64_t byte_offset;
};
struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor* self);
};
struct DLPackVersion {
  uint32_t major;
  uint32_t minor;
};
struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(DLManagedTensorVersioned* self);
  uint64_t flags;
  DLTensor dl_tensor;
};

TFE_TEST("adopting caller memory", "[interop]") {
  tfe::Context ctx;
  g_deleted = 0;
  {
    double buf[4] = {1, 2, 3, 4};
    const tfe::Tensor t = tfe::from_buffer(ctx, tfe::DType::F64, {2, 2}, buf, count_delete, buf);
    CHECK(t.data_ptr() == buf);
    const tfe::Tensor u = t; // one more reference to the same storage
    CHECK(g_deleted == 0);
    const tfe::Tensor strided =
        tfe::from_buffer(ctx, tfe::DType::F64, {2}, buf, nullptr, nullptr, {2});
    check_close(values(strided), {1, 3});
    // Misaligned memory is refused and the deleter is not run.
    require_status(
        [&] {
          tfe::from_buffer(ctx, tfe::DType::F64, {1}, reinterpret_cast<char*>(buf) + 1,
                           count_delete, buf);
        },
        TFE_ERR_INVALID_ARGUMENT, "tfe_tensor_from_buffer");
  }
  CHECK(g_deleted == 1);

  std::vector<double> v = {1, 2, 3, 4, 5, 6};
  const double* storage = v.data();
  const tfe::Tensor t = tfe::adopt(ctx, std::move(v), {3, 2});
  CHECK(t.data_ptr() == storage); // not copied
  check_close(values(tfe::sum(t, {0})), {6, 15});
  std::vector<float> wrong = {1, 2, 3};
  require_status(
      [&] {
        tfe::adopt(ctx, std::move(wrong), {2, 2});
      },
      TFE_ERR_SHAPE_MISMATCH, "tfe::adopt");
}

namespace {
int g_dl_deleted = 0;
void dl_delete(DLManagedTensor*) { ++g_dl_deleted; }
} // namespace

TFE_TEST("DLPack export and import", "[interop]") {
  tfe::Context ctx;
  const tfe::Tensor a = tfe::tensor(ctx, {1.0, 2.0, 3.0, 4.0, 5.0, 6.0}, {2, 3});
  {
    tfe::dlpack_ptr<DLManagedTensor> dl(a.to_dlpack());
    REQUIRE(dl);
    CHECK(dl->dl_tensor.ndim == 2);
    CHECK(dl->dl_tensor.dtype.code == 2); // kDLFloat
    CHECK(dl->dl_tensor.dtype.bits == 64);
    CHECK(dl->dl_tensor.shape[0] == 2);
    CHECK(dl->dl_tensor.strides[0] == 1);
    CHECK(dl->dl_tensor.strides[1] == 2);
    CHECK(dl->dl_tensor.data == a.data_ptr());
    // Importing hands the capsule to the new tensor, which shares the memory.
    const tfe::Tensor back = tfe::from_dlpack(ctx, dl.release());
    CHECK(back.data_ptr() == a.data_ptr());
    check_close(values(back), values(a));
  }
  {
    tfe::dlpack_ptr<DLManagedTensorVersioned> dl(a.to_dlpack_versioned());
    CHECK(dl->version.major == 1);
    CHECK((dl->flags & 1) == 1); // read-only
    const tfe::Tensor back = tfe::from_dlpack_versioned(ctx, dl.release());
    check_close(values(back), values(a));
  }
  {
    // A caller-made capsule: NULL strides are row-major, per the DLPack spec.
    double data[6] = {1, 2, 3, 4, 5, 6}; // rows (1,2,3), (4,5,6)
    int64_t shape[2] = {2, 3};
    DLManagedTensor m{};
    m.dl_tensor = DLTensor{data, DLDevice{1, 0}, 2, DLDataType{2, 64, 1}, shape, nullptr, 0};
    m.deleter = dl_delete;
    g_dl_deleted = 0;
    {
      const tfe::Tensor t = tfe::from_dlpack(ctx, &m);
      check_close(values(t), {1, 4, 2, 5, 3, 6});
      CHECK(g_dl_deleted == 0);
    }
    CHECK(g_dl_deleted == 1);
    // A capsule of a CUDA device that does not exist here is refused and stays the caller's.
    m.dl_tensor.device.device_type = 2;
    m.dl_tensor.device.device_id = 99;
    require_status([&] { tfe::from_dlpack(ctx, &m); }, TFE_ERR_DEVICE, "tfe_tensor_from_dlpack");
    CHECK(g_dl_deleted == 1);
  }
}
