// The einsum grammar (NumPy's): comma-separated input terms, an optional "->" and output term.
// A term is letters (a-z, A-Z) and at most one "..."; spaces are ignored. Parsing needs no
// shapes; binding the terms to the operands' shapes is resolve.hpp's job.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tfe::einsum {

// Letters are labels 0..51 in ASCII order ('A'..'Z', then 'a'..'z'), so sorting labels sorts
// letters as NumPy's implicit output does. The dims an ellipsis covers get labels from
// kFirstEllipsisLabel on (resolve.hpp).
inline constexpr int kNumLetters = 52;
inline constexpr int kFirstEllipsisLabel = kNumLetters;

struct Term {
  std::vector<int> letters; // labels of the named dims, in order
  int ellipsis = -1;        // index into letters where "..." stands; -1: none
  std::string text;         // as written (spaces removed), for messages
  bool has_ellipsis() const { return ellipsis >= 0; }
};

struct Subscripts {
  std::string text; // the whole string as the caller wrote it, for messages
  std::vector<Term> inputs;
  bool explicit_output = false;
  Term output; // the written output term (explicit_output only)
};

// InvalidArgument naming the string and the offending character or term for every malformed
// string; the number of terms is checked against n_operands here too.
Subscripts parse(std::string_view text, size_t n_operands);

// 'a' for label 26; "..." never reaches here.
char letter_of(int label);

} // namespace tfe::einsum
