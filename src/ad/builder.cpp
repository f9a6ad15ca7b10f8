// Implementation of the AD IR builders (builder.hpp).
#include "ad/builder.hpp"

#include <array>
#include <cstring>

namespace tfe::ad {

using ops::OpCode;

Value emit1(OpCode op, const Value& a, const ops::Params& p) {
  std::array<Value, 1> in{a};
  return graph::emit(op, in, p);
}

Value emit2(OpCode op, const Value& a, const Value& b, const ops::Params& p) {
  std::array<Value, 2> in{a, b};
  return graph::emit(op, in, p);
}

Value emit3(OpCode op, const Value& a, const Value& b, const Value& c) {
  std::array<Value, 3> in{a, b, c};
  return graph::emit(op, in, ops::NoParams{});
}

Value scalar(DType dtype, std::complex<double> v) {
  ops::ConstantParams p{dtype, {}, {}};
  p.bytes.resize(static_cast<size_t>(itemsize(dtype)));
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T value{};
    if constexpr (is_complex_v<T>) {
      value = T(static_cast<typename T::value_type>(v.real()),
                static_cast<typename T::value_type>(v.imag()));
    } else if constexpr (std::is_same_v<T, bool>) {
      value = v.real() != 0;
    } else {
      value = static_cast<T>(v.real());
    }
    std::memcpy(p.bytes.data(), &value, sizeof(T));
  });
  return graph::emit(OpCode::Constant, {}, p);
}

Value broadcast_scalar(const Value& v, const Shape& shape) {
  if (shape.empty()) return v;
  return emit1(OpCode::BroadcastInDim, v, ops::BroadcastInDimParams{shape, {}});
}

Value full(DType dtype, const Shape& shape, std::complex<double> v) {
  return broadcast_scalar(scalar(dtype, v), shape);
}

Value zeros_like(const Value& x) { return full(x.meta().dtype, x.meta().shape, 0.0); }

Value conj(const Value& a) { return is_complex(a.meta().dtype) ? emit1(OpCode::Conj, a) : a; }
Value real(const Value& a) { return is_complex(a.meta().dtype) ? emit1(OpCode::Real, a) : a; }
Value imag(const Value& a) { return emit1(OpCode::Imag, a); }
Value complex(const Value& re, const Value& im) { return emit2(OpCode::Complex, re, im); }

Value convert(const Value& a, DType dtype) {
  if (a.meta().dtype == dtype) return a;
  return emit1(OpCode::Convert, a, ops::ConvertParams{dtype});
}

Value select(const Value& pred, const Value& t, const Value& f) {
  return emit3(OpCode::Select, pred, t, f);
}

Value compare(const Value& a, const Value& b, ops::CompareDir dir) {
  return emit2(OpCode::Compare, a, b, ops::CompareParams{dir});
}

Value scale(const Value& x, std::complex<double> c) {
  return x * full(x.meta().dtype, x.meta().shape, c);
}

Value mul_real(const Value& x, const Value& real_factor) {
  return x * convert(real_factor, x.meta().dtype);
}

Value reduce_sum(const Value& x, const Dims& axes) {
  if (axes.empty()) return x;
  return emit1(OpCode::ReduceSum, x, ops::AxesParams{axes});
}

Value broadcast_in_dim(const Value& x, const Shape& shape, const Dims& dims) {
  if (x.meta().shape == shape) {
    bool identity = dims.size() == shape.size();
    for (size_t i = 0; identity && i < dims.size(); ++i)
      identity = dims[i] == static_cast<int64_t>(i);
    if (identity) return x;
  }
  return emit1(OpCode::BroadcastInDim, x, ops::BroadcastInDimParams{shape, dims});
}

Value reshape(const Value& x, const Shape& shape) {
  if (x.meta().shape == shape) return x;
  return emit1(OpCode::Reshape, x, ops::ReshapeParams{shape});
}

Value transpose(const Value& x, const Dims& perm) {
  bool identity = true;
  for (size_t i = 0; i < perm.size(); ++i) identity &= perm[i] == static_cast<int64_t>(i);
  if (identity) return x;
  return emit1(OpCode::Transpose, x, ops::TransposeParams{perm});
}

Tangent add(const Tangent& a, const Tangent& b) {
  if (!a) return b;
  if (!b) return a;
  return *a + *b;
}

Tangent neg(const Tangent& a) {
  if (!a) return std::nullopt;
  return -*a;
}

} // namespace tfe::ad
