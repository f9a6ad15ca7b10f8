// Binding subscripts to shapes (resolve.hpp).
#include "einsum/resolve.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "ops/shape_checks.hpp"

namespace tfe::einsum {

namespace {

std::string index_name(int label) {
  if (label < kNumLetters) return std::string("index '") + letter_of(label) + "'";
  return "ellipsis dim " + std::to_string(label - kFirstEllipsisLabel);
}

std::string operand_text(const Subscripts& s, std::span<const Shape> shapes, size_t k) {
  return strformat("operand %zu (term \"%s\", shape %s)", k, s.inputs[k].text.c_str(),
                   ops::format_shape(shapes[k]).c_str());
}

// The labels of a term whose "..." covers n_ellipsis dims.
std::vector<int> expand(const Term& t, int n_ellipsis) {
  std::vector<int> out;
  for (size_t i = 0; i <= t.letters.size(); ++i) {
    if (t.ellipsis == static_cast<int>(i))
      for (int e = 0; e < n_ellipsis; ++e) out.push_back(kFirstEllipsisLabel + e);
    if (i < t.letters.size()) out.push_back(t.letters[i]);
  }
  return out;
}

} // namespace

Problem resolve(const Subscripts& s, std::span<const Shape> shapes) {
  Problem p;
  p.text = s.text;
  p.shapes.assign(shapes.begin(), shapes.end());
  const char* txt = s.text.c_str();

  int n_ellipsis = 0;
  std::vector<int> covered(shapes.size(), 0);
  for (size_t k = 0; k < shapes.size(); ++k) {
    const Term& t = s.inputs[k];
    int rank = static_cast<int>(shapes[k].size());
    int named = static_cast<int>(t.letters.size());
    if (!t.has_ellipsis() && rank != named)
      fail(Status::InvalidArgument, "subscripts \"%s\": %s has rank %d but its term names %s", txt,
           operand_text(s, shapes, k).c_str(), rank, count_of(named, "dim").c_str());
    if (t.has_ellipsis() && rank < named)
      fail(Status::InvalidArgument,
           "subscripts \"%s\": %s has rank %d but its term names %s besides \"...\"", txt,
           operand_text(s, shapes, k).c_str(), rank, count_of(named, "dim").c_str());
    covered[k] = t.has_ellipsis() ? rank - named : 0;
    n_ellipsis = std::max(n_ellipsis, covered[k]);
  }
  if (kFirstEllipsisLabel + n_ellipsis > kMaxLabels)
    fail(Status::InvalidArgument, "subscripts \"%s\": \"...\" covers %d dims (at most %d)", txt,
         n_ellipsis, kMaxLabels - kFirstEllipsisLabel);
  p.n_labels = kFirstEllipsisLabel + n_ellipsis;
  p.extent.assign(static_cast<size_t>(p.n_labels), Extent(1));

  // Each label's extent: the first extent other than 1 wins; every other must equal it or be 1.
  std::vector<int> source(static_cast<size_t>(p.n_labels), -1); // operand that set the extent
  for (size_t k = 0; k < shapes.size(); ++k) {
    std::vector<int> labels = expand(s.inputs[k], covered[k]);
    for (size_t d = 0; d < labels.size(); ++d) {
      int l = labels[d];
      Extent x = shapes[k][d];
      // A repeated index within one operand is a diagonal: its extents must be equal exactly.
      for (size_t e = 0; e < d; ++e)
        if (labels[e] == l && !(shapes[k][e] == x))
          fail(Status::ShapeMismatch,
               "subscripts \"%s\": %s repeats %s over dims %zu and %zu of different extents %s "
               "and %s",
               txt, operand_text(s, shapes, k).c_str(), index_name(l).c_str(), e, d,
               to_string(shapes[k][e]).c_str(), to_string(x).c_str());
      Extent& have = p.extent[static_cast<size_t>(l)];
      if (x == have || x == Extent(1)) continue;
      if (have == Extent(1)) {
        have = x;
        source[static_cast<size_t>(l)] = static_cast<int>(k);
        continue;
      }
      fail(Status::ShapeMismatch,
           "subscripts \"%s\": %s gives %s the extent %s, but operand %d gives it %s", txt,
           operand_text(s, shapes, k).c_str(), index_name(l).c_str(), to_string(x).c_str(),
           source[static_cast<size_t>(l)], to_string(have).c_str());
    }
    p.operands.push_back(std::move(labels));
  }

  if (s.explicit_output) {
    if (!s.output.has_ellipsis() && n_ellipsis > 0) {
      size_t k = static_cast<size_t>(std::find(covered.begin(), covered.end(), n_ellipsis) -
                                     covered.begin());
      fail(Status::InvalidArgument,
           "subscripts \"%s\": the \"...\" of %s covers %s but the output term has no \"...\"", txt,
           operand_text(s, shapes, k).c_str(), count_of(n_ellipsis, "dim").c_str());
    }
    p.output = expand(s.output, n_ellipsis);
  } else {
    // NumPy's implicit output: the ellipsis dims, then the letters used exactly once, sorted.
    for (int e = 0; e < n_ellipsis; ++e) p.output.push_back(kFirstEllipsisLabel + e);
    int count[kNumLetters] = {};
    for (const Term& t : s.inputs)
      for (int l : t.letters) ++count[l];
    for (int l = 0; l < kNumLetters; ++l)
      if (count[l] == 1) p.output.push_back(l);
  }
  return p;
}

} // namespace tfe::einsum
