// Samples and reference results of the arithmetic group (src/ops/defs/arithmetic.hpp).
#include <cmath>
#include <limits>

#include "op_samples/op_samples.hpp"

namespace tfe::testing {
namespace {

using ops::OpCode;
using V = std::vector<Scalar>;
using I = std::vector<int64_t>;

int64_t trunc_div(int64_t a, int64_t b, DType d) {
  int64_t min =
      d == DType::I32 ? std::numeric_limits<int32_t>::min() : std::numeric_limits<int64_t>::min();
  if (b == -1) return a == min ? min : -a;
  return a / b;
}

int64_t int_power(int64_t a, int64_t n, DType d) {
  int64_t r = 1;
  for (int64_t i = 0; i < n; ++i)
    r = wrap_to(d, static_cast<int64_t>(static_cast<uint64_t>(r) * static_cast<uint64_t>(a)));
  return r;
}

Scalar max_ref(Scalar a, Scalar b) {
  if (std::isnan(a.real()) || std::isnan(b.real())) return std::numeric_limits<double>::quiet_NaN();
  return a.real() >= b.real() ? a : b;
}
Scalar min_ref(Scalar a, Scalar b) {
  if (std::isnan(a.real()) || std::isnan(b.real())) return std::numeric_limits<double>::quiet_NaN();
  return a.real() <= b.real() ? a : b;
}

// NaN loses to a number (fmax, fmin).
Scalar nan_ignoring(Scalar a, Scalar b, Scalar (*extremum)(Scalar, Scalar)) {
  if (std::isnan(a.real())) return b;
  if (std::isnan(b.real())) return a;
  return extremum(a, b);
}

Scalar sign_ref(Scalar z, DType d) {
  if (is_complex(d)) return std::abs(z) == 0 ? Scalar(0) : z / std::abs(z);
  double x = z.real();
  if (std::isnan(x)) return x;
  return x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0;
}

// Integer edge cases the semantics pin: MIN / -1 wraps, MIN % -1 == 0, wrapping add/mul/neg/abs.
std::vector<Sample> integer_edges(OpCode op, DType d) {
  if (!is_integer(d)) return {};
  int64_t min =
      d == DType::I32 ? std::numeric_limits<int32_t>::min() : std::numeric_limits<int64_t>::min();
  int64_t max =
      d == DType::I32 ? std::numeric_limits<int32_t>::max() : std::numeric_limits<int64_t>::max();
  I a{min, min, max, -7, 7, -7, min, 5};
  I b{-1, 1, 1, 2, -2, -2, 3, 7};
  if (op == OpCode::Pow) b = I{2, 3, 2, 0, 1, 3, 1, 2};
  std::vector<Tensor> in{int_tensor(d, {8}, a)};
  if (ops::op_def(op).min_inputs == 2) in.push_back(int_tensor(d, {8}, b));
  return {{"integer_edges", in, ops::NoParams{}}};
}

// Integer division and remainder by zero and negative integer exponents are Numerical errors,
// detected before anything is written (label "int": not a shape-rule constraint).
std::vector<ErrorSample> integer_errors(OpCode op) {
  std::vector<ErrorSample> e;
  for (DType d : {DType::I32, DType::I64}) {
    Tensor a = int_tensor(d, {3}, {4, -5, 6});
    if (op == OpCode::Div || op == OpCode::Rem)
      e.push_back({"int",
                   {a, int_tensor(d, {3}, {1, 0, 2})},
                   ops::NoParams{},
                   Status::Numerical,
                   op == OpCode::Div ? "integer division by zero" : "integer remainder by zero"});
    if (op == OpCode::Pow)
      e.push_back({"int",
                   {a, int_tensor(d, {3}, {1, 2, -1})},
                   ops::NoParams{},
                   Status::Numerical,
                   "negative exponent"});
  }
  return e;
}

OpSamples with_edges(OpCode op, OpSamples s) {
  auto make = s.make;
  s.make = [op, make](DType d) {
    auto v = make(d);
    for (auto& e : integer_edges(op, d)) v.push_back(e);
    return v;
  };
  auto errors = s.errors;
  s.errors = [op, errors] {
    auto e = errors();
    for (auto& x : integer_errors(op)) e.push_back(x);
    return e;
  };
  return s;
}

} // namespace

std::optional<OpSamples> arithmetic_samples(OpCode op) {
  const Domain A = Domain::Any;
  switch (op) {
  case OpCode::Add:
    return with_edges(
        op, elementwise_samples({A, A}, {[](const V& v, DType) { return v[0] + v[1]; },
                                         [](const I& v, DType d) {
                                           return wrap_to(d, static_cast<int64_t>(
                                                                 static_cast<uint64_t>(v[0]) +
                                                                 static_cast<uint64_t>(v[1])));
                                         }}));
  case OpCode::Sub:
    return with_edges(
        op, elementwise_samples({A, A}, {[](const V& v, DType) { return v[0] - v[1]; },
                                         [](const I& v, DType d) {
                                           return wrap_to(d, static_cast<int64_t>(
                                                                 static_cast<uint64_t>(v[0]) -
                                                                 static_cast<uint64_t>(v[1])));
                                         }}));
  case OpCode::Mul:
    return with_edges(
        op, elementwise_samples({A, A}, {[](const V& v, DType) { return v[0] * v[1]; },
                                         [](const I& v, DType d) {
                                           return wrap_to(d, static_cast<int64_t>(
                                                                 static_cast<uint64_t>(v[0]) *
                                                                 static_cast<uint64_t>(v[1])));
                                         }}));
  case OpCode::Div:
    return with_edges(
        op, elementwise_samples({A, Domain::NonZero},
                                {[](const V& v, DType) { return v[0] / v[1]; },
                                 [](const I& v, DType d) { return trunc_div(v[0], v[1], d); }}));
  case OpCode::Rem:
    return with_edges(
        op, elementwise_samples(
                {A, Domain::NonZero},
                {[](const V& v, DType) { return Scalar(std::fmod(v[0].real(), v[1].real())); },
                 [](const I& v, DType) { return v[1] == -1 ? 0 : v[0] % v[1]; }}));
  case OpCode::Pow: {
    auto s = elementwise_samples({Domain::Positive, Domain::SmallNonNeg},
                                 {[](const V& v, DType d) {
                                    if (is_complex(d)) return std::pow(v[0], v[1]);
                                    return Scalar(std::pow(v[0].real(), v[1].real()));
                                  },
                                  [](const I& v, DType d) { return int_power(v[0], v[1], d); }});
    s.rtol_scale = 100;
    return with_edges(op, s);
  }
  case OpCode::Neg:
    return with_edges(op, elementwise_samples({A}, {[](const V& v, DType) { return -v[0]; },
                                                    [](const I& v, DType d) {
                                                      return wrap_to(
                                                          d, static_cast<int64_t>(
                                                                 0 - static_cast<uint64_t>(v[0])));
                                                    }}));
  case OpCode::Conj:
    return elementwise_samples({A}, {[](const V& v, DType) { return std::conj(v[0]); },
                                     [](const I& v, DType) { return v[0]; }});
  case OpCode::Abs:
    return with_edges(
        op, elementwise_samples({A}, {[](const V& v, DType) { return Scalar(std::abs(v[0])); },
                                      [](const I& v, DType d) {
                                        return wrap_to(d, v[0] < 0
                                                              ? static_cast<int64_t>(
                                                                    0 - static_cast<uint64_t>(v[0]))
                                                              : v[0]);
                                      }}));
  case OpCode::Sign:
    return elementwise_samples(
        {A}, {[](const V& v, DType d) { return sign_ref(v[0], d); },
              [](const I& v, DType) { return int64_t{v[0] > 0} - int64_t{v[0] < 0}; }});
  case OpCode::Maximum:
    return elementwise_samples({A, A}, {[](const V& v, DType) { return max_ref(v[0], v[1]); },
                                        [](const I& v, DType) { return std::max(v[0], v[1]); }});
  case OpCode::Minimum:
    return elementwise_samples({A, A}, {[](const V& v, DType) { return min_ref(v[0], v[1]); },
                                        [](const I& v, DType) { return std::min(v[0], v[1]); }});
  case OpCode::Fmax:
    return elementwise_samples({A, A},
                               {[](const V& v, DType) { return nan_ignoring(v[0], v[1], max_ref); },
                                [](const I& v, DType) { return std::max(v[0], v[1]); }});
  case OpCode::Fmin:
    return elementwise_samples({A, A},
                               {[](const V& v, DType) { return nan_ignoring(v[0], v[1], min_ref); },
                                [](const I& v, DType) { return std::min(v[0], v[1]); }});
  default: return std::nullopt;
  }
}

} // namespace tfe::testing
