// Contexts, tensors, creation, typed read-back, handle semantics and library-wide functions.
#include "support.hpp"

#include <cstring>
#include <utility>

#if __cplusplus >= 202002L && defined(__cpp_lib_span)
#include <span>
#endif

using cxxtest::check_close;
using cxxtest::require_status;

TFE_TEST("library-wide functions", "[basics]") {
  CHECK(tfe::abi_version() == TFE_ABI_VERSION);
  CHECK(tfe::version() == std::string(tfe_version()));
  CHECK(!tfe::version().empty());
  CHECK(tfe::status_name(TFE_ERR_SINGULAR) == "TFE_ERR_SINGULAR");
  CHECK(tfe::status_name(12345) == "TFE_ERR_UNKNOWN");
  CHECK(tfe::device_count() >= 0);
  const int32_t threads = tfe::num_threads();
  CHECK(threads >= 1);
  tfe::set_num_threads(threads);
  CHECK(tfe::num_threads() == threads);
  REQUIRE(tfe::op_count() > 0);
  CHECK(!tfe::op_name(0).empty());
  CHECK(tfe::op_c_name(0).rfind("tfe_", 0) == 0);
  CHECK(tfe::op_name(tfe::op_count()).empty());
  CHECK(tfe::op_c_name(-1).empty());
  CHECK(std::string(tfe::dtype_name(tfe::DType::C32)) == "C32");
  CHECK(tfe::dtype_of_v<std::complex<double>> == tfe::DType::C64);
}

TFE_TEST("an ABI version mismatch throws before any handle exists", "[basics]") {
  tfe::detail::check_abi_version(TFE_ABI_VERSION, TFE_ABI_VERSION);
  require_status([] { tfe::detail::check_abi_version(TFE_ABI_VERSION, TFE_ABI_VERSION + 1); },
                 TFE_ERR_NOT_SUPPORTED, "tfe::Context: tenferro.hpp was compiled for ABI version");
}

TFE_TEST("tensors from values, column-major, every dtype", "[basics]") {
  tfe::Context ctx;
  const tfe::Tensor a = tfe::tensor(ctx, {1.0, 2.0, 3.0, 4.0, 5.0, 6.0}, {2, 3});
  CHECK(a.dtype() == tfe::DType::F64);
  CHECK(a.ndim() == 2);
  CHECK(a.shape() == tfe::Shape{2, 3});
  CHECK(a.numel() == 6);
  CHECK(a.strides() == tfe::Shape{1, 2});
  CHECK(a.stride(-1) == 2);
  check_close(a.to_vector<double>(), {1, 2, 3, 4, 5, 6});
  CHECK(static_cast<const double*>(a.data_ptr())[3] == 4.0);

  CHECK(tfe::tensor(ctx, {1.5f, -2.5f}).to_vector<float>() == std::vector<float>{1.5f, -2.5f});
  CHECK(tfe::tensor(ctx, {int32_t{7}, int32_t{-8}}).to_vector<int32_t>() ==
        std::vector<int32_t>{7, -8});
  CHECK(tfe::tensor(ctx, {int64_t{1} << 40}).to_vector<int64_t>() ==
        std::vector<int64_t>{int64_t{1} << 40});
  const std::vector<std::complex<float>> c32 = {{1, 2}, {3, -4}};
  CHECK(tfe::tensor(ctx, c32).to_vector<std::complex<float>>() == c32);
  const std::vector<std::complex<double>> c64 = {{0.5, -1}, {2, 3}};
  const tfe::Tensor z = tfe::tensor(ctx, c64, {2, 1});
  CHECK(z.dtype() == tfe::DType::C64);
  CHECK(z.to_vector<std::complex<double>>() == c64);
  const std::vector<bool> flags = {true, false, true};
  const tfe::Tensor b = tfe::tensor(ctx, flags, {3});
  CHECK(b.dtype() == tfe::DType::Bool);
  CHECK(b.to_vector<bool>() == flags);
  CHECK(tfe::tensor(ctx, {true, false}).to_vector<bool>() == std::vector<bool>{true, false});

  const double raw[] = {9, 8, 7, 6};
  const tfe::Tensor p = tfe::tensor(ctx, raw, 4, {2, 2});
  check_close(p.to_vector<double>(), {9, 8, 7, 6});
#if __cplusplus >= 202002L && defined(__cpp_lib_span)
  const tfe::Tensor s = tfe::tensor(ctx, std::span<const double>(raw, 4), {4});
  check_close(s.to_vector<double>(), {9, 8, 7, 6});
#endif
  const tfe::Tensor sc = tfe::scalar(ctx, 2.5);
  CHECK(sc.ndim() == 0);
  CHECK(sc.item<double>() == 2.5);
  double buf[4] = {};
  p.copy_to(buf, 4);
  CHECK(buf[2] == 7);
}

