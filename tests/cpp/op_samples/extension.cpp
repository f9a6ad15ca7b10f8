// Samples of the Extension row (src/ops/defs/extension.hpp): the generic matrices (forward,
// strided layouts, tracing, the AD matrix with second order) run over the single-output
// triangular_solve in every variant. The other linalg ops, whose outputs have gauges or whose
// inputs need structure, are covered by test_linalg.cpp and test_linalg_ad.cpp.
#include "linalg/ops.hpp"
#include "op_samples/op_samples.hpp"

namespace tfe::testing {
namespace {

using linalg::Trans;
using linalg::TriangularOptions;
using Matrix = std::vector<std::vector<Scalar>>;

// Solves M x = b for every column of b by Gaussian elimination with partial pivoting.
Matrix dense_solve(Matrix m, Matrix b) {
  size_t n = m.size(), k = b.empty() ? 0 : b[0].size();
  for (size_t c = 0; c < n; ++c) {
    size_t p = c;
    for (size_t r = c + 1; r < n; ++r)
      if (std::abs(m[r][c]) > std::abs(m[p][c])) p = r;
    std::swap(m[c], m[p]);
    std::swap(b[c], b[p]);
    for (size_t r = c + 1; r < n; ++r) {
      Scalar f = m[r][c] / m[c][c];
      for (size_t j = c; j < n; ++j) m[r][j] -= f * m[c][j];
      for (size_t j = 0; j < k; ++j) b[r][j] -= f * b[c][j];
    }
  }
  for (size_t c = n; c-- > 0;)
    for (size_t j = 0; j < k; ++j) {
      Scalar s = b[c][j];
      for (size_t i = c + 1; i < n; ++i) s -= m[c][i] * b[i][j];
      b[c][j] = s / m[c][c];
    }
  return b;
}

Tensor triangular_reference(const Sample& s, const ops::ConcreteMeta& out) {
  TriangularOptions o = linalg::triangular_options(std::get<ops::ExtensionParams>(s.params));
  const Tensor &a = s.inputs[0], &b = s.inputs[1];
  int64_t n = a.dim(0), rows = b.dim(0), cols = b.dim(1);
  Dims batch(a.shape().begin() + 2, a.shape().end());
  Tensor result = Tensor::empty(out.dtype, out.shape);
  for_each_index(batch, [&](const Dims& bi) {
    auto at = [&](const Tensor& t, int64_t i, int64_t j) {
      Dims idx{i, j};
      idx.insert(idx.end(), bi.begin(), bi.end());
      return value_at(t, idx);
    };
    // op(T) with T the triangle read (unit diagonal taken as 1)
    Matrix m(static_cast<size_t>(n), std::vector<Scalar>(static_cast<size_t>(n)));
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) {
        bool in = o.upper ? j >= i : j <= i;
        Scalar v = i == j && o.unit_diagonal ? 1.0 : (in ? at(a, i, j) : 0.0);
        int64_t r = o.trans == Trans::No ? i : j, c = o.trans == Trans::No ? j : i;
        m[static_cast<size_t>(r)][static_cast<size_t>(c)] =
            o.trans == Trans::ConjTranspose ? std::conj(v) : v;
      }
    // left: M X = B; right: X M = B, i.e. M^T X^T = B^T
    Matrix rhs;
    if (o.left) {
      rhs.assign(static_cast<size_t>(rows), std::vector<Scalar>(static_cast<size_t>(cols)));
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j)
          rhs[static_cast<size_t>(i)][static_cast<size_t>(j)] = at(b, i, j);
    } else {
      Matrix mt = m;
      for (size_t i = 0; i < m.size(); ++i)
        for (size_t j = 0; j < m.size(); ++j) mt[i][j] = m[j][i];
      m = mt;
      rhs.assign(static_cast<size_t>(cols), std::vector<Scalar>(static_cast<size_t>(rows)));
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j)
          rhs[static_cast<size_t>(j)][static_cast<size_t>(i)] = at(b, i, j);
    }
    Matrix x = dense_solve(m, rhs);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) {
        Dims idx{i, j};
        idx.insert(idx.end(), bi.begin(), bi.end());
        set_value(result, idx,
                  o.left ? x[static_cast<size_t>(i)][static_cast<size_t>(j)]
                         : x[static_cast<size_t>(j)][static_cast<size_t>(i)]);
      }
  });
  return result;
}

// A random matrix whose diagonal is pushed away from zero (well-conditioned triangles).
Tensor well_conditioned(DType d, const Dims& shape, uint64_t seed) {
  Tensor t = random_tensor(d, shape, seed);
  for_each_index(shape, [&](const Dims& i) {
    if (i[0] == i[1]) set_value(t, i, value_at(t, i) + 3.0);
  });
  return t;
}

} // namespace

std::optional<OpSamples> extension_samples(ops::OpCode op) {
  if (op != ops::OpCode::Extension) return std::nullopt;
  OpSamples s;
  s.make = [](DType d) {
    std::vector<Sample> v;
    uint64_t seed = 1;
    for (bool upper : {false, true})
      for (bool left : {true, false})
        for (Trans t : {Trans::No, Trans::Transpose, Trans::ConjTranspose}) {
          bool unit = t == Trans::Transpose;
          Dims a_shape = upper ? Dims{3, 3, 2} : Dims{3, 3};
          Dims b_shape = left ? Dims{3, 2} : Dims{2, 3};
          if (upper) b_shape.push_back(2);
          TriangularOptions o{upper, left, unit, t};
          v.push_back({strformat("triangular_solve_%s_%s_%d", upper ? "upper" : "lower",
                                 left ? "left" : "right", static_cast<int>(t)),
                       {well_conditioned(d, a_shape, seed), random_tensor(d, b_shape, seed + 1)},
                       linalg::triangular_solve_params(o)});
          seed += 2;
        }
    return v;
  };
  s.reference = triangular_reference;
  s.rtol_scale = 100;
  s.layout_exact = false;
  return s;
}

} // namespace tfe::testing
