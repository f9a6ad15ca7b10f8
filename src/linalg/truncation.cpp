// The truncation encoding of the svd op's params, and a reciprocal its derivative rule uses.
#include "linalg/truncation.hpp"

#include <bit>

#include "linalg/ir.hpp"

namespace tfe::linalg {
Dims truncated_svd_options(int64_t mode, const Truncation& t) {
  return {mode, t.rank, std::bit_cast<int64_t>(t.rtol), std::bit_cast<int64_t>(t.atol)};
}

std::optional<Truncation> truncation_of(const ops::ExtensionParams& p) {
  if (p.options.size() < 4) return std::nullopt;
  return Truncation{p.options[1], std::bit_cast<double>(p.options[2]),
                    std::bit_cast<double>(p.options[3])};
}

Value nonzero_reciprocal(const Value& s) {
  Value zero = ad::zeros_like(s), one = ad::full(s.meta().dtype, s.meta().shape, 1.0);
  Value nonzero = ad::compare(s, zero, ops::CompareDir::Ne);
  return ad::select(nonzero, one / ad::select(nonzero, s, one), zero);
}

} // namespace tfe::linalg
