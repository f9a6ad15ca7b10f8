// Linalg benchmarks, through the C ABI, each against direct LAPACKE `_work` calls doing
// the same work (copy the input, factor, write the outputs) in the same process:
//   L1 solve, qr, eigh, svd, cholesky, lu_factor at n = 100, 500, 1000 (F64; goal <= 1.05 at
//      n >= 500, <= 1.25 at 100);
//   L2 a batch of 10 000 4x4 solve / cholesky / qr / eigh / svd vs a LAPACKE loop (<= 1.3);
//   L3 forward + backward (VJP) at n = 512 for solve, qr, eigh, svd, cholesky vs the untracked
//      forward: the ratio PyTorch 1.13 gets for the same work is printed by
//      bench/linalg_torch.py (no goal here: the table reports the figure).
#include <lapacke.h>
#include <tenferro/tenferro.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "ratio_reporter.hpp"

namespace {

using tfe_bench::bench_context;

// Column-major data of `count` matrices n x n, well conditioned (+ n on the diagonal) and, for
// cholesky and eigh, symmetric positive definite.
std::vector<double> matrices(int64_t n, int64_t count, bool spd) {
  std::vector<double> a(static_cast<size_t>(n * n * count));
  uint64_t s = 12345;
  for (double& v : a) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    v = static_cast<double>(s >> 11) / 9007199254740992.0 - 0.5;
  }
  for (int64_t b = 0; b < count; ++b) {
    double* m = a.data() + b * n * n;
    if (spd)
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < i; ++j) m[i + j * n] = m[j + i * n];
    for (int64_t i = 0; i < n; ++i) m[i + i * n] += static_cast<double>(n);
  }
  return a;
}

tfe_tensor* tensor(const std::vector<double>& v, std::vector<int64_t> shape, bool tracked = false) {
  tfe_tensor* t = nullptr;
  CHECK_TFE(tfe_tensor_from_data(&t, bench_context(), TFE_F64, static_cast<int32_t>(shape.size()),
                                 shape.data(), nullptr, v.data()));
  if (tracked) CHECK_TFE(tfe_tensor_set_requires_grad(t, 1));
  return t;
}

enum class Op { Solve, Qr, Eigh, Svd, Cholesky, Lu };
const char* name_of(Op op) {
  switch (op) {
  case Op::Solve: return "solve";
  case Op::Qr: return "qr";
  case Op::Eigh: return "eigh";
  case Op::Svd: return "svd";
  case Op::Cholesky: return "cholesky";
  case Op::Lu: return "lu_factor";
  }
  return "?";
}
bool needs_spd(Op op) { return op == Op::Eigh || op == Op::Cholesky; }

// Runs op on a [n,n,batch] (and b [n,1,batch] for solve); returns the outputs.
std::vector<tfe_tensor*> run_ours(Op op, tfe_tensor* a, tfe_tensor* b) {
  std::vector<tfe_tensor*> out(3, nullptr);
  switch (op) {
  case Op::Solve: CHECK_TFE(tfe_linalg_solve(&out[0], a, b)); break;
  case Op::Qr: CHECK_TFE(tfe_linalg_qr(&out[0], &out[1], a)); break;
  case Op::Eigh: CHECK_TFE(tfe_linalg_eigh(&out[0], &out[1], a)); break;
  case Op::Svd: CHECK_TFE(tfe_linalg_svd(&out[0], &out[1], &out[2], a)); break;
  case Op::Cholesky: CHECK_TFE(tfe_linalg_cholesky(&out[0], a)); break;
  case Op::Lu: CHECK_TFE(tfe_linalg_lu_factor(&out[0], &out[1], &out[2], a)); break;
  }
  return out;
}

void release(std::vector<tfe_tensor*>& ts) {
  for (tfe_tensor*& t : ts) {
    tfe_tensor_release(t);
    t = nullptr;
  }
}

// The LAPACKE baseline: per matrix, copy into the output buffers and factor there with one
// workspace query for the whole batch (what a careful hand-written loop does).
struct Baseline {
  Op op;
  int64_t n, batch;
  std::vector<double> a, b, out, out2, out3, work;
  std::vector<lapack_int> ipiv, iwork;
  lapack_int lwork = 0, liwork = 0;

