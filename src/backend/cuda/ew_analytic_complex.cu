// The analytic rows (ops/defs/analytic.hpp) for C32 and C64: the rows accepting the inexact
// dtypes; real-only rows expand to nothing.
#include "backend/cuda/elementwise.cuh"
#include "ops/defs/analytic.hpp"

namespace tfe::cuda {
namespace {

#define TFE_EW_ANALYTIC_kInexact(Code, name, arity)                                                \
  same<fn::Code, c32, arity>(#name), same<fn::Code, c64, arity>(#name),
#define TFE_EW_ANALYTIC_kRealFloat(Code, name, arity)
#define TFE_EW_ROW(Code, name, arity, accepts, ...) TFE_EW_ANALYTIC_##accepts(Code, name, arity)

const EwEntry kRows[] = {TFE_ANALYTIC_OPS(TFE_EW_ROW)};

} // namespace

std::span<const EwEntry> ew_analytic_complex_entries() { return kRows; }

} // namespace tfe::cuda
