// The linalg entry points (tenferro/linalg.h): thin calls into the linalg surface. The options
// object is read inside the compute functions, which run under the entry point's guard: reading
// it refuses a released object by throwing, which must become a status, not leave the C ABI.
#include "tenferro/linalg.h"

#include <algorithm>
#include <cmath>

#include "capi/linalg_options.hpp"
#include "capi/op_call.hpp"
#include "linalg/derived.hpp"
#include "linalg/surface.hpp"
#include "linalg/truncated.hpp"

using namespace tfe;
using namespace tfe::capi;
namespace api = tfe::linalg::api;

namespace {

api::MatrixNorm norm_order(int32_t ord, const char* fn) {
  if (ord < TFE_NORM_FRO || ord > TFE_NORM_NEG_INF)
    fail(Status::InvalidArgument, "%s: unknown norm order %d (TFE_NORM_*)", fn, ord);
  return static_cast<api::MatrixNorm>(ord);
}

} // namespace

extern "C" {

tfe_status tfe_linalg_solve(tfe_tensor** out, const tfe_tensor* a, const tfe_tensor* b) {
  return op_call(
      "tfe_linalg_solve", out, [](const auto& x, const auto& y) { return api::solve(x, y); },
      Arg{a, "a"}, Arg{b, "b"});
}

tfe_status tfe_linalg_cholesky(tfe_tensor** out, const tfe_tensor* a) {
  return op_call(
      "tfe_linalg_cholesky", out, [](const auto& x) { return api::cholesky(x, false); },
      Arg{a, "a"});
}

tfe_status tfe_linalg_qr(tfe_tensor** out_q, tfe_tensor** out_r, const tfe_tensor* a) {
  return op_call_outputs<2>(
      "tfe_linalg_qr", {Out{out_q, "out_q"}, Out{out_r, "out_r"}},
      [](const auto& x) { return api::qr(x, false); }, Arg{a, "a"});
}

tfe_status tfe_linalg_svd(tfe_tensor** out_u, tfe_tensor** out_s, tfe_tensor** out_vh,
                          const tfe_tensor* a) {
  return op_call_outputs<3>(
      "tfe_linalg_svd", {Out{out_u, "out_u"}, Out{out_s, "out_s"}, Out{out_vh, "out_vh"}},
      [](const auto& x) { return api::svd(x, linalg::SvdMode::Reduced, 0.0); }, Arg{a, "a"});
}

tfe_status tfe_linalg_eigh(tfe_tensor** out_w, tfe_tensor** out_v, const tfe_tensor* a) {
  return op_call_outputs<2>(
      "tfe_linalg_eigh", {Out{out_w, "out_w"}, Out{out_v, "out_v"}},
      [](const auto& x) { return api::eigh(x, false, 0.0); }, Arg{a, "a"});
}

tfe_status tfe_linalg_eig(tfe_tensor** out_w, tfe_tensor** out_v, const tfe_tensor* a) {
  return op_call_outputs<2>(
      "tfe_linalg_eig", {Out{out_w, "out_w"}, Out{out_v, "out_v"}},
      [](const auto& x) { return api::eig(x, 0.0); }, Arg{a, "a"});
}

tfe_status tfe_linalg_inv(tfe_tensor** out, const tfe_tensor* a) {
  return op_call(
      "tfe_linalg_inv", out, [](const auto& x) { return api::inv(x); }, Arg{a, "a"});
}

tfe_status tfe_linalg_det(tfe_tensor** out, const tfe_tensor* a) {
  return op_call(
      "tfe_linalg_det", out, [](const auto& x) { return api::det(x); }, Arg{a, "a"});
}

tfe_status tfe_linalg_slogdet(tfe_tensor** out_sign, tfe_tensor** out_logabs, const tfe_tensor* a) {
  return op_call_outputs<2>(
      "tfe_linalg_slogdet", {Out{out_sign, "out_sign"}, Out{out_logabs, "out_logabs"}},
      [](const auto& x) { return api::slogdet(x); }, Arg{a, "a"});
}

tfe_status tfe_linalg_solve_triangular(tfe_tensor** out, const tfe_tensor* a, const tfe_tensor* b,
                                       const tfe_linalg_options* opts) {
  return op_call(
      "tfe_linalg_solve_triangular", out,
      [&](const auto& x, const auto& y) {
        const LinalgOptions& o = options_or_default(opts);
        linalg::TriangularOptions t{o.upper, o.left, o.unit_diagonal, o.trans};
        return api::solve_triangular(x, y, t);
      },
      Arg{a, "a"}, Arg{b, "b"});
}

tfe_status tfe_linalg_cholesky_ex(tfe_tensor** out, const tfe_tensor* a,
                                  const tfe_linalg_options* opts) {
  return op_call(
      "tfe_linalg_cholesky_ex", out,
      [&](const auto& x) { return api::cholesky(x, options_or_default(opts).upper); }, Arg{a, "a"});
}

tfe_status tfe_linalg_qr_ex(tfe_tensor** out_q, tfe_tensor** out_r, const tfe_tensor* a,
                            const tfe_linalg_options* opts) {
  return op_call_outputs<2>(
      "tfe_linalg_qr_ex", {Out{out_q, "out_q"}, Out{out_r, "out_r"}},
      [&](const auto& x) {
        const LinalgOptions& o = options_or_default(opts);
        return api::qr_gauged(x, o.full_matrices, o.positive_diagonal);
      },
      Arg{a, "a"});
}

tfe_status tfe_linalg_svd_ex(tfe_tensor** out_u, tfe_tensor** out_s, tfe_tensor** out_vh,
                             const tfe_tensor* a, const tfe_linalg_options* opts) {
  return op_call_outputs<3>(
      "tfe_linalg_svd_ex", {Out{out_u, "out_u"}, Out{out_s, "out_s"}, Out{out_vh, "out_vh"}},
      [&](const auto& x) {
        const LinalgOptions& o = options_or_default(opts);
        auto mode = o.full_matrices ? linalg::SvdMode::Full : linalg::SvdMode::Reduced;
        return api::svd(x, mode, o.derivative_eps);
      },
      Arg{a, "a"});
}

tfe_status tfe_linalg_svdvals(tfe_tensor** out, const tfe_tensor* a) {
  return op_call(
      "tfe_linalg_svdvals", out, [](const auto& x) { return api::svdvals(x); }, Arg{a, "a"});
}

tfe_status tfe_linalg_eigh_ex(tfe_tensor** out_w, tfe_tensor** out_v, const tfe_tensor* a,
                              const tfe_linalg_options* opts) {
  return op_call_outputs<2>(
      "tfe_linalg_eigh_ex", {Out{out_w, "out_w"}, Out{out_v, "out_v"}},
      [&](const auto& x) {
        const LinalgOptions& o = options_or_default(opts);
        return api::eigh(x, o.upper, o.derivative_eps);
      },
      Arg{a, "a"});
}

tfe_status tfe_linalg_eigvalsh(tfe_tensor** out, const tfe_tensor* a,
                               const tfe_linalg_options* opts) {
  return op_call(
      "tfe_linalg_eigvalsh", out,
      [&](const auto& x) { return api::eigvalsh(x, options_or_default(opts).upper); }, Arg{a, "a"});
}

tfe_status tfe_linalg_eig_ex(tfe_tensor** out_w, tfe_tensor** out_v, const tfe_tensor* a,
                             const tfe_linalg_options* opts) {
  return op_call_outputs<2>(
      "tfe_linalg_eig_ex", {Out{out_w, "out_w"}, Out{out_v, "out_v"}},
      [&](const auto& x) { return api::eig(x, options_or_default(opts).derivative_eps); },
      Arg{a, "a"});
}

tfe_status tfe_linalg_eigvals(tfe_tensor** out, const tfe_tensor* a) {
  return op_call(
      "tfe_linalg_eigvals", out, [](const auto& x) { return api::eigvals(x); }, Arg{a, "a"});
}

tfe_status tfe_linalg_lu_factor(tfe_tensor** out_lu, tfe_tensor** out_pivots, tfe_tensor** out_info,
                                const tfe_tensor* a) {
  return op_call_outputs<3>(
      "tfe_linalg_lu_factor",
      {Out{out_lu, "out_lu"}, Out{out_pivots, "out_pivots"}, Out{out_info, "out_info"}},
      [](const auto& x) { return api::lu_factor(x); }, Arg{a, "a"});
}

tfe_status tfe_linalg_lu_solve(tfe_tensor** out, const tfe_tensor* lu, const tfe_tensor* pivots,
                               const tfe_tensor* b, const tfe_linalg_options* opts) {
  return op_call(
      "tfe_linalg_lu_solve", out,
      [&](const auto& f, const auto& p, const auto& y) {
        return api::lu_solve(f, p, y, options_or_default(opts).trans);
      },
      Arg{lu, "lu"}, Arg{pivots, "pivots"}, Arg{b, "b"});
}

tfe_status tfe_linalg_lu(tfe_tensor** out_p, tfe_tensor** out_l, tfe_tensor** out_u,
                         const tfe_tensor* a) {
  return op_call_outputs<3>(
      "tfe_linalg_lu", {Out{out_p, "out_p"}, Out{out_l, "out_l"}, Out{out_u, "out_u"}},
      [](const auto& x) { return api::lu(x); }, Arg{a, "a"});
}

tfe_status tfe_linalg_matrix_exp(tfe_tensor** out, const tfe_tensor* a) {
  return op_call(
      "tfe_linalg_matrix_exp", out, [](const auto& x) { return api::matrix_exp(x); }, Arg{a, "a"});
}

tfe_status tfe_linalg_pinv(tfe_tensor** out, const tfe_tensor* a, const tfe_linalg_options* opts) {
  return op_call(
      "tfe_linalg_pinv", out,
      [&](const auto& x) {
        const LinalgOptions& o = options_or_default(opts);
        return api::pinv(x, o.rtol, o.hermitian);
      },
      Arg{a, "a"});
}

tfe_status tfe_linalg_lstsq(tfe_tensor** out, const tfe_tensor* a, const tfe_tensor* b,
                            const tfe_linalg_options* opts) {
  return op_call(
      "tfe_linalg_lstsq", out,
      [&](const auto& x, const auto& y) { return api::lstsq(x, y, options_or_default(opts).rtol); },
      Arg{a, "a"}, Arg{b, "b"});
}

tfe_status tfe_linalg_matrix_norm(tfe_tensor** out, const tfe_tensor* a, int32_t ord) {
  return op_call(
      "tfe_linalg_matrix_norm", out,
      [&](const auto& x) { return api::matrix_norm(x, norm_order(ord, "tfe_linalg_matrix_norm")); },
      Arg{a, "a"});
}

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

tfe_status tfe_linalg_cond(tfe_tensor** out, const tfe_tensor* a, int32_t ord) {
  return op_call(
      "tfe_linalg_cond", out,
      [&](const auto& x) { return api::cond(x, norm_order(ord, "tfe_linalg_cond")); }, Arg{a, "a"});
}

tfe_status tfe_linalg_matrix_power(tfe_tensor** out, const tfe_tensor* a, int64_t n) {
  return op_call(
      "tfe_linalg_matrix_power", out, [&](const auto& x) { return api::matrix_power(x, n); },
      Arg{a, "a"});
}

tfe_status tfe_linalg_multi_dot(tfe_tensor** out, int32_t n, tfe_tensor* const* xs) {
  return list_call("tfe_linalg_multi_dot", out, n, xs,
                   [](auto span) { return api::multi_dot(span); });
}

tfe_status tfe_linalg_vecdot(tfe_tensor** out, const tfe_tensor* a, const tfe_tensor* b,
                             int64_t axis) {
  return op_call(
      "tfe_linalg_vecdot", out,
      [&](const auto& x, const auto& y) {
        int64_t rank = std::max(rank_of(x), rank_of(y));
        return api::vecdot(x, y, normalize_axis(axis, rank));
      },
      Arg{a, "a"}, Arg{b, "b"});
}

tfe_status tfe_linalg_vander(tfe_tensor** out, const tfe_tensor* x, int64_t n) {
  return op_call(
      "tfe_linalg_vander", out, [&](const auto& v) { return api::vander(v, n); }, Arg{x, "x"});
}

tfe_status tfe_linalg_tensorinv(tfe_tensor** out, const tfe_tensor* a, int64_t ind) {
  return op_call(
      "tfe_linalg_tensorinv", out, [&](const auto& x) { return api::tensorinv(x, ind); },
      Arg{a, "a"});
}

tfe_status tfe_linalg_tensorsolve(tfe_tensor** out, const tfe_tensor* a, const tfe_tensor* b) {
  return op_call(
      "tfe_linalg_tensorsolve", out,
      [](const auto& x, const auto& y) { return api::tensorsolve(x, y); }, Arg{a, "a"},
      Arg{b, "b"});
}

tfe_status tfe_linalg_svd_truncated(tfe_tensor** out_u, tfe_tensor** out_s, tfe_tensor** out_vh,
                                    const tfe_tensor* a, const tfe_linalg_options* opts) {
  return op_call_outputs<3>(
      "tfe_linalg_svd_truncated", {Out{out_u, "out_u"}, Out{out_s, "out_s"}, Out{out_vh, "out_vh"}},
      [&](const auto& x) {
        const LinalgOptions& o = options_or_default(opts);
        api::SvdTruncation t{o.max_rank, o.cutoff_rtol, o.cutoff_atol, o.derivative_eps};
        return api::svd_truncated(x, t);
      },
      Arg{a, "a"});
}

tfe_status tfe_linalg_qr_pivoted(tfe_tensor** out_q, tfe_tensor** out_r, tfe_tensor** out_perm,
                                 const tfe_tensor* a, const tfe_linalg_options* opts) {
  return op_call_outputs<3>(
      "tfe_linalg_qr_pivoted",
      {Out{out_q, "out_q"}, Out{out_r, "out_r"}, Out{out_perm, "out_perm"}},
      [&](const auto& x) { return api::qr_pivoted(x, options_or_default(opts).full_matrices); },
      Arg{a, "a"});
}

tfe_status tfe_linalg_matrix_rank(tfe_tensor** out, const tfe_tensor* a, double atol,
                                  const tfe_linalg_options* opts) {
  return op_call(
      "tfe_linalg_matrix_rank", out,
      [&](const auto& x) {
        const LinalgOptions& o = options_or_default(opts);
        if (std::isnan(atol)) fail(Status::InvalidArgument, "atol is NaN");
        return api::matrix_rank(x, atol, o.rtol, o.hermitian);
      },
      Arg{a, "a"});
}

tfe_status tfe_linalg_logdet(tfe_tensor** out, const tfe_tensor* a) {
  return op_call(
      "tfe_linalg_logdet", out, [](const auto& x) { return api::logdet(x); }, Arg{a, "a"});
}

tfe_status tfe_linalg_cholesky_solve(tfe_tensor** out, const tfe_tensor* l, const tfe_tensor* b,
                                     const tfe_linalg_options* opts) {
  return op_call(
      "tfe_linalg_cholesky_solve", out,
      [&](const auto& x, const auto& y) {
        return api::cholesky_solve(x, y, options_or_default(opts).upper);
      },
      Arg{l, "l"}, Arg{b, "b"});
}

} // extern "C"
