// The analytic rows (ops/defs/analytic.hpp) for F32 and F64, expanded from the row list itself so
// that a new row without a device functor does not compile.
#include "backend/cuda/elementwise.cuh"
#include "ops/defs/analytic.hpp"

namespace tfe::cuda {
namespace {

#define TFE_EW_REAL(Code, name, arity)                                                             \
  same<fn::Code, float, arity>(#name), same<fn::Code, double, arity>(#name),
#define TFE_EW_ANALYTIC_kInexact(Code, name, arity) TFE_EW_REAL(Code, name, arity)
#define TFE_EW_ANALYTIC_kRealFloat(Code, name, arity) TFE_EW_REAL(Code, name, arity)
#define TFE_EW_ROW(Code, name, arity, accepts, ...) TFE_EW_ANALYTIC_##accepts(Code, name, arity)

const EwEntry kRows[] = {TFE_ANALYTIC_OPS(TFE_EW_ROW)};

} // namespace

std::span<const EwEntry> ew_analytic_real_entries() { return kRows; }

} // namespace tfe::cuda
