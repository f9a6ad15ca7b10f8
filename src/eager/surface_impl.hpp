// Definitions of the surface templates (surface.hpp). Included only by the two files that
// instantiate them: surface.cpp (Tensor) and traced_instances.cpp (graph::Value).
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <vector>

#include "eager/surface.hpp"
#include "ops/shape_checks.hpp"

namespace tfe::eager {

namespace detail {

std::string dtypes_text(std::span<const DType> ds);

// A scratch array of n values: inline up to N (every op but concatenate has at most 3
// operands), on the heap beyond. Only the n elements in use are constructed, each directly from
// make(i) (default-constructing N values and assigning them showed up in the cost of one op).
// `view` points into the object, so it is neither copied nor moved.
template <class T, size_t N> struct ScratchSpan {
  std::vector<T> big;
  std::span<T> view;
  template <class Make> ScratchSpan(size_t n, Make make) {
    if (n <= N) {
      T* slots = reinterpret_cast<T*>(small_);
      size_t made = 0;
      try {
        for (; made < n; ++made) std::construct_at(slots + made, make(made));
      } catch (...) {
        std::destroy_n(slots, made);
        throw;
      }
      view = std::span<T>(slots, n);
    } else {
      big.reserve(n);
      for (size_t i = 0; i < n; ++i) big.push_back(make(i));
      view = big;
    }
  }
  explicit ScratchSpan(size_t n) : ScratchSpan(n, [](size_t) { return T{}; }) {}
  ~ScratchSpan() {
    if (big.empty()) std::destroy(view.begin(), view.end());
  }
  ScratchSpan(const ScratchSpan&) = delete;
  ScratchSpan& operator=(const ScratchSpan&) = delete;

private:
  alignas(T) std::byte small_[N * sizeof(T)];
};

template <class V> V emit1(ops::OpCode code, const V& x, const ops::Params& p) {
  std::array<V, 1> in{x};
  return emit(code, std::span<const V>(in), p);
}

template <class V> V literal_of(const Tensor& value) {
  return literal(value, static_cast<const V*>(nullptr));
}

inline bool all_const(const Shape& s) {
  for (Extent e : s)
    if (!e.is_const()) return false;
  return true;
}

} // namespace detail

template <class V> V broadcast_to(const V& v, const Shape& shape) {
  ops::Meta m = meta_of(v);
  if (m.shape == shape) return v;
  Dims dims(m.shape.size());
  for (size_t i = 0; i < dims.size(); ++i) dims[i] = static_cast<int64_t>(i);
  if constexpr (std::is_same_v<V, Tensor>) {
    // An eager tensor's left-aligned broadcast is the stride-0 view the BroadcastInDim kernel
    // makes; broadcast_shapes has checked the shapes, so of the op's checks only the element
    // limit is left (a scalar operand, `x * 2.0`, pays for the op dispatch on every call).
    Dims extents(shape.size());
    for (size_t i = 0; i < shape.size(); ++i) extents[i] = shape[i].value();
    checked_numel(extents); // a view allocates nothing, but the per-tensor limit holds for it too
    return v.broadcast_view(extents, dims);
  } else {
    return detail::emit1(ops::OpCode::BroadcastInDim, v, ops::BroadcastInDimParams{shape, dims});
  }
}

template <class V> V cast(const V& x, DType dtype) {
  return detail::emit1(ops::OpCode::Convert, x, ops::ConvertParams{dtype});
}

template <class V> V convert(const V& x, DType dtype) {
  DType from = meta_of(x).dtype;
  if (!can_convert_safely(from, dtype))
    fail(Status::DtypeMismatch, "converting %s to %s loses information (use a cast)",
         std::string(dtype_name(from)).c_str(), std::string(dtype_name(dtype)).c_str());
  return cast(x, dtype);
}

namespace detail {
// A value that holds its concrete tensor reports it (a Tensor itself; a recorded value declares
// its own overload), so that its dtype and shape are read in place; a traced value has none.
inline const Tensor* held_tensor(const Tensor& t) { return &t; }
template <class V> std::nullptr_t held_tensor(const V&) { return nullptr; }
template <class V>
inline constexpr bool kHoldsTensor =
    !std::is_same_v<decltype(held_tensor(std::declval<const V&>())), std::nullptr_t>;

// The operands' dtypes, and whether any shape differs from the first's. A value holding its
// tensor reports both in place (no shape is copied); other value types through one Meta each.
template <class V, class In> bool read_operands(const In& in, std::span<DType> dtypes) {
  bool differ = false;
  if (in.size() == 0) return differ; // an op without operands (iota)
  if constexpr (kHoldsTensor<V>) {
    const Tensor& first = *held_tensor(in[0]);
    for (size_t i = 0; i < in.size(); ++i) {
      const Tensor& t = *held_tensor(in[i]);
      dtypes[i] = t.dtype();
      differ |= !(t.shape() == first.shape());
    }
  } else {
    ops::Meta first;
    for (size_t i = 0; i < in.size(); ++i) {
      ops::Meta m = meta_of(in[i]);
      dtypes[i] = m.dtype;
      if (i == 0)
        first = std::move(m);
      else
        differ |= !(m.shape == first.shape);
    }
  }
  return differ;
}
} // namespace detail

// In: a span of values, or Operands (tensors read in place).
template <class V, class In> V call_on(ops::OpCode code, const In& in, const ops::Params& params) {
  const ops::OpDef& def = ops::op_def(code);
  // The common case (no conversion, equal shapes) emits the operands as they are, without
  // copying them or their metadata.
  detail::ScratchSpan<DType, 4> from(in.size()), to(in.size());
  const bool shapes_differ = detail::read_operands<V>(in, from.view);
  bool converts = false;
  if (def.promotes) {
    ops::promotion_plan(code, from.view, to.view);
    for (size_t i = 0; i < in.size(); ++i) {
      if (!def.is_value_operand(i)) continue;
      if (!def.accepts.contains(to.view[i])) {
        std::vector<DType> values;
        for (size_t j = 0; j < in.size(); ++j)
          if (def.is_value_operand(j)) values.push_back(from.view[j]);
        fail(Status::DtypeMismatch, "%s does not accept %s%s; it accepts %s",
             std::string(def.name).c_str(), detail::dtypes_text(values).c_str(),
             to.view[i] == from.view[i]
                 ? ""
                 : (" (promoted to " + std::string(dtype_name(to.view[i])) + ")").c_str(),
             ops::dtype_list(def.accepts).c_str());
      }
      converts |= to.view[i] != from.view[i];
    }
  }
  const bool broadcasts = def.elementwise && shapes_differ;
  if (!converts && !broadcasts) {
    if constexpr (requires { emit(code, in, params); }) {
      return emit(code, in, params);
    } else { // a value type whose emit takes an array only
      detail::ScratchSpan<V, 4> copies(in.size(), [&](size_t i) { return in[i]; });
      return emit(code, std::span<const V>(copies.view.data(), copies.view.size()), params);
    }
  }

  detail::ScratchSpan<V, 4> args(in.size(), [&](size_t i) { return in[i]; });
  for (size_t i = 0; i < in.size(); ++i) {
    if (converts && def.is_value_operand(i) && to.view[i] != from.view[i])
      args.view[i] = cast(args.view[i], to.view[i]);
  }
  if (broadcasts) {
    detail::ScratchSpan<Shape, 4> shapes(in.size(), [&](size_t i) { return meta_of(in[i]).shape; });
    Shape shape = broadcast_shapes(shapes.view);
    for (V& v : args.view) v = broadcast_to(v, shape);
  }
  return emit(code, std::span<const V>(args.view.data(), args.view.size()), params);
}

template <class V> V call(ops::OpCode code, std::span<const V> in, const ops::Params& params) {
  return call_on<V>(code, in, params);
}

template <class V> V call_refs(ops::OpCode code, Refs<V> in, const ops::Params& params) {
  return call_on<V>(code, in, params);
}

template <class V> V true_divide(const V& a, const V& b) {
  auto to_float = [](const V& v) {
    DType d = meta_of(v).dtype;
    return (d == DType::Bool || is_integer(d)) ? cast(v, DType::F64) : v;
  };
  std::array<V, 2> in{to_float(a), to_float(b)};
  return call(ops::OpCode::Div, std::span<const V>(in));
}

template <class V> V reduce(ops::OpCode code, const V& x, std::span<const int64_t> axes) {
  int64_t rank = static_cast<int64_t>(meta_of(x).shape.size());
  Dims norm;
  if (axes.empty()) {
    for (int64_t d = 0; d < rank; ++d) norm.push_back(d);
  } else {
    norm = normalize_axes(axes, rank);
  }
  return detail::emit1(code, x, ops::AxesParams{norm});
}

template <class V> V sum(const V& x, std::span<const int64_t> axes) {
  DType d = meta_of(x).dtype;
  V w = (d == DType::Bool || d == DType::I32) ? cast(x, DType::I64) : x;
  return reduce(ops::OpCode::ReduceSum, w, axes);
}

template <class V> V prod(const V& x, std::span<const int64_t> axes) {
  DType d = meta_of(x).dtype;
  V w = (d == DType::Bool || d == DType::I32) ? cast(x, DType::I64) : x;
  return reduce(ops::OpCode::ReduceProd, w, axes);
}

template <class V> V mean(const V& x, std::span<const int64_t> axes) {
  ops::Meta m = meta_of(x);
  V xf = (m.dtype == DType::Bool || is_integer(m.dtype)) ? cast(x, DType::F64) : x;
  V s = reduce(ops::OpCode::ReduceSum, xf, axes);
  DType real = real_dtype(meta_of(s).dtype);
  int64_t rank = static_cast<int64_t>(m.shape.size());
  Dims reduced;
  if (axes.empty()) {
    for (int64_t d = 0; d < rank; ++d) reduced.push_back(d);
  } else {
    reduced = normalize_axes(axes, rank);
  }
  Extent count = 1;
  for (int64_t a : reduced) count = count * m.shape[static_cast<size_t>(a)];
  if (count.is_const()) {
    // An empty mean is 0 * inf = NaN, as in NumPy.
    V inv =
        cast(detail::literal_of<V>(Tensor::scalar(1.0 / static_cast<double>(count.value()))), real);
    std::array<V, 2> in{s, inv};
    return call(ops::OpCode::Mul, std::span<const V>(in));
  }
  // A symbolic count has no literal: count the elements (sum of ones broadcast to x's shape).
  V one = cast(detail::literal_of<V>(Tensor::scalar(1.0)), real);
  V ones = detail::emit1(ops::OpCode::BroadcastInDim, one, ops::BroadcastInDimParams{m.shape, {}});
  V n = reduce(ops::OpCode::ReduceSum, ones, axes);
  std::array<V, 2> in{s, n};
  return call(ops::OpCode::Div, std::span<const V>(in));
}

template <class V> V matmul(const V& a, const V& b);

// NumPy's rank-1 operands: a vector a is the row [1,K], a vector b the column [K,1], and the
// unit dim is dropped from the product; reshapes and one dot_general, so derivatives follow.
template <class V> V matmul_vectors(const V& a, const V& b) {
  ops::Meta ma = meta_of(a), mb = meta_of(b);
  bool row = ma.shape.size() == 1, col = mb.shape.size() == 1;
  auto reshaped = [](const V& x, Shape shape) {
    return detail::emit1(ops::OpCode::Reshape, x, ops::ReshapeParams{std::move(shape)});
  };
  V a2 = row ? reshaped(a, Shape{Extent(1), ma.shape[0]}) : a;
  V b2 = col ? reshaped(b, Shape{mb.shape[0], Extent(1)}) : b;
  V r = matmul(a2, b2);
  Shape out = meta_of(r).shape;
  if (col) out.erase(out.begin() + 1);
  if (row) out.erase(out.begin());
  return reshaped(r, std::move(out));
}

template <class V> V matmul(const V& a, const V& b) {
  ops::Meta ma = meta_of(a), mb = meta_of(b);
  if (ma.shape.empty() || mb.shape.empty())
    fail(Status::ShapeMismatch, "needs operands of rank >= 1, got %s and %s",
         ops::format_shape(ma.shape).c_str(), ops::format_shape(mb.shape).c_str());
  if (ma.shape.size() == 1 || mb.shape.size() == 1) {
    Extent ka = ma.shape[ma.shape.size() == 1 ? 0 : 1], kb = mb.shape[0];
    if (ka.is_const() && kb.is_const() && !(ka == kb))
      fail(Status::ShapeMismatch, "inner dimensions differ: a is %s and b is %s",
           ops::format_shape(ma.shape).c_str(), ops::format_shape(mb.shape).c_str());
    return matmul_vectors(a, b);
  }
  if (ma.shape[1].is_const() && mb.shape[0].is_const() && !(ma.shape[1] == mb.shape[0]))
    fail(Status::ShapeMismatch, "inner dimensions differ: a is %s and b is %s",
         ops::format_shape(ma.shape).c_str(), ops::format_shape(mb.shape).c_str());
  Shape abatch(ma.shape.begin() + 2, ma.shape.end()), bbatch(mb.shape.begin() + 2, mb.shape.end());
  std::array<Shape, 2> batches{abatch, bbatch};
  Shape batch = broadcast_shapes(batches);
  Shape ashape{ma.shape[0], ma.shape[1]}, bshape{mb.shape[0], mb.shape[1]};
  ashape.insert(ashape.end(), batch.begin(), batch.end());
  bshape.insert(bshape.end(), batch.begin(), batch.end());
  std::array<V, 2> in{broadcast_to(a, ashape), broadcast_to(b, bshape)};
  ops::DotGeneralParams p{{1}, {0}, {}, {}};
  for (int64_t d = 0; d < static_cast<int64_t>(batch.size()); ++d) {
    p.lhs_batch.push_back(d + 2);
    p.rhs_batch.push_back(d + 2);
  }
  return call(ops::OpCode::DotGeneral, std::span<const V>(in), p);
}

template <class V> V concatenate(std::span<const V> xs, int64_t axis) {
  if (xs.empty()) fail(Status::InvalidArgument, "needs at least one tensor");
  int64_t a = normalize_axis(axis, static_cast<int64_t>(meta_of(xs[0]).shape.size()));
  return call(ops::OpCode::Concatenate, xs, ops::AxisParams{a});
}

template <class V> V stack(std::span<const V> xs, int64_t axis) {
  if (xs.empty()) fail(Status::InvalidArgument, "needs at least one tensor");
  Shape first = meta_of(xs[0]).shape;
  int64_t a = normalize_axis(axis, static_cast<int64_t>(first.size()) + 1);
  std::vector<V> parts;
  parts.reserve(xs.size());
  for (size_t i = 0; i < xs.size(); ++i) {
    Shape shape = meta_of(xs[i]).shape;
    if (!(shape == first))
      fail(Status::ShapeMismatch, "tensor %zu has shape %s but tensor 0 has %s", i,
           ops::format_shape(shape).c_str(), ops::format_shape(first).c_str());
    shape.insert(shape.begin() + a, Extent(1));
    parts.push_back(detail::emit1(ops::OpCode::Reshape, xs[i], ops::ReshapeParams{shape}));
  }
  return call(ops::OpCode::Concatenate, std::span<const V>(parts), ops::AxisParams{a});
}

} // namespace tfe::eager