  Baseline(Op o, int64_t n_, int64_t count) : op(o), n(n_), batch(count) {
    a = matrices(n, batch, needs_spd(op));
    b.assign(static_cast<size_t>(n * batch), 1.0);
    out.resize(static_cast<size_t>(n * n * batch));
    out2.resize(static_cast<size_t>(n * n * batch));
    out3.resize(static_cast<size_t>(n * n * batch));
    ipiv.resize(static_cast<size_t>(n * batch));
    lapack_int ln = static_cast<lapack_int>(n), info = 0;
    double q = 0;
    lapack_int qi = 0;
    switch (op) {
    case Op::Qr:
      info = LAPACKE_dgeqrf_work(LAPACK_COL_MAJOR, ln, ln, out.data(), ln, out2.data(), &q, -1);
      lwork = static_cast<lapack_int>(q);
      info |=
          LAPACKE_dorgqr_work(LAPACK_COL_MAJOR, ln, ln, ln, out.data(), ln, out2.data(), &q, -1);
      lwork = std::max(lwork, static_cast<lapack_int>(q));
      break;
    case Op::Eigh:
      info = LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, 'V', 'L', ln, out.data(), ln, out2.data(), &q,
                                 -1, &qi, -1);
      lwork = static_cast<lapack_int>(q);
      liwork = qi;
      break;
    case Op::Svd:
      iwork.resize(static_cast<size_t>(8 * n));
      info = LAPACKE_dgesdd_work(LAPACK_COL_MAJOR, 'S', ln, ln, out.data(), ln, out2.data(),
                                 out3.data(), ln, out3.data(), ln, &q, -1, iwork.data());
      lwork = static_cast<lapack_int>(q);
      break;
    default: break;
    }
    if (info != 0) std::abort();
    work.resize(static_cast<size_t>(std::max<lapack_int>(lwork, 1)));
    iwork.resize(static_cast<size_t>(std::max<lapack_int>({liwork, 8 * ln, 1})));
  }

  void run() {
    lapack_int ln = static_cast<lapack_int>(n);
    size_t nn = static_cast<size_t>(n * n);
    for (int64_t k = 0; k < batch; ++k) {
      const double* src = a.data() + k * n * n;
      double* m = out.data() + k * n * n;
      std::memcpy(m, src, nn * sizeof(double));
      lapack_int* piv = ipiv.data() + k * n;
      lapack_int info = 0;
      switch (op) {
      case Op::Solve: {
        double* x = out2.data() + k * n;
        std::memcpy(x, b.data() + k * n, static_cast<size_t>(n) * sizeof(double));
        info = LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, ln, ln, m, ln, piv);
        info |= LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', ln, 1, m, ln, piv, x, ln);
        break;
      }
      case Op::Lu: info = LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, ln, ln, m, ln, piv); break;
      case Op::Cholesky:
        info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', ln, m, ln);
        for (int64_t j = 1; j < n; ++j) std::memset(m + j * n, 0, static_cast<size_t>(j) * 8);
        break;
      case Op::Qr: {
        double* tau = out3.data() + k * n;
        info = LAPACKE_dgeqrf_work(LAPACK_COL_MAJOR, ln, ln, m, ln, tau, work.data(), lwork);
        double* r = out2.data() + k * n * n;
        for (int64_t j = 0; j < n; ++j)
          for (int64_t i = 0; i < n; ++i) r[i + j * n] = i <= j ? m[i + j * n] : 0.0;
        info |= LAPACKE_dorgqr_work(LAPACK_COL_MAJOR, ln, ln, ln, m, ln, tau, work.data(), lwork);
        break;
      }
      case Op::Eigh:
        info = LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, 'V', 'L', ln, m, ln, out2.data() + k * n,
                                   work.data(), lwork, iwork.data(), liwork);
        break;
      case Op::Svd: {
        double* u = out3.data() + k * n * n;
        double* s = b.data() + k * n;
        double* vt = out2.data() + k * n * n;
        info = LAPACKE_dgesdd_work(LAPACK_COL_MAJOR, 'S', ln, ln, m, ln, s, u, ln, vt, ln,
                                   work.data(), lwork, iwork.data());
        break;
      }
      }
      if (info != 0) std::abort();
    }
  }
};

