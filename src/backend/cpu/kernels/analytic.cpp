// CPU kernels of the analytic group (ops/defs/analytic.hpp). Complex expm1/log1p keep their
// accuracy near 0 by working on the real and imaginary parts.
#include <cmath>

#include "backend/cpu/kernels/elementwise.hpp"
#include "backend/cpu/kernels/kernels.hpp"

namespace tfe::cpu::kernels {
namespace {

using ops::OpCode;

#define TFE_STD_FUNCTOR(Name, fn)                                                                  \
  struct Name {                                                                                    \
    static constexpr int64_t grain = kGrainMedium;                                                 \
    template <class T> T operator()(T a) const { return std::fn(a); }                              \
  };
TFE_STD_FUNCTOR(ExpF, exp)
TFE_STD_FUNCTOR(LogF, log)
TFE_STD_FUNCTOR(SinF, sin)
TFE_STD_FUNCTOR(CosF, cos)
TFE_STD_FUNCTOR(TanF, tan)
TFE_STD_FUNCTOR(TanhF, tanh)
TFE_STD_FUNCTOR(SqrtF, sqrt)
TFE_STD_FUNCTOR(FloorF, floor)
TFE_STD_FUNCTOR(CeilF, ceil)
TFE_STD_FUNCTOR(RoundF, nearbyint) // halves to even under the default rounding mode
#undef TFE_STD_FUNCTOR

struct RsqrtF {
  static constexpr int64_t grain = kGrainMedium;
  template <class T> T operator()(T a) const { return T(1) / std::sqrt(a); }
};

struct Expm1F {
  static constexpr int64_t grain = kGrainMedium;
  template <class T> T operator()(T a) const {
    if constexpr (is_complex_v<T>) {
      // expm1(x + iy) = expm1(x) cos y + (cos y - 1) + i e^x sin y, with cos y - 1 = -2 sin^2(y/2).
      auto x = a.real(), y = a.imag();
      if (y == 0) return T(std::expm1(x), y); // real axis: exact, and NaN + 0i stays so (as cexp)
      auto s = std::sin(y / 2);
      return T(std::expm1(x) * std::cos(y) - 2 * s * s, std::exp(x) * std::sin(y));
    } else {
      return std::expm1(a);
    }
  }
};

struct Log1pF {
  static constexpr int64_t grain = kGrainMedium;
  template <class T> T operator()(T a) const {
    if constexpr (is_complex_v<T>) {
      // log1p(x + iy) = log|1 + z| + i arg(1 + z), |1 + z|^2 = 1 + (2x + x^2 + y^2).
      auto x = a.real(), y = a.imag();
      auto m = std::abs(T(x + 1, y));
      if (m > 0.5 && m < 2) return T(std::log1p(x * (2 + x) + y * y) / 2, std::atan2(y, x + 1));
      return T(std::log(m), std::atan2(y, x + 1));
    } else {
      return std::log1p(a);
    }
  }
};

} // namespace

#define TFE_UNARY(fn, Op, F)                                                                       \
  Tensor fn(std::span<const Tensor> in, const ops::Params&, const ops::ConcreteMeta& m) {          \
    return unary<OpCode::Op, F>(in, m);                                                            \
  }
TFE_UNARY(exp, Exp, ExpF)
TFE_UNARY(log, Log, LogF)
TFE_UNARY(sin, Sin, SinF)
TFE_UNARY(cos, Cos, CosF)
TFE_UNARY(tan, Tan, TanF)
TFE_UNARY(tanh, Tanh, TanhF)
TFE_UNARY(sqrt, Sqrt, SqrtF)
TFE_UNARY(rsqrt, Rsqrt, RsqrtF)
TFE_UNARY(expm1, Expm1, Expm1F)
TFE_UNARY(log1p, Log1p, Log1pF)
TFE_UNARY(floor, Floor, FloorF)
TFE_UNARY(ceil, Ceil, CeilF)
TFE_UNARY(round, Round, RoundF)
#undef TFE_UNARY

} // namespace tfe::cpu::kernels
