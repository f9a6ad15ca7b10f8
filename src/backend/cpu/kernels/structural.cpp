// CPU kernels of the structural group (ops/defs/structural.hpp). Transpose, broadcast, reverse,
// extract_diag and reshape (when the layout allows) are views: tensors are immutable, so sharing
// storage is safe and costs nothing.
#include <cstring>

#include "backend/cpu/kernels/elementwise.hpp"
#include "backend/cpu/strided_copy.hpp"
#include "backend/cpu/kernels/kernels.hpp"
#include "backend/cpu/kernels/scalar_math.hpp"

namespace tfe::cpu::kernels {
namespace {

using ops::OpCode;

template <bool Lower> Tensor triangle(const Tensor& x, int64_t k, const ops::ConcreteMeta& m) {
  Tensor out = Tensor::empty(m.dtype, m.shape);
  copy_into(out, x);
  int64_t rows = m.shape[0], cols = m.shape[1];
  // Only k's position relative to the matrix matters: beyond [-rows, cols] every k gives the same
  // result, and clamping keeps j - k below from overflowing for extreme k.
  k = std::clamp(k, -rows, cols);
  // Nothing to zero without elements (and rows * cols may not be representable then).
  if (out.numel() == 0) return out;
  int64_t batch = out.numel() / (rows * cols);
  int64_t isz = itemsize(m.dtype);
  std::byte* base = out.raw_data();
  for (int64_t bi = 0; bi < batch; ++bi)
    for (int64_t j = 0; j < cols; ++j) {
      // Lower keeps rows i >= j - k; upper keeps rows i <= j - k.
      int64_t lo = Lower ? 0 : std::max<int64_t>(0, std::min(rows, j - k + 1));
      int64_t hi = Lower ? std::max<int64_t>(0, std::min(rows, j - k)) : rows;
      if (hi > lo)
        std::memset(base + ((bi * cols + j) * rows + lo) * isz, 0,
                    static_cast<size_t>((hi - lo) * isz));
    }
  return out;
}

} // namespace

// b removed, a's stride becomes s_a + s_b.
Tensor diagonal_view(const Tensor& t, int64_t a, int64_t b) {
  Dims shape, strides;
  for (int64_t d = 0; d < t.ndim(); ++d) {
    if (d == b) continue;
    if (d == a) {
      shape.push_back(std::min(t.dim(a), t.dim(b)));
      strides.push_back(t.stride(a) + t.stride(b));
    } else {
      shape.push_back(t.dim(d));
      strides.push_back(t.stride(d));
    }
  }
  return t.with_layout(std::move(shape), std::move(strides), t.offset());
}

void copy_into(const Tensor& dst, const Tensor& src) { strided_copy(dst, src); }

Tensor convert_to(const Tensor& t, DType to) {
  Tensor out = Tensor::empty(to, t.shape());
  visit_dtype(t.dtype(), [&](auto from_tag) {
    using From = typename decltype(from_tag)::type;
    visit_dtype(to, [&](auto to_tag) {
      using To = typename decltype(to_tag)::type;
      Map<To, From>::run([](From v) { return cast_value<To>(v); }, kGrainCheap, out, t);
    });
  });
  return out;
}

Tensor transpose(Operands in, const ops::Params& p, const ops::ConcreteMeta&) {
  return in[0].permuted(std::get<ops::TransposeParams>(p).perm);
}

Tensor reshape(Operands in, const ops::Params&, const ops::ConcreteMeta& m) {
  if (auto view = in[0].reshaped_view(m.shape)) return *view;
  Tensor compact = Tensor::empty(in[0].dtype(), in[0].shape());
  copy_into(compact, in[0]);
  return compact.with_layout(m.shape, compact_strides(m.shape), 0);
}

Tensor broadcast_in_dim(Operands in, const ops::Params& p, const ops::ConcreteMeta& m) {
  // The one view with more elements than its operand: the per-tensor limit applies to it as to
  // an allocation, or a view of a scalar could make a later kernel loop 2^62 times.
  checked_numel(m.shape);
  return in[0].broadcast_view(m.shape, std::get<ops::BroadcastInDimParams>(p).dims);
}

Tensor convert(Operands in, const ops::Params&, const ops::ConcreteMeta& m) {
  return convert_to(in[0], m.dtype);
}

Tensor reverse(Operands in, const ops::Params& p, const ops::ConcreteMeta&) {
  return in[0].reversed(std::get<ops::AxesParams>(p).axes);
}

Tensor extract_diag(Operands in, const ops::Params& p, const ops::ConcreteMeta&) {
  const auto& d = std::get<ops::DiagParams>(p);
  return diagonal_view(in[0], d.axis_a, d.axis_b);
}

Tensor embed_diag(Operands in, const ops::Params& p, const ops::ConcreteMeta& m) {
  const auto& d = std::get<ops::DiagParams>(p);
  Tensor out = Tensor::zeros(m.dtype, m.shape);
  copy_into(diagonal_view(out, d.axis_a, d.axis_b), in[0]);
  return out;
}

Tensor tril(Operands in, const ops::Params& p, const ops::ConcreteMeta& m) {
  return triangle<true>(in[0], std::get<ops::TriangleParams>(p).k, m);
}

Tensor triu(Operands in, const ops::Params& p, const ops::ConcreteMeta& m) {
  return triangle<false>(in[0], std::get<ops::TriangleParams>(p).k, m);
}

Tensor iota(Operands, const ops::Params& p, const ops::ConcreteMeta& m) {
  const auto& ip = std::get<ops::IotaParams>(p);
  Tensor out = Tensor::empty(m.dtype, m.shape);
  int64_t stride = out.stride(ip.axis), extent = m.shape[static_cast<size_t>(ip.axis)];
  dispatch_accepted<OpCode::Iota>(m.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = out.data<T>();
    int64_t n = out.numel();
    for (int64_t i = 0; i < n; ++i) o[i] = cast_value<T>((i / stride) % extent);
  });
  return out;
}

} // namespace tfe::cpu::kernels
