// Rules of the structural group (src/ops/defs/structural.hpp). Everything here is linear: the
// JVP applies the op to the tangents (linear_jvp), and each transpose undoes the data movement.
// Convert cuts the derivative to and from Bool and integers (docs/design/ad-contract.md).
#include <algorithm>

#include "ad/rules/rules.hpp"

namespace tfe::ad::rules {

using ops::OpCode;

Tangent linear_jvp(const JvpArgs& a) {
  bool any = false;
  for (const Tangent& t : a.dx) any |= t.has_value();
  if (!any) return std::nullopt;
  std::vector<Value> in;
  for (size_t i = 0; i < a.x.size(); ++i) in.push_back(a.dx[i] ? *a.dx[i] : zeros_like(a.x[i]));
  return graph::emit(a.node.op, in, a.node.params);
}

Tangent convert_jvp(const JvpArgs& a) {
  DType from = a.x[0].meta().dtype, to = a.y.meta().dtype;
  if (!a.dx[0] || !is_inexact(from) || !is_inexact(to)) return std::nullopt;
  return convert(*a.dx[0], to); // complex -> real keeps the real part, real -> complex adds 0i
}

void convert_t(const TransposeArgs& a, std::span<Tangent> out) {
  DType from = a.x[0].meta().dtype;
  Value ct = a.ct;
  if (is_complex(ct.meta().dtype) && !is_complex(from)) ct = real(ct); // real leaf: Re(ct)
  if (!is_complex(ct.meta().dtype) && is_complex(from))
    ct = convert(convert(ct, real_dtype(from)), from); // Re^T: ct + 0i
  out[0] = convert(ct, from);
}

void transfer_t(const TransposeArgs& a, std::span<Tangent> out) {
  const auto& p = a.params<ops::TransferParams>();
  out[0] = emit1(OpCode::Transfer, a.ct, ops::TransferParams{p.to, p.from});
}

void transpose_t(const TransposeArgs& a, std::span<Tangent> out) {
  const Dims& perm = a.params<ops::TransposeParams>().perm;
  Dims inverse(perm.size());
  for (size_t i = 0; i < perm.size(); ++i)
    inverse[static_cast<size_t>(perm[i])] = static_cast<int64_t>(i);
  out[0] = transpose(a.ct, inverse);
}

void reshape_t(const TransposeArgs& a, std::span<Tangent> out) {
  out[0] = reshape(a.ct, a.x[0].meta().shape);
}

// Sum over the dims the broadcast created or expanded, then restore the operand's dim order and
// its extents of 1.
void broadcast_in_dim_t(const TransposeArgs& a, std::span<Tangent> out) {
  const auto& p = a.params<ops::BroadcastInDimParams>();
  const Shape& xs = a.x[0].meta().shape;
  size_t out_rank = p.shape.size();
  std::vector<bool> summed(out_rank, true);
  std::vector<int64_t> kept_operand; // operand dims that survive, by increasing output dim
  for (size_t i = 0; i < p.dims.size(); ++i) {
    size_t od = static_cast<size_t>(p.dims[i]);
    bool expanded = xs[i] == Extent(1) && !(p.shape[od] == Extent(1));
    if (!expanded) {
      summed[od] = false;
      kept_operand.push_back(static_cast<int64_t>(i));
    }
  }
  Dims axes;
  for (size_t d = 0; d < out_rank; ++d)
    if (summed[d]) axes.push_back(static_cast<int64_t>(d));
  Value r = reduce_sum(a.ct, axes);
  std::sort(kept_operand.begin(), kept_operand.end(), [&](int64_t u, int64_t v) {
    return p.dims[static_cast<size_t>(u)] < p.dims[static_cast<size_t>(v)];
  });
  // r's dim k is operand dim kept_operand[k]; bring them to increasing operand order.
  Dims perm(kept_operand.size());
  std::vector<int64_t> by_operand = kept_operand;
  std::sort(by_operand.begin(), by_operand.end());
  for (size_t j = 0; j < by_operand.size(); ++j)
    perm[j] =
        std::find(kept_operand.begin(), kept_operand.end(), by_operand[j]) - kept_operand.begin();
  out[0] = reshape(transpose(r, perm), xs);
}

void reverse_t(const TransposeArgs& a, std::span<Tangent> out) {
  out[0] = emit1(OpCode::Reverse, a.ct, a.node.params);
}

// The diagonal's cotangent on an n x n diagonal (n = min of the two extents), zero-padded back
// to the operand's extents.
void extract_diag_t(const TransposeArgs& a, std::span<Tangent> out) {
  const auto& p = a.params<ops::DiagParams>();
  const Shape& xs = a.x[0].meta().shape;
  Value e = emit1(OpCode::EmbedDiag, a.ct, p);
  Extent n = min_extent(xs[static_cast<size_t>(p.axis_a)], xs[static_cast<size_t>(p.axis_b)]);
  Shape low(xs.size(), 0), high(xs.size(), 0);
  high[static_cast<size_t>(p.axis_a)] = xs[static_cast<size_t>(p.axis_a)] - n;
  high[static_cast<size_t>(p.axis_b)] = xs[static_cast<size_t>(p.axis_b)] - n;
  bool pad = !(high[static_cast<size_t>(p.axis_a)] == Extent(0)) ||
             !(high[static_cast<size_t>(p.axis_b)] == Extent(0));
  out[0] = pad ? emit1(OpCode::Pad, e, ops::PadParams{low, high, Dims(xs.size(), 0)}) : e;
}

void embed_diag_t(const TransposeArgs& a, std::span<Tangent> out) {
  out[0] = emit1(OpCode::ExtractDiag, a.ct, a.node.params);
}

void triangle_t(const TransposeArgs& a, std::span<Tangent> out) {
  out[0] = emit1(a.node.op, a.ct, a.node.params); // the masks are self-adjoint
}

} // namespace tfe::ad::rules
