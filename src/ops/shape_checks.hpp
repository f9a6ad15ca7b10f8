// Helpers shared by the shape rules in defs/: each failure names the constraint label it
// enforces, e.g. "shapes [2] and [3] differ (C1)".
#pragma once

#include <span>
#include <string>

#include "core/error.hpp"
#include "ops/op_def.hpp"

namespace tfe::ops {

// Throws Error(status, message + " (label)").
[[noreturn]] void violated(Status status, const char* label, const std::string& message);

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
// (label) extents are non-negative and their product fits in int64.
void require_valid_shape(std::span<const int64_t> shape, const char* what, const char* label);

std::string dtype_list(DTypeSet set);

} // namespace tfe::ops
