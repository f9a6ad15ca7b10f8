// Entry points of contraction, reductions, conversion, structural and indexing ops
// (tenferro/ops_shape.h). NumPy-style negative axes are mapped here; IR params are canonical.
// Every computation is generic over the value type, so symbolic tensors trace (op_call.hpp).
#include <array>

#include "backend/cpu/kernel.hpp"
#include "capi/creation_device.hpp"
#include "capi/op_call.hpp"

using namespace tfe;
using namespace tfe::capi;
using ops::OpCode;

namespace tfe::capi {

TensorList tensor_list(int32_t n, tfe_tensor* const* xs, const char* name) {
  if (n < 0) fail(Status::InvalidArgument, "n %d is negative", n);
  if (n > 0) require(xs, name);
  std::span<tfe_tensor* const> span(xs, static_cast<size_t>(n));
  TensorList list;
  list.ctx = common_context(span, name);
  list.values.reserve(span.size());
  for (tfe_tensor* t : span) list.values.push_back(&t->value);
  return list;
}

} // namespace tfe::capi

namespace {

template <class V> V run(OpCode op, std::initializer_list<V> in, ops::Params p = ops::NoParams{}) {
  return eager::call<V>(op, std::span<const V>(in.begin(), in.size()), p);
}

// Maps NumPy-style axes of an operand of the given rank.
Dims values_arg(const int64_t* p, int64_t n, const char* name) {
  auto s = int64_array(p, n, name);
  return Dims(s.begin(), s.end());
}

// An extent-valued parameter: >= 0 concrete, -k symbol k of the context (as in
// tfe_tensor_symbolic), so traced code can reshape or broadcast to shapes that keep a symbol.
Shape extents_arg(const int64_t* p, int64_t n, const char* name) {
  Shape out;
  for (int64_t e : int64_array(p, n, name)) {
    if (e == TFE_EXTENT_DERIVED)
      fail(Status::InvalidArgument, "%s: an extent is >= 0 (concrete) or -k (symbol k)", name);
    out.push_back(e >= 0 ? Extent(e) : Extent::symbol(-e));
  }
  return out;
}

template <class F>
tfe_status reduction(const char* fn, tfe_tensor** out, const tfe_tensor* x, int32_t n_axes,
                     const int64_t* axes, F f) {
  return op_call(
      fn, out, [&](const auto& v) { return f(v, int64_array(axes, n_axes, "axes")); }, Arg{x, "x"});
}

template <OpCode Op> struct Reduce {
  template <class V> V operator()(const V& x, std::span<const int64_t> axes) const {
    return eager::reduce(Op, x, axes);
  }
};
struct Sum {
  template <class V> V operator()(const V& x, std::span<const int64_t> a) const {
    return eager::sum(x, a);
  }
};
struct Prod {
  template <class V> V operator()(const V& x, std::span<const int64_t> a) const {
    return eager::prod(x, a);
  }
};
struct Mean {
  template <class V> V operator()(const V& x, std::span<const int64_t> a) const {
    return eager::mean(x, a);
  }
};

} // namespace

