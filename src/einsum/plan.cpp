// Lowering an einsum to a plan of ops (plan.hpp).
#include "einsum/plan.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace tfe::einsum {

namespace {

bool contains(const std::vector<int>& v, int x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// Diagonals, squeezes and sums of one operand; its labels are updated to the prepared ones.
OperandPrep prepare(const Problem& pr, std::vector<int>& labels, Shape& shape) {
  OperandPrep op;
  // A repeated index keeps one dim: its diagonal (ExtractDiag keeps axis_a, drops axis_b).
  for (bool again = true; again;) {
    again = false;
    for (size_t a = 0; a < labels.size() && !again; ++a)
      for (size_t b = a + 1; b < labels.size() && !again; ++b)
        if (labels[a] == labels[b]) {
          op.diags.emplace_back(static_cast<int64_t>(a), static_cast<int64_t>(b));
          labels.erase(labels.begin() + static_cast<std::ptrdiff_t>(b));
          shape.erase(shape.begin() + static_cast<std::ptrdiff_t>(b));
          again = true;
        }
  }
  // An extent of 1 against a larger one broadcasts: the operand is constant along that index,
  // so the dim is dropped and the index is carried by the other operands.
  std::vector<int> kept_labels;
  Shape kept_shape;
  for (size_t d = 0; d < labels.size(); ++d) {
    bool broadcast = shape[d] == Extent(1) && !(pr.extent[static_cast<size_t>(labels[d])] == 1);
    if (broadcast) {
      op.squeeze = true;
    } else {
      kept_labels.push_back(labels[d]);
      kept_shape.push_back(shape[d]);
    }
  }
  if (op.squeeze) {
    op.squeezed = kept_shape;
    labels = kept_labels;
    shape = kept_shape;
  }
  return op;
}

// The labels of a product step's result, summed labels (extent 1) gone. The elementwise loop runs
// along the result's first dim, so the operands' shared leading label comes first: the output's
// order at the last step when the output starts with a shared label (the product then writes the
// einsum's result and no transpose follows), else the shared labels, then a's others, then b's
// (a final transpose view restores the output order).
std::vector<int> product_labels(const Problem& pr, const std::vector<int>& a,
                                const std::vector<int>& b, const std::vector<int>& keep,
                                bool last) {
  auto shared = [&](int l) { return contains(a, l) && contains(b, l) && contains(keep, l); };
  if (last && !pr.output.empty() && shared(pr.output.front())) return pr.output;
  std::vector<int> result;
  for (int l : a)
    if (shared(l)) result.push_back(l);
  for (const std::vector<int>* side : {&a, &b})
    for (int l : *side)
      if (contains(keep, l) && !contains(result, l)) result.push_back(l);
  return result;
}

// One operand of a product step: its dims whose label the result lacks (summed, extent 1) are
// reshaped away, the rest broadcast to the result's shape (a view: nothing is copied).
Widen widen(const Problem& pr, const std::vector<int>& labels, const std::vector<int>& result) {
  Widen w;
  Dims dims;
  for (int l : labels) {
    auto pos = std::find(result.begin(), result.end(), l);
    if (pos == result.end()) {
      w.reshape = true;
      continue;
    }
    w.reshaped.push_back(pr.extent[static_cast<size_t>(l)]);
    dims.push_back(static_cast<int64_t>(pos - result.begin()));
  }
  if (!w.reshape) w.reshaped.clear();
  bool identity = dims.size() == result.size();
  for (size_t d = 0; d < dims.size() && identity; ++d)
    identity = dims[d] == static_cast<int64_t>(d);
  if (!identity) {
    w.broadcast = true;
    for (int l : result) w.to.shape.push_back(pr.extent[static_cast<size_t>(l)]);
    w.to.dims = dims;
  }
  return w;
}

} // namespace

int64_t Plan::bytes() const {
  int64_t n = static_cast<int64_t>(sizeof(Plan));
  for (const OperandPrep& p : prep)
    n += static_cast<int64_t>(sizeof(OperandPrep) + 16 * p.diags.size() + 8 * p.squeezed.size() +
                              8 * p.sums.size());
  n += static_cast<int64_t>((sizeof(Step) + 64) * steps.size() + 8 * perm.size());
  for (const Step& st : steps)
    for (const Widen* w : {&st.widen_i, &st.widen_j})
      n += static_cast<int64_t>(8 * (w->reshaped.size() + w->to.shape.size() + w->to.dims.size()));
  return n;
}

Plan make_plan(std::string_view subscripts, std::span<const Shape> shapes) {
  Problem pr = resolve(parse(subscripts, shapes.size()), shapes);
  size_t n = shapes.size();
  Plan plan;
  std::vector<std::vector<int>> labels = pr.operands;
  std::vector<Shape> shape(shapes.begin(), shapes.end());
  for (size_t k = 0; k < n; ++k) plan.prep.push_back(prepare(pr, labels[k], shape[k]));

  // Indices only one operand has and the output lacks are summed in that operand at once.
  for (size_t k = 0; k < n; ++k) {
    std::vector<int> kept;
    for (size_t d = 0; d < labels[k].size(); ++d) {
      int l = labels[k][d];
      bool elsewhere = contains(pr.output, l);
      for (size_t m = 0; m < n && !elsewhere; ++m) elsewhere = m != k && contains(labels[m], l);
      if (elsewhere) {
        kept.push_back(l);
      } else {
        plan.prep[k].sums.push_back(static_cast<int64_t>(d));
      }
    }
    labels[k] = kept;
  }

  PathProblem pp;
  for (const std::vector<int>& ls : labels) {
    LabelSet s;
    for (int l : ls) s.set(static_cast<size_t>(l));
    pp.inputs.push_back(s);
  }
  for (int l : pr.output) pp.output.set(static_cast<size_t>(l));
  for (Extent e : pr.extent)
    pp.extent.push_back(e.is_const() ? static_cast<double>(e.value()) : kSymbolicExtentCost);
  plan.path = choose_path(pp);

  // The pairwise steps as dot_generals, tracking the labels of every current operand.
  for (auto [i, j] : plan.path.pairs) {
    Step st;
    st.i = i;
    st.j = j;
    std::vector<int> a = labels[static_cast<size_t>(i)], b = labels[static_cast<size_t>(j)];
    std::vector<int> keep = pr.output;
    for (size_t m = 0; m < labels.size(); ++m)
      if (m != static_cast<size_t>(i) && m != static_cast<size_t>(j))
        keep.insert(keep.end(), labels[m].begin(), labels[m].end());
    auto drop_unneeded = [&](std::vector<int>& mine, const std::vector<int>& theirs, Dims& sums) {
      std::vector<int> rest;
      for (size_t d = 0; d < mine.size(); ++d) {
        if (!contains(theirs, mine[d]) && !contains(keep, mine[d])) {
          sums.push_back(static_cast<int64_t>(d));
        } else {
          rest.push_back(mine[d]);
        }
      }
      mine = rest;
    };
    drop_unneeded(a, b, st.sum_i);
    drop_unneeded(b, a, st.sum_j);
    // A product when the step sums no index of extent above 1 and both operands lead with the same
    // kept index (a batch index): the elementwise loop runs along it, which is contiguous in both
    // operands when they are compact. Otherwise it would run along a dim one operand broadcasts
    // (stride 0) or that strides through both, where gemm's kernels (a rank-1 gemm per batch
    // element) are faster.
    bool multiply = true;
    int lead_a = -1, lead_b = -1;
    for (int l : a) {
      if (contains(keep, l)) {
        if (lead_a < 0) lead_a = l;
      } else if (contains(b, l)) {
        multiply &= pr.extent[static_cast<size_t>(l)] == Extent(1);
      }
    }
    for (int l : b)
      if (contains(keep, l) && lead_b < 0) lead_b = l;
    multiply &= lead_a >= 0 && lead_a == lead_b;
    if (multiply) {
      st.kind = StepKind::Multiply;
      std::vector<int> result = product_labels(pr, a, b, keep, labels.size() == 2);
      st.widen_i = widen(pr, a, result);
      st.widen_j = widen(pr, b, result);
      labels.erase(labels.begin() + j);
      labels.erase(labels.begin() + i);
      labels.push_back(result);
      plan.steps.push_back(st);
      continue;
    }
    std::vector<int> result, batch;
    for (size_t d = 0; d < a.size(); ++d) {
      auto in_b = std::find(b.begin(), b.end(), a[d]);
      if (in_b == b.end()) {
        result.push_back(a[d]);
        continue;
      }
      auto pos = static_cast<int64_t>(in_b - b.begin());
      if (contains(keep, a[d])) {
        st.dot.lhs_batch.push_back(static_cast<int64_t>(d));
        st.dot.rhs_batch.push_back(pos);
        batch.push_back(a[d]);
      } else {
        st.dot.lhs_contracting.push_back(static_cast<int64_t>(d));
        st.dot.rhs_contracting.push_back(pos);
      }
    }
    for (int l : b)
      if (!contains(a, l)) result.push_back(l);
    result.insert(result.end(), batch.begin(), batch.end());
    labels.erase(labels.begin() + j);
    labels.erase(labels.begin() + i);
    labels.push_back(result);
    plan.steps.push_back(st);
  }

  const std::vector<int>& last = labels.front();
  if (last.size() != pr.output.size())
    fail(Status::Internal, "einsum \"%s\": %zu result dims for %zu output indices", pr.text.c_str(),
         last.size(), pr.output.size());
  bool identity = true;
  for (size_t d = 0; d < pr.output.size(); ++d) {
    auto pos = std::find(last.begin(), last.end(), pr.output[d]) - last.begin();
    plan.perm.push_back(static_cast<int64_t>(pos));
    identity &= pos == static_cast<std::ptrdiff_t>(d);
  }
  if (identity) plan.perm.clear();
  return plan;
}

} // namespace tfe::einsum
