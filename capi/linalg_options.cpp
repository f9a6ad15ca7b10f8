// tfe_linalg_options: creation, release and the setters (tenferro/linalg.h).
#include <cmath>
#include <memory>

#include "capi/guard.hpp"
#include "capi/linalg_options.hpp"

using namespace tfe;
using namespace tfe::capi;

namespace tfe::capi {
const LinalgOptions& options_or_default(const tfe_linalg_options* opts) {
  static const LinalgOptions defaults; // immutable: safe to share between threads
  return opts ? require(opts, "opts")->values : defaults;
}
} // namespace tfe::capi

namespace {
template <class F> tfe_status set(const char* fn, tfe_linalg_options* o, F&& f) {
  return guarded(fn, [&] { f(require(o, "o")->values); });
}
bool flag(int32_t v, const char* fn) {
  if (v != 0 && v != 1) fail(Status::InvalidArgument, "%s takes 0 or 1, not %d", fn, v);
  return v == 1;
}
} // namespace

extern "C" {

tfe_status tfe_linalg_options_create(tfe_linalg_options** out) {
  return guarded("tfe_linalg_options_create", [&] {
    out_slot(out);
    *out = std::make_unique<tfe_linalg_options>().release();
  });
}

void tfe_linalg_options_release(tfe_linalg_options* o) { release_counted(o); }

tfe_status tfe_linalg_options_set_upper(tfe_linalg_options* o, int32_t upper) {
  static const char* fn = "tfe_linalg_options_set_upper";
  return set(fn, o, [&](LinalgOptions& x) { x.upper = flag(upper, fn); });
}

tfe_status tfe_linalg_options_set_left(tfe_linalg_options* o, int32_t left) {
  static const char* fn = "tfe_linalg_options_set_left";
  return set(fn, o, [&](LinalgOptions& x) { x.left = flag(left, fn); });
}

tfe_status tfe_linalg_options_set_unit_diagonal(tfe_linalg_options* o, int32_t unit_diagonal) {
  static const char* fn = "tfe_linalg_options_set_unit_diagonal";
  return set(fn, o, [&](LinalgOptions& x) { x.unit_diagonal = flag(unit_diagonal, fn); });
}

tfe_status tfe_linalg_options_set_transpose(tfe_linalg_options* o, int32_t trans) {
  return set("tfe_linalg_options_set_transpose", o, [&](LinalgOptions& x) {
    if (trans < TFE_LINALG_NO_TRANS || trans > TFE_LINALG_CONJ_TRANS)
      fail(Status::InvalidArgument,
           "trans %d is none of TFE_LINALG_NO_TRANS, TFE_LINALG_TRANS, TFE_LINALG_CONJ_TRANS",
           trans);
    x.trans = static_cast<tfe::Trans>(trans);
  });
}

tfe_status tfe_linalg_options_set_full_matrices(tfe_linalg_options* o, int32_t full) {
  static const char* fn = "tfe_linalg_options_set_full_matrices";
  return set(fn, o, [&](LinalgOptions& x) { x.full_matrices = flag(full, fn); });
}

tfe_status tfe_linalg_options_set_positive_diagonal(tfe_linalg_options* o, int32_t positive) {
  static const char* fn = "tfe_linalg_options_set_positive_diagonal";
  return set(fn, o, [&](LinalgOptions& x) { x.positive_diagonal = flag(positive, fn); });
}

tfe_status tfe_linalg_options_set_derivative_eps(tfe_linalg_options* o, double eps) {
  return set("tfe_linalg_options_set_derivative_eps", o, [&](LinalgOptions& x) {
    if (!(eps >= 0) || !std::isfinite(eps))
      fail(Status::InvalidArgument, "derivative_eps must be finite and >= 0, not %g", eps);
    x.derivative_eps = eps;
  });
}

tfe_status tfe_linalg_options_set_rtol(tfe_linalg_options* o, double rtol) {
  return set("tfe_linalg_options_set_rtol", o, [&](LinalgOptions& x) {
    if (std::isnan(rtol) || std::isinf(rtol))
      fail(Status::InvalidArgument, "rtol must be finite (negative: the default), not %g", rtol);
    x.rtol = rtol;
  });
}

tfe_status tfe_linalg_options_set_hermitian(tfe_linalg_options* o, int32_t hermitian) {
  static const char* fn = "tfe_linalg_options_set_hermitian";
  return set(fn, o, [&](LinalgOptions& x) { x.hermitian = flag(hermitian, fn); });
}

tfe_status tfe_linalg_options_set_max_rank(tfe_linalg_options* o, int64_t max_rank) {
  return set("tfe_linalg_options_set_max_rank", o, [&](LinalgOptions& x) {
    if (max_rank < -1)
      fail(Status::InvalidArgument, "max_rank must be >= 0, or -1 for no limit, not %lld",
           static_cast<long long>(max_rank));
    x.max_rank = max_rank;
  });
}

tfe_status tfe_linalg_options_set_cutoff(tfe_linalg_options* o, double rtol, double atol) {
  return set("tfe_linalg_options_set_cutoff", o, [&](LinalgOptions& x) {
    if (!(rtol >= 0) || !(atol >= 0) || std::isinf(rtol) || std::isinf(atol))
      fail(Status::InvalidArgument, "rtol and atol must be finite and >= 0, not %g and %g", rtol,
           atol);
    x.cutoff_rtol = rtol;
    x.cutoff_atol = atol;
  });
}

} // extern "C"
