// Tensor creation: filled tensors, identity matrices, ranges and seeded random numbers.
// Random values are counter-based (element i depends only on the seed and i), so they are
// reproducible across thread counts, platforms and releases.
#pragma once

#include <cstdint>

#include "core/tensor.hpp"

namespace tfe::eager {

// Every element equals *value (one element of dtype, copied; Bool normalised to 0/1).
Tensor full(DType dtype, const Dims& shape, const void* value);
Tensor zeros(DType dtype, const Dims& shape);
Tensor ones(DType dtype, const Dims& shape);
// n x m with ones on the main diagonal.
Tensor eye(DType dtype, int64_t n, int64_t m);
// start, start + step, ... below stop (above for a negative step); the count is
// ceil((stop - start) / step). Numeric dtypes only; step must be non-zero and finite.
Tensor arange(DType dtype, double start, double stop, double step);
// Uniform in [low, high) per real component; F32/F64/C32/C64.
Tensor random_uniform(DType dtype, const Dims& shape, uint64_t seed, double low, double high);
// Standard normal; complex values have independent parts of variance 1/2 (E|z|^2 = 1).
Tensor random_normal(DType dtype, const Dims& shape, uint64_t seed);

} // namespace tfe::eager
