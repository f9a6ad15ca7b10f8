// Shared helpers of the C++ header suites.
#pragma once

#include <catch2/catch.hpp>
#include <tenferro/tenferro.hpp>

#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

// Every test runs its body in a function and then checks that the handles the body created are
// all gone: a leak in the header (a missed release, a retain too many) shows up in the test that
// caused it rather than as a count at exit.
#define TFE_TEST_CAT2(a, b) a##b
#define TFE_TEST_CAT(a, b) TFE_TEST_CAT2(a, b)
#define TFE_TEST_IMPL(body, name, tags)                                                            \
  static void body();                                                                              \
  TEST_CASE(name, tags) {                                                                          \
    const int64_t live_before = tfe::debug_live_objects();                                         \
    body();                                                                                        \
    CHECK(tfe::debug_live_objects() == live_before);                                               \
  }                                                                                                \
  static void body()
#define TFE_TEST(name, tags) TFE_TEST_IMPL(TFE_TEST_CAT(tfe_test_body_, __LINE__), name, tags)

namespace cxxtest {

// The tfe::Error that f throws; fails the test when it throws nothing.
inline tfe::Error error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const tfe::Error& e) {
    return e;
  }
  FAIL("expected a tfe::Error");
  return tfe::Error(TFE_OK, "");
}

// f throws tfe::Error with status s and a message starting with prefix (the failing function).
inline void require_status(const std::function<void()>& f, tfe_status s,
                           const std::string& prefix) {
  const tfe::Error e = error_of(f);
  CHECK(e.status() == s);
  CHECK(std::string(e.status_name()) == tfe::status_name(s));
  INFO("message: " << e.what());
  CHECK(std::string(e.what()).rfind(prefix, 0) == 0);
}

inline void check_close(const std::vector<double>& got, const std::vector<double>& want,
                        double tol = 1e-12) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i << ": " << got[i] << " vs " << want[i]);
    CHECK(std::abs(got[i] - want[i]) <= tol * std::max(1.0, std::abs(want[i])));
  }
}

inline std::vector<double> values(const tfe::Tensor& t) { return t.to_vector<double>(); }

// Column-major element (i, j) of an m-row matrix stored in v.
inline double at(const std::vector<double>& v, int64_t m, int64_t i, int64_t j) {
  return v[static_cast<std::size_t>(i + j * m)];
}

// Plain column-major product of an m x k and a k x n matrix, for reference values.
inline std::vector<double> matmul_ref(const std::vector<double>& a, const std::vector<double>& b,
                                      int64_t m, int64_t k, int64_t n) {
  std::vector<double> c(static_cast<std::size_t>(m * n), 0.0);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t p = 0; p < k; ++p)
      for (int64_t i = 0; i < m; ++i)
        c[static_cast<std::size_t>(i + j * m)] += at(a, m, i, p) * at(b, k, p, j);
  return c;
}

// Central difference of a scalar function of a vector along coordinate i.
inline double central_diff(const std::function<double(const std::vector<double>&)>& f,
                           std::vector<double> x, std::size_t i, double h = 1e-6) {
  const double x0 = x[i];
  x[i] = x0 + h;
  const double up = f(x);
  x[i] = x0 - h;
  const double down = f(x);
  return (up - down) / (2 * h);
}

} // namespace cxxtest
