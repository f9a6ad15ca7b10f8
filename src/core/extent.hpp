// Extent: one dimension size that is either a concrete int64 or a symbolic expression over the
// symbols of traced inputs (constant, symbol, +, -, *, floor-div, min, max), kept in a canonical
// polynomial form so that algebraically equal sums and products are the same expression. Concrete
// extents are plain values (no allocation), so eager code pays nothing for symbolic support.
// Symbolic expressions are hash-consed in a process-wide arena: two extents are structurally equal
// iff they compare equal, which is what shape rules use to prove equalities.
#pragma once

#include <concepts>
#include <cstdint>
#include <span>
#include <string>

#include "core/small_vector.hpp"

namespace tfe {

// The largest symbol id. A program binds its symbols in a table indexed by id, so the id bounds
// that table (and every loop over symbols) before anything is allocated.
inline constexpr int64_t kMaxSymbol = int64_t{1} << 16;

class Extent {
public:
  constexpr Extent() = default;
  // Implicit on purpose: concrete extents read and build like plain integers.
  template <std::integral I> constexpr Extent(I v) : value_(static_cast<int64_t>(v)) {} // NOLINT

  // Symbol k (1 <= k <= kMaxSymbol) of a context: the size of every input dim declared as -k.
  static Extent symbol(int64_t k);
  static Extent from_expr(uint32_t id) {
    Extent e;
    e.expr_ = id;
    return e;
  }

  constexpr bool is_const() const { return expr_ == 0; }
  // The concrete value; only meaningful when is_const().
  constexpr int64_t value() const { return value_; }
  constexpr uint32_t expr() const { return expr_; }
  // Structural identity: provably equal (same constant, or the same interned expression).
  friend constexpr bool operator==(Extent a, Extent b) {
    return a.expr_ == b.expr_ && (a.expr_ != 0 || a.value_ == b.value_);
  }

private:
  int64_t value_ = 0;
  uint32_t expr_ = 0;
};

Extent operator+(Extent a, Extent b);
Extent operator-(Extent a, Extent b);
Extent operator*(Extent a, Extent b);
Extent floor_div(Extent a, Extent b);
Extent min_extent(Extent a, Extent b);
Extent max_extent(Extent a, Extent b);

// "5", "s1", "(s1+3)" ...
std::string to_string(Extent e);

// Value of e with symbol k bound to symbols[k - 1]. Numerical error on overflow or division by
// zero; InvalidArgument when e uses a symbol that is not bound (beyond the span, or negative).
int64_t evaluate(Extent e, std::span<const int64_t> symbols);

// The largest symbol id e refers to (0 for a constant).
int64_t max_symbol(Extent e);
// k when e is the bare symbol k, else 0 (constants and compound expressions).
int64_t symbol_id(Extent e);

// Shapes whose extents may be symbolic (program metadata, op parameters).
using Shape = SmallVector<Extent, 6>;

} // namespace tfe
