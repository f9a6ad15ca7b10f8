// digamma and polygamma on the device, evaluated in double (float arguments are widened and the
// result rounded once, as the CPU backend does). Special values follow the CPU backend: psi is
// -inf at +0, +inf at -0, NaN at the negative integers and -inf; polygamma(n, x) rounds n, is NaN
// for n < 0, and at a pole is +inf for odd n and NaN (or the one-sided limit at zero) for even n.
#pragma once

#include <cuda/std/limits>

namespace tfe::cuda::special {

inline constexpr double kPi = 3.14159265358979323846;

__device__ inline bool non_positive_integer(double x) { return x <= 0 && floor(x) == x; }

// psi(x): reflection below zero, the recurrence psi(x) = psi(x + 1) - 1/x up to x >= 10, then the
// asymptotic series ln x - 1/(2x) - sum B_2k / (2k x^2k) through k = 7.
__device__ inline double digamma(double x) {
  constexpr double inf = ::cuda::std::numeric_limits<double>::infinity();
  constexpr double nan = ::cuda::std::numeric_limits<double>::quiet_NaN();
  if (x != x) return x;
  if (x == inf) return inf;
  if (x == -inf) return nan;
  if (x == 0) return signbit(x) ? inf : -inf;
  if (non_positive_integer(x)) return nan;
  double result = 0;
  if (x < 0) {
    // psi(x) = psi(1 - x) - pi cot(pi x); sinpi/cospi keep the argument reduction exact.
    result = -kPi * cospi(x) / sinpi(x);
    x = 1 - x;
  }
  while (x < 10) {
    result -= 1 / x;
    x += 1;
  }
  double z = 1 / (x * x);
  double series =
      z * (1.0 / 12 - z * (1.0 / 120 -
                           z * (1.0 / 252 -
                                z * (1.0 / 240 - z * (1.0 / 132 - z * (691.0 / 32760 - z / 12))))));
  return result + log(x) - 0.5 / x - series;
}

// The Hurwitz zeta function zeta(s, q) = sum_k (q + k)^-s for an integer s >= 2 and q not a
// non-positive integer: direct terms until q + k > 9, then the Euler-Maclaurin tail. A negative q
// only adds terms (s is an integer, so (q + k)^-s is defined).
__device__ inline double hurwitz_zeta(double s, double q) {
  // (2j)! / B_2j for j = 1..12: the Euler-Maclaurin correction coefficients.
  constexpr double kCoef[12] = {12.0,
                                -720.0,
                                30240.0,
                                -1209600.0,
                                47900160.0,
                                -1.8924375803183791606e9,
                                7.47242496e10,
                                -2.950130727918164224e12,
                                1.1646782814350067249e14,
                                -4.5979787224074726105e15,
                                1.8152105401943546773e17,
                                -7.1661652561756670113e18};
  constexpr double eps = 1.1102230246251565e-16;
  if (q > 1e8) return (1 / (s - 1) + 1 / (2 * q)) * pow(q, 1 - s);
  // The direct terms are summed with Neumaier's compensation: for a negative q and an odd s they
  // cancel (exactly, at half-integers), and the small remainder must not be lost on the way.
  double sum = pow(q, -s);
  double comp = 0;
  double a = q;
  double term = 0;
  for (int i = 0; i < 9 || a <= 9; ++i) {
    a += 1;
    term = pow(a, -s);
    const double t = sum + term;
    comp += fabs(sum) >= fabs(term) ? (sum - t) + term : (term - t) + sum;
    sum = t;
    if (fabs(term / (sum + comp)) < eps) return sum + comp;
  }
  sum += comp;
  sum += term * a / (s - 1) - 0.5 * term;
  double rising = 1; // s (s + 1) ... (s + 2j - 2)
  double k = 0;
  for (int j = 0; j < 12; ++j) {
    rising *= s + k;
    term /= a;
    double t = rising * term / kCoef[j];
    sum += t;
    if (fabs(t / sum) < eps) break;
    k += 1;
    rising *= s + k;
    term /= a;
    k += 1;
  }
  return sum;
}

__device__ inline double polygamma(double n, double x) {
  constexpr double inf = ::cuda::std::numeric_limits<double>::infinity();
  constexpr double nan = ::cuda::std::numeric_limits<double>::quiet_NaN();
  double order = rint(n);
  if (!isfinite(n) || x != x || order < 0 || x == -inf) return nan;
  if (order > 2147483647.0) return nan;
  if (order == 0) return digamma(x);
  if (x == inf) return 0;
  const bool odd = fmod(order, 2.0) == 1;
  if (non_positive_integer(x)) {
    if (odd) return inf;
    if (x == 0) return signbit(x) ? inf : -inf;
    return nan;
  }
  // psi^(n)(x) = (-1)^(n+1) n! zeta(n + 1, x)
  double factorial = tgamma(order + 1);
  return (odd ? 1.0 : -1.0) * factorial * hurwitz_zeta(order + 1, x);
}

} // namespace tfe::cuda::special
