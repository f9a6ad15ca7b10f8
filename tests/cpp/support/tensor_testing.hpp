// Test helpers: random tensors per dtype and domain, element access by multi-index, strided
// re-layouts of a tensor with the same values, and comparison with tolerances.
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "core/tensor.hpp"

namespace tfe::testing {

// What values a sample operand may take.
enum class Domain {
  Any,         // normal floats / small integers of either sign / random bools
  Positive,    // > 0 (log, sqrt of reals)
  NonZero,     // divisors
  SmallNonNeg, // 0..4 (integer exponents)
  Unit,        // (-0.9, 0.9) for real parts (log1p, atanh-like domains)
  Index,       // filled by the sample (indices)
};

Tensor random_tensor(DType dtype, const Dims& shape, uint64_t seed, Domain domain = Domain::Any);
Tensor tensor_of(DType dtype, const Dims& shape, const std::vector<double>& values);
Tensor int_tensor(DType dtype, const Dims& shape, const std::vector<int64_t>& values);

// Value at a multi-index, as a complex double (exact for every dtype but large I64).
std::complex<double> value_at(const Tensor& t, const Dims& idx);
int64_t int_at(const Tensor& t, const Dims& idx);
void set_value(const Tensor& t, const Dims& idx, std::complex<double> v);
void set_int(const Tensor& t, const Dims& idx, int64_t v);
void for_each_index(const Dims& shape, const std::function<void(const Dims&)>& f);

// Same values, different layout: 0 reversed-dims storage (transposed view), 1 negative stride
// on the first non-trivial dim, 2 every stride doubled (a slice of a bigger buffer).
Tensor relayout(const Tensor& t, int variant);
inline constexpr int kNumRelayouts = 3;

// Exact equality of dtype, shape and values (NaN equals NaN).
bool identical(const Tensor& a, const Tensor& b, std::string* why = nullptr);
// Equal within rtol*|b| + atol per element (complex by modulus); NaN matches NaN, inf matches inf.
bool close(const Tensor& a, const Tensor& b, double rtol, double atol, std::string* why = nullptr);
// Default tolerance for a dtype: exact for Bool/integers.
double default_rtol(DType d);

std::string describe(const Tensor& t);

} // namespace tfe::testing