TFE_TEST("creation helpers", "[basics]") {
  tfe::Context ctx;
  check_close(cxxtest::values(tfe::zeros(ctx, tfe::DType::F64, {2, 2})), {0, 0, 0, 0});
  CHECK(tfe::ones(ctx, tfe::DType::I64, {3}).to_vector<int64_t>() == std::vector<int64_t>{1, 1, 1});
  CHECK(tfe::full(ctx, {2}, 2.5f).to_vector<float>() == std::vector<float>{2.5f, 2.5f});
  check_close(cxxtest::values(tfe::eye(ctx, tfe::DType::F64, 2)), {1, 0, 0, 1});
  CHECK(tfe::eye(ctx, tfe::DType::F64, 2, 3).shape() == tfe::Shape{2, 3});
  check_close(cxxtest::values(tfe::arange(ctx, tfe::DType::F64, 1, 2, 0.25)), {1, 1.25, 1.5, 1.75});
  CHECK(tfe::iota(ctx, tfe::DType::I32, {2, 3}, 1).to_vector<int32_t>() ==
        std::vector<int32_t>{0, 0, 1, 1, 2, 2});
  const auto u = cxxtest::values(tfe::random_uniform(ctx, tfe::DType::F64, {100}, 7, -2, 3));
  for (double x : u) CHECK((x >= -2 && x < 3));
  CHECK(u == cxxtest::values(tfe::random_uniform(ctx, tfe::DType::F64, {100}, 7, -2, 3)));
  const auto n = cxxtest::values(tfe::random_normal(ctx, tfe::DType::F64, {1000}, 3));
  double mean = 0;
  for (double x : n) mean += x / 1000;
  CHECK(std::abs(mean) < 0.2);
  CHECK(n == cxxtest::values(tfe::random_normal(ctx, tfe::DType::F64, {1000}, 3)));

  // Row-major caller data through explicit strides.
  const double rm[] = {1, 2, 3, 4, 5, 6}; // rows (1,2,3), (4,5,6)
  const tfe::Tensor a = tfe::from_data(ctx, tfe::DType::F64, {2, 3}, rm, {3, 1});
  check_close(cxxtest::values(a), {1, 4, 2, 5, 3, 6});
  CHECK(a.strides() == tfe::Shape{1, 2}); // copied compact
  const tfe::Tensor at = tfe::transpose(a, {1, 0});
  CHECK(at.strides() == tfe::Shape{2, 1}); // a view
  const tfe::Tensor c = at.contiguous();
  CHECK(c.strides() == tfe::Shape{1, 3});
  check_close(cxxtest::values(c), {1, 2, 3, 4, 5, 6});
}

TFE_TEST("checks only the C++ layer can make", "[basics][errors]") {
  tfe::Context ctx;
  require_status(
      [&] {
        tfe::tensor(ctx, {1.0, 2.0, 3.0}, {2, 2});
      },
      TFE_ERR_SHAPE_MISMATCH, "tfe::tensor: 3 values for shape [2,2]");
  const tfe::Tensor a = tfe::tensor(ctx, {1.0, 2.0});
  require_status([&] { a.to_vector<float>(); }, TFE_ERR_DTYPE_MISMATCH,
                 "tfe::Tensor::to_vector: the tensor is F64, not F32");
  require_status([&] { a.item<double>(); }, TFE_ERR_SHAPE_MISMATCH, "tfe::Tensor::item");
  require_status([&] { a.item<int64_t>(); }, TFE_ERR_DTYPE_MISMATCH, "tfe::Tensor::item");
  double one = 0;
  require_status([&] { a.copy_to(&one, 1); }, TFE_ERR_INVALID_ARGUMENT, "tfe::Tensor::copy_to");
  require_status(
      [&] {
        tfe::from_data(ctx, tfe::DType::F64, {2}, &one, {1, 1});
      },
      TFE_ERR_INVALID_ARGUMENT, "tfe::from_data");
  require_status([&] { tfe::jvp(a, {a}, {}); }, TFE_ERR_INVALID_ARGUMENT, "tfe::jvp");
  require_status([&] { tfe::slice(a, {0}, {}); }, TFE_ERR_INVALID_ARGUMENT, "tfe::slice");
  require_status([&] { tfe::pad(a, {0}, {1, 1}); }, TFE_ERR_INVALID_ARGUMENT, "tfe::pad");
  require_status([&] { tfe::dot_general(a, a, {0}, {}); }, TFE_ERR_INVALID_ARGUMENT,
                 "tfe::dot_general");
}