void in_ms(std::pair<benchmark::internal::Benchmark*, benchmark::internal::Benchmark*> b) {
  b.first->Unit(benchmark::kMillisecond);
  b.second->Unit(benchmark::kMillisecond);
}

void register_forward(const std::string& goal, Op op, int64_t n, int64_t batch, double limit) {
  std::string name = std::string(name_of(op)) +
                     (batch > 1 ? "_batch" + std::to_string(batch) + "_n" + std::to_string(n)
                                : "_n" + std::to_string(n));
  auto baseline = [op, n, batch](benchmark::State& state) {
    Baseline base(op, n, batch);
    for (auto _ : state) base.run();
  };
  auto ours = [op, n, batch](benchmark::State& state) {
    std::vector<int64_t> shape{n, n};
    if (batch > 1) shape.push_back(batch);
    tfe_tensor* a = tensor(matrices(n, batch, needs_spd(op)), shape);
    std::vector<int64_t> bshape{n, 1};
    if (batch > 1) bshape.push_back(batch);
    tfe_tensor* b = tensor(std::vector<double>(static_cast<size_t>(n * batch), 1.0), bshape);
    for (auto _ : state) {
      std::vector<tfe_tensor*> out = run_ours(op, a, b);
      release(out);
    }
    tfe_tensor_release(a);
    tfe_tensor_release(b);
  };
  in_ms(tfe_bench::register_case(goal, name, tfe_bench::Goal::ratio(limit), baseline, ours));
}

// L3: sum of every float output, backward to a tracked A (and B), vs the untracked forward.
void register_vjp(Op op, int64_t n) {
  auto forward = [op, n](benchmark::State& state) {
    tfe_tensor* a = tensor(matrices(n, 1, needs_spd(op)), {n, n});
    tfe_tensor* b = tensor(std::vector<double>(static_cast<size_t>(n), 1.0), {n, 1});
    for (auto _ : state) {
      std::vector<tfe_tensor*> out = run_ours(op, a, b);
      release(out);
    }
    tfe_tensor_release(a);
    tfe_tensor_release(b);
  };
  auto backward = [op, n](benchmark::State& state) {
    tfe_tensor* a = tensor(matrices(n, 1, needs_spd(op)), {n, n}, true);
    tfe_tensor* b = tensor(std::vector<double>(static_cast<size_t>(n), 1.0), {n, 1}, true);
    for (auto _ : state) {
      std::vector<tfe_tensor*> out = run_ours(op, a, b);
      tfe_tensor* loss = nullptr;
      for (tfe_tensor* o : out) {
        if (!o) continue;
        tfe_tensor *s = nullptr, *next = nullptr;
        CHECK_TFE(tfe_sum(&s, o, 0, nullptr));
        if (!loss) {
          loss = s;
          continue;
        }
        CHECK_TFE(tfe_add(&next, loss, s));
        tfe_tensor_release(loss);
        tfe_tensor_release(s);
        loss = next;
      }
      CHECK_TFE(tfe_backward(loss, nullptr));
      tfe_tensor_release(loss);
      release(out);
      CHECK_TFE(tfe_tensor_clear_grad(a));
      CHECK_TFE(tfe_tensor_clear_grad(b));
    }
    tfe_tensor_release(a);
    tfe_tensor_release(b);
  };
  in_ms(tfe_bench::register_case("L3", std::string(name_of(op)) + "_vjp_n" + std::to_string(n),
                                 tfe_bench::Goal::ratio(1e9), forward, backward));
}

} // namespace

int main(int argc, char** argv) {
  for (Op op : {Op::Solve, Op::Qr, Op::Eigh, Op::Svd, Op::Cholesky, Op::Lu})
    for (int64_t n : {100, 500, 1000}) register_forward("L1", op, n, 1, n >= 500 ? 1.05 : 1.25);
  for (Op op : {Op::Solve, Op::Cholesky, Op::Qr, Op::Eigh, Op::Svd})
    register_forward("L2", op, 4, 10000, 1.3);
  for (Op op : {Op::Solve, Op::Qr, Op::Eigh, Op::Svd, Op::Cholesky}) register_vjp(op, 512);
  return tfe_bench::run(argc, argv);
}
