// A function of tensors written once over the surface's value type and instantiated for every
// engine: graph::Value (traced programs), ad::recording::Recorded (eager AD), dataflow::TensorVar
// (the dataflow engine) and Tensor (plain eager, for finite differences). The engine matrix runs
// the same function in each and compares their derivatives.
#pragma once

#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "ad/recording/recorded.hpp"
#include "dataflow/tensor/surface.hpp"
#include "linalg/surface.hpp"

namespace tfe::testing {

template <class V> using ValueFn = std::function<std::vector<V>(const std::vector<V>&)>;

struct EngineFunction {
  std::string name;
  ValueFn<graph::Value> traced;
  ValueFn<ad::recording::Recorded> eager;
  ValueFn<dataflow::TensorVar> dataflow;
  ValueFn<Tensor> plain;

  template <class V> std::vector<V> operator()(const std::vector<V>& in) const {
    if constexpr (std::is_same_v<V, graph::Value>)
      return traced(in);
    else if constexpr (std::is_same_v<V, ad::recording::Recorded>)
      return eager(in);
    else if constexpr (std::is_same_v<V, dataflow::TensorVar>)
      return dataflow(in);
    else
      return plain(in);
  }
};

// f: a generic callable (const std::vector<V>&) -> std::vector<V> for every value type.
template <class F> EngineFunction engine_function(std::string name, F f) {
  return {std::move(name), [f](const std::vector<graph::Value>& x) { return f(x); },
          [f](const std::vector<ad::recording::Recorded>& x) { return f(x); },
          [f](const std::vector<dataflow::TensorVar>& x) { return f(x); },
          [f](const std::vector<Tensor>& x) { return f(x); }};
}

// ---- generic helpers for writing such functions ----

template <class V> V constant_of(const Tensor& t) {
  return literal(t, static_cast<const V*>(nullptr));
}

template <class V> V unary(ops::OpCode code, const V& a) {
  std::array<V, 1> in{a};
  return eager::call(code, std::span<const V>(in));
}
template <class V> V binary(ops::OpCode code, const V& a, const V& b) {
  std::array<V, 2> in{a, b};
  return eager::call(code, std::span<const V>(in));
}
template <class V> V sum_all(const V& v) { return eager::sum(v, std::span<const int64_t>()); }

// |x|^2 elementwise (real): invariant under a phase or sign of each column.
template <class V> V abs2(const V& x) {
  return unary(ops::OpCode::Real, binary(ops::OpCode::Mul, unary(ops::OpCode::Conj, x), x));
}

// The matrix transpose (dims 0 and 1 swapped) and conjugate transpose.
template <class V> V matrix_transpose(const V& x) {
  Dims perm{1, 0};
  for (int64_t d = 2; d < static_cast<int64_t>(meta_of(x).shape.size()); ++d) perm.push_back(d);
  std::array<V, 1> in{x};
  return emit(ops::OpCode::Transpose, std::span<const V>(in), ops::TransposeParams{perm});
}
template <class V> V adjoint(const V& x) { return unary(ops::OpCode::Conj, matrix_transpose(x)); }
// (x + x^H) / 2: a Hermitian input for eigh, cholesky and hermitian pinv.
template <class V> V hermitian_part(const V& x) {
  DType real = real_dtype(meta_of(x).dtype);
  V half = eager::cast(constant_of<V>(Tensor::scalar(0.5)), real);
  return binary(ops::OpCode::Mul, binary(ops::OpCode::Add, x, adjoint(x)), half);
}
// Re<w, y> = Re sum conj(w) y, a real scalar (w a constant).
template <class V> V real_inner(const Tensor& w, const V& y) {
  V prod = binary(ops::OpCode::Mul, unary(ops::OpCode::Conj, constant_of<V>(w)), y);
  if (is_complex(meta_of(prod).dtype)) prod = unary(ops::OpCode::Real, prod);
  return sum_all(prod);
}

} // namespace tfe::testing
