// Samples and reference results of the analytic group (src/ops/defs/analytic.hpp). References
// are std:: functions on complex<double>/double; F32/C32 rows compare against them at F32
// tolerance.
#include <cmath>
#include <limits>

#include <boost/math/special_functions/digamma.hpp>
#include <boost/math/special_functions/polygamma.hpp>

#include "op_samples/op_samples.hpp"

namespace tfe::testing {
namespace {

// The gamma family's references: the documented values at poles and infinities, and elsewhere
// long double (lgammal_r, Boost.Math in long double), one precision step above the kernels.
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double ref_lgamma(double x) {
  int sign = 0;
  return static_cast<double>(lgammal_r(static_cast<long double>(x), &sign));
}

bool pole(double x) { return x <= 0 && std::floor(x) == x; }

double ref_digamma(double x) {
  if (std::isnan(x) || x == -kInf) return kNaN;
  if (x == kInf) return kInf;
  if (x == 0) return std::signbit(x) ? kInf : -kInf;
  if (pole(x)) return kNaN;
  return static_cast<double>(boost::math::digamma(static_cast<long double>(x)));
}

double ref_polygamma(double n, double x) {
  if (!std::isfinite(n) || std::isnan(x)) return kNaN;
  double k = std::nearbyint(n);
  if (k < 0 || x == -kInf) return kNaN;
  if (k == 0) return ref_digamma(x);
  if (x == kInf) return 0;
  bool odd = std::fmod(k, 2) == 1;
  if (pole(x)) return odd ? kInf : x == 0 ? (std::signbit(x) ? kInf : -kInf) : kNaN;
  return static_cast<double>(
      boost::math::polygamma(static_cast<int>(k), static_cast<long double>(x)));
}

} // namespace

std::optional<OpSamples> analytic_samples(ops::OpCode op) {
  using ops::OpCode;
  using V = std::vector<Scalar>;
  auto none = [](const std::vector<int64_t>&, DType) { return int64_t{0}; };
  auto fn = [&](Domain dom, auto complex_f, auto real_f, double scale = 1) {
    OpSamples s = elementwise_samples({dom}, {[=](const V& v, DType d) -> Scalar {
                                                if (is_complex(d)) return complex_f(v[0]);
                                                return real_f(v[0].real());
                                              },
                                              none});
    s.rtol_scale = scale;
    return s;
  };
  const Domain A = Domain::Any, P = Domain::Positive, U = Domain::Unit;
  switch (op) {
  case OpCode::Exp:
    return fn(
        A, [](Scalar z) { return std::exp(z); }, [](double x) { return std::exp(x); });
  case OpCode::Log:
    return fn(
        P, [](Scalar z) { return std::log(z); }, [](double x) { return std::log(x); });
  case OpCode::Sin:
    return fn(
        A, [](Scalar z) { return std::sin(z); }, [](double x) { return std::sin(x); });
  case OpCode::Cos:
    return fn(
        A, [](Scalar z) { return std::cos(z); }, [](double x) { return std::cos(x); });
  case OpCode::Tan:
    return fn(
        Domain::Unit, [](Scalar z) { return std::tan(z); }, [](double x) { return std::tan(x); });
  case OpCode::Tanh:
    return fn(
        A, [](Scalar z) { return std::tanh(z); }, [](double x) { return std::tanh(x); });
  case OpCode::Sqrt:
    return fn(
        P, [](Scalar z) { return std::sqrt(z); }, [](double x) { return std::sqrt(x); });
  case OpCode::Rsqrt:
    return fn(
        P, [](Scalar z) { return 1.0 / std::sqrt(z); },
        [](double x) { return 1.0 / std::sqrt(x); });
  case OpCode::Expm1:
    return fn(
        A, [](Scalar z) { return std::exp(z) - 1.0; }, [](double x) { return std::expm1(x); }, 1e3);
  case OpCode::Log1p:
    return fn(
        Domain::Unit, [](Scalar z) { return std::log(1.0 + z); },
        [](double x) { return std::log1p(x); }, 1e3);
  case OpCode::Sinh:
    return fn(
        A, [](Scalar z) { return std::sinh(z); }, [](double x) { return std::sinh(x); });
  case OpCode::Cosh:
    return fn(
        A, [](Scalar z) { return std::cosh(z); }, [](double x) { return std::cosh(x); });
  case OpCode::Erf: // real only: the complex reference is never asked for
    return fn(
        A, [](Scalar z) { return z; }, [](double x) { return std::erf(x); });
  case OpCode::Atan2:
    return elementwise_samples(
        {A, A},
        {[](const V& v, DType) { return Scalar(std::atan2(v[0].real(), v[1].real())); }, none});
  case OpCode::Asin:
    return fn(
        U, [](Scalar z) { return std::asin(z); }, [](double x) { return std::asin(x); });
  case OpCode::Acos:
    return fn(
        U, [](Scalar z) { return std::acos(z); }, [](double x) { return std::acos(x); });
  case OpCode::Atan:
    return fn(
        U, [](Scalar z) { return std::atan(z); }, [](double x) { return std::atan(x); });
  case OpCode::Asinh:
    return fn(
        U, [](Scalar z) { return std::asinh(z); }, [](double x) { return std::asinh(x); });
  case OpCode::Atanh:
    return fn(
        U, [](Scalar z) { return std::atanh(z); }, [](double x) { return std::atanh(x); });
  case OpCode::Acosh: {
    // Positive samples moved right by 1: real parts in (1.2, 4), away from the branch point.
    OpSamples s = fn(
        P, [](Scalar z) { return std::acosh(z); }, [](double x) { return std::acosh(x); });
    auto make = s.make;
    s.make = [make](DType d) {
      auto v = make(d);
      for (Sample& sample : v)
        for (Tensor& t : sample.inputs)
          for_each_index(t.shape(), [&](const Dims& i) { set_value(t, i, value_at(t, i) + 1.0); });
      return v;
    };
    return s;
  }
  case OpCode::Exp2:
    return fn(
        A, [](Scalar z) { return std::exp(z * std::log(2.0)); },
        [](double x) { return std::exp2(x); });
  case OpCode::Log2:
    return fn(
        P, [](Scalar z) { return std::log(z) / std::log(2.0); },
        [](double x) { return std::log2(x); });
  case OpCode::Log10:
    return fn(
        P, [](Scalar z) { return std::log10(z); }, [](double x) { return std::log10(x); });
  case OpCode::Erfc: // real only
    return fn(
        A, [](Scalar z) { return z; }, [](double x) { return std::erfc(x); });
  case OpCode::Trunc:
    return fn(
        A, [](Scalar z) { return z; }, [](double x) { return std::trunc(x); });
  case OpCode::Floor:
    return fn(
        A, [](Scalar z) { return z; }, [](double x) { return std::floor(x); });
  case OpCode::Ceil:
    return fn(
        A, [](Scalar z) { return z; }, [](double x) { return std::ceil(x); });
  case OpCode::Round: {
    OpSamples s = fn(
        A, [](Scalar z) { return z; }, [](double x) { return std::nearbyint(x); });
    auto make = s.make;
    s.make = [make](DType d) {
      auto v = make(d);
      v.push_back({"halves", {tensor_of(d, {6}, {0.5, 1.5, 2.5, -0.5, -1.5, 2.4999})}, {}, false});
      return v;
    };
    return s;
  }
  case OpCode::Lgamma: // real only
    return fn(
        P, [](Scalar z) { return z; }, ref_lgamma);
  case OpCode::Digamma: // real only
    return fn(
        P, [](Scalar z) { return z; }, ref_digamma);
  case OpCode::Polygamma: {
    // Integer orders 0..4: finite differences in n stay on the order, whose derivative is zero.
    OpSamples s = elementwise_samples(
        {Domain::SmallNonNeg, P},
        {[](const V& v, DType) { return Scalar(ref_polygamma(v[0].real(), v[1].real())); }, none});
    auto make = s.make;
    s.make = [make](DType d) {
      auto v = make(d);
      // Orders that round (half to even), a negative order, and the poles of every parity.
      v.push_back({"orders and poles",
                   {tensor_of(d, {8}, {0.4, 1.5, 2.5, -1.0, 1.0, 2.0, 2.0, 3.0}),
                    tensor_of(d, {8}, {2.0, 0.5, 1.5, 2.0, -3.0, -3.0, -0.0, 0.0})},
                   {},
                   false});
      return v;
    };
    return s;
  }
  default: return std::nullopt;
  }
}

} // namespace tfe::testing
