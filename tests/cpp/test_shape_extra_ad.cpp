// The shape helpers (eager/shape_extra.hpp) in the AD test matrix. They have no derivative code
// of their own: each is a composition of reshape, transpose, slice, broadcast, concatenate,
// gather, pad and diagonal extraction, so their derivatives are those rules composed. For each
// helper on fixed parameters, in F64 and C64: the eager engine's vjp, backward, jvp and both
// Hessian-vector products and the dataflow engine's gradients equal the traced program's
// (support/engine_checks.hpp); the traced derivatives equal central finite differences and pass
// the dot-product test and second order (support/ad_checks.hpp).
#include <catch2/catch.hpp>

#include "eager/shape_extra.hpp"
#include "eager/surface.hpp"
#include "support/engine_checks.hpp"

using namespace tfe;
using namespace tfe::testing;

namespace {

struct ShapeCase {
  std::string name;
  Dims input;
  EngineFunction f;
};

template <class F> ShapeCase shape_case(std::string name, Dims input, F f) {
  return {name, std::move(input), engine_function(name, [f](const auto& x) {
            using V = typename std::decay_t<decltype(x)>::value_type;
            // One output per case; the helper returns one value or several (split).
            return f(x[0], static_cast<const V*>(nullptr));
          })};
}

template <class V> std::vector<V> one(V v) { return std::vector<V>{std::move(v)}; }

std::vector<ShapeCase> catalog() {
  using A = std::vector<int64_t>;
  std::vector<ShapeCase> c;
  c.push_back(shape_case("squeeze", {3, 1, 2}, [](const auto& x, auto) {
    A axes{1};
    return one(eager::squeeze(x, axes));
  }));
  c.push_back(shape_case("expand_dims", {3, 2}, [](const auto& x, auto) {
    A axes{0, 3};
    return one(eager::expand_dims(x, axes));
  }));
  c.push_back(shape_case("moveaxis", {2, 3, 4}, [](const auto& x, auto) {
    A src{0, 1}, dst{2, 0};
    return one(eager::moveaxis(x, src, dst));
  }));
  c.push_back(shape_case("swapaxes", {2, 3, 4},
                         [](const auto& x, auto) { return one(eager::swapaxes(x, 0, -1)); }));
  c.push_back(
      shape_case("flatten", {2, 3, 2}, [](const auto& x, auto) { return one(eager::flatten(x)); }));
  c.push_back(shape_case("split at points", {5, 3}, [](const auto& x, auto) {
    A points{1, -2};
    return eager::split(x, 3, points, 0);
  }));
  c.push_back(shape_case("tile", {2, 3}, [](const auto& x, auto) {
    A reps{2, 1, 3};
    return one(eager::tile(x, reps));
  }));
  c.push_back(shape_case("repeat, one count", {2, 3}, [](const auto& x, auto) {
    A r{2};
    return one(eager::repeat(x, r, 1));
  }));
  c.push_back(shape_case("repeat, per element", {3, 2}, [](const auto& x, auto) {
    A r{1, 0, 3};
    return one(eager::repeat(x, r, 0));
  }));
  c.push_back(shape_case("roll over two axes", {3, 4}, [](const auto& x, auto) {
    A shifts{1, -5}, axes{0, 1};
    return one(eager::roll(x, shifts, axes));
  }));
  c.push_back(shape_case("roll over the flattening", {3, 2}, [](const auto& x, auto) {
    A shifts{2};
    return one(eager::roll(x, shifts, A{}));
  }));
  c.push_back(shape_case("diagonal with offset and batch", {3, 2, 4},
                         [](const auto& x, auto) { return one(eager::diagonal(x, 1, 0, 2)); }));
  c.push_back(shape_case("diag of a vector, below", {3},
                         [](const auto& x, auto) { return one(eager::diag(x, -1)); }));
  c.push_back(shape_case("diag of a matrix, above", {3, 4},
                         [](const auto& x, auto) { return one(eager::diag(x, 2)); }));
  return c;
}

} // namespace

TEST_CASE("shape helpers AD: every engine, finite differences, second order", "[shape][ad]") {
  EngineCounts counts;
  for (const ShapeCase& sc : catalog()) {
    for (DType d : {DType::F64, DType::C64}) {
      INFO(sc.name << " " << dtype_name(d));
      EngineCase c;
      c.function = &sc.f;
      c.inputs = {random_tensor(d, sc.input, 11)};
      c.active = {true};
      c.seed = 7;
      AdCheckResult r = check_engines(c, &counts);
      INFO(r.why);
      CHECK(r.ok);
      TracedCase t = traced_case(c);
      std::vector<int64_t> all{0};
      AdCheckResult fd = check_jvp_fd(*t.program, t.leaves, all, 1);
      INFO(fd.why);
      CHECK(fd.ok);
      AdCheckResult tr = check_transpose(*t.program, t.leaves, all, 2);
      INFO(tr.why);
      CHECK(tr.ok);
      AdCheckResult so = check_second_order(*t.program, t.leaves, all, 3);
      INFO(so.why);
      CHECK(so.ok);
    }
  }
  CHECK(counts.cases >= 28);
}
