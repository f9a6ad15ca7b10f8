// The batched CPU LAPACK kernels (backend/cpu/lapack/lapack.hpp): reconstruction and structure
// of every factorisation for the four float dtypes, tall/wide/square and batched shapes, strided
// and broadcast inputs giving the results of compact ones, the status cases and empty inputs.
// Checks run in complex<double> with plain loops over value_at.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "backend/cpu/lapack/lapack.hpp"
#include "core/error.hpp"
#include "support/tensor_testing.hpp"

using namespace tfe;
using namespace tfe::testing;
namespace la = tfe::cpu::lapack;

namespace {

using cx = std::complex<double>;
constexpr DType kFloats[] = {DType::F32, DType::F64, DType::C32, DType::C64};
const std::vector<Dims> kBatches = {{}, {2, 3}};
const double kNaN = std::numeric_limits<double>::quiet_NaN();

// rtol ~1e-10 (double) or ~1e-4 (single), scaled by the matrix order.
double tol(DType d, int64_t n) {
  const bool single = d == DType::F32 || d == DType::C32;
  return (single ? 1e-4 : 1e-10) * static_cast<double>(std::max<int64_t>(n, 1));
}

// ---- a dense complex<double> matrix for the checks ----

struct Mat {
  int64_t r = 0, c = 0;
  std::vector<cx> v;
  Mat(int64_t rows, int64_t cols) : r(rows), c(cols), v(static_cast<size_t>(rows * cols)) {}
  cx& operator()(int64_t i, int64_t j) { return v[static_cast<size_t>(i + j * r)]; }
  cx operator()(int64_t i, int64_t j) const { return v[static_cast<size_t>(i + j * r)]; }
};

Mat eye(int64_t n) {
  Mat m(n, n);
  for (int64_t i = 0; i < n; ++i) m(i, i) = 1;
  return m;
}

Mat operator*(const Mat& a, const Mat& b) {
  REQUIRE(a.c == b.r);
  Mat m(a.r, b.c);
  for (int64_t j = 0; j < b.c; ++j)
    for (int64_t k = 0; k < a.c; ++k)
      for (int64_t i = 0; i < a.r; ++i) m(i, j) += a(i, k) * b(k, j);
  return m;
}

Mat adjoint(const Mat& a) {
  Mat m(a.c, a.r);
  for (int64_t j = 0; j < a.c; ++j)
    for (int64_t i = 0; i < a.r; ++i) m(j, i) = std::conj(a(i, j));
  return m;
}

Mat transpose(const Mat& a) {
  Mat m(a.c, a.r);
  for (int64_t j = 0; j < a.c; ++j)
    for (int64_t i = 0; i < a.r; ++i) m(j, i) = a(i, j);
  return m;
}

Mat op(const Mat& a, la::Trans t) {
  return t == la::Trans::No ? a : t == la::Trans::Transpose ? transpose(a) : adjoint(a);
}

double amax(const Mat& a) {
  double m = 0;
  for (const cx& x : a.v) m = std::max(m, std::abs(x));
  return m;
}

double diff(const Mat& a, const Mat& b) {
  REQUIRE(a.r == b.r);
  REQUIRE(a.c == b.c);
  double m = 0;
  for (size_t i = 0; i < a.v.size(); ++i) m = std::max(m, std::abs(a.v[i] - b.v[i]));
  return m;
}

// ---- tensors <-> matrices; batch b is the linear (column-major) index over dims `first`.. ----

int64_t nbatch(const Tensor& t, size_t first = 2) {
  int64_t n = 1;
  for (size_t d = first; d < t.shape().size(); ++d) n *= t.shape()[d];
  return n;
}

Dims index_of(const Tensor& t, int64_t b, size_t first) {
  Dims idx(t.shape().size(), 0);
  for (size_t d = first; d < idx.size(); ++d) {
    idx[d] = b % t.shape()[d];
    b /= t.shape()[d];
  }
  return idx;
}

Mat mat(const Tensor& t, int64_t b) {
  Mat m(t.dim(0), t.dim(1));
  Dims idx = index_of(t, b, 2);
  for (int64_t j = 0; j < m.c; ++j)
    for (int64_t i = 0; i < m.r; ++i) {
      idx[0] = i;
      idx[1] = j;
      m(i, j) = value_at(t, idx);
    }
  return m;
}

std::vector<cx> vec(const Tensor& t, int64_t b) {
  std::vector<cx> v(static_cast<size_t>(t.dim(0)));
  Dims idx = index_of(t, b, 1);
  for (int64_t i = 0; i < t.dim(0); ++i) {
    idx[0] = i;
    v[static_cast<size_t>(i)] = value_at(t, idx);
  }
  return v;
}

std::vector<int64_t> ivec(const Tensor& t, int64_t b) {
  std::vector<int64_t> v(static_cast<size_t>(t.dim(0)));
  Dims idx = index_of(t, b, 1);
  for (int64_t i = 0; i < t.dim(0); ++i) {
    idx[0] = i;
    v[static_cast<size_t>(i)] = int_at(t, idx);
  }
  return v;
}

Dims shape_of(int64_t rows, int64_t cols, const Dims& batch) {
  Dims s{rows, cols};
  for (int64_t e : batch) s.push_back(e);
  return s;
}

// [rows, cols, batch dims of like] and [n, batch dims of like].
Dims matrix_like(int64_t rows, int64_t cols, const Tensor& like) {
  return shape_of(rows, cols, Dims(like.shape().begin() + 2, like.shape().end()));
}
Dims vector_like(int64_t n, const Tensor& like) {
  Dims s{n};
  for (size_t d = 2; d < like.shape().size(); ++d) s.push_back(like.shape()[d]);
  return s;
}

// A compact tensor whose batch entry b is gen(b) (real dtypes keep the real part).
Tensor make(DType d, int64_t rows, int64_t cols, const Dims& batch,
            const std::function<Mat(int64_t)>& gen) {
  Tensor t = Tensor::empty(d, shape_of(rows, cols, batch));
  for (int64_t b = 0; b < nbatch(t); ++b) {
    Mat m = gen(b);
    Dims idx = index_of(t, b, 2);
    for (int64_t j = 0; j < cols; ++j)
      for (int64_t i = 0; i < rows; ++i) {
        idx[0] = i;
        idx[1] = j;
        set_value(t, idx, m(i, j));
      }
  }
  return t;
}

Tensor spd(DType d, int64_t n, const Dims& batch, uint64_t seed) { // B B^H + n I
  Tensor r = random_tensor(d, shape_of(n, n, batch), seed);
  return make(d, n, n, batch, [&](int64_t b) {
    Mat m = mat(r, b) * adjoint(mat(r, b));
    for (int64_t i = 0; i < n; ++i) m(i, i) += static_cast<double>(n);
    return m;
  });
}

Tensor hermitian(DType d, int64_t n, const Dims& batch, uint64_t seed) { // B + B^H
  Tensor r = random_tensor(d, shape_of(n, n, batch), seed);
  return make(d, n, n, batch, [&](int64_t b) {
    Mat m = mat(r, b);
    Mat h = adjoint(m);
    for (size_t i = 0; i < m.v.size(); ++i) h.v[i] += m.v[i];
    return h;
  });
}

// A copy of t with NaN in the triangle strictly above (upper=false) or below (upper=true) the
// diagonal, and on the diagonal too when with_diagonal: what a kernel must not read.
Tensor poison(const Tensor& t, bool upper, bool with_diagonal) {
  return make(t.dtype(), t.dim(0), t.dim(1), Dims(t.shape().begin() + 2, t.shape().end()),
              [&](int64_t b) {
                Mat m = mat(t, b);
                for (int64_t j = 0; j < m.c; ++j)
                  for (int64_t i = 0; i < m.r; ++i)
                    if ((upper ? i > j : i < j) || (with_diagonal && i == j)) m(i, j) = kNaN;
                return m;
              });
}

// Same values as t with unit row stride and a padded column stride: LAPACK can read it in place.
Tensor padded(const Tensor& t) {
  Dims big = t.shape();
  big[0] += 3;
  Tensor store = Tensor::zeros(t.dtype(), big);
  Tensor view = store.with_layout(t.shape(), store.strides(), 0);
  for_each_index(t.shape(), [&](const Dims& idx) { set_value(view, idx, value_at(t, idx)); });
  return view;
}

// The strided versions of an operand: the three relayouts and the padded one.
constexpr int kNumLayouts = kNumRelayouts + 1;
Tensor layout(const Tensor& t, int variant) {
  return variant < kNumRelayouts ? relayout(t, variant) : padded(t);
}

void check_close(const Tensor& got, const Tensor& want, double eps) {
  std::string why;
  const bool ok = close(got, want, eps, eps, &why);
  INFO(why);
  CHECK(ok);
}

// Every strided layout of the operands gives the outputs of the compact ones.
void check_layouts(const std::vector<Tensor>& in,
                   const std::function<std::vector<Tensor>(const std::vector<Tensor>&)>& f,
                   double eps) {
  const std::vector<Tensor> want = f(in);
  for (int v = 0; v < kNumLayouts; ++v) {
    CAPTURE(v);
    std::vector<Tensor> moved;
    for (const Tensor& t : in) moved.push_back(layout(t, v));
    const std::vector<Tensor> got = f(moved);
    REQUIRE(got.size() == want.size());
    for (size_t k = 0; k < got.size(); ++k) {
      CAPTURE(k);
      check_close(got[k], want[k], eps);
    }
  }
}

template <class F> void check_fails(F&& f, Status status, const std::string& contains) {
  try {
    f();
    FAIL("expected an error containing \"" << contains << "\"");
  } catch (const Error& e) {
    INFO(e.message());
    CHECK(e.status() == status);
    CHECK_THAT(e.message(), Catch::Contains(contains));
  }
}

bool is_upper(const Mat& m) {
  for (int64_t j = 0; j < m.c; ++j)
    for (int64_t i = j + 1; i < m.r; ++i)
      if (m(i, j) != cx(0)) return false;
  return true;
}

struct Size {
  int64_t m, n;
};
const std::vector<Size> kShapes = {{4, 4}, {5, 3}, {3, 5}};

// ---- verifiers: one result against its input, entry by entry of the batch ----

void verify_cholesky(const Tensor& a, const Tensor& f, bool upper) {
  const DType d = a.dtype();
  const int64_t n = a.dim(0);
  REQUIRE(f.dtype() == d);
  REQUIRE(f.shape() == a.shape());
  for (int64_t b = 0; b < nbatch(a); ++b) {
    CAPTURE(b);
    const Mat fm = mat(f, b), am = mat(a, b);
    CHECK(is_upper(upper ? fm : adjoint(fm)));
    const Mat rec = upper ? adjoint(fm) * fm : fm * adjoint(fm);
    CHECK(diff(rec, am) <= tol(d, n) * amax(am));
    for (int64_t i = 0; i < n; ++i) CHECK(fm(i, i).real() > 0);
  }
}

void verify_qr(const Tensor& a, const la::Qr& f, bool complete) {
  const DType d = a.dtype();
  const int64_t m = a.dim(0), n = a.dim(1), k = std::min(m, n), qc = complete ? m : k;
  REQUIRE(f.q.dtype() == d);
  REQUIRE(f.r.dtype() == d);
  REQUIRE(f.q.shape() == matrix_like(m, qc, a));
  REQUIRE(f.r.shape() == matrix_like(complete ? m : k, n, a));
  for (int64_t b = 0; b < nbatch(a); ++b) {
    CAPTURE(b);
    const Mat q = mat(f.q, b), r = mat(f.r, b), am = mat(a, b);
    CHECK(is_upper(r));
    CHECK(diff(adjoint(q) * q, eye(qc)) <= tol(d, m));
    CHECK(diff(q * r, am) <= tol(d, std::max(m, n)) * (1 + amax(am)));
  }
}

void verify_svd(const Tensor& a, const la::Svd& f, bool full) {
  const DType d = a.dtype();
  const int64_t m = a.dim(0), n = a.dim(1), k = std::min(m, n);
  const int64_t uc = full ? m : k, vr = full ? n : k;
  REQUIRE(f.s.dtype() == real_dtype(d));
  REQUIRE(f.s.shape() == vector_like(k, a));
  REQUIRE(f.u.shape() == matrix_like(m, uc, a));
  REQUIRE(f.vh.shape() == matrix_like(vr, n, a));
  for (int64_t b = 0; b < nbatch(a); ++b) {
    CAPTURE(b);
    const Mat u = mat(f.u, b), vh = mat(f.vh, b), am = mat(a, b);
    const std::vector<cx> s = vec(f.s, b);
    for (size_t i = 0; i < s.size(); ++i) {
      CHECK(s[i].imag() == 0);
      CHECK(s[i].real() >= 0);
      if (i + 1 < s.size()) CHECK(s[i].real() >= s[i + 1].real());
    }
    CHECK(diff(adjoint(u) * u, eye(uc)) <= tol(d, m));
    CHECK(diff(vh * adjoint(vh), eye(vr)) <= tol(d, n));
    Mat us(m, k), vk(k, n); // the leading K columns of U and rows of Vh
    for (int64_t j = 0; j < k; ++j)
      for (int64_t i = 0; i < m; ++i) us(i, j) = u(i, j) * s[static_cast<size_t>(j)];
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < k; ++i) vk(i, j) = vh(i, j);
    CHECK(diff(us * vk, am) <= tol(d, std::max(m, n)) * amax(am));
  }
}

