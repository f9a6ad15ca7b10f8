// Samples and reference results of the constant group (src/ops/defs/constant.hpp).
#include <cstring>
#include <limits>
#include <type_traits>

#include "op_samples/op_samples.hpp"

namespace tfe::testing {
namespace {

using ops::ConstantParams;

// The literal bytes of t in compact column-major order, written element by element so that the
// sample does not depend on t's layout.
std::vector<std::byte> bytes_of(const Tensor& t) {
  std::vector<std::byte> out;
  for_each_index(t.shape(), [&](const Dims& idx) {
    visit_dtype(t.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      int64_t off = 0;
      for (size_t d = 0; d < idx.size(); ++d) off += idx[d] * t.strides()[d];
      const auto* p = reinterpret_cast<const std::byte*>(t.data<T>() + off);
      out.insert(out.end(), p, p + sizeof(T));
    });
  });
  return out;
}

ConstantParams literal(const Tensor& t) { return {t.dtype(), t.shape(), bytes_of(t)}; }

// Decodes element i of the byte string (compact column-major) for the output's dtype.
Tensor constant_reference(const Sample& s, const ops::ConcreteMeta& out) {
  const auto& p = std::get<ConstantParams>(s.params);
  Tensor r = Tensor::empty(out.dtype, out.shape);
  int64_t i = 0;
  for_each_index(out.shape, [&](const Dims& idx) {
    visit_dtype(out.dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      T v{};
      std::memcpy(&v, p.bytes.data() + i * static_cast<int64_t>(sizeof(T)), sizeof(T));
      if constexpr (is_complex_v<T>)
        set_value(r, idx, {static_cast<double>(v.real()), static_cast<double>(v.imag())});
      else if constexpr (std::is_floating_point_v<T>)
        set_value(r, idx, static_cast<double>(v));
      else
        set_int(r, idx, static_cast<int64_t>(v));
    });
    ++i;
  });
  return r;
}

std::vector<Sample> constant_make(DType d) {
  const double inf = std::numeric_limits<double>::infinity(),
               nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<Sample> v;
  v.push_back({"rank0", {}, literal(random_tensor(d, {}, 1))});
  v.push_back({"vector", {}, literal(random_tensor(d, {5}, 2))});
  v.push_back({"matrix", {}, literal(random_tensor(d, {2, 3}, 3))});
  v.push_back({"batched", {}, literal(random_tensor(d, {2, 2, 3}, 4))});
  v.push_back({"empty", {}, ConstantParams{d, {0}, {}}});
  v.push_back({"zero_extent", {}, ConstantParams{d, {3, 0}, {}}});
  if (is_inexact(d))
    v.push_back({"specials", {}, literal(tensor_of(d, {5}, {nan, inf, -inf, -0.0, 1e-30}))});
  if (d == DType::I64)
    v.push_back({"extremes",
                 {},
                 literal(int_tensor(d, {3},
                                    {std::numeric_limits<int64_t>::min(),
                                     std::numeric_limits<int64_t>::max(), -1}))});
  if (d == DType::I32)
    v.push_back({"extremes",
                 {},
                 literal(int_tensor(d, {3},
                                    {std::numeric_limits<int32_t>::min(),
                                     std::numeric_limits<int32_t>::max(), -1}))});
  // The literal comes from a transposed view: its bytes are still compact column-major.
  v.push_back({"from_view", {}, literal(random_tensor(d, {3, 2}, 5).permuted(Dims{1, 0}))});
  return v;
}

} // namespace

std::optional<OpSamples> constant_samples(ops::OpCode op) {
  if (op != ops::OpCode::Constant) return std::nullopt;
  OpSamples s;
  s.make = constant_make;
  s.reference = constant_reference;
  s.layout_exact = true;
  s.errors = [] {
    return std::vector<ErrorSample>{
        {"C1",
         {},
         ConstantParams{DType::F64, {-1}, {}},
         Status::InvalidArgument,
         "shape [-1] has a negative extent"},
        {"C1",
         {},
         ConstantParams{DType::F64, {int64_t{1} << 40, int64_t{1} << 40}, {}},
         Status::Numerical,
         "more than 2^63-1 elements"},
        {"C2",
         {},
         ConstantParams{DType::F64, {2}, std::vector<std::byte>(8)},
         Status::InvalidArgument,
         "8 bytes given but an F64 tensor of shape [2] needs 16"},
        {"C2",
         {},
         ConstantParams{DType::C32, {}, std::vector<std::byte>(16)},
         Status::InvalidArgument,
         "needs 8"},
    };
  };
  return s;
}

} // namespace tfe::testing
