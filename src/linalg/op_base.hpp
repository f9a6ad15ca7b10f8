// What every linalg extension op shares: the class it derives from (its def and its derivative
// rules in one object, found by the AD layer by cross-cast), the operand checks of the shape
// rules, and the option encoding of ExtensionParams.
#pragma once

#include <string>

#include "ad/rules/extension_rules.hpp"
#include "core/linalg_modes.hpp"
#include "ops/shape_checks.hpp"

namespace tfe::linalg {

using ad::Tangent;
using graph::Value;

using tfe::Trans; // core/linalg_modes.hpp; its values are the option encoding

class LinalgOp : public ops::ExtensionDef, public ad::ExtensionRules {
public:
  using ops::ExtensionDef::ExtensionDef;
  // This op's params with the given options.
  ops::ExtensionParams make_params(Dims options = {}, double eps = 0) const {
    return {this, std::move(options), eps};
  }

protected:
  // The checks of shape rules, with messages that name this op and the operand.
  void require_float(const ops::Meta& m, const char* operand) const;
  void require_matrix(const ops::Meta& m, const char* operand) const; // rank >= 2
  Extent require_square(const ops::Meta& m, const char* operand) const;
  void require_same_dtype(const ops::Meta& a, const ops::Meta& b, const char* what) const;
  // Equal batch dims (dims 2..) of a and b, and dim da of a equal to dim db of b.
  void require_same_batch(const ops::Meta& a, const ops::Meta& b, const char* what) const;
  void require_dim(Extent got, Extent want, const std::string& what) const;
  // Equal shapes (each extent proved equal, or decided as shape rules do); returns a's shape,
  // or b's where b's extent is the more informative one.
  Shape require_same_shape(const ops::Meta& a, const ops::Meta& b, const char* what) const;
  // A square a [N,N,B..] and a right-hand side b of a's dtype and batch whose dim `b_dim` is N
  // (0: op(A) X = B; 1: X op(A) = B); returns N.
  Extent require_system(const ops::Meta& a, const ops::Meta& b, const char* a_name,
                        int64_t b_dim) const;
  std::string op_name() const { return std::string(name()); }
};

// [rows, cols] followed by the batch dims of `like` (dims 2..).
Shape matrix_shape(Extent rows, Extent cols, const Shape& like);
// [n] followed by the batch dims of `like`.
Shape vector_shape(Extent n, const Shape& like);
// The batch dims alone.
Shape batch_shape(const Shape& like);

inline int64_t option(const ops::ExtensionParams& p, size_t i) { return p.options.at(i); }

} // namespace tfe::linalg