void verify_eigh(const Tensor& a, const la::Eigh& f) {
  const DType d = a.dtype();
  const int64_t n = a.dim(0);
  REQUIRE(f.w.dtype() == real_dtype(d));
  REQUIRE(f.w.shape() == vector_like(n, a));
  REQUIRE(f.v.dtype() == d);
  REQUIRE(f.v.shape() == a.shape());
  for (int64_t b = 0; b < nbatch(a); ++b) {
    CAPTURE(b);
    const Mat v = mat(f.v, b), am = mat(a, b);
    const std::vector<cx> w = vec(f.w, b);
    Mat vw = v;
    for (int64_t j = 0; j < n; ++j) {
      const size_t sj = static_cast<size_t>(j);
      if (j + 1 < n) CHECK(w[sj].real() <= w[sj + 1].real());
      for (int64_t i = 0; i < n; ++i) vw(i, j) *= w[sj];
    }
    CHECK(diff(adjoint(v) * v, eye(n)) <= tol(d, n));
    CHECK(diff(am * v, vw) <= tol(d, n) * amax(am));
  }
}

void verify_eig(const Tensor& a, const la::Eig& f) {
  const DType d = a.dtype();
  const int64_t n = a.dim(0);
  const double eps = tol(d, n);
  REQUIRE(f.w.dtype() == complex_dtype(d));
  REQUIRE(f.w.shape() == vector_like(n, a));
  REQUIRE(f.v.dtype() == complex_dtype(d));
  REQUIRE(f.v.shape() == a.shape());
  for (int64_t b = 0; b < nbatch(a); ++b) {
    CAPTURE(b);
    const Mat v = mat(f.v, b), am = mat(a, b);
    const std::vector<cx> w = vec(f.w, b);
    const Mat av = am * v;
    for (int64_t j = 0; j < n; ++j) {
      double norm2 = 0, residual = 0;
      for (int64_t i = 0; i < n; ++i) {
        norm2 += std::norm(v(i, j));
        residual = std::max(residual, std::abs(av(i, j) - w[static_cast<size_t>(j)] * v(i, j)));
      }
      CHECK(residual <= eps * (1 + amax(am)));
      CHECK(std::abs(std::sqrt(norm2) - 1) <= eps);
    }
  }
}

