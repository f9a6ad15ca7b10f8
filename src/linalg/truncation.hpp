// The truncation of an SVD (svd_truncated): which singular triplets are kept, encoded in the svd
// op's params so that its derivative rule knows that the caller drops some outputs.
#pragma once

#include <optional>

#include "linalg/op_base.hpp"

namespace tfe::linalg {

// Keep position j of a matrix with singular values s (descending) when j < rank (rank < 0: every
// position) and, when rtol or atol is positive, s[j] > max(atol, rtol * s[0]).
struct Truncation {
  int64_t rank = 0;
  double rtol = 0;
  double atol = 0;
};

// The svd op's options {mode} followed by the truncation's encoding.
Dims truncated_svd_options(int64_t mode, const Truncation& t);
// The truncation the params carry; none for a plain svd.
std::optional<Truncation> truncation_of(const ops::ExtensionParams& p);

// 1/s where s != 0, else 0 (graph values, for the derivative rule).
Value nonzero_reciprocal(const Value& s);

} // namespace tfe::linalg
