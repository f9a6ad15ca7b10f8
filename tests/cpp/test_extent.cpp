// Symbolic extents: interning, simplification, evaluation with overflow and division checks,
// and the equality/guard rules the shape rules use.
#include <catch2/catch.hpp>

#include "core/error.hpp"
#include "core/extent.hpp"
#include "ops/shape_checks.hpp"

using namespace tfe;

TEST_CASE("extents: constants stay plain values; symbols are interned", "[graph][extent]") {
  Extent three = 3;
  CHECK(three.is_const());
  CHECK((three + 4) == Extent(7));
  Extent s1 = Extent::symbol(1), s2 = Extent::symbol(2);
  CHECK_FALSE(s1.is_const());
  CHECK(s1 == Extent::symbol(1));
  CHECK_FALSE(s1 == s2);
  CHECK(s1 + s2 == s2 + s1);   // canonical order of commutative operands
  CHECK(s1 * 2 * 3 == s1 * 6); // nested constants fold
  CHECK(s1 + 1 + 2 == s1 + 3);
  CHECK(s1 + s1 == s1 * 2); // like terms collect
  CHECK(s1 * 3 + s1 == s1 * 4);
  CHECK(s1 * 2 + s1 * 3 == s1 * 5);
  CHECK(s1 * 1 == s1);
  CHECK(s1 + 0 == s1);
  CHECK(s1 - s1 == Extent(0));
  CHECK(s1 * 0 == Extent(0));
  CHECK(min_extent(s1, s1) == s1);
  CHECK(to_string(s1 * 6) == "(s1*6)");
  CHECK(to_string(floor_div(s2 + 1, 2)) == "((s2+1)//2)");
  CHECK(max_symbol(floor_div(s2 + s1, 2)) == 2);
}

TEST_CASE("extents: evaluation binds symbols and checks arithmetic", "[graph][extent]") {
  Extent s1 = Extent::symbol(1), s2 = Extent::symbol(2);
  std::vector<int64_t> b{7, 3};
  CHECK(evaluate(s1 * s2 - 1, b) == 20);
  CHECK(evaluate(floor_div(s1 - 10, s2), b) == -1); // floor, not truncation
  CHECK(evaluate(min_extent(s1, s2), b) == 3);
  CHECK(evaluate(max_extent(s1, s2 * 4), b) == 12);
  std::vector<int64_t> zero{7, 0};
  CHECK_THROWS_AS(evaluate(floor_div(s1, s2), zero), Error);
  std::vector<int64_t> big{INT64_MAX, 2};
  try {
    evaluate(s1 * s2, big);
    FAIL("no overflow error");
  } catch (const Error& e) {
    CHECK(e.status() == Status::Numerical);
  }
  std::vector<int64_t> one{5};
  CHECK_THROWS_AS(evaluate(s2, one), Error); // unbound symbol
  CHECK_THROWS_AS(Extent(4) * INT64_MAX, Error);
}

TEST_CASE("extents: equalities are decided, rejected or deferred as guards", "[graph][extent]") {
  using ops::ShapeGuards;
  Extent s1 = Extent::symbol(1), s2 = Extent::symbol(2);
  CHECK(ops::require_eq(s1, s1, Status::ShapeMismatch, "C1", "x") == s1);
  CHECK_THROWS_AS(ops::require_eq(2, 3, Status::ShapeMismatch, "C1", "x"), Error);
  try {
    ops::require_eq(s1, s2, Status::ShapeMismatch, "C1", "dim 0");
    FAIL("two different symbols accepted");
  } catch (const Error& e) {
    CHECK_THAT(e.message(), Catch::Contains("symbolic extents s1 and s2 are not provably equal"));
  }
  // A symbol against a constant: only the binding can tell; inside a build it becomes a guard.
  CHECK_THROWS_AS(ops::require_eq(s1, 4, Status::ShapeMismatch, "C1", "x"), Error);
  ShapeGuards scope;
  CHECK(ops::require_eq(s1, 4, Status::ShapeMismatch, "C1", "dim 0") == Extent(4));
  ops::require_le(s2, s1 + 1, Status::InvalidArgument, "C2", "limit");
  auto guards = scope.take();
  REQUIRE(guards.size() == 2);
  CHECK(guards[0].kind == ops::ShapeGuard::Kind::Equal);
  CHECK_THAT(guards[0].message, Catch::Contains("s1 and 4 differ"));
  CHECK(guards[1].kind == ops::ShapeGuard::Kind::LessEqual);
}
