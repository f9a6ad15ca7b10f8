// Shape rules shared by the elementwise groups (arithmetic, logical, analytic, complex parts,
// comparison). The IR never broadcasts: operands of an elementwise op have equal shapes.
#pragma once

#include "ops/op_def.hpp"

namespace tfe::ops::rules {

// C1 equal shapes; C2 equal value dtypes. Result: operand 0's dtype and shape.
Meta same_as_operands(std::span<const Meta> in, const Params& p);
// Same checks; the result is real (Abs, Real, Imag of complex give F32/F64).
Meta real_of_operand(std::span<const Meta> in, const Params& p);
// C1 equal shapes; C2 equal dtypes; C3 lt/le/gt/ge reject complex. Result Bool.
Meta compare(std::span<const Meta> in, const Params& p);
// C1 equal shapes; C2 equal real dtypes. Result C32/C64.
Meta complex(std::span<const Meta> in, const Params& p);
// C1 the predicate is Bool; C2 equal shapes; C3 the two values share a dtype.
Meta select(std::span<const Meta> in, const Params& p);

} // namespace tfe::ops::rules
