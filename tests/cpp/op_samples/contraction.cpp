// Samples and reference results of DotGeneral (src/ops/defs/contraction.hpp).
#include "op_samples/op_samples.hpp"

namespace tfe::testing {
namespace {

using ops::DotGeneralParams;

// Naive contraction: out[free_l..., free_r..., batch...] = sum over the contracting index.
Tensor dot_reference(const Sample& s, const ops::ConcreteMeta& out) {
  const Tensor& l = s.inputs[0];
  const Tensor& r = s.inputs[1];
  const auto& p = std::get<DotGeneralParams>(s.params);
  auto free_of = [](const Tensor& t, const Dims& a, const Dims& b) {
    Dims f;
    for (int64_t d = 0; d < t.ndim(); ++d)
      if (std::find(a.begin(), a.end(), d) == a.end() &&
          std::find(b.begin(), b.end(), d) == b.end())
        f.push_back(d);
    return f;
  };
  Dims lf = free_of(l, p.lhs_contracting, p.lhs_batch),
       rf = free_of(r, p.rhs_contracting, p.rhs_batch);
  Dims kshape;
  for (int64_t d : p.lhs_contracting) kshape.push_back(l.dim(d));
  bool integral = !is_inexact(out.dtype);
  auto at_l = [&](const Dims& oi, const Dims& ki) {
    Dims li(static_cast<size_t>(l.ndim()));
    for (size_t i = 0; i < lf.size(); ++i) li[static_cast<size_t>(lf[i])] = oi[i];
    for (size_t i = 0; i < p.lhs_batch.size(); ++i)
      li[static_cast<size_t>(p.lhs_batch[i])] = oi[lf.size() + rf.size() + i];
    for (size_t i = 0; i < ki.size(); ++i) li[static_cast<size_t>(p.lhs_contracting[i])] = ki[i];
    return li;
  };
  auto at_r = [&](const Dims& oi, const Dims& ki) {
    Dims ri(static_cast<size_t>(r.ndim()));
    for (size_t i = 0; i < rf.size(); ++i) ri[static_cast<size_t>(rf[i])] = oi[lf.size() + i];
    for (size_t i = 0; i < p.rhs_batch.size(); ++i)
      ri[static_cast<size_t>(p.rhs_batch[i])] = oi[lf.size() + rf.size() + i];
    for (size_t i = 0; i < ki.size(); ++i) ri[static_cast<size_t>(p.rhs_contracting[i])] = ki[i];
    return ri;
  };
  if (integral)
    return build_int(out, [&](const Dims& oi) {
      int64_t acc = 0;
      for_each_index(kshape, [&](const Dims& ki) {
        acc += int_at(l, at_l(oi, ki)) * int_at(r, at_r(oi, ki));
      });
      return wrap_to(out.dtype, acc);
    });
  return build(out, [&](const Dims& oi) {
    Scalar acc = 0;
    for_each_index(kshape, [&](const Dims& ki) {
      acc += value_at(l, at_l(oi, ki)) * value_at(r, at_r(oi, ki));
    });
    return acc;
  });
}

} // namespace

std::optional<OpSamples> contraction_samples(ops::OpCode op) {
  if (op != ops::OpCode::DotGeneral) return std::nullopt;
  OpSamples s;
  s.make = [](DType d) {
    auto t = [&](Dims shape, uint64_t seed) { return random_tensor(d, shape, seed); };
    std::vector<Sample> v;
    v.push_back({"matmul", {t({3, 4}, 1), t({4, 5}, 2)}, DotGeneralParams{{1}, {0}, {}, {}}});
    v.push_back(
        {"lhs_transposed", {t({4, 3}, 3), t({4, 5}, 4)}, DotGeneralParams{{0}, {0}, {}, {}}});
    v.push_back(
        {"rhs_transposed", {t({3, 4}, 5), t({5, 4}, 6)}, DotGeneralParams{{1}, {1}, {}, {}}});
    v.push_back(
        {"batched", {t({2, 3, 4}, 7), t({3, 2, 4}, 8)}, DotGeneralParams{{1}, {0}, {2}, {2}}});
    v.push_back(
        {"batch_first", {t({4, 2, 3}, 9), t({4, 3, 2}, 10)}, DotGeneralParams{{2}, {1}, {0}, {0}}});
    v.push_back({"two_contracting",
                 {t({2, 3, 4}, 11), t({4, 3, 5}, 12)},
                 DotGeneralParams{{1, 2}, {1, 0}, {}, {}}});
    v.push_back({"inner_product", {t({6}, 13), t({6}, 14)}, DotGeneralParams{{0}, {0}, {}, {}}});
    v.push_back({"outer_product", {t({3}, 15), t({2}, 16)}, DotGeneralParams{{}, {}, {}, {}}});
    v.push_back({"matrix_vector", {t({3, 4}, 17), t({4}, 18)}, DotGeneralParams{{1}, {0}, {}, {}}});
    v.push_back({"zero_k", {t({3, 0}, 19), t({0, 2}, 20)}, DotGeneralParams{{1}, {0}, {}, {}}});
    v.push_back({"zero_m", {t({0, 4}, 21), t({4, 2}, 22)}, DotGeneralParams{{1}, {0}, {}, {}}});
    Tensor rank0 = t({}, 23);
    v.push_back({"scalar", {rank0, t({3}, 24)}, DotGeneralParams{{}, {}, {}, {}}});
    return v;
  };
  s.reference = dot_reference;
  s.rtol_scale = 10;
  s.layout_exact = false;
  s.errors = [] {
    Tensor a = Tensor::zeros(DType::F64, {2, 3}), b = Tensor::zeros(DType::F64, {3, 4});
    Tensor c = Tensor::zeros(DType::F64, {4, 4}), a32 = Tensor::zeros(DType::F32, {2, 3});
    Tensor ba = Tensor::zeros(DType::F64, {2, 3, 2}), bb = Tensor::zeros(DType::F64, {3, 2, 5});
    return std::vector<ErrorSample>{
        {"C1",
         {a, b},
         DotGeneralParams{{1}, {}, {}, {}},
         Status::ShapeMismatch,
         "contracting dims but rhs has"},
        {"C2", {a, b}, DotGeneralParams{{2}, {0}, {}, {}}, Status::InvalidArgument, "out of range"},
        {"C2", {a, b}, DotGeneralParams{{1, 1}, {0, 1}, {}, {}}, Status::InvalidArgument, "twice"},
        {"C3",
         {ba, bb},
         DotGeneralParams{{1}, {0}, {2}, {2}},
         Status::ShapeMismatch,
         "batch dim 2"},
        {"C4",
         {a, c},
         DotGeneralParams{{1}, {0}, {}, {}},
         Status::ShapeMismatch,
         "contracting dim 1"},
        {"C5",
         {a32, b},
         DotGeneralParams{{1}, {0}, {}, {}},
         Status::DtypeMismatch,
         "operand 1 is F64"},
    };
  };
  return s;
}

} // namespace tfe::testing