void verify_lu(const Tensor& a, const la::LuFactor& f) {
  const DType d = a.dtype();
  const int64_t m = a.dim(0), n = a.dim(1), k = std::min(m, n);
  REQUIRE(f.lu.shape() == a.shape());
  REQUIRE(f.pivots.dtype() == DType::I32);
  REQUIRE(f.pivots.shape() == vector_like(k, a));
  REQUIRE(f.info.dtype() == DType::I32);
  REQUIRE(f.info.shape() == Dims(a.shape().begin() + 2, a.shape().end()));
  for (int64_t b = 0; b < nbatch(a); ++b) {
    CAPTURE(b);
    const Mat lu = mat(f.lu, b), am = mat(a, b);
    Mat l(m, k), u(k, n);
    for (int64_t j = 0; j < k; ++j)
      for (int64_t i = 0; i < m; ++i) l(i, j) = i > j ? lu(i, j) : i == j ? cx(1) : cx(0);
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < k; ++i) u(i, j) = i <= j ? lu(i, j) : cx(0);
    Mat p = l * u;
    const std::vector<int64_t> piv = ivec(f.pivots, b);
    for (int64_t i = k - 1; i >= 0; --i) { // undo the row interchanges, last first
      const int64_t r = piv[static_cast<size_t>(i)] - 1;
      REQUIRE(r >= i);
      REQUIRE(r < m);
      for (int64_t j = 0; j < n; ++j) std::swap(p(i, j), p(r, j));
    }
    CHECK(diff(p, am) <= tol(d, std::max(m, n)) * amax(am));
    CHECK(int_at(f.info, index_of(f.info, b, 0)) == 0);
  }
}

