// The logical, comparison and complex-parts rows (ops/defs/{logical,comparison,complex_parts}.hpp).
#include "backend/cuda/elementwise.cuh"

namespace tfe::cuda {
namespace {

#define TFE_EW_SAME(T, F, name, arity) same<fn::F, T, arity>(name)
#define TFE_EW_LOGICAL(F, name, arity)                                                             \
  TFE_EW_SAME(bool, F, name, arity), TFE_EW_SAME(int32_t, F, name, arity),                         \
      TFE_EW_SAME(int64_t, F, name, arity)
#define TFE_EW_ALL(M)                                                                              \
  M<bool>(), M<int32_t>(), M<int64_t>(), M<float>(), M<double>(), M<c32>(), M<c64>()

const EwEntry kRows[] = {
    TFE_EW_LOGICAL(And, "and", 2),
    TFE_EW_LOGICAL(Or, "or", 2),
    TFE_EW_LOGICAL(Xor, "xor", 2),
    TFE_EW_LOGICAL(Not, "not", 1),
    TFE_EW_ALL(compare_row),
    TFE_EW_ALL(select_row),
    // clamp accepts the ordered dtypes (no complex)
    TFE_EW_SAME(bool, Clamp, "clamp", 3),
    TFE_EW_SAME(int32_t, Clamp, "clamp", 3),
    TFE_EW_SAME(int64_t, Clamp, "clamp", 3),
    TFE_EW_SAME(float, Clamp, "clamp", 3),
    TFE_EW_SAME(double, Clamp, "clamp", 3),
    // real and imag accept the inexact dtypes
    to_real<fn::Real, float>("real"),
    to_real<fn::Real, double>("real"),
    to_real<fn::Real, c32>("real"),
    to_real<fn::Real, c64>("real"),
    to_real<fn::Imag, float>("imag"),
    to_real<fn::Imag, double>("imag"),
    to_real<fn::Imag, c32>("imag"),
    to_real<fn::Imag, c64>("imag"),
    complex_row<float>(),
    complex_row<double>(),
};

} // namespace

std::span<const EwEntry> ew_logical_entries() { return kRows; }

} // namespace tfe::cuda
