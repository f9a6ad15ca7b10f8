// Rules of DotGeneral (src/ops/defs/contraction.hpp): bilinear. The JVP contracts each tangent
// with the other (residual) operand; the transpose contracts the cotangent with the conjugated
// residual over the residual's free dims and permutes the result back to the operand's dim order.
#include <algorithm>

#include "ad/rules/rules.hpp"

namespace tfe::ad::rules {

using ops::DotGeneralParams;
using ops::OpCode;

namespace {

Dims free_dims(int64_t rank, const Dims& contracting, const Dims& batch) {
  Dims out;
  for (int64_t d = 0; d < rank; ++d)
    if (std::find(contracting.begin(), contracting.end(), d) == contracting.end() &&
        std::find(batch.begin(), batch.end(), d) == batch.end())
      out.push_back(d);
  return out;
}

// Position of v among the sorted values of `set`.
int64_t rank_in(const Dims& set, int64_t v) {
  int64_t r = 0;
  for (int64_t s : set) r += s < v;
  return r;
}

Dims iota(int64_t from, int64_t n) {
  Dims d;
  for (int64_t i = 0; i < n; ++i) d.push_back(from + i);
  return d;
}

} // namespace

Tangent dot_general_jvp(const JvpArgs& a) {
  Tangent t0, t1;
  if (a.dx[0]) t0 = emit2(OpCode::DotGeneral, *a.dx[0], a.x[1], a.node.params);
  if (a.dx[1]) t1 = emit2(OpCode::DotGeneral, a.x[0], *a.dx[1], a.node.params);
  return add(t0, t1);
}

void dot_general_t(const TransposeArgs& a, std::span<Tangent> out) {
  if (a.linear[0] && a.linear[1])
    fail(Status::Internal, "dot_general of two tangents is not linear and cannot be transposed");
  const auto& p = a.params<DotGeneralParams>();
  const Value& lhs = a.x[0];
  const Value& rhs = a.x[1];
  int64_t rl = static_cast<int64_t>(lhs.meta().shape.size());
  int64_t rr = static_cast<int64_t>(rhs.meta().shape.size());
  Dims lf = free_dims(rl, p.lhs_contracting, p.lhs_batch);
  Dims rf = free_dims(rr, p.rhs_contracting, p.rhs_batch);
  int64_t nf = static_cast<int64_t>(lf.size()), mf = static_cast<int64_t>(rf.size());
  int64_t nb = static_cast<int64_t>(p.lhs_batch.size());
  Dims ct_lf = iota(0, nf), ct_rf = iota(nf, mf), ct_b = iota(nf + mf, nb);
  if (a.linear[0]) {
    // [lf..., rc (sorted)..., batch...] = ct . conj(rhs) over rf, batched.
    Value cl =
        emit2(OpCode::DotGeneral, a.ct, conj(rhs), DotGeneralParams{ct_rf, rf, ct_b, p.rhs_batch});
    Dims perm(static_cast<size_t>(rl));
    for (int64_t j = 0; j < nf; ++j) perm[static_cast<size_t>(lf[static_cast<size_t>(j)])] = j;
    for (size_t i = 0; i < p.lhs_contracting.size(); ++i)
      perm[static_cast<size_t>(p.lhs_contracting[i])] =
          nf + rank_in(p.rhs_contracting, p.rhs_contracting[i]);
    int64_t nc = static_cast<int64_t>(p.lhs_contracting.size());
    for (int64_t k = 0; k < nb; ++k)
      perm[static_cast<size_t>(p.lhs_batch[static_cast<size_t>(k)])] = nf + nc + k;
    out[0] = transpose(cl, perm);
  }
  if (a.linear[1]) {
    // [lc (sorted)..., rf..., batch...] = conj(lhs) . ct over lf, batched.
    Value cr =
        emit2(OpCode::DotGeneral, conj(lhs), a.ct, DotGeneralParams{lf, ct_lf, p.lhs_batch, ct_b});
    Dims perm(static_cast<size_t>(rr));
    int64_t nc = static_cast<int64_t>(p.rhs_contracting.size());
    for (size_t i = 0; i < p.rhs_contracting.size(); ++i)
      perm[static_cast<size_t>(p.rhs_contracting[i])] =
          rank_in(p.lhs_contracting, p.lhs_contracting[i]);
    for (int64_t j = 0; j < mf; ++j) perm[static_cast<size_t>(rf[static_cast<size_t>(j)])] = nc + j;
    for (int64_t k = 0; k < nb; ++k)
      perm[static_cast<size_t>(p.rhs_batch[static_cast<size_t>(k)])] = nc + mf + k;
    out[1] = transpose(cr, perm);
  }
}

} // namespace tfe::ad::rules
