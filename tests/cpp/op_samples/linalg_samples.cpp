// The linalg cases (linalg_samples.hpp).
#include "op_samples/linalg_samples.hpp"

#include "backend/cpu/kernels/kernels.hpp"
#include "linalg/derived.hpp"
#include "linalg/entries.hpp"
#include "linalg/truncated.hpp"
#include "support/tensor_testing.hpp"

namespace tfe::testing {
namespace {

namespace api = tfe::linalg::api;
using api::MatrixNorm;
using linalg::SvdMode;
using linalg::Trans;
using linalg::TriangularOptions;

DType doubled(DType d) {
  if (d == DType::F32) return DType::F64;
  if (d == DType::C32) return DType::C64;
  return d;
}

// Inputs are drawn in double precision and converted, so F32 samples equal the F64 ones.
Tensor draw(DType d, const Dims& shape, uint64_t seed, double scale = 1.0) {
  Tensor t = random_tensor(doubled(d), shape, seed);
  if (scale != 1.0)
    for_each_index(shape, [&](const Dims& i) { set_value(t, i, scale * value_at(t, i)); });
  return d == doubled(d) ? t : cpu::kernels::convert_to(t, d);
}

// Random plus shift on the diagonal of every matrix of the batch: well conditioned.
Tensor shifted(DType d, const Dims& shape, uint64_t seed, double shift = 3.0) {
  Tensor t = random_tensor(doubled(d), shape, seed);
  for_each_index(shape, [&](const Dims& i) {
    if (i[0] == i[1]) set_value(t, i, value_at(t, i) + shift);
  });
  return d == doubled(d) ? t : cpu::kernels::convert_to(t, d);
}

// An m x n matrix of rank r (a product of random m x r and r x n factors).
Tensor rank_deficient(DType d, int64_t m, int64_t n, int64_t r, uint64_t seed) {
  Tensor b = random_tensor(doubled(d), {m, r}, seed),
         c = random_tensor(doubled(d), {r, n}, seed + 1);
  Tensor t = Tensor::zeros(doubled(d), {m, n});
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      std::complex<double> s = 0;
      for (int64_t k = 0; k < r; ++k) s += value_at(b, {i, k}) * value_at(c, {k, j});
      set_value(t, {i, j}, s);
    }
  return d == doubled(d) ? t : cpu::kernels::convert_to(t, d);
}

// An n x n matrix of rank n-1 (n = 3) or n-2 (n = 4) whose LU has exactly zero pivots: rows
// that are exact multiples (powers of two) of others, times 1+i for complex dtypes.
Tensor singular(DType d, int64_t n) {
  std::vector<double> rows3{2, 1, 1, 4, 2, 3, 6, 3, 5}; // columns of [[2,4,6],[1,2,3],[1,3,5]]
  std::vector<double> rows4{2, 1, 1, 0.5, 4, 2, 3, 1.5, 6, 3, 5, 2.5, 8, 4, 7, 3.5};
  Tensor t = tensor_of(DType::C64, {n, n}, n == 3 ? rows3 : rows4);
  for_each_index(t.shape(), [&](const Dims& i) {
    set_value(t, i, value_at(t, i) * (is_complex(d) ? std::complex<double>(1, 1) : 1.0));
  });
  return cpu::kernels::convert_to(t, d);
}

using Maker = std::function<std::vector<LinalgSample>(DType)>;

// One input per sample, one per shape.
Maker one_input(std::vector<std::pair<std::string, Dims>> shapes, bool well_conditioned) {
  return [shapes, well_conditioned](DType d) {
    std::vector<LinalgSample> out;
    uint64_t seed = 1;
    for (const auto& [label, shape] : shapes)
      out.push_back(
          {label, {well_conditioned ? shifted(d, shape, seed++) : draw(d, shape, seed++)}});
    return out;
  };
}

const std::vector<std::pair<std::string, Dims>> kSquare = {{"square", {3, 3}},
                                                           {"batched", {3, 3, 2}}};
const std::vector<std::pair<std::string, Dims>> kAnyShape = {
    {"square", {3, 3}}, {"tall", {5, 3}}, {"wide", {3, 5}}, {"batched", {4, 3, 2}}};

// A system a x = b: square a, and a batched a with a b that broadcasts over its batch (and the
// other way round).
Maker system(int64_t b_rows_dim) {
  return [b_rows_dim](DType d) {
    auto rhs = [&](Dims batch, uint64_t seed) {
      Dims s = b_rows_dim == 0 ? Dims{3, 2} : Dims{2, 3};
      s.insert(s.end(), batch.begin(), batch.end());
      return draw(d, s, seed);
    };
    return std::vector<LinalgSample>{
        {"square", {shifted(d, {3, 3}, 1), rhs({}, 2)}},
        {"batched a, broadcast b", {shifted(d, {3, 3, 2}, 3), rhs({}, 4)}},
        {"broadcast a, batched b", {shifted(d, {3, 3}, 5), rhs({2}, 6)}}};
  };
}

template <class V> using Vs = std::vector<V>;
// A function of x (a std::vector<V>) for every value type V; the body may contain commas.
#define TFE_GENERIC(...)                                                                           \
  [=](const auto& x) {                                                                             \
    using V [[maybe_unused]] = typename std::decay_t<decltype(x)>::value_type;                     \
    __VA_ARGS__                                                                                    \
  }

// A Hermitian positive definite matrix from any square x: x x^H + 3 I, made exactly Hermitian.
template <class V> V spd(const V& x) {
  ops::Meta m = meta_of(x);
  Tensor eye = Tensor::zeros(m.dtype, ops::concrete_dims(m.shape));
  for_each_index(eye.shape(), [&](const Dims& i) {
    if (i[0] == i[1]) set_value(eye, i, 3.0);
  });
  return hermitian_part(
      binary(ops::OpCode::Add, eager::matmul(x, adjoint(x)), constant_of<V>(eye)));
}

// Functions of eig's outputs that do not depend on LAPACK's order of the eigenpairs (which may
// differ between single and double precision): the power sums of the eigenvalues, and each
// row's |v|^2 weighted by the eigenvalues.
template <class V> std::vector<V> eig_invariants(const V& w, const V* v) {
  V w2 = binary(ops::OpCode::Mul, w, w);
  std::array<int64_t, 1> first{0};
  std::vector<V> out{eager::sum(w, first), eager::sum(w2, first),
                     eager::sum(binary(ops::OpCode::Mul, w2, w), first)};
  if (v) {
    ops::Meta m = meta_of(*v);
    Dims dims{1};
    for (int64_t d = 2; d < static_cast<int64_t>(m.shape.size()); ++d) dims.push_back(d);
    std::array<V, 1> in{w};
    V spread = emit(ops::OpCode::BroadcastInDim, std::span<const V>(in),
                    ops::BroadcastInDimParams{m.shape, dims});
    std::array<int64_t, 1> cols{1};
    out.push_back(eager::sum(binary(ops::OpCode::Mul, abs2(*v), spread), cols));
  }
  return out;
}

std::vector<LinalgCase> build_cases() {
  std::vector<LinalgCase> c;
  auto add = [&](std::string c_function, EngineFunction f, Maker m, bool second_order = true,
                 double transpose_tol = 1e-10) {
    c.push_back({std::move(c_function), std::move(f), std::move(m), second_order, transpose_tol});
  };

  add("tfe_linalg_solve",
      engine_function("solve", TFE_GENERIC(return Vs<V>{api::solve(x[0], x[1])};)), system(0));
  for (TriangularOptions o : {TriangularOptions{false, true, false, Trans::No},
                              TriangularOptions{true, false, false, Trans::Transpose},
                              TriangularOptions{false, true, true, Trans::ConjTranspose},
                              TriangularOptions{true, true, false, Trans::No}})
    add("tfe_linalg_solve_triangular",
        engine_function("solve_triangular " + std::string(o.upper ? "upper " : "lower ") +
                            (o.left ? "left" : "right") + (o.unit_diagonal ? " unit" : "") +
                            (o.trans == Trans::No          ? ""
                             : o.trans == Trans::Transpose ? " T"
                                                           : " H"),
                        TFE_GENERIC(return Vs<V>{api::solve_triangular(x[0], x[1], o)};)),
        system(o.left ? 0 : 1));
  for (bool upper : {false, true}) {
    add("tfe_linalg_cholesky",
        engine_function(upper ? "cholesky upper" : "cholesky",
                        TFE_GENERIC(return Vs<V>{api::cholesky(spd(x[0]), upper)};)),
        one_input(kSquare, false));
    add("tfe_linalg_cholesky_ex",
        engine_function(upper ? "cholesky_ex upper" : "cholesky_ex lower",
                        TFE_GENERIC(return Vs<V>{api::cholesky(spd(x[0]), upper)};)),
        one_input(kSquare, false), false);
  }

  add("tfe_linalg_qr", engine_function("qr", TFE_GENERIC(return api::qr(x[0], false);)),
      one_input(kAnyShape, true));
  add("tfe_linalg_qr_ex",
      engine_function("qr complete (square)", TFE_GENERIC(return api::qr(x[0], true);)),
      one_input(kSquare, true));
  add("tfe_linalg_qr_ex",
      engine_function("qr positive diagonal",
                      TFE_GENERIC(return api::qr_gauged(x[0], false, true);)),
      one_input({{"tall", {4, 3}}, {"wide", {3, 4}}, {"batched", {3, 3, 2}}}, true));

  auto svd_invariants =
      TFE_GENERIC(std::vector<V> usv = api::svd(x[0], SvdMode::Reduced, 0.0);
                  return Vs<V>{usv[1], abs2(usv[0]), abs2(usv[2]), eager::matmul(usv[0], usv[2])};);
  add("tfe_linalg_svd", engine_function("svd", svd_invariants), one_input(kAnyShape, false));
  add("tfe_linalg_svd_ex",
      engine_function(
          "svd full (square)",
          TFE_GENERIC(std::vector<V> usv = api::svd(x[0], SvdMode::Full, 0.0);
                      return Vs<V>{usv[1], abs2(usv[0]), eager::matmul(usv[0], usv[2])};)),
      one_input(kSquare, false));
  add("tfe_linalg_svdvals",
      engine_function("svdvals", TFE_GENERIC(return Vs<V>{api::svdvals(x[0])};)),
      one_input(kAnyShape, false));
  // Rank 2 of 3: the derivative of the kept factors couples them to the discarded triplet.
  add("tfe_linalg_svd_truncated",
      engine_function(
          "svd truncated to rank 2",
          TFE_GENERIC(
              std::vector<V> usv = api::svd_truncated(x[0], api::SvdTruncation{2});
              return Vs<V>{usv[1], abs2(usv[0]), abs2(usv[2]), eager::matmul(usv[0], usv[2])};)),
      one_input(kAnyShape, false));
  add("tfe_linalg_qr_pivoted",
      engine_function("qr pivoted", TFE_GENERIC(std::vector<V> qrp = api::qr_pivoted(x[0], false);
                                                return Vs<V>{qrp[0], qrp[1]};)),
      one_input(kAnyShape, true));

  for (bool upper : {false, true}) {
    add("tfe_linalg_eigh",
        engine_function(upper ? "eigh upper" : "eigh",
                        TFE_GENERIC(std::vector<V> wv = api::eigh(hermitian_part(x[0]), upper, 0.0);
                                    return Vs<V>{wv[0], abs2(wv[1])};)),
        one_input(kSquare, false));
    add("tfe_linalg_eigvalsh",
        engine_function(upper ? "eigvalsh upper" : "eigvalsh",
                        TFE_GENERIC(return Vs<V>{api::eigvalsh(hermitian_part(x[0]), upper)};)),
        one_input(kSquare, false));
  }
  add("tfe_linalg_eigh_ex",
      engine_function("eigh with derivative_eps",
                      TFE_GENERIC(std::vector<V> wv = api::eigh(hermitian_part(x[0]), false, 1e-30);
                                  return Vs<V>{wv[0], abs2(wv[1])};)),
      one_input(kSquare, false));
  add("tfe_linalg_eig",
      engine_function("eig", TFE_GENERIC(std::vector<V> wv = api::eig(x[0], 0.0);
                                         return eig_invariants(wv[0], &wv[1]);)),
      one_input(kSquare, true));
  add("tfe_linalg_eig_ex",
      engine_function("eig with derivative_eps",
                      TFE_GENERIC(std::vector<V> wv = api::eig(x[0], 1e-30);
                                  return eig_invariants(wv[0], &wv[1]);)),
      one_input(kSquare, true));
  add("tfe_linalg_eigvals",
      engine_function("eigvals",
                      TFE_GENERIC(return eig_invariants(api::eigvals(x[0]), (const V*)nullptr);)),
      one_input(kSquare, true));

  add("tfe_linalg_inv", engine_function("inv", TFE_GENERIC(return Vs<V>{api::inv(x[0])};)),
      one_input(kSquare, true));
  add("tfe_linalg_det", engine_function("det", TFE_GENERIC(return Vs<V>{api::det(x[0])};)),
      one_input(kSquare, true));
  add("tfe_linalg_det",
      engine_function("det at singular matrices", TFE_GENERIC(return Vs<V>{api::det(x[0])};)),
      [](DType d) {
        return std::vector<LinalgSample>{{"rank N-1 (exactly zero pivot)", {singular(d, 3)}},
                                         {"rank N-2", {singular(d, 4)}},
                                         {"rank N-1, random", {rank_deficient(d, 4, 4, 3, 7)}}};
      });
  add("tfe_linalg_slogdet", engine_function("slogdet", TFE_GENERIC(return api::slogdet(x[0]);)),
      one_input(kSquare, true));
  add("tfe_linalg_lu_factor",
      engine_function("lu_factor", TFE_GENERIC(return Vs<V>{api::lu_factor(x[0])[0]};)),
      one_input(kAnyShape, true));
  for (Trans t : {Trans::No, Trans::Transpose, Trans::ConjTranspose})
    add("tfe_linalg_lu_solve",
        engine_function(std::string("lu_solve ") + "NTC"[static_cast<int>(t)],
                        TFE_GENERIC(std::vector<V> f = api::lu_factor(x[0]);
                                    return Vs<V>{api::lu_solve(f[0], f[1], x[1], t)};)),
        system(0));
  add("tfe_linalg_lu",
      engine_function("lu", TFE_GENERIC(std::vector<V> plu = api::lu(x[0]);
                                        return Vs<V>{eager::matmul(plu[0], plu[1]), plu[2]};)),
      one_input(kAnyShape, true));
  add("tfe_linalg_matrix_exp",
      engine_function("matrix_exp", TFE_GENERIC(return Vs<V>{api::matrix_exp(x[0])};)),
      [](DType d) {
        return std::vector<LinalgSample>{{"square", {draw(d, {3, 3}, 1, 0.3)}},
                                         {"square, scaled and squared", {draw(d, {3, 3}, 2, 4.0)}},
                                         {"batched", {draw(d, {3, 3, 2}, 3, 0.3)}}};
      });

  add("tfe_linalg_pinv",
      engine_function("pinv", TFE_GENERIC(return Vs<V>{api::pinv(x[0], -1.0, false)};)),
      one_input({{"tall", {4, 3}}, {"wide", {3, 4}}, {"batched", {3, 3, 2}}}, false));
  add("tfe_linalg_pinv",
      engine_function("pinv hermitian",
                      TFE_GENERIC(return Vs<V>{api::pinv(hermitian_part(x[0]), -1.0, true)};)),
      [](DType d) { // indefinite and well conditioned: eigenvalues near 3, -2 and 4
        auto make = [&](const Dims& shape, uint64_t seed) {
          Tensor t = draw(doubled(d), shape, seed, 0.3);
          for_each_index(shape, [&](const Dims& i) {
            if (i[0] == i[1]) set_value(t, i, value_at(t, i) + (i[0] == 1 ? -2.0 : 3.0 + i[0]));
          });
          return d == doubled(d) ? t : cpu::kernels::convert_to(t, d);
        };
        return std::vector<LinalgSample>{{"square", {make({3, 3}, 1)}},
                                         {"batched", {make({3, 3, 2}, 2)}}};
      });
  add(
      "tfe_linalg_pinv",
      engine_function("pinv rank-deficient (rtol 1e-3)",
                      TFE_GENERIC(return Vs<V>{api::pinv(x[0], 1e-3, false)};)),
      [](DType d) {
        return std::vector<LinalgSample>{{"tall, rank 2", {rank_deficient(d, 5, 4, 2, 1)}},
                                         {"wide, rank 2", {rank_deficient(d, 3, 5, 2, 3)}},
                                         {"square, rank 1", {rank_deficient(d, 3, 3, 1, 5)}}};
      },
      false); // first order only: see pinv.cpp
  add(
      "tfe_linalg_lstsq",
      engine_function("lstsq rank-deficient (rcond 1e-3)",
                      TFE_GENERIC(return Vs<V>{api::lstsq(x[0], x[1], 1e-3)};)),
      [](DType d) {
        return std::vector<LinalgSample>{
            {"tall, rank 2", {rank_deficient(d, 5, 4, 2, 1), draw(d, {5, 2}, 2)}}};
      },
      false);
  add("tfe_linalg_lstsq",
      engine_function("lstsq", TFE_GENERIC(return Vs<V>{api::lstsq(x[0], x[1], -1.0)};)),
      [](DType d) {
        return std::vector<LinalgSample>{
            {"tall", {draw(d, {5, 3}, 1), draw(d, {5, 2}, 2)}},
            {"wide (minimum norm)", {draw(d, {3, 5}, 3), draw(d, {3, 2}, 4)}},
            {"batched a, broadcast b", {draw(d, {4, 3, 2}, 5), draw(d, {4, 2}, 6)}}};
      });

  for (MatrixNorm ord :
       {MatrixNorm::Fro, MatrixNorm::Nuc, MatrixNorm::One, MatrixNorm::MinusOne, MatrixNorm::Two,
        MatrixNorm::MinusTwo, MatrixNorm::Inf, MatrixNorm::MinusInf}) {
    static const char* const names[] = {"fro", "nuc", "1", "-1", "2", "-2", "inf", "-inf"};
    add("tfe_linalg_matrix_norm",
        engine_function(std::string("matrix_norm ") + names[static_cast<int>(ord)],
                        TFE_GENERIC(return Vs<V>{api::matrix_norm(x[0], ord)};)),
        one_input({{"tall", {4, 3}}, {"wide", {3, 4}}, {"batched", {3, 3, 2}}}, false));
  }
  for (double ord : {1.0, 2.0, 3.5, double(INFINITY), -double(INFINITY)}) {
    add("tfe_linalg_vector_norm",
        engine_function("vector_norm " + std::to_string(ord),
                        TFE_GENERIC(std::array<int64_t, 1> axis{0}; return Vs<V>{
                            api::vector_norm(x[0], ord, axis), api::vector_norm(x[0], ord, {})};)),
        one_input({{"vector", {5}}, {"matrix", {4, 3}}}, false));
  }
  for (MatrixNorm ord : {MatrixNorm::Two, MatrixNorm::Fro, MatrixNorm::One, MatrixNorm::Nuc})
    add("tfe_linalg_cond",
        engine_function(std::string("cond ") + (ord == MatrixNorm::Two   ? "2"
                                                : ord == MatrixNorm::Fro ? "fro"
                                                : ord == MatrixNorm::One ? "1"
                                                                         : "nuc"),
                        TFE_GENERIC(return Vs<V>{api::cond(x[0], ord)};)),
        ord == MatrixNorm::Two
            ? one_input({{"square", {3, 3}}, {"tall", {5, 3}}, {"batched", {3, 3, 2}}}, true)
            : one_input(kSquare, true));
  for (int64_t n : {0, 1, 3, -2})
    add("tfe_linalg_matrix_power",
        engine_function("matrix_power " + std::to_string(n),
                        TFE_GENERIC(return Vs<V>{api::matrix_power(x[0], n)};)),
        one_input(kSquare, true));
  add("tfe_linalg_multi_dot",
      engine_function("multi_dot", TFE_GENERIC(return Vs<V>{api::multi_dot<V>(x)};)), [](DType d) {
        return std::vector<LinalgSample>{
            {"matrix chain, vector last",
             {draw(d, {2, 5}, 1), draw(d, {5, 3}, 2), draw(d, {3}, 3)}},
            {"vector first, four operands",
             {draw(d, {4}, 4), draw(d, {4, 4}, 5), draw(d, {4, 2}, 6), draw(d, {2, 5}, 7)}}};
      });
  add("tfe_linalg_vecdot",
      engine_function("vecdot", TFE_GENERIC(return Vs<V>{api::vecdot(x[0], x[1], 0)};)),
      [](DType d) {
        return std::vector<LinalgSample>{{"matrix", {draw(d, {4, 2}, 1), draw(d, {4, 2}, 2)}},
                                         {"broadcast", {draw(d, {4, 2}, 3), draw(d, {4}, 4)}}};
      });
  add("tfe_linalg_vander",
      engine_function("vander", TFE_GENERIC(return Vs<V>{api::vander(x[0], 4)};)),
      one_input({{"vector", {4}}, {"batched", {3, 2}}}, false));
  add("tfe_linalg_tensorinv",
      engine_function("tensorinv",
                      TFE_GENERIC(std::array<V, 1> in{x[0]};
                                  V a = emit(ops::OpCode::Reshape, std::span<const V>(in),
                                             ops::ReshapeParams{Shape{2, 3, 6}});
                                  return Vs<V>{api::tensorinv(a, 2)};)),
      [](DType d) {
        return std::vector<LinalgSample>{{"tensor [2,3,6]", {shifted(d, {6, 6}, 1)}}};
      });
  add("tfe_linalg_tensorsolve",
      engine_function("tensorsolve",
                      TFE_GENERIC(std::array<V, 1> in{x[0]};
                                  V a = emit(ops::OpCode::Reshape, std::span<const V>(in),
                                             ops::ReshapeParams{Shape{2, 3, 6}});
                                  return Vs<V>{api::tensorsolve(a, x[1])};)),
      [](DType d) {
        return std::vector<LinalgSample>{
            {"tensor [2,3,6] and [2,3]", {shifted(d, {6, 6}, 1), draw(d, {2, 3}, 2)}}};
      });
  // The rank is a constant of the inputs: these check that it is (zero derivative in every
  // engine) and agrees between engines; the rank-deficient case builds x x^H of rank 2 inside
  // the function and counts with an explicit rtol far from both clusters of singular values.
  add("tfe_linalg_matrix_rank",
      engine_function(
          "matrix_rank",
          TFE_GENERIC(std::array<int64_t, 2> m{0, 1};
                      V r = eager::cast(api::matrix_rank(x[0], 0, -1, false), meta_of(x[0]).dtype);
                      return Vs<V>{binary(ops::OpCode::Mul, eager::sum(x[0], m), r)};)),
      one_input(kAnyShape, true));
  add("tfe_linalg_matrix_rank",
      engine_function(
          "matrix_rank of x x^H, rtol",
          TFE_GENERIC(std::array<int64_t, 2> m{0, 1}; V a = eager::matmul(x[0], adjoint(x[0]));
                      V r = eager::cast(api::matrix_rank(a, 0, 1e-3, false), meta_of(a).dtype);
                      return Vs<V>{binary(ops::OpCode::Mul, eager::sum(a, m), r)};)),
      [](DType d) {
        return std::vector<LinalgSample>{{"rank 2 of 4", {draw(d, {4, 2}, 1)}}};
      });
  add("tfe_linalg_logdet",
      engine_function("logdet of a positive definite matrix",
                      TFE_GENERIC(return Vs<V>{api::logdet(spd(x[0]))};)),
      one_input(kSquare, false));
  for (bool upper : {false, true})
    add("tfe_linalg_cholesky_solve",
        engine_function(upper ? "cholesky_solve upper" : "cholesky_solve",
                        TFE_GENERIC(return Vs<V>{api::cholesky_solve(x[0], x[1], upper)};)),
        system(0));
  add("tfe_linalg_polar", engine_function("polar", TFE_GENERIC(return linalg::entry::polar(x[0]);)),
      one_input(kAnyShape, true));
  return c;
}

} // namespace

const std::vector<LinalgCase>& linalg_cases() {
  static const std::vector<LinalgCase> cases = build_cases();
  return cases;
}

} // namespace tfe::testing
