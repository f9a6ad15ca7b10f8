// Core pieces below the op table: the promotion lattice, SmallVector, views, the caching
// allocator, the tiled strided copy and the thread pool's determinism.
#include <catch2/catch.hpp>

#include <numeric>
#include <thread>

#include "backend/cpu/kernels/kernels.hpp"
#include "backend/cpu/strided_copy.hpp"
#include "backend/cpu/thread_budget.hpp"
#include "core/caching_allocator.hpp"
#include "eager/surface.hpp"
#include "support/tensor_testing.hpp"

using namespace tfe;
using namespace tfe::testing;

TEST_CASE("promotion lattice: the table of docs/design/ops-and-dtypes.md and its laws",
          "[core][dtype]") {
  using D = DType;
  // Row by row as printed in the contract (Bool I32 I64 F32 F64 C32 C64).
  const D expected[7][7] = {
      {D::Bool, D::I32, D::I64, D::F32, D::F64, D::C32, D::C64},
      {D::I32, D::I32, D::I64, D::F64, D::F64, D::C64, D::C64},
      {D::I64, D::I64, D::I64, D::F64, D::F64, D::C64, D::C64},
      {D::F32, D::F64, D::F64, D::F32, D::F64, D::C32, D::C64},
      {D::F64, D::F64, D::F64, D::F64, D::F64, D::C64, D::C64},
      {D::C32, D::C64, D::C64, D::C32, D::C64, D::C32, D::C64},
      {D::C64, D::C64, D::C64, D::C64, D::C64, D::C64, D::C64},
  };
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 7; ++j) {
      CAPTURE(dtype_name(kAllDTypes[i]), dtype_name(kAllDTypes[j]));
      CHECK(join(kAllDTypes[i], kAllDTypes[j]) == expected[i][j]);
      CHECK(join(kAllDTypes[i], kAllDTypes[j]) == join(kAllDTypes[j], kAllDTypes[i]));
      for (int k = 0; k < 7; ++k)
        CHECK(join(join(kAllDTypes[i], kAllDTypes[j]), kAllDTypes[k]) ==
              join(kAllDTypes[i], join(kAllDTypes[j], kAllDTypes[k])));
    }
  for (DType d : kAllDTypes) CHECK(join(DType::Bool, d) == d); // Bool is the identity
  // The rules below the table: integers with F32 give F64, F64 with C32 gives C64, and a checked
  // conversion succeeds exactly when the join is the target.
  CHECK(join(DType::I32, DType::F32) == DType::F64);
  CHECK(join(DType::F64, DType::C32) == DType::C64);
  CHECK(can_convert_safely(DType::I32, DType::F64));
  CHECK_FALSE(can_convert_safely(DType::I32, DType::F32));
  CHECK_FALSE(can_convert_safely(DType::C32, DType::F64));
  CHECK(can_convert_safely(DType::Bool, DType::I32));
}

TEST_CASE("promotion plan: which operands promote, per family ", "[core][dtype]") {
  using ops::OpCode;
  auto plan = [](OpCode op, std::vector<DType> in) {
    std::vector<DType> out(in.size());
    ops::promotion_plan(op, in, out);
    return out;
  };
  using D = DType;
  CHECK(plan(OpCode::Add, {D::F64, D::C64}) == std::vector<D>{D::C64, D::C64});
  CHECK(plan(OpCode::Compare, {D::I32, D::F32}) == std::vector<D>{D::F64, D::F64});
  CHECK(plan(OpCode::DotGeneral, {D::F32, D::C32}) == std::vector<D>{D::C32, D::C32});
  // Select: the predicate is untouched.
  CHECK(plan(OpCode::Select, {D::Bool, D::I32, D::F64}) == std::vector<D>{D::Bool, D::F64, D::F64});
  CHECK(plan(OpCode::Clamp, {D::F32, D::I64, D::F32}) == std::vector<D>{D::F64, D::F64, D::F64});
  CHECK(plan(OpCode::Concatenate, {D::I32, D::F32, D::Bool, D::C32}) ==
        std::vector<D>{D::C64, D::C64, D::C64, D::C64});
  // Scatter: operand and updates, never the indices; DynamicUpdateSlice likewise.
  CHECK(plan(OpCode::Scatter, {D::F32, D::I32, D::F64}) == std::vector<D>{D::F64, D::I32, D::F64});
  CHECK(plan(OpCode::DynamicUpdateSlice, {D::F64, D::C32, D::I64}) ==
        std::vector<D>{D::C64, D::C64, D::I64});
  // Every other op keeps its dtypes.
  CHECK(plan(OpCode::Exp, {D::F32}) == std::vector<D>{D::F32});
  CHECK(plan(OpCode::And, {D::I32, D::I64}) == std::vector<D>{D::I32, D::I64});
  CHECK(plan(OpCode::Gather, {D::F32, D::I64}) == std::vector<D>{D::F32, D::I64});
}