// op(A) X = B (left) or X op(A) = B, as a backward error: |residual| <= eps n |A| |X| + eps |B|.
void verify_solution(const Tensor& a, const Tensor& b, const Tensor& x, la::Trans t, bool left) {
  const DType d = a.dtype();
  const int64_t n = a.dim(0);
  REQUIRE(x.dtype() == d);
  REQUIRE(x.shape() == b.shape());
  for (int64_t i = 0; i < nbatch(a); ++i) {
    CAPTURE(i);
    const Mat am = op(mat(a, i), t), bm = mat(b, i), xm = mat(x, i);
    const Mat lhs = left ? am * xm : xm * am;
    CHECK(diff(lhs, bm) <= tol(d, n) * (amax(am) * amax(xm) * static_cast<double>(n) + amax(bm)));
  }
}

// A well-conditioned triangle (heavy diagonal) of the given shape.
Tensor triangle(DType d, int64_t n, const Dims& batch, bool upper, bool unit, uint64_t seed) {
  const Tensor r = random_tensor(d, shape_of(n, n, batch), seed);
  return make(d, n, n, batch, [&](int64_t b) {
    Mat m = mat(r, b);
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < n; ++i) {
        if (upper ? i > j : i < j) m(i, j) = 0;
        if (i == j) m(i, j) = unit ? cx(1) : m(i, j) + 2.0 * std::sqrt(double(n)) + 2.0;
      }
    return m;
  });
}

} // namespace

// ---------------------------------------------------------------------------------------------

TEST_CASE("lapack cholesky: L L^H = A, exact zeros, one triangle read", "[lapack]") {
  for (DType d : kFloats)
    for (const Dims& batch : kBatches)
      for (bool upper : {false, true}) {
        CAPTURE(dtype_name(d), format_dims(batch), upper);
        const int64_t n = 4;
        const Tensor a = spd(d, n, batch, 11);
        const Tensor f = la::cholesky(a, upper);
        verify_cholesky(a, f, upper);
        // NaN in the unread triangle changes nothing.
        check_close(la::cholesky(poison(a, upper, false), upper), f, 0);
        check_layouts(
            {a}, [&](const auto& in) { return std::vector{la::cholesky(in[0], upper)}; },
            tol(d, n));
      }
}

TEST_CASE("lapack qr: A = Q R, Q^H Q = I, R upper with exact zeros", "[lapack]") {
  for (DType d : kFloats)
    for (const Size& sz : kShapes)
      for (const Dims& batch : kBatches)
        for (bool complete : {false, true}) {
          CAPTURE(dtype_name(d), sz.m, sz.n, format_dims(batch), complete);
          const Tensor a = random_tensor(d, shape_of(sz.m, sz.n, batch), 21);
          verify_qr(a, la::qr(a, complete), complete);
          check_layouts(
              {a},
              [&](const auto& in) {
                la::Qr g = la::qr(in[0], complete);
                return std::vector{g.q, g.r};
              },
              tol(d, sz.m));
        }
}

TEST_CASE("lapack qr: rank-deficient input factors without error", "[lapack]") {
  for (DType d : kFloats) {
    CAPTURE(dtype_name(d));
    // Batch 0: column 2 = column 0 + column 1; batch 1: all zeros.
    const Tensor r = random_tensor(d, {5, 3, 2}, 5);
    const Tensor a = make(d, 5, 3, {2}, [&](int64_t b) {
      Mat m = mat(r, b);
      for (int64_t i = 0; i < 5; ++i) m(i, 2) = m(i, 0) + m(i, 1);
      if (b == 1)
        for (cx& x : m.v) x = 0;
      return m;
    });
    for (bool complete : {false, true}) verify_qr(a, la::qr(a, complete), complete);
  }
}

TEST_CASE("lapack svd: A = U diag(S) Vh, orthonormal U and V, S descending", "[lapack]") {
  for (DType d : kFloats)
    for (const Size& sz : kShapes)
      for (const Dims& batch : kBatches)
        for (la::SvdMode mode : {la::SvdMode::Reduced, la::SvdMode::Full}) {
          const bool full = mode == la::SvdMode::Full;
          CAPTURE(dtype_name(d), sz.m, sz.n, format_dims(batch), full);
          const Tensor a = random_tensor(d, shape_of(sz.m, sz.n, batch), 31);
          const la::Svd f = la::svd(a, mode);
          verify_svd(a, f, full);
          // Values only: the same S, no vectors.
          const la::Svd v = la::svd(a, la::SvdMode::ValuesOnly);
          CHECK_FALSE(v.u.defined());
          CHECK_FALSE(v.vh.defined());
          check_close(v.s, f.s, tol(d, std::max(sz.m, sz.n)));
          check_layouts(
              {a},
              [&](const auto& in) {
                la::Svd g = la::svd(in[0], mode);
                return std::vector{g.u, g.s, g.vh};
              },
              tol(d, std::max(sz.m, sz.n)));
        }
}

TEST_CASE("lapack eigh: A V = V diag(w), V unitary, w ascending, one triangle read", "[lapack]") {
  for (DType d : kFloats)
    for (const Dims& batch : kBatches)
      for (bool upper : {false, true}) {
        CAPTURE(dtype_name(d), format_dims(batch), upper);
        const int64_t n = 5;
        const Tensor a = hermitian(d, n, batch, 41);
        const la::Eigh f = la::eigh(a, upper, true);
        verify_eigh(a, f);
        const la::Eigh values = la::eigh(a, upper, false);
        CHECK_FALSE(values.v.defined());
        check_close(values.w, f.w, tol(d, n));
        const la::Eigh poisoned = la::eigh(poison(a, upper, false), upper, true);
        check_close(poisoned.w, f.w, 0);
        check_close(poisoned.v, f.v, 0);
        check_layouts(
            {a},
            [&](const auto& in) {
              la::Eigh g = la::eigh(in[0], upper, true);
              return std::vector{g.w, g.v};
            },
            tol(d, n));
      }
}

