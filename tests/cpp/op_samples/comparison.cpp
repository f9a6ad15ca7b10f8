// Samples and reference results of comparison and selection (src/ops/defs/comparison.hpp).
#include <cmath>
#include <limits>

#include "op_samples/op_samples.hpp"

namespace tfe::testing {
namespace {

using ops::CompareDir;

bool compare_ref(CompareDir dir, Scalar a, Scalar b) {
  switch (dir) {
  case CompareDir::Eq: return a == b;
  case CompareDir::Ne: return a != b;
  case CompareDir::Lt: return a.real() < b.real();
  case CompareDir::Le: return a.real() <= b.real();
  case CompareDir::Gt: return a.real() > b.real();
  case CompareDir::Ge: return a.real() >= b.real();
  }
  return false;
}

// One sample set per direction (complex rows only for eq/ne), concatenated.
OpSamples compare_samples() {
  OpSamples s;
  std::vector<OpSamples> per_dir;
  for (int k = 0; k <= 5; ++k) {
    CompareDir dir = static_cast<CompareDir>(k);
    per_dir.push_back(
        elementwise_samples({Domain::Any, Domain::Any},
                            {[dir](const std::vector<Scalar>& v, DType) {
                               return Scalar(compare_ref(dir, v[0], v[1]) ? 1.0 : 0.0);
                             },
                             [dir](const std::vector<int64_t>& v, DType) {
                               return int64_t{compare_ref(dir, Scalar(static_cast<double>(v[0])),
                                                          Scalar(static_cast<double>(v[1])))};
                             }},
                            ops::CompareParams{dir}));
  }
  s.make = [per_dir](DType d) {
    std::vector<Sample> out;
    for (int k = 0; k <= 5; ++k) {
      if (is_complex(d) && k >= 2) continue;
      for (auto& smp : per_dir[static_cast<size_t>(k)].make(d)) {
        smp.label += "_" + std::string(ops::compare_dir_name(static_cast<CompareDir>(k)));
        out.push_back(smp);
      }
    }
    return out;
  };
  s.reference = [](const Sample& smp, const ops::ConcreteMeta& out) {
    auto dir = std::get<ops::CompareParams>(smp.params).dir;
    bool exact_ints = !is_inexact(smp.inputs[0].dtype());
    return build_int(out, [&](const Dims& idx) {
      if (exact_ints) {
        int64_t a = int_at(smp.inputs[0], idx), b = int_at(smp.inputs[1], idx);
        switch (dir) {
        case CompareDir::Eq: return int64_t{a == b};
        case CompareDir::Ne: return int64_t{a != b};
        case CompareDir::Lt: return int64_t{a < b};
        case CompareDir::Le: return int64_t{a <= b};
        case CompareDir::Gt: return int64_t{a > b};
        case CompareDir::Ge: return int64_t{a >= b};
        }
      }
      return int64_t{compare_ref(dir, value_at(smp.inputs[0], idx), value_at(smp.inputs[1], idx))};
    });
  };
  s.errors = [] {
    auto e = elementwise_errors(2, DType::F64, DType::F32);
    for (auto& x : e) x.params = ops::CompareParams{CompareDir::Eq};
    e.push_back({"C3",
                 {Tensor::zeros(DType::C64, {2}), Tensor::zeros(DType::C64, {2})},
                 ops::CompareParams{CompareDir::Lt},
                 Status::DtypeMismatch,
                 "direction lt is not defined for C64"});
    return e;
  };
  return s;
}

} // namespace

std::optional<OpSamples> comparison_samples(ops::OpCode op) {
  using ops::OpCode;
  using V = std::vector<Scalar>;
  using I = std::vector<int64_t>;
  switch (op) {
  case OpCode::Compare: return compare_samples();
  case OpCode::Select: {
    OpSamples s =
        elementwise_samples({Domain::Any, Domain::Any, Domain::Any},
                            {[](const V& v, DType) { return v[0].real() != 0 ? v[1] : v[2]; },
                             [](const I& v, DType) { return v[0] != 0 ? v[1] : v[2]; }});
    auto make = s.make;
    s.make = [make](DType d) {
      auto v = make(d);
      for (auto& smp : v) smp.inputs[0] = random_tensor(DType::Bool, smp.inputs[0].shape(), 99);
      return v;
    };
    s.reference = [](const Sample& smp, const ops::ConcreteMeta& out) {
      if (!is_inexact(out.dtype))
        return build_int(out, [&](const Dims& idx) {
          return int_at(smp.inputs[0], idx) ? int_at(smp.inputs[1], idx)
                                            : int_at(smp.inputs[2], idx);
        });
      return build(out, [&](const Dims& idx) {
        return int_at(smp.inputs[0], idx) ? value_at(smp.inputs[1], idx)
                                          : value_at(smp.inputs[2], idx);
      });
    };
    s.errors = [] {
      std::vector<ErrorSample> e;
      e.push_back({"C1",
                   {Tensor::zeros(DType::F64, {2}), Tensor::zeros(DType::F64, {2}),
                    Tensor::zeros(DType::F64, {2})},
                   ops::NoParams{},
                   Status::DtypeMismatch,
                   "predicate is F64"});
      e.push_back({"C2",
                   {Tensor::zeros(DType::Bool, {3}), Tensor::zeros(DType::F64, {2}),
                    Tensor::zeros(DType::F64, {2})},
                   ops::NoParams{},
                   Status::ShapeMismatch,
                   "operand 1 has shape [2]"});
      e.push_back({"C3",
                   {Tensor::zeros(DType::Bool, {2}), Tensor::zeros(DType::F64, {2}),
                    Tensor::zeros(DType::F32, {2})},
                   ops::NoParams{},
                   Status::DtypeMismatch,
                   "operand 2 is F32"});
      return e;
    };
    return s;
  }
  case OpCode::Clamp: {
    auto clamp = [](Scalar x, Scalar lo, Scalar hi) {
      const double nan = std::numeric_limits<double>::quiet_NaN();
      if (std::isnan(x.real()) || std::isnan(lo.real()) || std::isnan(hi.real()))
        return Scalar(nan);
      double m = std::max(x.real(), lo.real());
      return Scalar(std::min(m, hi.real()));
    };
    OpSamples s = elementwise_samples(
        {Domain::Any, Domain::Any, Domain::Any},
        {[clamp](const V& v, DType) { return clamp(v[0], v[1], v[2]); },
         [](const I& v, DType) { return std::min(std::max(v[0], v[1]), v[2]); }});
    s.errors = [] { return elementwise_errors(3, DType::F64, DType::F32); };
    return s;
  }
  default: return std::nullopt;
  }
}

} // namespace tfe::testing
