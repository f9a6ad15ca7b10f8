// Implementation of the AD checks (ad_checks.hpp).
#include "support/ad_checks.hpp"

#include <cmath>
#include <sstream>

#include "ad/builder.hpp"
#include "backend/cpu/kernels/kernels.hpp"

namespace tfe::testing {

std::vector<Tensor> run_program(const graph::Program& p, const std::vector<Tensor>& args) {
  std::vector<ops::ConcreteMeta> metas;
  for (const Tensor& t : args) metas.push_back({t.dtype(), t.shape()});
  std::vector<Tensor> captured;
  for (const graph::Value& c : p.captured) captured.push_back(c.node->captured);
  return graph::execute(*graph::compile(p, metas), args, captured);
}

double real_inner(const Tensor& a, const Tensor& b) {
  double s = 0;
  for_each_index(a.shape(),
                 [&](const Dims& i) { s += (std::conj(value_at(a, i)) * value_at(b, i)).real(); });
  return s;
}

double max_abs(const Tensor& t) {
  double m = 0;
  for_each_index(t.shape(), [&](const Dims& i) { m = std::max(m, std::abs(value_at(t, i))); });
  return m;
}

bool all_finite(const Tensor& t) {
  if (!is_inexact(t.dtype())) return true;
  bool ok = true;
  for_each_index(t.shape(), [&](const Dims& i) {
    auto v = value_at(t, i);
    ok &= std::isfinite(v.real()) && std::isfinite(v.imag());
  });
  return ok;
}

Tensor axpy(const Tensor& x, double h, const Tensor& v) {
  Tensor out = Tensor::empty(x.dtype(), x.shape());
  for_each_index(x.shape(),
                 [&](const Dims& i) { set_value(out, i, value_at(x, i) + h * value_at(v, i)); });
  return out;
}

namespace {

// Single-precision values anywhere (outputs or differentiated inputs) set the achievable accuracy.
bool single_precision(const graph::Program& p, const std::vector<Tensor>& args,
                      const std::vector<int64_t>& active) {
  auto single = [](DType d) { return d == DType::F32 || d == DType::C32; };
  for (const graph::Value& o : p.outputs)
    if (single(o.meta().dtype)) return true;
  for (int64_t i : active)
    if (single(args[static_cast<size_t>(i)].dtype())) return true;
  return false;
}

// Random directions for the active inputs (their dtype and shape).
std::vector<Tensor> directions(const std::vector<Tensor>& args, const std::vector<int64_t>& active,
                               uint64_t seed) {
  std::vector<Tensor> v;
  for (int64_t i : active)
    v.push_back(random_tensor(args[static_cast<size_t>(i)].dtype(),
                              args[static_cast<size_t>(i)].shape(),
                              seed + static_cast<uint64_t>(i) * 7));
  return v;
}

// The element where a and b differ most.
std::string describe_diff(const Tensor& a, const Tensor& b) {
  double worst = -1;
  Dims where;
  std::complex<double> va, vb;
  for_each_index(a.shape(), [&](const Dims& i) {
    double d = std::abs(value_at(a, i) - value_at(b, i));
    if (std::isnan(d)) d = INFINITY;
    if (d > worst) {
      worst = d;
      where = i;
      va = value_at(a, i);
      vb = value_at(b, i);
    }
  });
  std::ostringstream os;
  os.precision(12);
  os << "at " << format_dims(where) << ": " << va << " vs " << vb << " (max |a| " << max_abs(a)
     << ")";
  return os.str();
}

bool near(const Tensor& a, const Tensor& b, double rtol) {
  double scale = 1 + std::max(max_abs(a), max_abs(b));
  return close(a, b, 0, rtol * scale);
}

Tensor as_dtype(const Tensor& t, DType d) { return cpu::kernels::convert_to(t, d); }

} // namespace

AdCheckResult check_jvp_fd(const graph::Program& p, const std::vector<Tensor>& args,
                           const std::vector<int64_t>& active, uint64_t seed) {
  std::vector<Tensor> v = directions(args, active, seed);
  ad::Derivative j = ad::jvp(p, active);
  std::vector<Tensor> jargs = args;
  jargs.insert(jargs.end(), v.begin(), v.end());
  std::vector<Tensor> jout = run_program(*j.program, jargs);
  const size_t n_out = p.outputs.size();
  const bool single = single_precision(p, args, active);
  const double h = single ? 1e-3 : 1e-6, rtol = single ? 2e-3 : 1e-5;
  std::vector<Tensor> plus = args, minus = args;
  for (size_t k = 0; k < active.size(); ++k) {
    size_t i = static_cast<size_t>(active[k]);
    plus[i] = axpy(args[i], h, v[k]);
    minus[i] = axpy(args[i], -h, v[k]);
  }
  std::vector<Tensor> fp = run_program(p, plus), fm = run_program(p, minus);
  AdCheckResult r;
  for (size_t o = 0; o < n_out; ++o) {
    const Tensor& jv = jout[n_out + o];
    if (!is_inexact(jv.dtype())) continue;
    Tensor fd = Tensor::empty(jv.dtype(), jv.shape());
    for_each_index(jv.shape(), [&](const Dims& i) {
      set_value(fd, i, (value_at(fp[o], i) - value_at(fm[o], i)) / (2 * h));
    });
    if (!near(jv, fd, rtol)) {
      r.ok = false;
      r.why +=
          "jvp vs finite differences, output " + std::to_string(o) + ": " + describe_diff(jv, fd);
    }
  }
  return r;
}

AdCheckResult check_transpose(const graph::Program& p, const std::vector<Tensor>& args,
                              const std::vector<int64_t>& active, uint64_t seed, double tol) {
  std::vector<Tensor> v = directions(args, active, seed);
  ad::Derivative j = ad::jvp(p, active);
  std::vector<Tensor> jargs = args;
  jargs.insert(jargs.end(), v.begin(), v.end());
  std::vector<Tensor> jout = run_program(*j.program, jargs);
  const size_t n_out = p.outputs.size();
  std::vector<Tensor> ybar;
  for (size_t o = 0; o < n_out; ++o) {
    const ops::Meta& m = p.outputs[o].meta();
    ybar.push_back(random_tensor(m.dtype, jout[o].shape(), seed + 1000 + o));
  }
  ad::Derivative vj = ad::vjp(p, active);
  std::vector<Tensor> vargs = args;
  vargs.insert(vargs.end(), ybar.begin(), ybar.end());
  std::vector<Tensor> vout = run_program(*vj.program, vargs);
  double lhs = 0, rhs = 0;
  for (size_t k = 0; k < active.size(); ++k) lhs += real_inner(vout[n_out + k], v[k]);
  for (size_t o = 0; o < n_out; ++o)
    if (is_inexact(jout[n_out + o].dtype())) rhs += real_inner(ybar[o], jout[n_out + o]);
  AdCheckResult r;
  if (single_precision(p, args, active)) tol = std::max(tol, 1e-5);
  if (std::abs(lhs - rhs) > tol * (std::abs(lhs) + std::abs(rhs) + 1)) {
    r.ok = false;
    std::ostringstream os;
    os.precision(17);
    os << "dot-product test: Re<vjp(ybar), xdot> = " << lhs << " but Re<ybar, jvp(xdot)> = " << rhs;
    r.why = os.str();
  }
  for (size_t k = 0; k < active.size(); ++k) {
    const Tensor& g = vout[n_out + k];
    const Tensor& x = args[static_cast<size_t>(active[k])];
    if (g.dtype() != x.dtype() || g.shape() != x.shape()) {
      r.ok = false;
      r.why +=
          " gradient " + std::to_string(k) + " is " + describe(g) + " for input " + describe(x);
    }
  }
  return r;
}

AdCheckResult check_second_order(const graph::Program& p, const std::vector<Tensor>& args,
                                 const std::vector<int64_t>& active, uint64_t seed) {
  // L(x) = sum Re(conj(w) f(x)) as a program over the same arguments.
  const graph::Value& y = p.outputs[0];
  std::vector<Tensor> probe = run_program(p, args);
  Tensor w = random_tensor(y.meta().dtype, probe[0].shape(), seed + 77);
  using namespace tfe::eager::operators;
  graph::Value prod = ad::real(ad::conj(graph::captured(w)) * y);
  Dims all;
  for (int64_t d = 0; d < static_cast<int64_t>(prod.meta().shape.size()); ++d) all.push_back(d);
  graph::ProgramPtr L = graph::make_program(p.arguments, {ad::reduce_sum(prod, all)});

  std::vector<Tensor> v = directions(args, active, seed + 5);
  std::vector<Tensor> hargs = args;
  hargs.insert(hargs.end(), v.begin(), v.end());
  std::vector<Tensor> fr =
      run_program(*ad::hvp(*L, active, ad::HvpMode::ForwardOverReverse).program, hargs);
  std::vector<Tensor> rr =
      run_program(*ad::hvp(*L, active, ad::HvpMode::ReverseOverReverse).program, hargs);
  ad::Derivative g = ad::grad(*L, active);
  const double h = 1e-5;
  std::vector<Tensor> plus = args, minus = args;
  for (size_t k = 0; k < active.size(); ++k) {
    size_t i = static_cast<size_t>(active[k]);
    plus[i] = axpy(args[i], h, v[k]);
    minus[i] = axpy(args[i], -h, v[k]);
  }
  std::vector<Tensor> gp = run_program(*g.program, plus), gm = run_program(*g.program, minus);
  AdCheckResult r;
  for (size_t k = 0; k < active.size(); ++k) {
    if (!near(fr[k], rr[k], 1e-10)) {
      r.ok = false;
      r.why +=
          "hvp forward-over-reverse vs reverse-over-reverse: " + describe_diff(fr[k], rr[k]) + "; ";
    }
    Tensor fd = Tensor::empty(fr[k].dtype(), fr[k].shape());
    for_each_index(fd.shape(), [&](const Dims& i) {
      set_value(fd, i, (value_at(gp[k], i) - value_at(gm[k], i)) / (2 * h));
    });
    if (!near(fr[k], fd, 1e-5)) {
      r.ok = false;
      r.why += "hvp vs finite differences of the gradient: " + describe_diff(fr[k], fd) + "; ";
    }
  }
  return r;
}

AdCheckResult check_single_vs_double(const graph::Program& p32, const graph::Program& p64,
                                     const std::vector<Tensor>& args32,
                                     const std::vector<int64_t>& active, uint64_t seed) {
  std::vector<Tensor> v32 = directions(args32, active, seed);
  std::vector<Tensor> args64, v64;
  for (const Tensor& t : args32)
    args64.push_back(
        is_inexact(t.dtype()) ? as_dtype(t, is_complex(t.dtype()) ? DType::C64 : DType::F64) : t);
  for (const Tensor& t : v32)
    v64.push_back(as_dtype(t, is_complex(t.dtype()) ? DType::C64 : DType::F64));
  std::vector<Tensor> a32 = args32, a64 = args64;
  a32.insert(a32.end(), v32.begin(), v32.end());
  a64.insert(a64.end(), v64.begin(), v64.end());
  std::vector<Tensor> o32 = run_program(*ad::jvp(p32, active).program, a32);
  std::vector<Tensor> o64 = run_program(*ad::jvp(p64, active).program, a64);
  AdCheckResult r;
  size_t n_out = p32.outputs.size();
  for (size_t o = 0; o < n_out; ++o) {
    const Tensor& t32 = o32[n_out + o];
    if (!is_inexact(t32.dtype())) continue;
    Tensor up = as_dtype(t32, o64[n_out + o].dtype());
    if (!near(up, o64[n_out + o], 1e-4)) {
      r.ok = false;
      r.why += "single vs double jvp: " + describe_diff(up, o64[n_out + o]);
    }
  }
  return r;
}

} // namespace tfe::testing
