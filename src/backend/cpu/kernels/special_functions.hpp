// The gamma-family scalar functions of the analytic ops lgamma, digamma and polygamma. They live
// in their own translation unit so that only it includes Boost.Math; every function returns a
// value (inf or NaN at poles and outside the domain, as SciPy) and never throws.
#pragma once

namespace tfe::cpu::special {

// log|Gamma(x)|: +inf at 0, the negative integers and +-inf.
double lgamma(double x) noexcept;
float lgamma(float x) noexcept;

// psi(x) = d/dx log|Gamma(x)|: -inf at +0, +inf at -0, NaN at the negative integers and -inf.
double digamma(double x) noexcept;
float digamma(float x) noexcept;

// The n-th derivative of digamma (n rounded to the nearest integer; polygamma(0, x) = psi(x)):
// NaN for n < 0, n not finite or above INT_MAX, x NaN or -inf, and at a negative integer x where
// the two one-sided limits differ in sign (even n); +-inf at the other poles.
double polygamma(double n, double x) noexcept;
float polygamma(float n, float x) noexcept;

} // namespace tfe::cpu::special
