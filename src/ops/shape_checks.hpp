// Helpers shared by the shape rules in defs/: each check carries the label of the op-table
// constraint it enforces (C1, C2, ... in docs/ops/table.md); messages state the offending values
// in the user's terms, e.g. "shapes [2] and [3] differ". Extents may be symbolic (traced programs):
// an equality between two constants or two identical expressions is decided at once; one that is
// provably false, or that relates two different symbolic extents, is an error now; one between a
// symbolic and a constant extent becomes a guard that the program checks when it is bound to
// concrete shapes (see ShapeGuards).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "ops/op_def.hpp"

namespace tfe::ops {

// A condition on symbolic extents, checked when a program is bound to concrete shapes.
struct ShapeGuard {
  enum class Kind : uint8_t { Equal, LessEqual, NotEqual, Less } kind;
  Extent a, b;
  Status status;
  std::string message; // the error if the guard fails
};

// Whether g holds with symbol k bound to symbols[k - 1]; nullopt when g reads an unbound symbol.
std::optional<bool> holds(const ShapeGuard& g, std::span<const int64_t> symbols);

// The recorded extents behind the symbols of an eager derivative request (decision 0020).
// While a witness is alive on this thread, a shape condition that the extent algebra cannot
// prove (two different symbolic extents equal, a matrix tall or wide, a parameter's value) is
// decided at the recorded values instead of being refused, and each such decision is kept as a
// guard. Caches of programs built under a witness store its decisions and hand the program only
// to requests whose own recorded extents satisfy them, so a program is shared by exactly the
// shapes that would have built it.
class ShapeWitness {
public:
  ShapeWitness();
  ~ShapeWitness();
  ShapeWitness(const ShapeWitness&) = delete;
  ShapeWitness& operator=(const ShapeWitness&) = delete;
  static ShapeWitness* current();

  void bind(int64_t symbol, int64_t value); // symbol k >= 1 was recorded with extent value
  std::span<const int64_t> values() const { return values_; }
  std::optional<int64_t> value_of(Extent e) const; // nullopt if e reads an unbound symbol
  const std::vector<ShapeGuard>& decisions() const { return decisions_; }
  // Keeps g as a decision; g must hold at the recorded values.
  void decide(ShapeGuard g) { decisions_.push_back(std::move(g)); }
  // Whether every guard holds at the recorded values.
  bool satisfies(std::span<const ShapeGuard> facts) const;

private:
  std::vector<int64_t> values_; // -1: not bound
  std::vector<ShapeGuard> decisions_;
  ShapeWitness* outer_;
};

// Facts about extents for rules that branch on shapes. Each is decided when the algebra proves
// it; otherwise at the witness's recorded values (the decision is kept); otherwise, in a traced
// program with symbolic inputs, nullopt (the caller reports what it needs to know).
std::optional<bool> decide_le(Extent a, Extent b); // a <= b
std::optional<bool> decide_eq(Extent a, Extent b); // a == b
std::optional<int64_t> decide_value(Extent e);     // e's value (pins it)

// While a ShapeGuards scope is alive on this thread, undecidable conditions are appended to it
// (the program builder opens one around each shape rule). Without a scope, an undecidable
// condition is an internal error: eager execution only sees constant extents.
class ShapeGuards {
public:
  ShapeGuards();
  ~ShapeGuards();
  ShapeGuards(const ShapeGuards&) = delete;
  ShapeGuards& operator=(const ShapeGuards&) = delete;
  std::vector<ShapeGuard> take() { return std::move(guards_); }
  static void add(ShapeGuard g);

private:
  std::vector<ShapeGuard> guards_;
  ShapeGuards* outer_;
};

// Throws Error(status, message). The label names the constraint of the op table the check
// enforces (docs/ops/table.md); it documents the check and is not part of the message.
[[noreturn]] void violated(Status status, const char* label, const std::string& message);

// (label) a == b; returns the more informative of the two (a constant over a symbol).
// `what` describes the pair for the message, e.g. "dim 1 of operand 2".
Extent require_eq(Extent a, Extent b, Status status, const char* label, const std::string& what);
// (label) a <= b (a guard when undecidable).
void require_le(Extent a, Extent b, Status status, const char* label, const std::string& what);
bool provably_lt(Extent a, Extent b); // both constant and a < b

// (label) every operand has the shape of operand 0.
void require_same_shapes(std::span<const Meta> in, const char* label);
// (label) the listed operands share a dtype.
void require_same_dtypes(std::span<const Meta> in, std::initializer_list<size_t> which,
                         const char* label);
// (label) operand i has an integer dtype (indices, starts).
void require_integer(const Meta& m, const char* what, const char* label);
// (label) the axis lies in [0, rank). IR params are canonical: the C layer maps NumPy-style
// negative axes before building them.
int64_t require_axis(int64_t axis, int64_t rank, const char* what, const char* label);
// (label) a list of distinct axes in [0, rank); returns a copy.
Dims require_axes(std::span<const int64_t> axes, int64_t rank, const char* what, const char* label);
// (label) constant extents are non-negative and their product fits in int64.
void require_valid_shape(const Shape& shape, const char* what, const char* label);

std::string dtype_list(DTypeSet set);

} // namespace tfe::ops
