// Rules of the order group (src/ops/defs/order.hpp). Argsort, argmax and argmin have integer
// outputs (zero_jvp). Cumsum is linear; its transpose is the reversed running sum. Cumprod's JVP
// solves dy_i = x_i dy_{i-1} + e_i dx_i, with e_i = prod_{j<i} x_j (y shifted by one), by
// doubling: log2(n) passes of products and sums of shifted values (40 passes when n is a
// symbol: enough for any lane, the extra ones add zeros). It never divides, so it is
// exact with any number of zeros, and as a polynomial in x built from ops whose masks depend only
// on positions, its own derivatives (second order and up) are exact too.
#include "ad/rules/rules.hpp"

namespace tfe::ad::rules {

using ops::AxisParams;
using ops::OpCode;

namespace {

Value cumsum(const Value& x, int64_t axis) { return emit1(OpCode::Cumsum, x, AxisParams{axis}); }

} // namespace

Tangent cumsum_jvp(const JvpArgs& a) {
  if (!a.dx[0]) return std::nullopt;
  return cumsum(*a.dx[0], a.params<AxisParams>().axis);
}

// The adjoint of an inclusive running sum: the running sum taken from the other end.
void cumsum_t(const TransposeArgs& a, std::span<Tangent> out) {
  int64_t axis = a.params<AxisParams>().axis;
  ops::AxesParams rev{{axis}};
  out[0] = emit1(OpCode::Reverse, cumsum(emit1(OpCode::Reverse, a.ct, rev), axis), rev);
}

Tangent cumprod_jvp(const JvpArgs& a) {
  if (!a.dx[0]) return std::nullopt;
  const Value& x = a.x[0];
  int64_t axis = a.params<AxisParams>().axis;
  const Shape& s = x.meta().shape;
  DType d = x.meta().dtype;
  Extent n = s[static_cast<size_t>(axis)];
  // v shifted by k along the axis (zeros come in, the last k leave); a pad that crops keeps the
  // extent n even when n is symbolic, and k >= n gives zeros.
  auto shifted = [&](const Value& v, int64_t k) {
    ops::PadParams p;
    p.low.assign(s.size(), Extent(0));
    p.high.assign(s.size(), Extent(0));
    p.interior.assign(s.size(), 0);
    // Never more than n: the kernel pads before it crops.
    Extent m = min_extent(Extent(k), n);
    p.low[static_cast<size_t>(axis)] = m;
    p.high[static_cast<size_t>(axis)] = Extent(0) - m;
    return emit1(OpCode::Pad, v, p);
  };
  Value ones = full(d, s, 1.0);
  // The same with ones coming in: the 0/1 mask of the first k positions is exact.
  auto shifted_ones = [&](const Value& v, int64_t k) {
    return shifted(v, k) + (ones - shifted(ones, k));
  };
  // Enough passes for any extent: n when it is known, else every extent a lane can have.
  const int64_t bound = n.is_const() ? n.value() : int64_t{1} << 40;
  Value coef = x;                              // product of the coefficients of a window
  Value acc = shifted_ones(a.y, 1) * *a.dx[0]; // e_i dx_i
  for (int64_t k = 1; k < bound; k *= 2) {
    acc = acc + (coef * shifted(acc, k));
    if (2 * k < bound) coef = coef * shifted_ones(coef, k);
  }
  return acc;
}

} // namespace tfe::ad::rules
