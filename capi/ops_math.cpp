// Entry points of the analytic ops (tenferro/ops_math.h): one per row of ops/defs/analytic.hpp.
#include "capi/op_call.hpp"

#define TFE_CAPI_ANALYTIC_1(name, Code) TFE_CAPI_UNARY(tfe_##name, ::tfe::ops::OpCode::Code)
#define TFE_CAPI_ANALYTIC_2(name, Code) TFE_CAPI_BINARY(tfe_##name, ::tfe::ops::OpCode::Code)
#define TFE_CAPI_ANALYTIC(Code, name, arity, ...) TFE_CAPI_ANALYTIC_##arity(name, Code)

extern "C" {
TFE_ANALYTIC_OPS(TFE_CAPI_ANALYTIC)
} // extern "C"
