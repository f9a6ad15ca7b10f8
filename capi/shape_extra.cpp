// Entry points of NumPy's shape helpers (tenferro/ops_shape.h, "shape helpers"): argument
// checks here, the compositions in eager/shape_extra.hpp, so every engine runs them.
#include "capi/op_call.hpp"
#include "eager/shape_extra.hpp"

using namespace tfe;
using namespace tfe::capi;

namespace {

std::span<const int64_t> counted(const int64_t* p, int32_t n, const char* name) {
  if (n < 0) fail(Status::InvalidArgument, "%s: count %d is negative", name, n);
  return int64_array(p, n, name);
}

} // namespace

extern "C" {

tfe_status tfe_squeeze(tfe_tensor** out, const tfe_tensor* x, int32_t n_axes, const int64_t* axes) {
  return op_call(
      "tfe_squeeze", out,
      [&](const auto& v) { return eager::squeeze(v, counted(axes, n_axes, "axes")); }, Arg{x, "x"});
}

tfe_status tfe_expand_dims(tfe_tensor** out, const tfe_tensor* x, int32_t n_axes,
                           const int64_t* axes) {
  return op_call(
      "tfe_expand_dims", out,
      [&](const auto& v) { return eager::expand_dims(v, counted(axes, n_axes, "axes")); },
      Arg{x, "x"});
}

tfe_status tfe_moveaxis(tfe_tensor** out, const tfe_tensor* x, int32_t n_axes,
                        const int64_t* source, const int64_t* destination) {
  return op_call(
      "tfe_moveaxis", out,
      [&](const auto& v) {
        return eager::moveaxis(v, counted(source, n_axes, "source"),
                               counted(destination, n_axes, "destination"));
      },
      Arg{x, "x"});
}

tfe_status tfe_swapaxes(tfe_tensor** out, const tfe_tensor* x, int64_t axis1, int64_t axis2) {
  return op_call(
      "tfe_swapaxes", out, [&](const auto& v) { return eager::swapaxes(v, axis1, axis2); },
      Arg{x, "x"});
}

tfe_status tfe_flatten(tfe_tensor** out, const tfe_tensor* x) {
  return op_call(
      "tfe_flatten", out, [](const auto& v) { return eager::flatten(v); }, Arg{x, "x"});
}

tfe_status tfe_split(tfe_tensor** outs, int32_t n_outs, const tfe_tensor* x, int32_t n,
                     const int64_t* indices, int64_t axis) {
  return guarded("tfe_split", [&] {
    if (n_outs < 1) fail(Status::InvalidArgument, "n_outs %d must be >= 1", n_outs);
    require(outs, "outs");
    // All or none: every slot is cleared before anything can fail.
    for (int32_t i = 0; i < n_outs; ++i) outs[i] = nullptr;
    std::span<const int64_t> idx = counted(indices, n, "indices");
    if (n > 0 && n_outs != n + 1)
      fail(Status::InvalidArgument, "%d split points make %d pieces, not n_outs %d", n, n + 1,
           n_outs);
    tfe_context* ctx = common_context({{x, "x"}});
    run_op(
        ctx, [&](const auto& v) { return eager::split(v, n_outs, idx, axis); },
        [&](auto pieces) {
          std::vector<tfe_tensor*> made;
          try {
            for (auto& p : pieces) made.push_back(new_tensor(ctx, std::move(p)));
          } catch (...) {
            for (tfe_tensor* t : made) tfe_tensor_release(t);
            throw;
          }
          for (size_t i = 0; i < made.size(); ++i) outs[i] = made[i];
        },
        Arg{x, "x"});
  });
}

tfe_status tfe_tile(tfe_tensor** out, const tfe_tensor* x, int32_t ndim, const int64_t* reps) {
  return op_call(
      "tfe_tile", out, [&](const auto& v) { return eager::tile(v, counted(reps, ndim, "reps")); },
      Arg{x, "x"});
}

tfe_status tfe_repeat(tfe_tensor** out, const tfe_tensor* x, int32_t n, const int64_t* repeats,
                      int64_t axis) {
  return op_call(
      "tfe_repeat", out,
      [&](const auto& v) {
        if (n < 1)
          fail(Status::InvalidArgument, "n %d must be >= 1 (one count or one per element)", n);
        return eager::repeat(v, counted(repeats, n, "repeats"), axis);
      },
      Arg{x, "x"});
}

tfe_status tfe_roll(tfe_tensor** out, const tfe_tensor* x, int32_t n, const int64_t* shifts,
                    int32_t n_axes, const int64_t* axes) {
  return op_call(
      "tfe_roll", out,
      [&](const auto& v) {
        return eager::roll(v, counted(shifts, n, "shifts"), counted(axes, n_axes, "axes"));
      },
      Arg{x, "x"});
}

tfe_status tfe_diagonal(tfe_tensor** out, const tfe_tensor* x, int64_t offset, int64_t axis1,
                        int64_t axis2) {
  return op_call(
      "tfe_diagonal", out, [&](const auto& v) { return eager::diagonal(v, offset, axis1, axis2); },
      Arg{x, "x"});
}

tfe_status tfe_diag(tfe_tensor** out, const tfe_tensor* x, int64_t k) {
  return op_call(
      "tfe_diag", out, [&](const auto& v) { return eager::diag(v, k); }, Arg{x, "x"});
}

} // extern "C"
