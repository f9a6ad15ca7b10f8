// Shape rule of DotGeneral (contraction.hpp).
#include "ops/defs/contraction.hpp"

#include "ops/shape_checks.hpp"

namespace tfe::ops::rules {

Meta dot_general(std::span<const Meta> in, const Params& params) {
  const auto& p = std::get<DotGeneralParams>(params);
  const Meta& l = in[0];
  const Meta& r = in[1];
  if (p.lhs_batch.size() != p.rhs_batch.size() ||
      p.lhs_contracting.size() != p.rhs_contracting.size())
    violated(Status::ShapeMismatch, "C1",
             strformat("lhs has %zu batch and %zu contracting dims but rhs has %zu and %zu",
                       p.lhs_batch.size(), p.lhs_contracting.size(), p.rhs_batch.size(),
                       p.rhs_contracting.size()));
  auto used_axes = [](const Dims& batch, const Dims& contract, const Meta& m, const char* side) {
    Dims all = batch;
    all.insert(all.end(), contract.begin(), contract.end());
    std::string what = std::string(side) + " batch+contracting dims";
    return require_axes(all, static_cast<int64_t>(m.shape.size()), what.c_str(), "C2");
  };
  Dims lused = used_axes(p.lhs_batch, p.lhs_contracting, l, "lhs");
  Dims rused = used_axes(p.rhs_batch, p.rhs_contracting, r, "rhs");
  size_t nb = p.lhs_batch.size();
  Shape batch_extents;
  for (size_t i = 0; i < lused.size(); ++i) {
    Extent le = l.shape[static_cast<size_t>(lused[i])];
    Extent re = r.shape[static_cast<size_t>(rused[i])];
    Extent e = require_eq(le, re, Status::ShapeMismatch, i < nb ? "C3" : "C4",
                          strformat("%s dim %lld of lhs %s and dim %lld of rhs %s",
                                    i < nb ? "batch" : "contracting", (long long)lused[i],
                                    format_shape(l.shape).c_str(), (long long)rused[i],
                                    format_shape(r.shape).c_str()));
    if (i < nb) batch_extents.push_back(e);
  }
  require_same_dtypes(in, {0, 1}, "C5");
  Meta out{l.dtype, {}};
  auto append_free = [&](const Meta& m, const Dims& used) {
    for (size_t d = 0; d < m.shape.size(); ++d) {
      bool is_used = false;
      for (int64_t u : used) is_used |= (u == static_cast<int64_t>(d));
      if (!is_used) out.shape.push_back(m.shape[d]);
    }
  };
  append_free(l, lused);
  append_free(r, rused);
  for (Extent e : batch_extents) out.shape.push_back(e);
  return out;
}

} // namespace tfe::ops::rules