TEST_CASE("lapack eig: A v = w v with unit-norm complex v", "[lapack]") {
  for (DType d : kFloats)
    for (const Dims& batch : kBatches) {
      CAPTURE(dtype_name(d), format_dims(batch));
      const int64_t n = 5;
      const Tensor a = random_tensor(d, shape_of(n, n, batch), 51);
      const la::Eig f = la::eig(a, true);
      verify_eig(a, f);
      // Without vectors: the same eigenvalues (as a set; LAPACK takes another path).
      const la::Eig values = la::eig(a, false);
      CHECK_FALSE(values.v.defined());
      for (int64_t b = 0; b < nbatch(a); ++b)
        for (const cx& x : vec(values.w, b)) {
          double best = std::numeric_limits<double>::infinity();
          for (const cx& y : vec(f.w, b)) best = std::min(best, std::abs(x - y));
          CHECK(best <= tol(d, n) * 10);
        }
      check_layouts(
          {a},
          [&](const auto& in) {
            la::Eig g = la::eig(in[0], true);
            return std::vector{g.w, g.v};
          },
          tol(d, n));
    }
  // A real rotation has the eigenvalues +-i: conjugate vectors come out in complex form.
  for (DType d : kFloats) {
    CAPTURE(dtype_name(d));
    const Tensor a = tensor_of(d, {2, 2}, {0, 1, -1, 0}); // column-major [[0,-1],[1,0]]
    const la::Eig f = la::eig(a, true);
    verify_eig(a, f);
    const std::vector<cx> w = vec(f.w, 0);
    CHECK(std::abs(w[0] - std::conj(w[1])) <= tol(d, 2));
    CHECK(std::abs(std::abs(w[0].imag()) - 1) <= tol(d, 2));
    CHECK(std::abs(w[0].real()) <= tol(d, 2));
  }
}

TEST_CASE("lapack lu_factor: P L U = A from the packed output", "[lapack]") {
  for (DType d : kFloats)
    for (const Size& sz : kShapes)
      for (const Dims& batch : kBatches) {
        CAPTURE(dtype_name(d), sz.m, sz.n, format_dims(batch));
        const Tensor a = random_tensor(d, shape_of(sz.m, sz.n, batch), 61);
        verify_lu(a, la::lu_factor(a));
        check_layouts(
            {a},
            [&](const auto& in) {
              la::LuFactor g = la::lu_factor(in[0]);
              return std::vector{g.lu, g.pivots, g.info};
            },
            tol(d, sz.m));
      }
}

TEST_CASE("lapack lu_factor: singular input succeeds with info > 0", "[lapack]") {
  for (DType d : kFloats) {
    CAPTURE(dtype_name(d));
    const Tensor r = random_tensor(d, {3, 3, 2}, 7);
    const Tensor a = make(d, 3, 3, {2}, [&](int64_t b) {
      Mat m = mat(r, b);
      if (b == 1)
        for (int64_t i = 0; i < 3; ++i) m(i, 1) = 0; // a zero column: an exact zero pivot
      return m;
    });
    const la::LuFactor f = la::lu_factor(a);
    CHECK(int_at(f.info, {0}) == 0);
    CHECK(int_at(f.info, {1}) == 2);
  }
}

TEST_CASE("lapack solve: A X = B, lu_solve with each Trans", "[lapack]") {
  for (DType d : kFloats)
    for (const Dims& batch : kBatches)
      for (int64_t nrhs : {1, 3}) {
        CAPTURE(dtype_name(d), format_dims(batch), nrhs);
        const int64_t n = 4;
        const Tensor a = random_tensor(d, shape_of(n, n, batch), 71);
        const Tensor b = random_tensor(d, shape_of(n, nrhs, batch), 72);
        const la::LuFactorSolve s = la::lu_factor_solve(a, b);
        verify_solution(a, b, s.x, la::Trans::No, true);
        const la::LuFactor f = la::lu_factor(a);
        check_close(s.lu, f.lu, 0);
        check_close(s.pivots, f.pivots, 0);
        for (la::Trans t : {la::Trans::No, la::Trans::Transpose, la::Trans::ConjTranspose}) {
          CAPTURE(static_cast<int>(t));
          const Tensor x = la::lu_solve(f.lu, f.pivots, b, t);
          verify_solution(a, b, x, t, true);
          if (t == la::Trans::No) check_close(x, s.x, tol(d, n));
          check_layouts(
              {f.lu, f.pivots, b},
              [&](const auto& in) { return std::vector{la::lu_solve(in[0], in[1], in[2], t)}; },
              tol(d, n));
        }
        check_layouts(
            {a, b},
            [&](const auto& in) {
              la::LuFactorSolve g = la::lu_factor_solve(in[0], in[1]);
              return std::vector{g.x, g.lu, g.pivots};
            },
            tol(d, n));
      }
}

