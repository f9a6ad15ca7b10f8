// tensordot, outer, kron and the matrix trace over any value type of the op surface. The first
// three are einsums whose subscripts come from the operands' ranks (kron adds a reshape), the
// trace is a diagonal and a sum, so each runs and differentiates in every engine through ops
// that already have rules.
#pragma once

#include <span>

#include "einsum/cache.hpp"

namespace tfe::einsum {

// Sums the products over the dim pairs (axes_a[k] of a, axes_b[k] of b), whose extents must be
// equal; the result has a's other dims, then b's, in order (numpy.tensordot). Axes are
// non-negative here (the caller normalises them).
template <class V>
V tensordot(const V& a, const V& b, std::span<const int64_t> axes_a,
            std::span<const int64_t> axes_b, PlanCache* cache);

// Every product a[i..] b[j..]: the shape is a's dims, then b's.
template <class V> V outer(const V& a, const V& b, PlanCache* cache);

// The Kronecker product: along each dim d, extent a_d * b_d, element (i, k) -> a[i] b[k] at
// position i * b_d + k. An operand of lower rank is padded with trailing extents of 1 (the
// library's left-aligned convention).
template <class V> V kron(const V& a, const V& b, PlanCache* cache);

// The sum of the diagonal of dims 0 and 1, `offset` above it (below for negative offsets); the
// batch dims remain. Bool and I32 sum in I64 (as NumPy).
template <class V> V trace(const V& x, int64_t offset);

} // namespace tfe::einsum
