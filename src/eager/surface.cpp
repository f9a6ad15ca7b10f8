// Implementation of the eager surface (surface.hpp).
#include "eager/surface.hpp"

#include <array>
#include <vector>

#include "backend/cpu/kernel.hpp"
#include "backend/cpu/kernels/kernels.hpp"
#include "ops/shape_checks.hpp"

namespace tfe::eager {

using ops::OpCode;

namespace {

std::string dtypes_text(std::span<const DType> ds) {
  std::string s;
  for (size_t i = 0; i < ds.size(); ++i) {
    if (i) s += i + 1 == ds.size() ? " and " : ", ";
    s += dtype_name(ds[i]);
  }
  return s;
}

} // namespace

Dims broadcast_shapes(std::span<const Dims> shapes) {
  size_t rank = 0;
  for (const Dims& sh : shapes) rank = std::max(rank, sh.size());
  Dims out(rank, 1);
  for (size_t d = 0; d < rank; ++d) {
    bool set = false;
    for (const Dims& sh : shapes) {
      int64_t e = d < sh.size() ? sh[d] : 1;
      if (e == 1) continue;
      if (!set) {
        out[d] = e;
        set = true;
      } else if (out[d] != e) {
        std::string all;
        for (size_t i = 0; i < shapes.size(); ++i) {
          if (i) all += i + 1 == shapes.size() ? " and " : ", ";
          all += format_dims(shapes[i]);
        }
        fail(Status::ShapeMismatch,
             "shapes %s do not broadcast (left-aligned: dim %zu has %lld and %lld)", all.c_str(), d,
             (long long)out[d], (long long)e);
      }
    }
  }
  return out;
}

Dims broadcast_shapes(std::span<const Tensor> in) {
  std::vector<Dims> shapes;
  shapes.reserve(in.size());
  for (const Tensor& t : in) shapes.push_back(t.shape());
  return broadcast_shapes(shapes);
}

Tensor broadcast_to(const Tensor& t, const Dims& shape) {
  if (t.shape() == shape) return t;
  Dims dims(t.shape().size());
  for (size_t i = 0; i < dims.size(); ++i) dims[i] = static_cast<int64_t>(i);
  std::array<Tensor, 1> in{t};
  return cpu::execute(OpCode::BroadcastInDim, in, ops::BroadcastInDimParams{shape, dims});
}

Tensor call(OpCode code, std::span<const Tensor> in, const ops::Params& params) {
  const ops::OpDef& def = ops::op_def(code);
  std::array<Tensor, 4> small;
  std::vector<Tensor> big;
  std::span<Tensor> args;
  if (in.size() <= small.size()) {
    args = std::span<Tensor>(small.data(), in.size());
  } else {
    big.resize(in.size());
    args = big;
  }
  for (size_t i = 0; i < in.size(); ++i) args[i] = in[i];

  if (def.promotes) {
    std::array<DType, 4> from_small{}, to_small{};
    std::vector<DType> from_big, to_big;
    std::span<DType> from, to;
    if (in.size() <= 4) {
      from = std::span<DType>(from_small.data(), in.size());
      to = std::span<DType>(to_small.data(), in.size());
    } else {
      from_big.resize(in.size());
      to_big.resize(in.size());
      from = from_big;
      to = to_big;
    }
    for (size_t i = 0; i < in.size(); ++i) from[i] = in[i].dtype();
    ops::promotion_plan(code, from, to);
    for (size_t i = 0; i < in.size(); ++i) {
      if (!def.is_value_operand(i)) continue;
      if (!def.accepts.contains(to[i])) {
        std::vector<DType> values;
        for (size_t j = 0; j < in.size(); ++j)
          if (def.is_value_operand(j)) values.push_back(from[j]);
        fail(Status::DtypeMismatch, "%s does not accept %s%s; it accepts %s",
             std::string(def.name).c_str(), dtypes_text(values).c_str(),
             to[i] == from[i] ? ""
                              : (" (promoted to " + std::string(dtype_name(to[i])) + ")").c_str(),
             ops::dtype_list(def.accepts).c_str());
      }
      if (to[i] != from[i]) args[i] = cast(args[i], to[i]);
    }
  }
  bool same_shapes = true;
  for (const Tensor& t : args) same_shapes &= t.shape() == args[0].shape();
  if (def.elementwise && !same_shapes) {
    Dims shape = broadcast_shapes(args);
    for (Tensor& t : args) t = broadcast_to(t, shape);
  }
  return cpu::execute(code, args, params);
}

Tensor cast(const Tensor& x, DType dtype) {
  std::array<Tensor, 1> in{x};
  return cpu::execute(OpCode::Convert, in, ops::ConvertParams{dtype});
}

Tensor convert(const Tensor& x, DType dtype) {
  if (!can_convert_safely(x.dtype(), dtype))
    fail(Status::DtypeMismatch, "converting %s to %s loses information (use a cast)",
         std::string(dtype_name(x.dtype())).c_str(), std::string(dtype_name(dtype)).c_str());
  return cast(x, dtype);
}

Tensor true_divide(const Tensor& a, const Tensor& b) {
  auto to_float = [](const Tensor& t) {
    return (t.dtype() == DType::Bool || is_integer(t.dtype())) ? cast(t, DType::F64) : t;
  };
  std::array<Tensor, 2> in{to_float(a), to_float(b)};
  return call(OpCode::Div, in);
}

Tensor reduce(OpCode code, const Tensor& x, std::span<const int64_t> axes) {
  Dims norm;
  if (axes.empty()) {
    for (int64_t d = 0; d < x.ndim(); ++d) norm.push_back(d);
  } else {
    norm = normalize_axes(axes, x.ndim());
  }
  std::array<Tensor, 1> in{x};
  return cpu::execute(code, in, ops::AxesParams{norm});
}

namespace {
Tensor widen_for_accumulation(const Tensor& x) {
  return (x.dtype() == DType::Bool || x.dtype() == DType::I32) ? cast(x, DType::I64) : x;
}
} // namespace

Tensor sum(const Tensor& x, std::span<const int64_t> axes) {
  return reduce(OpCode::ReduceSum, widen_for_accumulation(x), axes);
}

Tensor prod(const Tensor& x, std::span<const int64_t> axes) {
  return reduce(OpCode::ReduceProd, widen_for_accumulation(x), axes);
}

Tensor mean(const Tensor& x, std::span<const int64_t> axes) {
  Tensor xf = (x.dtype() == DType::Bool || is_integer(x.dtype())) ? cast(x, DType::F64) : x;
  Tensor s = reduce(OpCode::ReduceSum, xf, axes);
  int64_t count = s.numel() == 0 ? 0 : x.numel() / s.numel();
  if (s.numel() == 0 || x.numel() == 0) {
    count = 1;
    if (axes.empty())
      count = x.numel();
    else
      for (int64_t a : normalize_axes(axes, x.ndim())) count *= x.dim(a);
  }
  // An empty mean is 0 * inf = NaN, as in NumPy.
  Tensor inv = cast(Tensor::scalar(1.0 / static_cast<double>(count)), real_dtype(s.dtype()));
  std::array<Tensor, 2> in{s, inv};
  return call(OpCode::Mul, in);
}

Tensor matmul(const Tensor& a, const Tensor& b) {
  if (a.ndim() < 2 || b.ndim() < 2)
    fail(Status::ShapeMismatch, "matmul needs rank >= 2 operands, got %s and %s",
         format_dims(a.shape()).c_str(), format_dims(b.shape()).c_str());
  if (a.dim(1) != b.dim(0))
    fail(Status::ShapeMismatch, "inner dimensions differ: a is %s and b is %s",
         format_dims(a.shape()).c_str(), format_dims(b.shape()).c_str());
  Dims abatch(a.shape().begin() + 2, a.shape().end()),
      bbatch(b.shape().begin() + 2, b.shape().end());
  std::array<Dims, 2> batches{abatch, bbatch};
  Dims batch = broadcast_shapes(batches);
  Dims ashape{a.dim(0), a.dim(1)}, bshape{b.dim(0), b.dim(1)};
  ashape.insert(ashape.end(), batch.begin(), batch.end());
  bshape.insert(bshape.end(), batch.begin(), batch.end());
  std::array<Tensor, 2> in{broadcast_to(a, ashape), broadcast_to(b, bshape)};
  ops::DotGeneralParams p{{1}, {0}, {}, {}};
  for (int64_t d = 0; d < static_cast<int64_t>(batch.size()); ++d) {
    p.lhs_batch.push_back(d + 2);
    p.rhs_batch.push_back(d + 2);
  }
  // Promote first (the plan), then the explicit broadcasts keep their dtypes.
  return call(OpCode::DotGeneral, in, p);
}

Tensor concatenate(std::span<const Tensor> xs, int64_t axis) {
  if (xs.empty()) fail(Status::InvalidArgument, "needs at least one tensor");
  int64_t a = normalize_axis(axis, xs[0].ndim());
  return call(OpCode::Concatenate, xs, ops::AxisParams{a});
}

Tensor stack(std::span<const Tensor> xs, int64_t axis) {
  if (xs.empty()) fail(Status::InvalidArgument, "needs at least one tensor");
  int64_t a = normalize_axis(axis, xs[0].ndim() + 1);
  std::vector<Tensor> parts;
  parts.reserve(xs.size());
  for (size_t i = 0; i < xs.size(); ++i) {
    if (xs[i].shape() != xs[0].shape())
      fail(Status::ShapeMismatch, "tensor %zu has shape %s but tensor 0 has %s", i,
           format_dims(xs[i].shape()).c_str(), format_dims(xs[0].shape()).c_str());
    Dims shape = xs[i].shape();
    shape.insert(shape.begin() + a, 1);
    std::array<Tensor, 1> in{xs[i]};
    parts.push_back(cpu::execute(OpCode::Reshape, in, ops::ReshapeParams{shape}));
  }
  return call(OpCode::Concatenate, parts, ops::AxisParams{a});
}

Tensor contiguous(const Tensor& t) {
  if (t.is_compact() && t.offset() == 0 && t.storage() && t.storage()->nbytes() == t.nbytes())
    return t;
  Tensor out = Tensor::empty(t.dtype(), t.shape());
  cpu::kernels::copy_into(out, t);
  return out;
}

} // namespace tfe::eager