TEST_CASE("lapack solve: a broadcast A (stride-0 batch dim) is factored once per matrix",
          "[lapack]") {
  for (DType d : kFloats) {
    CAPTURE(dtype_name(d));
    const Dims dims{0, 1, 2, 3};
    const Tensor b = random_tensor(d, {4, 2, 2, 3}, 82);
    // Broadcast along the inner and along the outer batch dim.
    for (const Dims& base_shape : {Dims{4, 4, 1, 3}, Dims{4, 4, 2, 1}}) {
      CAPTURE(format_dims(base_shape));
      const Tensor a = random_tensor(d, base_shape, 81).broadcast_view({4, 4, 2, 3}, dims);
      const la::LuFactorSolve s = la::lu_factor_solve(a, b);
      verify_solution(a, b, s.x, la::Trans::No, true);
      const la::LuFactorSolve dense = la::lu_factor_solve(relayout(a, 0), b); // a compact copy
      check_close(s.x, dense.x, tol(d, 4));
      check_close(s.lu, dense.lu, 0);
      check_close(s.pivots, dense.pivots, 0);
    }
    // The same for a single-operand kernel and for a broadcast B.
    const Tensor sp = spd(d, 3, {1, 2}, 83).broadcast_view({3, 3, 3, 2}, dims);
    check_close(la::cholesky(sp, false), la::cholesky(relayout(sp, 0), false), 0);
    const Tensor bb = b.sliced(Dims{0, 0, 0, 0}, Dims{4, 2, 1, 3}, Dims{1, 1, 1, 1})
                          .broadcast_view({4, 2, 2, 3}, dims);
    const Tensor tri = triangle(d, 4, {1, 3}, true, false, 84).broadcast_view({4, 4, 2, 3}, dims);
    const Tensor x = la::triangular_solve(tri, bb, true, true, false, la::Trans::No);
    verify_solution(tri, bb, x, la::Trans::No, true);
    check_close(
        x,
        la::triangular_solve(relayout(tri, 0), relayout(bb, 0), true, true, false, la::Trans::No),
        tol(d, 4));
  }
}

TEST_CASE("lapack triangular_solve: op(A) X = B and X op(A) = B, one triangle read", "[lapack]") {
  for (DType d : kFloats)
    for (const Dims& batch : kBatches)
      for (bool upper : {false, true})
        for (bool left : {true, false})
          for (bool unit : {false, true})
            for (la::Trans t : {la::Trans::No, la::Trans::Transpose, la::Trans::ConjTranspose}) {
              CAPTURE(dtype_name(d), format_dims(batch), upper, left, unit, static_cast<int>(t));
              const int64_t n = 4, k = 3;
              const Tensor clean = triangle(d, n, batch, upper, unit, 91);
              // NaN wherever the kernel must not read: the other triangle, a unit diagonal.
              const Tensor a = poison(clean, upper, unit);
              const Tensor b =
                  random_tensor(d, left ? shape_of(n, k, batch) : shape_of(k, n, batch), 92);
              const Tensor x = la::triangular_solve(a, b, upper, left, unit, t);
              verify_solution(clean, b, x, t, left);
              check_layouts(
                  {a, b},
                  [&](const auto& in) {
                    return std::vector{la::triangular_solve(in[0], in[1], upper, left, unit, t)};
                  },
                  tol(d, n));
            }
}

TEST_CASE("lapack large: blocked and divide-and-conquer paths (n = 64..70)", "[lapack]") {
  const Dims batch{2};
  for (DType d : kFloats) {
    CAPTURE(dtype_name(d));
    const int64_t n = 64;
    const Tensor p = spd(d, n, batch, 201);
    for (bool upper : {false, true}) verify_cholesky(p, la::cholesky(p, upper), upper);
    const Tensor h = hermitian(d, n, batch, 202);
    verify_eigh(h, la::eigh(h, false, true));
    const Tensor g = random_tensor(d, shape_of(n, n, batch), 203);
    verify_eig(g, la::eig(g, true));
    const Tensor rhs = random_tensor(d, shape_of(n, 5, batch), 204);
    verify_solution(g, rhs, la::lu_factor_solve(g, rhs).x, la::Trans::No, true);
    const la::LuFactor f = la::lu_factor(g);
    verify_solution(g, rhs, la::lu_solve(f.lu, f.pivots, rhs, la::Trans::ConjTranspose),
                    la::Trans::ConjTranspose, true);
    const Tensor tri = triangle(d, n, batch, false, false, 205);
    verify_solution(tri, rhs, la::triangular_solve(tri, rhs, false, true, false, la::Trans::No),
                    la::Trans::No, true);
    for (const Size& sz : {Size{70, 50}, Size{50, 70}}) {
      CAPTURE(sz.m, sz.n);
      const Tensor a = random_tensor(d, shape_of(sz.m, sz.n, batch), 206);
      for (bool complete : {false, true}) verify_qr(a, la::qr(a, complete), complete);
      verify_svd(a, la::svd(a, la::SvdMode::Reduced), false);
      verify_svd(a, la::svd(a, la::SvdMode::Full), true);
      verify_lu(a, la::lu_factor(a));
    }
  }
}

