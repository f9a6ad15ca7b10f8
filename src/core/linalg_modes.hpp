// The modes of the linear algebra kernels, defined once for every layer: the linalg ops store
// them as integer options, the C API's options use the same values, and the LAPACK layer takes
// them directly, so no layer maps one enum onto another.
#pragma once

#include <cstdint>

namespace tfe {

// op(A): A, A^T or A^H.
enum class Trans : uint8_t { No = 0, Transpose = 1, ConjTranspose = 2 };

// Which factors an SVD computes: U [M, K] and Vh [K, N] (Reduced), square U and Vh (Full), or
// the singular values alone (ValuesOnly: a kernel mode, never an op option).
enum class SvdMode : uint8_t { Reduced = 0, Full = 1, ValuesOnly = 2 };

} // namespace tfe
