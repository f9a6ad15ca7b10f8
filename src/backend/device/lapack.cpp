// Dense linear algebra on an accelerator (lapack.hpp).
#include "backend/device/lapack.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "backend/cpu/kernel.hpp"
#include "backend/cpu/lapack/batch.hpp"
#include "backend/device/kernels.hpp"
#include "backend/device/plugin.hpp"
#include "backend/execute.hpp"
#include "core/error.hpp"

namespace tfe::device::lapack {
namespace {

using cpu::lapack::detail::batch_count;
using cpu::lapack::detail::batch_shape;
using cpu::lapack::detail::matrix_shape;
using cpu::lapack::detail::require_float_matrix;
using cpu::lapack::detail::require_square;
using cpu::lapack::detail::vector_shape;
using ops::OpCode;

// The plugin serving the device of t, and the calls on it.
struct Solver {
  Device d;
  const tfe_device_plugin& api;
  explicit Solver(const Tensor& t) : d(t.device()), api(serving(d)) {}

  // An entry the plugin lacks (null in its table) is NotSupported, never a crash.
  template <class F> F entry(F f, const char* routine) const {
    if (!f)
      fail(Status::NotSupported, "the %s plugin has no %s (on %s)", api.name, routine,
           device_name(d).c_str());
    return f;
  }
  void run(int32_t status, const char* what) const { check(api, status, what); }
};

int32_t code(DType t) { return static_cast<int32_t>(t); }
void* ptr(const Tensor& t) { return t.raw_data(); }
int32_t* ints(const Tensor& t) { return t.data<int32_t>(); }
char trans_char(Trans t) { return t == Trans::No ? 'N' : t == Trans::Transpose ? 'T' : 'C'; }

Tensor run_op(OpCode op, std::initializer_list<Tensor> in, const ops::Params& p) {
  return backend::execute(op, std::vector<Tensor>(in), p);
}

// The lower (upper = false) or upper triangle of a, zeros elsewhere, as a fresh tensor.
Tensor triangle(const Tensor& a, bool upper) {
  return run_op(upper ? OpCode::Triu : OpCode::Tril, {a}, ops::TriangleParams{0});
}

// Identity matrices [n, n, batch dims of like] of like's dtype on like's device (the unitary
// factors of empty decompositions, as on the host).
Tensor identities(int64_t n, const Tensor& like) {
  const Dims shape = matrix_shape(n, n, like);
  auto iota = [&](int64_t axis) {
    return cpu::execute(OpCode::Iota, {}, ops::IotaParams{DType::I64, Shape(shape), axis});
  };
  std::array<Tensor, 2> rc{iota(0), iota(1)};
  Tensor eq = cpu::execute(OpCode::Compare, rc, ops::CompareParams{ops::CompareDir::Eq});
  std::array<Tensor, 1> e{eq};
  return to_device(cpu::execute(OpCode::Convert, e, ops::ConvertParams{like.dtype()}),
                   like.device());
}

// The linear batch index of the first matrix of a (compact [m, n, batch...] on a device) holding
// NaN or inf in the part a solver reads (the whole matrix, or one triangle), or -1. One
// reduction and one small read: x * 0 is 0 exactly for finite x.
enum class Part { Whole, Lower, Upper };
int64_t first_non_finite(const Tensor& a, Part part) {
  Tensor x = part == Part::Whole ? a : triangle(a, part == Part::Upper);
  Tensor zero = Tensor::zeros(a.dtype(), {});
  Tensor z = run_op(OpCode::Mul, {x, zero.with_layout(x.shape(), Dims(x.shape().size(), 0), 0)},
                    ops::NoParams{});
  Tensor per_matrix = to_device(run_op(OpCode::ReduceSum, {z}, ops::AxesParams{{0, 1}}), {});
  const bool single = a.dtype() == DType::F32 || a.dtype() == DType::C32;
  const int64_t parts = is_complex(a.dtype()) ? 2 : 1;
  for (int64_t i = 0; i < per_matrix.numel(); ++i)
    for (int64_t p = 0; p < parts; ++p) {
      const int64_t at = i * parts + p;
      const double v = single ? static_cast<double>(per_matrix.data<float>()[at])
                              : per_matrix.data<double>()[at];
      if (v != 0) return i;
    }
  return -1;
}

// The first matrix whose solver info is non-zero and that info, or {-1, 0}: one read of batch
// int32 values.
std::pair<int64_t, int32_t> first_failure(const Tensor& info, int64_t count) {
  Tensor h = to_device(info, {});
  const int32_t* v = h.data<int32_t>();
  for (int64_t b = 0; b < count; ++b)
    if (v[b] != 0) return {b, v[b]};
  return {-1, 0};
}

// Runs solve(count, info) on the matrices before the first one holding NaN or inf in `part` (the
// solver sees finite values only); then fails as the host does, with the first failure in batch
// order: a matrix whose info is non-zero, or the one holding NaN or inf. `what` names the
// decomposition in the message.
template <class F>
void converging(const Tensor& w, Part part, int64_t batch, const char* what, F&& solve) {
  const int64_t bad = first_non_finite(w, part);
  const int64_t count = bad < 0 ? batch : bad;
  Tensor info = empty(w.device(), DType::I32, {batch});
  if (count > 0) solve(count, ints(info));
  const int64_t failed = first_failure(info, count).first;
  if (failed >= 0)
    fail(Status::NonConvergence, "the %s of batch %lld did not converge", what,
         static_cast<long long>(failed));
  if (bad >= 0)
    fail(Status::NonConvergence,
         "the %s of batch %lld did not converge (the matrix holds NaN or inf)", what,
         static_cast<long long>(bad));
}

DType real_of(DType t) { return t == DType::C32 ? DType::F32 : t == DType::C64 ? DType::F64 : t; }
DType complex_of(DType t) {
  return t == DType::F32 ? DType::C32 : t == DType::F64 ? DType::C64 : t;
}

} // namespace

Tensor cholesky(const Tensor& a, bool upper) {
  require_float_matrix("cholesky", a, "a");
  require_square("cholesky", a, "a");
  const int64_t n = a.dim(0), batch = batch_count(a);
  Tensor w = copy(a);
  if (n == 0 || batch == 0) return w;
  const Solver s(a);
  // The plugin sees finite values only: the matrices before the first NaN or inf are factored
  // (so a failure among them is reported first, as on the host), then that one fails.
  const int64_t bad = first_non_finite(w, upper ? Part::Upper : Part::Lower);
  const int64_t count = bad < 0 ? batch : bad;
  Tensor info = empty(s.d, DType::I32, batch_shape(a));
  if (count > 0)
    s.run(s.entry(s.api.potrf, "potrf")(s.d.ordinal, code(a.dtype()), upper, n, count, ptr(w),
                                        ints(info)),
          "cholesky on the device");
  auto [b, order] = first_failure(info, count);
  if (b >= 0)
    fail(Status::Numerical,
         "the matrix of batch %lld is not positive definite (leading minor of order %lld)",
         static_cast<long long>(b), static_cast<long long>(order));
  if (bad >= 0)
    fail(Status::Numerical,
         "the matrix of batch %lld is not positive definite (it holds NaN or inf)",
         static_cast<long long>(bad));
  return triangle(w, upper);
}

cpu::lapack::Qr qr(const Tensor& a, bool complete) {
  require_float_matrix("qr", a, "a");
  const int64_t m = a.dim(0), n = a.dim(1), k = std::min(m, n), batch = batch_count(a);
  const int64_t qcols = complete ? m : k, rrows = complete ? m : k;
  const Device d = a.device();
  if (batch == 0 || k == 0) // R is empty; a complete Q is any unitary matrix: the identity
    return {qcols > 0 && batch > 0 ? identities(m, a)
                                   : empty(d, a.dtype(), matrix_shape(m, qcols, a)),
            empty(d, a.dtype(), matrix_shape(rrows, n, a))};
  const Solver s(a);
  Tensor f = copy(a);
  Tensor tau = empty(d, a.dtype(), vector_shape(k, a));
  s.run(s.entry(s.api.geqrf, "geqrf")(d.ordinal, code(a.dtype()), m, n, batch, ptr(f), ptr(tau)),
        "qr on the device");
  // R: the first rrows rows of the factored matrix, zeros below the diagonal.
  Tensor r = triangle(f.with_layout(matrix_shape(rrows, n, a), f.strides(), f.offset()), true);
  // Q starts from the reflectors: f's first qcols columns, or all of f inside a wider Q.
  Tensor q;
  if (qcols <= n) {
    q = copy(f.with_layout(matrix_shape(m, qcols, a), f.strides(), f.offset()));
  } else {
    q = empty(d, a.dtype(), matrix_shape(m, qcols, a));
    Tensor head = q.with_layout(f.shape(), q.strides(), q.offset());
    copy_into(head, f);
  }
  s.run(s.entry(s.api.orgqr, "orgqr")(d.ordinal, code(a.dtype()), m, qcols, k, batch, ptr(q),
                                      ptr(tau)),
        "qr on the device");
  return {q, r};
}

cpu::lapack::Svd svd(const Tensor& a, SvdMode mode) {
  require_float_matrix("svd", a, "a");
  const int64_t m = a.dim(0), n = a.dim(1), k = std::min(m, n), batch = batch_count(a);
  const bool vectors = mode != SvdMode::ValuesOnly, full = mode == SvdMode::Full;
  const int64_t ucols = full ? m : k, vrows = full ? n : k;
  const Device d = a.device();
  cpu::lapack::Svd out;
  out.s = empty(d, real_of(a.dtype()), vector_shape(k, a));
  if (vectors) {
    out.u = empty(d, a.dtype(), matrix_shape(m, ucols, a));
    out.vh = empty(d, a.dtype(), matrix_shape(vrows, n, a));
  }
  if (batch == 0) return out;
  if (k == 0) { // no singular values; full U and Vh are any unitary matrices: identities
    if (full) {
      out.u = identities(m, a);
      out.vh = identities(n, a);
    }
    return out;
  }
  const Solver s(a);
  Tensor w = copy(a);
  converging(w, Part::Whole, batch, "SVD", [&](int64_t count, int32_t* info) {
    s.run(s.entry(s.api.gesvd, "gesvd")(
              d.ordinal, code(a.dtype()), vectors ? (full ? 2 : 1) : 0, m, n, count, ptr(w),
              ptr(out.s), vectors ? ptr(out.u) : nullptr, vectors ? ptr(out.vh) : nullptr, info),
          "svd on the device");
  });
  return out;
}

cpu::lapack::Eigh eigh(const Tensor& a, bool upper, bool vectors) {
  require_float_matrix("eigh", a, "a");
  require_square("eigh", a, "a");
  const int64_t n = a.dim(0), batch = batch_count(a);
  const Device d = a.device();
  cpu::lapack::Eigh out;
  out.w = empty(d, real_of(a.dtype()), vector_shape(n, a));
  if (n == 0 || batch == 0) {
    if (vectors) out.v = empty(d, a.dtype(), a.shape());
    return out;
  }
  const Solver s(a);
  // Only the read triangle goes to the solver (the other is zeroed), as on the host.
  Tensor v = triangle(a, upper);
  converging(v, Part::Whole, batch, "eigendecomposition", [&](int64_t count, int32_t* info) {
    s.run(s.entry(s.api.syevd, "syevd")(d.ordinal, code(a.dtype()), upper, vectors, n, count,
                                        ptr(v), ptr(out.w), info),
          "eigh on the device");
  });
  if (vectors) out.v = v;
  return out;
}

cpu::lapack::Eig eig(const Tensor& a, bool vectors) {
  require_float_matrix("eig", a, "a");
  require_square("eig", a, "a");
  const int64_t n = a.dim(0), batch = batch_count(a);
  const Device d = a.device();
  const DType cd = complex_of(a.dtype());
  cpu::lapack::Eig out;
  out.w = empty(d, cd, vector_shape(n, a));
  if (vectors) out.v = empty(d, cd, matrix_shape(n, n, a));
  if (n == 0 || batch == 0) return out;
  const Solver s(a);
  Tensor w = copy(a);
  converging(w, Part::Whole, batch, "eigendecomposition", [&](int64_t count, int32_t* info) {
    s.run(s.entry(s.api.geev, "geev")(d.ordinal, code(a.dtype()), vectors, n, count, ptr(w),
                                      ptr(out.w), vectors ? ptr(out.v) : nullptr, info),
          "eig on the device");
  });
  return out;
}

cpu::lapack::LuFactor lu_factor(const Tensor& a) {
  require_float_matrix("lu_factor", a, "a");
  const int64_t m = a.dim(0), n = a.dim(1), k = std::min(m, n), batch = batch_count(a);
  const Device d = a.device();
  cpu::lapack::LuFactor out{copy(a), empty(d, DType::I32, vector_shape(k, a)), {}};
  if (k == 0 || batch == 0) {
    out.info = to_device(Tensor::zeros(DType::I32, batch_shape(a)), d);
    return out;
  }
  const Solver s(a);
  out.info = empty(d, DType::I32, batch_shape(a));
  // The info stays on the device as the third output: lu_factor reads no status.
  s.run(s.entry(s.api.getrf, "getrf")(d.ordinal, code(a.dtype()), m, n, batch, ptr(out.lu),
                                      ints(out.pivots), ints(out.info)),
        "lu_factor on the device");
  return out;
}

cpu::lapack::LuFactorSolve lu_factor_solve(const Tensor& a, const Tensor& b) {
  cpu::lapack::detail::require_solve_operands(a, b);
  const int64_t n = a.dim(0), nrhs = b.dim(1), batch = batch_count(a);
  const Device d = a.device();
  cpu::lapack::LuFactorSolve out{copy(b), copy(a), empty(d, DType::I32, vector_shape(n, a))};
  if (n == 0 || batch == 0) return out;
  const Solver s(a);
  // No singularity round trip (backend/lapack.hpp): the info is computed and not read.
  Tensor info = empty(d, DType::I32, batch_shape(a));
  s.run(s.entry(s.api.getrf, "getrf")(d.ordinal, code(a.dtype()), n, n, batch, ptr(out.lu),
                                      ints(out.pivots), ints(info)),
        "solve on the device");
  if (nrhs > 0)
    s.run(s.entry(s.api.getrs, "getrs")(d.ordinal, code(a.dtype()), 'N', n, nrhs, batch,
                                        ptr(out.lu), ints(out.pivots), ptr(out.x)),
          "solve on the device");
  return out;
}

Tensor lu_solve(const Tensor& lu, const Tensor& pivots, const Tensor& b, Trans trans) {
  cpu::lapack::detail::require_lu_solve_operands(lu, pivots, b);
  const int64_t n = lu.dim(0), nrhs = b.dim(1), batch = batch_count(lu);
  Tensor x = copy(b);
  if (n == 0 || nrhs == 0 || batch == 0) return x;
  const Solver s(lu);
  // Caller's pivots steer the solver's row swaps: they are checked on the host first (one read),
  // with U's diagonal, as the host backend checks them.
  Tensor piv = compact(pivots);
  Tensor host_piv = to_device(piv, {});
  Tensor lu_c = compact(lu);
  std::array<Tensor, 1> in{lu_c};
  Tensor diag = to_device(backend::execute(OpCode::ExtractDiag, in, ops::DiagParams{0, 1}), {});
  const int32_t* p = host_piv.data<int32_t>();
  const int64_t parts = is_complex(lu.dtype()) ? 2 : 1;
  const bool single = real_of(lu.dtype()) == DType::F32;
  for (int64_t i = 0; i < batch; ++i)
    for (int64_t j = 0; j < n; ++j) {
      const int32_t v = p[i * n + j];
      if (v < 1 || v > n)
        fail(Status::InvalidArgument, "pivot %lld of batch %lld is %d, outside [1, %lld]",
             static_cast<long long>(j), static_cast<long long>(i), static_cast<int>(v),
             static_cast<long long>(n));
      bool zero = true;
      for (int64_t q = 0; q < parts; ++q) {
        const int64_t at = (i * n + j) * parts + q;
        const double e =
            single ? static_cast<double>(diag.data<float>()[at]) : diag.data<double>()[at];
        zero = zero && e == 0;
      }
      if (zero)
        fail(Status::Singular,
             "the factors of batch %lld are singular (U[%lld,%lld] is exactly zero)",
             static_cast<long long>(i), static_cast<long long>(j), static_cast<long long>(j));
    }
  s.run(s.entry(s.api.getrs, "getrs")(s.d.ordinal, code(lu.dtype()), trans_char(trans), n, nrhs,
                                      batch, ptr(lu_c), ints(piv), ptr(x)),
        "lu_solve on the device");
  return x;
}

Tensor triangular_solve(const Tensor& a, const Tensor& b, bool upper, bool left, bool unit_diagonal,
                        Trans trans) {
  cpu::lapack::detail::require_triangular_solve_operands(a, b, left);
  const int64_t m = b.dim(0), n = b.dim(1), batch = batch_count(b);
  Tensor x = copy(b);
  if (m == 0 || n == 0 || batch == 0) return x;
  const Solver s(a);
  Tensor ac = compact(a); // a broadcast batch becomes one matrix per right-hand side
  s.run(s.entry(s.api.trsm, "trsm")(s.d.ordinal, code(a.dtype()), left, upper, trans_char(trans),
                                    unit_diagonal, m, n, batch, ptr(ac), ptr(x)),
        "triangular_solve on the device");
  return x;
}

} // namespace tfe::device::lapack