TEST_CASE("lapack status: singular, not positive definite, bad pivots", "[lapack]") {
  for (DType d : kFloats) {
    CAPTURE(dtype_name(d));
    const Tensor r = random_tensor(d, {3, 3, 2}, 101);
    const Tensor a = make(d, 3, 3, {2}, [&](int64_t b) {
      Mat m = mat(r, b);
      if (b == 1)
        for (int64_t i = 0; i < 3; ++i) m(i, 0) = 0;
      return m;
    });
    const Tensor rhs = random_tensor(d, {3, 1, 2}, 102);
    check_fails([&] { la::lu_factor_solve(a, rhs); }, Status::Singular,
                "the matrix of batch 1 is singular (U[0,0] is exactly zero)");
    // The batch index is linear and column-major: entry (1, 2) of batch dims [2, 3] is batch 5.
    const Tensor r6 = random_tensor(d, {3, 3, 2, 3}, 106);
    const Tensor a6 = make(d, 3, 3, {2, 3}, [&](int64_t b) {
      Mat m = mat(r6, b);
      if (b == 5)
        for (int64_t i = 0; i < 3; ++i) m(i, 1) = 0;
      return m;
    });
    REQUIRE(value_at(a6, {0, 1, 1, 2}) == cx(0));
    check_fails(
        [&] {
          la::lu_factor_solve(a6, random_tensor(d, {3, 2, 2, 3}, 107));
        },
        Status::Singular, "the matrix of batch 5 is singular");

    const la::LuFactor f = la::lu_factor(a);
    check_fails([&] { la::lu_solve(f.lu, f.pivots, rhs, la::Trans::No); }, Status::Singular,
                "the factors of batch 1");

    const Tensor pd = spd(d, 3, {2}, 103);
    const Tensor not_pd = make(d, 3, 3, {2}, [&](int64_t b) {
      if (b == 0) return mat(pd, 0);
      Mat m = eye(3);
      m(2, 2) = -1; // the leading minor of order 3 is negative
      return m;
    });
    check_fails([&] { la::cholesky(not_pd, false); }, Status::Numerical,
                "the matrix of batch 1 is not positive definite (leading minor of order 3)");

    const la::LuFactor good = la::lu_factor(random_tensor(d, {3, 3}, 104));
    const Tensor bad_piv = int_tensor(DType::I32, {3}, {1, 7, 3});
    check_fails(
        [&] {
          la::lu_solve(good.lu, bad_piv, random_tensor(d, {3, 1}, 105), la::Trans::No);
        },
        Status::InvalidArgument, "pivot 1 of batch 0 is 7");
  }
}

TEST_CASE("lapack status: NaN or inf input never reaches LAPACK's illegal-argument path",
          "[lapack]") {
  for (DType d : kFloats)
    for (double bad : {kNaN, std::numeric_limits<double>::infinity()}) {
      CAPTURE(dtype_name(d), bad);
      const Tensor r = random_tensor(d, {3, 3, 2}, 111);
      const Tensor a = make(d, 3, 3, {2}, [&](int64_t b) {
        Mat m = mat(r, b);
        if (b == 1) m(2, 1) = bad;
        return m;
      });
      for (la::SvdMode mode : {la::SvdMode::Reduced, la::SvdMode::Full, la::SvdMode::ValuesOnly})
        check_fails([&] { la::svd(a, mode); }, Status::NonConvergence,
                    "the SVD of batch 1 did not converge (the matrix holds NaN or inf)");
      for (bool vectors : {true, false})
        check_fails(
            [&] { la::eig(a, vectors); }, Status::NonConvergence,
            "the eigendecomposition of batch 1 did not converge (the matrix holds NaN or inf)");
      const Tensor h = make(d, 3, 3, {2}, [&](int64_t b) {
        Mat m = mat(spd(d, 3, {2}, 112), b);
        if (b == 1) m(2, 1) = m(1, 2) = bad;
        return m;
      });
      for (bool vectors : {true, false})
        check_fails(
            [&] { la::eigh(h, false, vectors); }, Status::NonConvergence,
            "the eigendecomposition of batch 1 did not converge (the matrix holds NaN or inf)");
      // potrf itself may stop at the minor holding inf; either way the batch is named
      check_fails([&] { la::cholesky(h, false); }, Status::Numerical,
                  "the matrix of batch 1 is not positive definite (");
      // The others carry the value into their results.
      const la::Qr q = la::qr(a, false);
      CHECK(std::isfinite(value_at(q.r, {0, 0, 0}).real()));
      CHECK(la::lu_factor(a).lu.shape() == a.shape());
      const Tensor x = la::triangular_solve(a, random_tensor(d, {3, 1, 2}, 113), false, true, false,
                                            la::Trans::No);
      CHECK(std::isfinite(value_at(x, {0, 0, 0}).real()));
      CHECK_FALSE(std::isfinite(value_at(x, {2, 0, 1}).real()));
    }
}

TEST_CASE("lapack status: wrong dtype, rank, squareness, operands", "[lapack]") {
  const Tensor i32 = int_tensor(DType::I32, {2, 2}, {1, 0, 0, 1});
  const Tensor f64 = random_tensor(DType::F64, {3, 3}, 1);
  const Tensor rect = random_tensor(DType::F64, {3, 4}, 2);
  const Tensor rhs = random_tensor(DType::F64, {3, 2}, 3);
  const Status dt = Status::DtypeMismatch, sh = Status::ShapeMismatch;
  check_fails([&] { la::cholesky(i32, false); }, dt, "cholesky: a must be F32, F64, C32 or C64");
  check_fails([&] { la::qr(i32, false); }, dt, "qr: ");
  check_fails([&] { la::svd(i32, la::SvdMode::Reduced); }, dt, "svd: ");
  check_fails([&] { la::eigh(i32, false, true); }, dt, "eigh: ");
  check_fails([&] { la::eig(i32, true); }, dt, "eig: ");
  check_fails([&] { la::lu_factor(i32); }, dt, "lu_factor: ");
  check_fails([&] { la::lu_factor_solve(i32, rhs); }, dt, "solve: ");
  check_fails(
      [&] {
        la::lu_factor_solve(f64, random_tensor(DType::F32, {3, 2}, 4));
      },
      dt, "solve: operands must share a dtype");
  check_fails([&] { la::triangular_solve(f64, i32, true, true, false, la::Trans::No); }, dt,
              "triangular_solve: ");
  check_fails([&] { la::cholesky(rect, false); }, sh, "cholesky: a must be square");
  check_fails([&] { la::eigh(rect, false, true); }, sh, "eigh: a must be square");
  check_fails([&] { la::eig(rect, true); }, sh, "eig: a must be square");
  check_fails([&] { la::lu_factor_solve(rect, rhs); }, sh, "solve: a must be square");
  check_fails([&] { la::cholesky(random_tensor(DType::F64, {3}, 5), false); }, sh, "rank >= 2");
  check_fails(
      [&] {
        la::lu_factor_solve(f64, random_tensor(DType::F64, {4, 2}, 6));
      },
      sh, "b must have 3 rows");
  check_fails(
      [&] {
        la::lu_factor_solve(random_tensor(DType::F64, {3, 3, 2}, 7),
                            random_tensor(DType::F64, {3, 2, 3}, 8));
      },
      sh, "solve: batch dims differ");
  check_fails(
      [&] {
        la::triangular_solve(f64, random_tensor(DType::F64, {3, 2}, 9), true, false, false,
                             la::Trans::No);
      },
      sh, "b must have 3 cols");
  const la::LuFactor f = la::lu_factor(f64);
  check_fails([&] { la::lu_solve(f.lu, random_tensor(DType::F64, {3}, 10), rhs, la::Trans::No); },
              dt, "pivots must be I32");
  check_fails(
      [&] {
        la::lu_solve(f.lu, int_tensor(DType::I32, {2}, {1, 2}), rhs, la::Trans::No);
      },
      sh, "pivots must have shape [3]");
  // Extents beyond LAPACK's 32-bit integers, on a broadcast view that allocates nothing.
  const Dims dims{0, 1};
  const Tensor huge = Tensor::empty(DType::F64, {1, 1}).broadcast_view({int64_t{1} << 31, 1}, dims);
  check_fails([&] { la::qr(huge, false); }, Status::NotSupported, "qr: a has rows 2147483648");
}

