// einsum: the grammar (parse) and the binding of terms to shapes (resolve), including the
// messages of malformed strings and mismatched extents.
#include <catch2/catch.hpp>

#include <string>

#include "core/error.hpp"
#include "einsum/resolve.hpp"

using namespace tfe;
using namespace tfe::einsum;

namespace {

int L(char c) { return c <= 'Z' ? c - 'A' : 26 + (c - 'a'); }

// The message of the error f throws (empty when it throws none).
template <class F> std::string error_of(F&& f, Status* status = nullptr) {
  try {
    f();
  } catch (const Error& e) {
    if (status) *status = e.status();
    return e.message();
  }
  return "";
}

bool has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

} // namespace

TEST_CASE("einsum parse: explicit, implicit, ellipsis and spaces", "[einsum]") {
  Subscripts s = parse("ij,jk->ik", 2);
  REQUIRE(s.explicit_output);
  REQUIRE(s.inputs.size() == 2);
  CHECK(s.inputs[0].letters == std::vector<int>{L('i'), L('j')});
  CHECK(s.output.letters == std::vector<int>{L('i'), L('k')});

  Subscripts implicit = parse(" ij , jk ", 2);
  CHECK_FALSE(implicit.explicit_output);
  CHECK(implicit.inputs[1].text == "jk");

  Subscripts e = parse("a...b,...->...", 2);
  CHECK(e.inputs[0].ellipsis == 1);
  CHECK(e.inputs[1].ellipsis == 0);
  CHECK(e.inputs[1].letters.empty());
  CHECK(e.output.has_ellipsis());

  Subscripts scalar = parse("", 1);
  CHECK(scalar.inputs.size() == 1);
  CHECK(parse("->", 1).explicit_output);
  CHECK(letter_of(L('Q')) == 'Q');
  CHECK(letter_of(L('q')) == 'q');
}

TEST_CASE("einsum parse: every malformed string is named", "[einsum]") {
  struct Bad {
    const char* text;
    size_t n;
    const char* part;
  };
  Bad bad[] = {
      {"ij,jk", 3, "have 2 input terms but 3 operands"},
      {"ij,jk->ik->i", 2, "more than one \"->\""},
      {"i1,jk", 2, "invalid character '1'"},
      {"ij-jk", 1, "invalid character '-'"},
      {"ij>k", 1, "invalid character '>'"},
      {"i.j", 1, "'.' that is not part of \"...\""},
      {"....i", 1, "'.' that is not part of \"...\""},
      {"...i...", 1, "has two \"...\""},
      {"ij->ii", 1, "output index 'i' appears twice"},
      {"ij->k", 1, "output index 'k' is in no input term"},
      {"ij->i,j", 1, "has a ','"},
  };
  for (const Bad& b : bad) {
    Status st = Status::Ok;
    std::string m = error_of([&] { parse(b.text, b.n); }, &st);
    INFO(b.text << " -> " << m);
    CHECK(st == Status::InvalidArgument);
    CHECK(has(m, b.part));
    CHECK(has(m, std::string("\"") + b.text + "\""));
  }
}

TEST_CASE("einsum resolve: labels, ellipsis left-aligned, implicit output", "[einsum]") {
  std::vector<Shape> shapes{{2, 3, 5, 7}, {3, 4, 5}};
  Problem p = resolve(parse("ij...,jk...", 2), shapes);
  // operand 0's "..." covers [5,7], operand 1's covers [5]: left-aligned, so both 5s pair up.
  CHECK(p.operands[0] == std::vector<int>{L('i'), L('j'), 52, 53});
  CHECK(p.operands[1] == std::vector<int>{L('j'), L('k'), 52});
  CHECK(p.extent[52] == Extent(5));
  CHECK(p.extent[53] == Extent(7));
  // NumPy's implicit output: the ellipsis dims first, then the single letters in ASCII order.
  CHECK(p.output == std::vector<int>{52, 53, L('i'), L('k')});

  Problem upper = resolve(parse("ba,Ab", 2), std::vector<Shape>{{2, 3}, {4, 2}});
  CHECK(upper.output == std::vector<int>{L('A'), L('a')});

  Problem trace = resolve(parse("ii", 1), std::vector<Shape>{{3, 3}});
  CHECK(trace.output.empty());

  // An extent of 1 broadcasts against the index's other extent.
  Problem b = resolve(parse("ij,ij->ij", 2), std::vector<Shape>{{2, 1}, {2, 3}});
  CHECK(b.extent[static_cast<size_t>(L('j'))] == Extent(3));
}

TEST_CASE("einsum resolve: extent and rank errors name operand, term, shape", "[einsum]") {
  Status st = Status::Ok;
  std::string m = error_of(
      [&] {
        resolve(parse("ij,jk->ik", 2), std::vector<Shape>{{2, 3}, {4, 5}});
      },
      &st);
  CHECK(st == Status::ShapeMismatch);
  CHECK(has(m, "subscripts \"ij,jk->ik\""));
  CHECK(has(m, "operand 1 (term \"jk\", shape [4,5])"));
  CHECK(has(m, "index 'j' the extent 4, but operand 0 gives it 3"));

  m = error_of([&] { resolve(parse("ii->i", 1), std::vector<Shape>{{2, 3}}); }, &st);
  CHECK(st == Status::ShapeMismatch);
  CHECK(has(m, "repeats index 'i' over dims 0 and 1 of different extents 2 and 3"));

  m = error_of([&] { resolve(parse("ij", 1), std::vector<Shape>{{2, 3, 4}}); }, &st);
  CHECK(st == Status::InvalidArgument);
  CHECK(has(m, "operand 0 (term \"ij\", shape [2,3,4]) has rank 3 but its term names 2 dims"));

  m = error_of([&] { resolve(parse("ijk...", 1), std::vector<Shape>{{2, 3}}); }, &st);
  CHECK(has(m, "names 3 dims besides \"...\""));

  m = error_of([&] { resolve(parse("...i,...i->i", 2), std::vector<Shape>{{2, 3}, {3}}); }, &st);
  CHECK(st == Status::InvalidArgument);
  CHECK(has(m, "the output term has no \"...\""));

  // Left alignment: [5,2] against [2] pairs 5 with 2 (NumPy would pair the 2s).
  m = error_of([&] { resolve(parse("...,...->...", 2), std::vector<Shape>{{5, 2}, {2}}); }, &st);
  CHECK(st == Status::ShapeMismatch);
  CHECK(has(m, "ellipsis dim 0 the extent 2, but operand 0 gives it 5"));
}
