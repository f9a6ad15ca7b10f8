// Samples of the linalg functions (the rows of ops/defs/linalg.hpp, each with the shape classes
// its row declares: square, tall, wide, batched with broadcasting, rank-deficient), written once
// over the value type so that every engine runs the same function. Outputs whose gauge is free
// (eigenvectors, singular vectors) enter through gauge-invariant functions of them; eigh and
// cholesky read Hermitian inputs built inside the function, so every tangent direction is valid.
// test_linalg_ad.cpp checks the traced derivatives of every case (finite differences,
// transposition, second order, single vs double precision); test_engine_matrix.cpp checks that
// eager and dataflow derivatives equal the traced ones. A row without a case, or a shape class
// of its row without a sample label naming it, fails test_linalg_registry.cpp.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "support/engine_function.hpp"

namespace tfe::testing {

struct LinalgSample {
  std::string label;          // the shape class: "square", "tall [5,3]", "batched broadcast"...
  std::vector<Tensor> inputs; // every input is differentiated (float dtypes)
};

struct LinalgCase {
  std::string c_function;  // the row covered, by its C function ("tfe_linalg_qr")
  EngineFunction function; // named after the variant ("qr reduced")
  // The samples in dtype d (F32/C32 samples are the F64/C64 ones converted, so that single
  // precision can be compared with double).
  std::function<std::vector<LinalgSample>(DType d)> samples;
  bool second_order = true;
  double transpose_tol = 1e-10; // the dot-product test's tolerance (ill-conditioned functions)
};

const std::vector<LinalgCase>& linalg_cases();

} // namespace tfe::testing
