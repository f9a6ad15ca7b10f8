// The linalg entry points (tenferro/linalg.h). The regular ones (tensor outputs, tensor operands,
// plain scalars, options) are generated into linalg_entries.inc from their declarations
// (tools/gen_bindings/linalg_fronts.py) and run tfe::linalg::entry::<name>; the two that take
// arrays are written here.
#include "tenferro/linalg.h"

#include <cmath>

#include "capi/linalg_options.hpp"
#include "capi/op_call.hpp"
#include "linalg/entries.hpp"
#include "linalg/surface.hpp"

using namespace tfe;
using namespace tfe::capi;
namespace api = tfe::linalg::api;
namespace entry = tfe::linalg::entry;

// The matrix norm orders of the C header are the linalg layer's, in order.
static_assert(TFE_NORM_FRO == static_cast<int>(api::MatrixNorm::Fro) &&
              TFE_NORM_NUC == static_cast<int>(api::MatrixNorm::Nuc) &&
              TFE_NORM_1 == static_cast<int>(api::MatrixNorm::One) &&
              TFE_NORM_NEG_1 == static_cast<int>(api::MatrixNorm::MinusOne) &&
              TFE_NORM_2 == static_cast<int>(api::MatrixNorm::Two) &&
              TFE_NORM_NEG_2 == static_cast<int>(api::MatrixNorm::MinusTwo) &&
              TFE_NORM_INF == static_cast<int>(api::MatrixNorm::Inf) &&
              TFE_NORM_NEG_INF == static_cast<int>(api::MatrixNorm::MinusInf));

extern "C" {

#include "capi/linalg_entries.inc"

tfe_status tfe_linalg_vector_norm(tfe_tensor** out, const tfe_tensor* x, double ord, int32_t n_axes,
                                  const int64_t* axes) {
  return op_call(
      "tfe_linalg_vector_norm", out,
      [&](const auto& v) {
        if (std::isnan(ord)) fail(Status::InvalidArgument, "the order is NaN");
        Dims ax = axes_arg(axes, n_axes, rank_of(v), "axes");
        return api::vector_norm(v, ord, ax);
      },
      Arg{x, "x"});
}

tfe_status tfe_linalg_multi_dot(tfe_tensor** out, int32_t n, tfe_tensor* const* xs) {
  return list_call("tfe_linalg_multi_dot", out, n, xs,
                   [](auto span) { return api::multi_dot(span); });
}

} // extern "C"
