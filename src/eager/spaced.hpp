// Evenly spaced values: linspace and logspace, computed in double precision (complex<double>
// for complex dtypes) and rounded once to the requested dtype, as NumPy does.
#pragma once

#include <complex>
#include <cstdint>

#include "core/tensor.hpp"

namespace tfe::eager {

// num values from start to stop (stop itself exactly when endpoint), F32/F64/C32/C64; a real
// dtype takes the real parts.
Tensor linspace(DType dtype, std::complex<double> start, std::complex<double> stop, int64_t num,
                bool endpoint);
// base ** linspace(start, stop, num, endpoint).
Tensor logspace(DType dtype, std::complex<double> start, std::complex<double> stop, int64_t num,
                bool endpoint, double base);

} // namespace tfe::eager
