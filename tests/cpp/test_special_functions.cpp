// The gamma family's scalar functions (backend/cpu/kernels/special_functions.hpp) against known
// closed forms, long double series, and their contract at poles and out-of-range orders: a value
// (inf or NaN), never an exception, from any thread.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <thread>
#include <vector>

#include "backend/cpu/kernels/special_functions.hpp"

using namespace tfe::cpu;

namespace {

constexpr long double kPi = 3.141592653589793238462643383279502884L;
constexpr long double kEuler = 0.577215664901532860606512090082402431L;
constexpr double kInf = std::numeric_limits<double>::infinity();

// polygamma(n, x) = (-1)^(n+1) n! sum_k 1/(x + k)^(n+1) for n >= 1: the series summed in long
// double to K terms, then the Euler-Maclaurin tail integral + half term.
long double polygamma_series(int n, long double x) {
  const int K = 200000;
  long double s = 0;
  for (int k = K - 1; k >= 0; --k) s += std::pow(x + k, -(n + 1.0L));
  long double xk = x + K;
  s += std::pow(xk, -1.0L * n) / n + std::pow(xk, -(n + 1.0L)) / 2;
  long double fact = 1;
  for (int i = 2; i <= n; ++i) fact *= i;
  return (n % 2 == 1 ? 1 : -1) * fact * s;
}

bool rel_close(double got, long double want, double rtol) {
  return std::fabs(static_cast<long double>(got) - want) <= rtol * std::fabs(want);
}

} // namespace

TEST_CASE("special: lgamma and digamma at known values", "[special]") {
  CHECK(rel_close(special::lgamma(0.5), 0.5L * std::log(kPi), 1e-15));
  CHECK(special::lgamma(1.0) == 0.0);
  CHECK(rel_close(special::lgamma(10.0), std::log(362880.0L), 1e-15));
  CHECK(rel_close(special::lgamma(-0.5), std::log(2 * std::sqrt(kPi)), 1e-15));
  CHECK(rel_close(special::digamma(1.0), -kEuler, 1e-15));
  CHECK(rel_close(special::digamma(0.5), -kEuler - 2 * std::log(2.0L), 1e-15));
  CHECK(rel_close(special::digamma(-0.5), 2 - kEuler - 2 * std::log(2.0L), 1e-14));
  CHECK(rel_close(special::polygamma(1.0, 1.0), kPi * kPi / 6, 1e-15));
  CHECK(rel_close(special::polygamma(1.0, 0.5), kPi * kPi / 2, 1e-15));
  // F32 is evaluated in double and rounded once.
  CHECK(special::lgamma(0.5f) == static_cast<float>(special::lgamma(0.5)));
  CHECK(special::digamma(3.25f) == static_cast<float>(special::digamma(3.25)));
}

TEST_CASE("special: polygamma against its series", "[special]") {
  for (int n : {1, 2, 3, 5, 8})
    for (double x : {0.3, 1.7, 4.0, 25.5}) {
      INFO("n=" << n << " x=" << x);
      CHECK(
          rel_close(special::polygamma(static_cast<double>(n), x), polygamma_series(n, x), 1e-12));
    }
  // Reflection for negative x: psi(1 - x) - psi(x) = pi cot(pi x), differentiated once.
  for (double x : {-0.3, -2.6}) {
    long double s = std::sin(kPi * x);
    long double want = -polygamma_series(1, 1 - x) + kPi * kPi / (s * s);
    CHECK(rel_close(special::polygamma(1.0, x), want, 1e-11));
  }
}

TEST_CASE("special: poles, infinities and orders give values, never exceptions", "[special]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(special::lgamma(0.0) == kInf);
  CHECK(special::lgamma(-3.0) == kInf);
  CHECK(special::digamma(0.0) == -kInf);
  CHECK(special::digamma(-0.0) == kInf);
  CHECK(std::isnan(special::digamma(-2.0)));
  CHECK(std::isnan(special::digamma(-kInf)));
  CHECK(special::digamma(kInf) == kInf);
  CHECK(special::polygamma(1.0, -2.0) == kInf);     // odd order: +inf from both sides
  CHECK(std::isnan(special::polygamma(2.0, -2.0))); // even order: the sides differ
  CHECK(special::polygamma(2.0, 0.0) == -kInf);
  CHECK(special::polygamma(2.0, -0.0) == kInf);
  CHECK(special::polygamma(3.0, kInf) == 0.0);
  CHECK(std::isnan(special::polygamma(-1.0, 2.0)));
  CHECK(std::isnan(special::polygamma(nan, 2.0)));
  CHECK(std::isnan(special::polygamma(kInf, 2.0)));
  CHECK(std::isnan(special::polygamma(1e10, 2.0)));
  // Orders past 10^6 are NaN: the fuzzer found Boost's int series size overflowing at this one.
  CHECK(std::isnan(special::polygamma(808283481.0, 2.0)));
  CHECK(std::isnan(special::polygamma(1e6 + 1, -0.5)));
  CHECK(special::polygamma(0.4, 2.0) == special::digamma(2.0));        // n rounds to the nearest
  CHECK(special::polygamma(2.5, 2.0) == special::polygamma(2.0, 2.0)); // half to even
  // Overflow far out in the order: inf, not an exception.
  CHECK(std::isinf(special::polygamma(300.0, 0.01)));
  CHECK_NOTHROW(special::polygamma(40.0, -123.456));
}

TEST_CASE("special: polygamma of negative x from several threads", "[special]") {
  // Boost grows a coefficient table for negative x (per order) behind its own lock: orders first
  // used concurrently must agree with the serial evaluation that follows.
  const int lo = 20, hi = 40;
  std::vector<std::vector<double>> got(4);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < got.size(); ++t)
    threads.emplace_back([&, t] {
      for (int n = hi; n >= lo; --n) got[t].push_back(special::polygamma(n, -0.37));
    });
  for (auto& th : threads) th.join();
  for (const auto& g : got)
    for (int n = hi; n >= lo; --n) {
      double want = special::polygamma(n, -0.37);
      CHECK(g[static_cast<size_t>(hi - n)] == want);
    }
}