TEST_CASE("SmallVector grows past its inline room and keeps values", "[core]") {
  SmallVector<int64_t, 2> v{1, 2};
  v.push_back(3);
  v.insert(v.begin(), 0);
  const int64_t tail[] = {9, 8};
  v.insert(v.end(), std::begin(tail), std::end(tail));
  CHECK(v.size() == 6);
  CHECK(std::vector<int64_t>(v.begin(), v.end()) == std::vector<int64_t>{0, 1, 2, 3, 9, 8});
  SmallVector<int64_t, 2> copy = v, moved = std::move(copy);
  CHECK(moved == v);
  v.erase(v.begin() + 1);
  CHECK(v[1] == 2);
  moved = SmallVector<int64_t, 2>{7};
  CHECK(moved.size() == 1);
  CHECK(moved.back() == 7);
}

TEST_CASE("views: reshape is a view exactly when the layout allows", "[core][views]") {
  Tensor t = random_tensor(DType::F64, {4, 6}, 1);
  CHECK(t.reshaped_view({2, 2, 6}).has_value());
  Tensor tt = t.permuted(Dims{1, 0});
  CHECK_FALSE(tt.reshaped_view({24}).has_value());
  Tensor cols = t.sliced(Dims{0, 0}, Dims{4, 6}, Dims{1, 2}); // every other column
  auto v = cols.reshaped_view({2, 2, 3});
  REQUIRE(v.has_value()); // rows stay contiguous, the column stride carries over
  for_each_index({2, 2, 3}, [&](const Dims& i) {
    CHECK(value_at(*v, i) == value_at(cols, {i[0] + 2 * i[1], i[2]}));
  });
  CHECK_FALSE(t.sliced(Dims{0, 0}, Dims{3, 6}, Dims{1, 1}).reshaped_view({18}).has_value());
}

TEST_CASE("strided copy: tiled transposes of odd sizes and every element size", "[core][copy]") {
  for (DType d : {DType::Bool, DType::F32, DType::F64, DType::C64}) {
    for (Dims shape : {Dims{37, 300}, Dims{300, 37}, Dims{5, 130, 3}, Dims{129, 2, 257}}) {
      CAPTURE(dtype_name(d), format_dims(shape));
      Tensor src = random_tensor(d, shape, 3);
      Dims perm(shape.size());
      std::iota(perm.begin(), perm.end(), 0);
      std::reverse(perm.begin(), perm.end());
      Tensor view = src.permuted(perm);
      Tensor dst = Tensor::empty(d, view.shape());
      cpu::strided_copy(dst, view);
      bool same = true;
      for_each_index(view.shape(),
                     [&](const Dims& i) { same &= value_at(dst, i) == value_at(view, i); });
      CHECK(same);
    }
  }
}

TEST_CASE("caching allocator: size classes and reuse", "[core][allocator]") {
  CHECK(CachingAllocator::size_class(1) == 64);
  CHECK(CachingAllocator::size_class(4096) == 4096);
  CHECK(CachingAllocator::size_class(4097) == 5120);
  for (size_t n : {size_t{100000}, size_t{1} << 20, (size_t{1} << 20) + 1}) {
    size_t c = CachingAllocator::size_class(n);
    CHECK(c >= n);
    CHECK(c <= n + n / 4 + 64);
  }
  auto& alloc = CachingAllocator::instance();
  size_t cap = 0;
  void* p = alloc.acquire(123456, &cap);
  alloc.release(p, cap);
  int64_t hits = alloc.stats().hits;
  size_t cap2 = 0;
  void* q = alloc.acquire(123456, &cap2);
  CHECK(q == p); // the released block comes back
  CHECK(alloc.stats().hits == hits + 1);
  CHECK(reinterpret_cast<uintptr_t>(q) % CachingAllocator::kAlignment == 0);
  alloc.release(q, cap2);
  // A request that fills its size class exactly still gets the tail slack.
  size_t cap3 = 0;
  void* r = alloc.acquire(128, &cap3);
  CHECK(cap3 >= 128 + CachingAllocator::kTailSlack);
  alloc.release(r, cap3);
}

TEST_CASE("results do not depend on the thread budget", "[core][threads]") {
  Tensor x = random_tensor(DType::F64, {300001}, 5);
  Tensor m = random_tensor(DType::F32, {700, 301}, 6);
  int before = cpu::thread_budget();
  std::vector<Tensor> results;
  for (int threads : {1, 2, 3}) {
    cpu::set_thread_budget(threads);
    results.push_back(eager::sum(x, {}));
    results.push_back(eager::sum(m, Dims{1}));
    std::array<Tensor, 1> in{x};
    results.push_back(eager::call<Tensor>(ops::OpCode::Exp, in));
  }
  cpu::set_thread_budget(before);
  for (size_t i = 3; i < results.size(); ++i) CHECK(identical(results[i], results[i % 3]));
}

TEST_CASE("the pool serves concurrent callers", "[core][threads]") {
  Tensor x = random_tensor(DType::F64, {400000}, 7);
  Tensor expected = eager::sum(x, {});
  std::vector<std::thread> threads;
  std::atomic<int> mismatches{0};
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int r = 0; r < 20; ++r)
        if (!identical(eager::sum(x, {}), expected)) ++mismatches;
    });
  for (auto& th : threads) th.join();
  CHECK(mismatches == 0);
}
