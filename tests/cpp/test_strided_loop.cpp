// The strided walk every elementwise kernel uses (backend/cpu/strided_loop.hpp): run_rows, which
// hands whole runs of the inner dim over in blocks, visits exactly the elements run visits, in
// the same order, for any [begin, end) (parallel chunks cut runs anywhere); and a broadcast map
// of many short runs computes what the per-element definition gives.
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "backend/cpu/strided_loop.hpp"

using namespace tfe;

namespace {

// Byte offsets from the base of operand 1 (a broadcast view), element by element.
template <class Walk> std::vector<int64_t> offsets(const cpu::StridedLoop<2>& loop, Walk walk) {
  std::vector<int64_t> out;
  const std::byte* base = loop.base()[1];
  walk([&](const auto& p, int64_t n, int64_t count, const auto& s0, const auto& s1) {
    for (int64_t r = 0; r < count; ++r)
      for (int64_t i = 0; i < n; ++i) out.push_back(p[1] + r * s1[1] + i * s0[1] - base);
  });
  return out;
}

double at(const Tensor& t, std::initializer_list<int64_t> idx) {
  int64_t off = 0, d = 0;
  for (int64_t i : idx) off += i * t.stride(d++);
  return t.data<double>()[off];
}

// A compact column-major [rows, cols] F64 tensor of distinct values, or (transposed) the view
// of a compact [cols, rows] one with the same shape.
Tensor distinct_matrix(int64_t rows, int64_t cols, bool transposed, double seed) {
  Tensor t = Tensor::empty(DType::F64, transposed ? Dims{cols, rows} : Dims{rows, cols});
  for (int64_t k = 0; k < rows * cols; ++k)
    t.data<double>()[k] = seed + 0.25 * static_cast<double>(k);
  return transposed ? t.with_layout(Dims{rows, cols}, Dims{cols, 1}, 0) : t;
}

} // namespace

TEST_CASE("run_rows visits what run visits, in order, for every cut", "[strided_loop]") {
  // [5,4,3] result; the operand is [5,1,3] broadcast along dim 1 (stride 0), so no dims merge.
  Tensor out = Tensor::empty(DType::F64, Dims{5, 4, 3});
  Tensor small = Tensor::empty(DType::F64, Dims{5, 1, 3});
  Tensor operand = small.with_layout(Dims{5, 4, 3}, Dims{1, 0, 5}, 0);
  cpu::StridedLoop<2> loop(out.shape(), {&out, &operand});
  REQUIRE(loop.ndim() == 3);
  const int64_t n = loop.numel();
  for (int64_t b = 0; b <= n; ++b)
    for (int64_t e = b; e <= n; ++e) {
      auto by_run = offsets(loop, [&](auto rows) {
        loop.run(b, e,
                 [&](const auto& p, int64_t m, const auto& s) { rows(p, m, int64_t{1}, s, s); });
      });
      auto by_rows = offsets(loop, [&](auto rows) { loop.run_rows(b, e, rows); });
      REQUIRE(by_rows == by_run);
      REQUIRE(static_cast<int64_t>(by_rows.size()) == e - b);
    }
}

TEST_CASE("a broadcast product of short runs equals its definition", "[strided_loop]") {
  // out[b,i,j] = x[b,i] * y[b,j]: the batched outer product, ni * nj runs of nb elements, on
  // contiguous operands (one clone call for many runs) and on transposed ones (strided runs;
  // in the larger shape, read many times over, they are first copied compact).
  const std::array<std::array<int64_t, 3>, 2> sizes{{{5, 8, 16}, {64, 16, 32}}};
  for (auto [nb, ni, nj] : sizes)
    for (bool transposed : {false, true}) {
      Tensor x = distinct_matrix(nb, ni, transposed, 1.0);
      Tensor y = distinct_matrix(nb, nj, transposed, -3.0);
      Tensor xb = x.with_layout(Dims{nb, ni, nj}, Dims{x.stride(0), x.stride(1), 0}, 0);
      Tensor yb = y.with_layout(Dims{nb, ni, nj}, Dims{y.stride(0), 0, y.stride(1)}, 0);
      Tensor out = Tensor::empty(DType::F64, Dims{nb, ni, nj});
      cpu::Map<double, double, double>::run([](double a, double b) { return a * b; }, 1 << 20, out,
                                            xb, yb);
      for (int64_t j = 0; j < nj; ++j)
        for (int64_t i = 0; i < ni; ++i)
          for (int64_t b = 0; b < nb; ++b)
            REQUIRE(at(out, {b, i, j}) == at(x, {b, i}) * at(y, {b, j}));
    }
}
