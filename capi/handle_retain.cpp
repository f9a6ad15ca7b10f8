// The retain functions of the handle kinds whose other functions live with their topic (results of
// calls, linear algebra options): every handle kind is reference counted the same way.
#include "capi/guard.hpp"
#include "capi/linalg_options.hpp"

using namespace tfe::capi;

extern "C" {

tfe_status tfe_results_retain(tfe_results* r) {
  return guarded("tfe_results_retain",
                 [&] { require(r, "r")->refs.fetch_add(1, std::memory_order_relaxed); });
}

tfe_status tfe_linalg_options_retain(tfe_linalg_options* o) {
  return guarded("tfe_linalg_options_retain",
                 [&] { require(o, "o")->refs.fetch_add(1, std::memory_order_relaxed); });
}

} // extern "C"