TFE_TEST("copies share a handle, moves transfer it, destruction releases it", "[basics][handles]") {
  const int64_t base = tfe::debug_live_objects();
  tfe::Context ctx;
  CHECK(tfe::debug_live_objects() == base + 1);
  tfe::Tensor a = tfe::tensor(ctx, {1.0, 2.0});
  CHECK(tfe::debug_live_objects() == base + 2);
  {
    // Copy construction and assignment retain the same tensor: no new object.
    tfe::Tensor b = a;
    CHECK(b.get() == a.get());
    tfe::Tensor c;
    CHECK(!c);
    c = b;
    CHECK(c.get() == a.get());
    const tfe::Tensor& alias = c;
    c = alias; // self-assignment keeps the handle alive
    CHECK(c.get() == a.get());
    CHECK(tfe::debug_live_objects() == base + 2);
    // The tensor outlives a, its first owner, as long as a copy holds it.
    a = tfe::Tensor();
    check_close(cxxtest::values(c), {1, 2});
    a = c;
  }
  CHECK(tfe::debug_live_objects() == base + 2);
  check_close(cxxtest::values(a), {1, 2});

  // Moves leave the source empty and never touch the count.
  tfe::Tensor m = std::move(a);
  CHECK(!a); // NOLINT(bugprone-use-after-move): the moved-from state is specified
  CHECK(m);
  tfe::Tensor n;
  n = std::move(m);
  CHECK(!m); // NOLINT(bugprone-use-after-move)
  CHECK(tfe::debug_live_objects() == base + 2);

  // A moved-from tensor passed to an op is the C API's NULL handle.
  require_status([&] { tfe::neg(m); }, TFE_ERR_INVALID_ARGUMENT, "tfe_neg");

  // Mixing with the C interface: borrow adds a reference, adopt takes one, release gives it up.
  tfe::Tensor borrowed = tfe::Tensor::borrow(n.get());
  CHECK(borrowed.get() == n.get());
  tfe_tensor* raw = n.release();
  CHECK(!n);
  tfe::Tensor adopted = tfe::Tensor::adopt(raw);
  CHECK(tfe::debug_live_objects() == base + 2);

  // A tensor keeps its context: the Context object may go first.
  tfe::Context copy = ctx;
  CHECK(copy.get() == ctx.get());
  tfe::Context moved = std::move(copy);
  CHECK(!copy); // NOLINT(bugprone-use-after-move)
  ctx = tfe::Context::borrow(moved.get());
  CHECK(ctx.get() == moved.get());
  CHECK(adopted.context().get() == ctx.get());
  ctx = std::move(moved);
  tfe_context* raw_ctx = ctx.release();
  tfe::Context back = tfe::Context::adopt(raw_ctx);
  CHECK(back.mode() == tfe::ContextMode::Eager);
  CHECK(tfe::debug_live_objects() == base + 2);
}

TFE_TEST("the error message is the library's, and last_error_message copies it", "[errors]") {
  tfe::Context ctx;
  const tfe::Tensor a = tfe::tensor(ctx, {1.0, 2.0, 3.0, 4.0, 5.0, 6.0}, {2, 3});
  const tfe::Tensor b = tfe::tensor(ctx, {1.0, 2.0, 3.0});
  const tfe::Error e = cxxtest::error_of([&] { a + b; });
  CHECK(e.status() == TFE_ERR_SHAPE_MISMATCH);
  CHECK(std::string(e.what()) == tfe_last_error_message());
  CHECK(tfe::last_error_message() == e.what());
  CHECK(std::string(e.what()).find("[2,3]") != std::string::npos);
  const tfe::Tensor ok = a + a;
  CHECK(tfe::last_error_message().empty());
}

TFE_TEST("context modes and caches", "[basics]") {
  tfe::Context eager;
  CHECK(eager.mode() == tfe::ContextMode::Eager);
  tfe::Context df = tfe::Context::dataflow(tfe::Scheduler::Debug, 1);
  CHECK(df.mode() == tfe::ContextMode::Dataflow);
  const tfe::CacheStats s = eager.cache_stats(tfe::Cache::Compiled);
  CHECK(s.entries >= 0);
  eager.cache_limits(tfe::Cache::Compiled, 10, 1 << 20);
  eager.cache_clear(tfe::Cache::Derivative);
  CHECK(eager.cache_stats(tfe::Cache::Derivative).entries == 0);
  require_status([] { tfe::Context::dataflow(tfe::Scheduler::Debug, 4); }, TFE_ERR_INVALID_ARGUMENT,
                 "tfe_context_create_dataflow");
  require_status([&] { eager.cache_clear(static_cast<tfe::Cache>(99)); }, TFE_ERR_INVALID_ARGUMENT,
                 "tfe_context_cache_clear");
}