TEST_CASE("lapack empty: 0x0 matrices, empty batches and zero extents", "[lapack]") {
  for (DType d : kFloats) {
    CAPTURE(dtype_name(d));
    const DType rd = real_dtype(d), cd = complex_dtype(d);
    const Tensor e00 = Tensor::empty(d, {0, 0});
    const Tensor empty_batch = Tensor::empty(d, {3, 3, 0});
    CHECK(la::cholesky(e00, false).shape() == Dims{0, 0});
    CHECK(la::cholesky(empty_batch, true).shape() == Dims{3, 3, 0});
    CHECK(la::eigh(e00, false, true).w.shape() == Dims{0});
    CHECK(la::eigh(empty_batch, false, true).w.shape() == Dims{3, 0});
    CHECK(la::eigh(empty_batch, false, true).w.dtype() == rd);
    const la::Eig eg = la::eig(empty_batch, true);
    CHECK(eg.w.shape() == Dims{3, 0});
    CHECK(eg.v.shape() == Dims{3, 3, 0});
    CHECK(eg.v.dtype() == cd);
    CHECK(la::eig(e00, true).v.shape() == Dims{0, 0});

    // A complete Q / full U of a matrix without columns is the identity.
    const Tensor tall0 = Tensor::empty(d, {3, 0});
    const la::Qr qc = la::qr(tall0, true);
    CHECK(qc.q.shape() == Dims{3, 3});
    CHECK(qc.r.shape() == Dims{3, 0});
    CHECK(diff(mat(qc.q, 0), eye(3)) == 0);
    const la::Qr qrd = la::qr(tall0, false);
    CHECK(qrd.q.shape() == Dims{3, 0});
    CHECK(qrd.r.shape() == Dims{0, 0});
    CHECK(la::qr(empty_batch, true).q.shape() == Dims{3, 3, 0});
    const la::Svd sf = la::svd(tall0, la::SvdMode::Full);
    CHECK(sf.s.shape() == Dims{0});
    CHECK(sf.s.dtype() == rd);
    CHECK(diff(mat(sf.u, 0), eye(3)) == 0);
    CHECK(sf.vh.shape() == Dims{0, 0});
    const la::Svd sr = la::svd(Tensor::empty(d, {0, 2, 2}), la::SvdMode::Reduced);
    CHECK(sr.u.shape() == Dims{0, 0, 2});
    CHECK(sr.vh.shape() == Dims{0, 2, 2});
    CHECK(la::svd(empty_batch, la::SvdMode::ValuesOnly).s.shape() == Dims{3, 0});

    const la::LuFactor lf = la::lu_factor(Tensor::empty(d, {3, 0, 2}));
    CHECK(lf.lu.shape() == Dims{3, 0, 2});
    CHECK(lf.pivots.shape() == Dims{0, 2});
    CHECK(int_at(lf.info, {0}) == 0);
    CHECK(int_at(lf.info, {1}) == 0);
    CHECK(la::lu_factor(empty_batch).info.shape() == Dims{0});

    const la::LuFactorSolve s0 = la::lu_factor_solve(e00, Tensor::empty(d, {0, 2}));
    CHECK(s0.x.shape() == Dims{0, 2});
    CHECK(s0.pivots.shape() == Dims{0});
    // No right-hand sides: the factors are still computed.
    const Tensor a = random_tensor(d, {3, 3}, 3);
    const la::LuFactorSolve sk = la::lu_factor_solve(a, Tensor::empty(d, {3, 0}));
    CHECK(sk.x.shape() == Dims{3, 0});
    check_close(sk.lu, la::lu_factor(a).lu, 0);
    CHECK(la::lu_factor_solve(empty_batch, Tensor::empty(d, {3, 1, 0})).x.shape() == Dims{3, 1, 0});
    CHECK(la::lu_solve(e00, Tensor::empty(DType::I32, {0}), Tensor::empty(d, {0, 4}), la::Trans::No)
              .shape() == Dims{0, 4});
    CHECK(la::triangular_solve(e00, Tensor::empty(d, {2, 0}), true, false, false, la::Trans::No)
              .shape() == Dims{2, 0});
    CHECK(la::triangular_solve(empty_batch, Tensor::empty(d, {3, 2, 0}), false, true, true,
                               la::Trans::Transpose)
              .shape() == Dims{3, 2, 0});
  }
}
