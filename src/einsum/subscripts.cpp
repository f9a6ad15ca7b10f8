// The einsum string parser (subscripts.hpp).
#include "einsum/subscripts.hpp"

#include <cctype>

#include "core/error.hpp"

namespace tfe::einsum {

namespace {

int label_of(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  return 26 + (c - 'a');
}

bool is_letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

// One term (input or output) without spaces; `what` names it in messages ("operand 2", "output").
Term parse_term(const std::string& all, const std::string& text, const std::string& what) {
  Term t;
  t.text = text;
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    if (is_letter(c)) {
      t.letters.push_back(label_of(c));
      ++i;
    } else if (c == '.') {
      if (text.compare(i, 3, "...") != 0)
        fail(Status::InvalidArgument,
             "subscripts \"%s\": the term \"%s\" of %s has a '.' that is not part of \"...\"",
             all.c_str(), text.c_str(), what.c_str());
      if (t.has_ellipsis())
        fail(Status::InvalidArgument, "subscripts \"%s\": the term \"%s\" of %s has two \"...\"",
             all.c_str(), text.c_str(), what.c_str());
      t.ellipsis = static_cast<int>(t.letters.size());
      i += 3;
    } else {
      fail(Status::InvalidArgument,
           "subscripts \"%s\": invalid character '%c' in the term \"%s\" of %s (indices are "
           "letters a-z, A-Z and \"...\")",
           all.c_str(), c, text.c_str(), what.c_str());
    }
  }
  return t;
}

} // namespace

char letter_of(int label) {
  return label < 26 ? static_cast<char>('A' + label) : static_cast<char>('a' + (label - 26));
}

Subscripts parse(std::string_view text, size_t n_operands) {
  Subscripts s;
  s.text = std::string(text);
  std::string compact;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) compact += c;

  std::string lhs = compact, rhs;
  size_t arrow = compact.find("->");
  if (arrow != std::string::npos) {
    lhs = compact.substr(0, arrow);
    rhs = compact.substr(arrow + 2);
    if (rhs.find("->") != std::string::npos)
      fail(Status::InvalidArgument, "subscripts \"%s\" have more than one \"->\"", s.text.c_str());
    s.explicit_output = true;
  }
  if (rhs.find(',') != std::string::npos)
    fail(Status::InvalidArgument, "subscripts \"%s\": the output term \"%s\" has a ','",
         s.text.c_str(), rhs.c_str());

  std::vector<std::string> terms(1);
  for (char c : lhs) {
    if (c == ',') {
      terms.emplace_back();
    } else {
      terms.back() += c;
    }
  }
  if (terms.size() != n_operands)
    fail(Status::InvalidArgument, "subscripts \"%s\" have %s but %s were given", s.text.c_str(),
         count_of(static_cast<long long>(terms.size()), "input term").c_str(),
         count_of(static_cast<long long>(n_operands), "operand").c_str());
  for (size_t k = 0; k < terms.size(); ++k)
    s.inputs.push_back(parse_term(s.text, terms[k], "operand " + std::to_string(k)));

  if (s.explicit_output) {
    s.output = parse_term(s.text, rhs, "the output");
    bool seen[kNumLetters] = {};
    for (int l : s.output.letters) {
      if (seen[l])
        fail(Status::InvalidArgument, "subscripts \"%s\": output index '%c' appears twice",
             s.text.c_str(), letter_of(l));
      seen[l] = true;
      bool found = false;
      for (const Term& t : s.inputs)
        for (int m : t.letters) found |= m == l;
      if (!found)
        fail(Status::InvalidArgument, "subscripts \"%s\": output index '%c' is in no input term",
             s.text.c_str(), letter_of(l));
    }
  }
  return s;
}

} // namespace tfe::einsum
