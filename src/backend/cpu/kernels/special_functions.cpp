// The gamma-family functions on Boost.Math with a policy that returns inf/NaN instead of throwing;
// float arguments are evaluated in double and rounded once.
#include "backend/cpu/kernels/special_functions.hpp"

#include <cmath>
#include <limits>

#include <boost/math/special_functions/digamma.hpp>
#include <boost/math/special_functions/polygamma.hpp>

namespace tfe::cpu::special {
namespace {

namespace bp = boost::math::policies;
// Every error reports through its return value (inf, NaN), never an exception; double is
// evaluated in long double for the last bits.
using Policy =
    bp::policy<bp::domain_error<bp::ignore_error>, bp::pole_error<bp::ignore_error>,
               bp::overflow_error<bp::ignore_error>, bp::underflow_error<bp::ignore_error>,
               bp::evaluation_error<bp::ignore_error>, bp::rounding_error<bp::ignore_error>,
               bp::indeterminate_result_error<bp::ignore_error>>;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool non_positive_integer(double x) { return x <= 0 && std::floor(x) == x; }

// Boost keeps a lazily grown coefficient table for negative x (behind its own lock); its
// allocation is the one thing left that could throw.
template <class F> double guarded(F&& f) noexcept {
  try {
    return f();
  } catch (...) {
    return kNaN;
  }
}

} // namespace

double lgamma(double x) noexcept {
  int sign = 0;
  return ::lgamma_r(x, &sign); // the reentrant form: plain lgamma writes the global signgam
}
float lgamma(float x) noexcept { return static_cast<float>(lgamma(static_cast<double>(x))); }

double digamma(double x) noexcept {
  if (std::isnan(x)) return x;
  if (x == kInf) return kInf;
  if (x == -kInf) return kNaN;
  if (x == 0) return std::signbit(x) ? kInf : -kInf; // the one-sided limits, as SciPy
  if (non_positive_integer(x)) return kNaN;
  return guarded([&] { return boost::math::digamma(x, Policy()); });
}
float digamma(float x) noexcept { return static_cast<float>(digamma(static_cast<double>(x))); }

double polygamma(double n, double x) noexcept {
  double order = std::nearbyint(n);
  if (!std::isfinite(n) || std::isnan(x) || order < 0 || x == -kInf) return kNaN;
  // Beyond order 10^6 every finite value lies outside double range except in a band of x too
  // narrow to matter, and Boost's series sizes (4 n + digits, in int) would overflow for larger
  // orders: NaN, documented with the op.
  if (order > 1e6) return kNaN;
  if (order == 0) return digamma(x);
  if (x == kInf) return 0;
  const bool odd = std::fmod(order, 2) == 1;
  // Near a pole p, polygamma(n, x) ~ (-1)^(n+1) n! / (x - p)^(n+1): the same sign from both sides
  // for odd n, opposite signs for even n (the side of zero is its sign bit).
  if (non_positive_integer(x)) {
    if (odd) return kInf;
    if (x == 0) return std::signbit(x) ? kInf : -kInf;
    return kNaN;
  }
  const int k = static_cast<int>(order);
  return guarded([&] { return boost::math::polygamma(k, x, Policy()); });
}
float polygamma(float n, float x) noexcept {
  return static_cast<float>(polygamma(static_cast<double>(n), static_cast<double>(x)));
}

} // namespace tfe::cpu::special