extern "C" {

tfe_status tfe_matmul(tfe_tensor** out, const tfe_tensor* a, const tfe_tensor* b) {
  return op_call(
      "tfe_matmul", out, [](const auto& x, const auto& y) { return eager::matmul(x, y); },
      Arg{a, "a"}, Arg{b, "b"});
}

tfe_status tfe_dot_general(tfe_tensor** out, const tfe_tensor* lhs, const tfe_tensor* rhs,
                           int32_t n_contracting, const int64_t* lhs_contracting,
                           const int64_t* rhs_contracting, int32_t n_batch,
                           const int64_t* lhs_batch, const int64_t* rhs_batch) {
  return op_call(
      "tfe_dot_general", out,
      [&](const auto& l, const auto& r) {
        ops::DotGeneralParams p{
            axes_arg(lhs_contracting, n_contracting, rank_of(l), "lhs_contracting"),
            axes_arg(rhs_contracting, n_contracting, rank_of(r), "rhs_contracting"),
            axes_arg(lhs_batch, n_batch, rank_of(l), "lhs_batch"),
            axes_arg(rhs_batch, n_batch, rank_of(r), "rhs_batch")};
        return run(OpCode::DotGeneral, {l, r}, p);
      },
      Arg{lhs, "lhs"}, Arg{rhs, "rhs"});
}

tfe_status tfe_sum(tfe_tensor** out, const tfe_tensor* x, int32_t n_axes, const int64_t* axes) {
  return reduction("tfe_sum", out, x, n_axes, axes, Sum{});
}
tfe_status tfe_prod(tfe_tensor** out, const tfe_tensor* x, int32_t n_axes, const int64_t* axes) {
  return reduction("tfe_prod", out, x, n_axes, axes, Prod{});
}
tfe_status tfe_mean(tfe_tensor** out, const tfe_tensor* x, int32_t n_axes, const int64_t* axes) {
  return reduction("tfe_mean", out, x, n_axes, axes, Mean{});
}
tfe_status tfe_reduce_sum(tfe_tensor** out, const tfe_tensor* x, int32_t n_axes,
                          const int64_t* axes) {
  return reduction("tfe_reduce_sum", out, x, n_axes, axes, Reduce<OpCode::ReduceSum>{});
}
tfe_status tfe_reduce_prod(tfe_tensor** out, const tfe_tensor* x, int32_t n_axes,
                           const int64_t* axes) {
  return reduction("tfe_reduce_prod", out, x, n_axes, axes, Reduce<OpCode::ReduceProd>{});
}
tfe_status tfe_reduce_max(tfe_tensor** out, const tfe_tensor* x, int32_t n_axes,
                          const int64_t* axes) {
  return reduction("tfe_reduce_max", out, x, n_axes, axes, Reduce<OpCode::ReduceMax>{});
}
tfe_status tfe_reduce_min(tfe_tensor** out, const tfe_tensor* x, int32_t n_axes,
                          const int64_t* axes) {
  return reduction("tfe_reduce_min", out, x, n_axes, axes, Reduce<OpCode::ReduceMin>{});
}

tfe_status tfe_convert(tfe_tensor** out, const tfe_tensor* x, int32_t dtype) {
  return op_call(
      "tfe_convert", out, [&](const auto& v) { return eager::convert(v, require_dtype(dtype)); },
      Arg{x, "x"});
}

tfe_status tfe_cast(tfe_tensor** out, const tfe_tensor* x, int32_t dtype) {
  return op_call(
      "tfe_cast", out, [&](const auto& v) { return eager::cast(v, require_dtype(dtype)); },
      Arg{x, "x"});
}

tfe_status tfe_transpose(tfe_tensor** out, const tfe_tensor* x, int32_t ndim, const int64_t* perm) {
  return op_call(
      "tfe_transpose", out,
      [&](const auto& v) {
        return run(OpCode::Transpose, {v},
                   ops::TransposeParams{axes_arg(perm, ndim, rank_of(v), "perm")});
      },
      Arg{x, "x"});
}

tfe_status tfe_reshape(tfe_tensor** out, const tfe_tensor* x, int32_t ndim, const int64_t* shape) {
  return op_call(
      "tfe_reshape", out,
      [&](const auto& v) {
        return run(OpCode::Reshape, {v}, ops::ReshapeParams{extents_arg(shape, ndim, "shape")});
      },
      Arg{x, "x"});
}

tfe_status tfe_broadcast_in_dim(tfe_tensor** out, const tfe_tensor* x, int32_t ndim,
                                const int64_t* shape, int32_t n_dims, const int64_t* dims) {
  return op_call(
      "tfe_broadcast_in_dim", out,
      [&](const auto& v) {
        ops::BroadcastInDimParams p{extents_arg(shape, ndim, "shape"),
                                    axes_arg(dims, n_dims, ndim, "dims")};
        return run(OpCode::BroadcastInDim, {v}, p);
      },
      Arg{x, "x"});
}

tfe_status tfe_broadcast_to(tfe_tensor** out, const tfe_tensor* x, int32_t ndim,
                            const int64_t* shape) {
  return op_call(
      "tfe_broadcast_to", out,
      [&](const auto& v) {
        Shape target = extents_arg(shape, ndim, "shape");
        Shape from = meta_of(v).shape;
        std::array<Shape, 2> shapes{from, target};
        if (!(eager::broadcast_shapes(shapes) == target))
          fail(Status::ShapeMismatch, "%s does not broadcast to %s",
               ops::format_shape(from).c_str(), ops::format_shape(target).c_str());
        return eager::broadcast_to(v, target);
      },
      Arg{x, "x"});
}

tfe_status tfe_reverse(tfe_tensor** out, const tfe_tensor* x, int32_t n_axes, const int64_t* axes) {
  return op_call(
      "tfe_reverse", out,
      [&](const auto& v) {
        return run(OpCode::Reverse, {v},
                   ops::AxesParams{axes_arg(axes, n_axes, rank_of(v), "axes")});
      },
      Arg{x, "x"});
}

tfe_status tfe_extract_diag(tfe_tensor** out, const tfe_tensor* x, int64_t axis_a, int64_t axis_b) {
  return op_call(
      "tfe_extract_diag", out,
      [&](const auto& v) {
        ops::DiagParams p{normalize_axis(axis_a, rank_of(v)), normalize_axis(axis_b, rank_of(v))};
        return run(OpCode::ExtractDiag, {v}, p);
      },
      Arg{x, "x"});
}

tfe_status tfe_embed_diag(tfe_tensor** out, const tfe_tensor* x, int64_t axis_a, int64_t axis_b) {
  return op_call(
      "tfe_embed_diag", out,
      [&](const auto& v) {
        ops::DiagParams p{normalize_axis(axis_a, rank_of(v) + 1),
                          normalize_axis(axis_b, rank_of(v) + 1)};
        return run(OpCode::EmbedDiag, {v}, p);
      },
      Arg{x, "x"});
}

tfe_status tfe_tril(tfe_tensor** out, const tfe_tensor* x, int64_t k) {
  return op_call(
      "tfe_tril", out,
      [&](const auto& v) { return run(OpCode::Tril, {v}, ops::TriangleParams{k}); }, Arg{x, "x"});
}

tfe_status tfe_triu(tfe_tensor** out, const tfe_tensor* x, int64_t k) {
  return op_call(
      "tfe_triu", out,
      [&](const auto& v) { return run(OpCode::Triu, {v}, ops::TriangleParams{k}); }, Arg{x, "x"});
}

tfe_status tfe_iota(tfe_tensor** out, tfe_context* ctx, int32_t dtype, int32_t ndim,
                    const int64_t* shape, int64_t axis) {
  return guarded("tfe_iota", [&] {
    out_slot(out);
    require(ctx, "ctx");
    Dims s = shape_arg(ndim, shape);
    ops::IotaParams p{require_dtype(dtype), Shape(s), normalize_axis(axis, ndim)};
    *out = new_tensor(ctx, on_creation_device(*ctx, cpu::execute(OpCode::Iota, {}, p)));
  });
}

tfe_status tfe_slice(tfe_tensor** out, const tfe_tensor* x, int32_t ndim, const int64_t* starts,
                     const int64_t* limits, const int64_t* strides) {
  return op_call(
      "tfe_slice", out,
      [&](const auto& v) {
        ops::SliceParams p{extents_arg(starts, ndim, "starts"), extents_arg(limits, ndim, "limits"),
                           strides ? values_arg(strides, ndim, "strides")
                                   : Dims(static_cast<size_t>(std::max(ndim, 0)), 1)};
        return run(OpCode::Slice, {v}, p);
      },
      Arg{x, "x"});
}

tfe_status tfe_dynamic_slice(tfe_tensor** out, const tfe_tensor* x, const tfe_tensor* starts,
                             int32_t ndim, const int64_t* sizes) {
  return op_call(
      "tfe_dynamic_slice", out,
      [&](const auto& v, const auto& s) {
        return run(OpCode::DynamicSlice, {v, s},
                   ops::DynamicSliceParams{extents_arg(sizes, ndim, "sizes")});
      },
      Arg{x, "x"}, Arg{starts, "starts"});
}

tfe_status tfe_dynamic_update_slice(tfe_tensor** out, const tfe_tensor* x, const tfe_tensor* update,
                                    const tfe_tensor* starts) {
  return op_call(
      "tfe_dynamic_update_slice", out,
      [&](const auto& v, const auto& u, const auto& s) {
        return run(OpCode::DynamicUpdateSlice, {v, u, s});
      },
      Arg{x, "x"}, Arg{update, "update"}, Arg{starts, "starts"});
}

tfe_status tfe_gather(tfe_tensor** out, const tfe_tensor* x, const tfe_tensor* indices,
                      int64_t axis) {
  return op_call(
      "tfe_gather", out,
      [&](const auto& v, const auto& i) {
        return run(OpCode::Gather, {v, i}, ops::AxisParams{normalize_axis(axis, rank_of(v))});
      },
      Arg{x, "x"}, Arg{indices, "indices"});
}

tfe_status tfe_scatter(tfe_tensor** out, const tfe_tensor* x, const tfe_tensor* indices,
                       const tfe_tensor* updates, int64_t axis) {
  return op_call(
      "tfe_scatter", out,
      [&](const auto& v, const auto& i, const auto& u) {
        return run(OpCode::Scatter, {v, i, u}, ops::AxisParams{normalize_axis(axis, rank_of(v))});
      },
      Arg{x, "x"}, Arg{indices, "indices"}, Arg{updates, "updates"});
}

tfe_status tfe_pad(tfe_tensor** out, const tfe_tensor* x, int32_t ndim, const int64_t* low,
                   const int64_t* high, const int64_t* interior) {
  return op_call(
      "tfe_pad", out,
      [&](const auto& v) {
        ops::PadParams p{Shape(values_arg(low, ndim, "low")), Shape(values_arg(high, ndim, "high")),
                         interior ? values_arg(interior, ndim, "interior")
                                  : Dims(static_cast<size_t>(std::max(ndim, 0)), 0)};
        return run(OpCode::Pad, {v}, p);
      },
      Arg{x, "x"});
}

tfe_status tfe_concatenate(tfe_tensor** out, int32_t n, tfe_tensor* const* xs, int64_t axis) {
  return list_call("tfe_concatenate", out, n, xs,
                   [axis](auto span) { return eager::concatenate(span, axis); });
}

tfe_status tfe_stack(tfe_tensor** out, int32_t n, tfe_tensor* const* xs, int64_t axis) {
  return list_call("tfe_stack", out, n, xs, [axis](auto span) { return eager::stack(span, axis); });
}

} // extern "C"
