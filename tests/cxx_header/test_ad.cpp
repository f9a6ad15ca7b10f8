// Eager AD, its scopes, traced programs and their transforms, and dataflow contexts, checked
// against central finite differences of the forward computation and against closed forms.
#include "support.hpp"

using cxxtest::central_diff;
using cxxtest::check_close;
using cxxtest::values;

namespace {

const std::vector<double> kX = {0.4, -1.3, 2.1};

// f(x) = sum(x sin x): f' = sin x + x cos x, f'' = 2 cos x - x sin x.
tfe::Tensor f_sin(const tfe::Tensor& x) { return tfe::sum(x * tfe::sin(x)); }
std::vector<double> df_sin(const std::vector<double>& x) {
  std::vector<double> g;
  for (double v : x) g.push_back(std::sin(v) + v * std::cos(v));
  return g;
}
std::vector<double> d2f_sin(const std::vector<double>& x) {
  std::vector<double> h;
  for (double v : x) h.push_back(2 * std::cos(v) - v * std::sin(v));
  return h;
}

// A less regular loss through matmul, exp, division and a reduction.
tfe::Tensor f_mix(const tfe::Tensor& a, const tfe::Tensor& x) {
  const tfe::Tensor ax = tfe::matmul(a, tfe::reshape(x, {3, 1}));
  return tfe::sum(tfe::exp(tfe::reshape(ax, {3}) * 0.3) / (x * x + 1.0));
}

std::vector<double> fd_gradient(const std::function<double(const std::vector<double>&)>& f,
                                const std::vector<double>& x) {
  std::vector<double> g;
  for (std::size_t i = 0; i < x.size(); ++i) g.push_back(central_diff(f, x, i));
  return g;
}

} // namespace

TFE_TEST("backward, grad, clear_grad and detach", "[ad]") {
  tfe::Context ctx;
  tfe::Tensor x = tfe::tensor(ctx, kX);
  CHECK(!x.requires_grad());
  x.set_requires_grad();
  CHECK(x.requires_grad());
  CHECK(!x.grad()); // never backpropagated
  const tfe::Tensor loss = f_sin(x);
  CHECK(loss.requires_grad());
  loss.backward();
  check_close(values(x.grad()), df_sin(kX), 1e-13);
  f_sin(x).backward(); // accumulates
  auto twice = df_sin(kX);
  for (double& v : twice) v *= 2;
  check_close(values(x.grad()), twice, 1e-13);
  x.clear_grad();
  CHECK(!x.grad());
  const tfe::Tensor d = (x * x).detach();
  CHECK(!d.requires_grad());
  x.set_requires_grad(false);
  CHECK(!x.requires_grad());

  // A seed for a non-scalar loss: grad of s . (x * x) is 2 x s.
  tfe::Tensor y = tfe::tensor(ctx, {1.0, 2.0}).set_requires_grad();
  (y * y).backward(tfe::tensor(ctx, {3.0, -1.0}));
  check_close(values(y.grad()), {6, -4});
}

TFE_TEST("eager gradients match central finite differences", "[ad]") {
  tfe::Context ctx;
  const std::vector<double> av = {1, 0.5, -0.2, 0.3, -1, 0.8, 0.1, 0.4, 1.2};
  const tfe::Tensor a = tfe::tensor(ctx, av, {3, 3});
  tfe::Tensor x = tfe::tensor(ctx, kX).set_requires_grad();
  f_mix(a, x).backward();
  const auto forward = [&](const std::vector<double>& v) {
    tfe::NoGrad guard(ctx); // the probes need no recording
    return f_mix(a, tfe::tensor(ctx, v)).item<double>();
  };
  check_close(values(x.grad()), fd_gradient(forward, kX), 1e-7);

  // Through eigh: the derivative of the smallest eigenvalue of A + diag(x).
  const std::vector<double> sym = {2, 1, 0, 1, 3, 1, 0, 1, 4};
  const tfe::Tensor s = tfe::tensor(ctx, sym, {3, 3});
  tfe::Tensor d = tfe::tensor(ctx, {0.1, 0.2, 0.3}).set_requires_grad();
  const auto lowest = [&](const tfe::Tensor& v) {
    return tfe::slice(tfe::eigh(s + tfe::embed_diag(v)).w, {0}, {1});
  };
  tfe::sum(lowest(d)).backward();
  const auto probe = [&](const std::vector<double>& v) {
    return lowest(tfe::tensor(ctx, v)).to_vector<double>()[0];
  };
  check_close(values(d.grad()), fd_gradient(probe, {0.1, 0.2, 0.3}), 1e-7);
}

TFE_TEST("vjp, jvp and a Hessian-vector product", "[ad]") {
  tfe::Context ctx;
  tfe::Tensor x = tfe::tensor(ctx, kX).set_requires_grad();
  const tfe::Tensor c = tfe::tensor(ctx, {1.0, 1.0, 1.0});
  const tfe::Tensor loss = f_sin(x) + tfe::sum(c);
  const std::vector<tfe::Tensor> g = tfe::vjp(loss, {x, c});
  REQUIRE(g.size() == 2);
  check_close(values(g[0]), df_sin(kX), 1e-13);
  CHECK(!g[1]);     // c is not tracked
  CHECK(!x.grad()); // stored gradients are left alone

  // With a seed on a vector output.
  const tfe::Tensor y = x * x;
  check_close(values(tfe::vjp(y, {x}, tfe::tensor(ctx, {1.0, 0.0, 2.0}))[0]),
              {2 * kX[0], 0, 4 * kX[2]});

  // jvp: the directional derivative along v against a central difference along v.
  const std::vector<double> v = {0.5, -1, 0.25};
  const double dir = tfe::jvp(loss, {x}, {tfe::tensor(ctx, v)}).item<double>();
  const auto along = [&](const std::vector<double>& t) {
    std::vector<double> p = kX;
    for (std::size_t i = 0; i < p.size(); ++i) p[i] += t[0] * v[i];
    return f_sin(tfe::tensor(ctx, p)).item<double>();
  };
  check_close({dir}, {central_diff(along, {0.0}, 0)}, 1e-8);
  CHECK(tfe::jvp(loss, {x}, {tfe::Tensor()}).item<double>() == 0); // an empty tangent is zero
  const tfe::Tensor other = tfe::tensor(ctx, {1.0}).set_requires_grad();
  CHECK(!tfe::jvp(other * other, {x}, {tfe::tensor(ctx, v)})); // independent of x: empty

  // jvp of the vjp: H v, with H = diag(f'') here.
  const tfe::Tensor hv = tfe::jvp(g[0], {x}, {tfe::tensor(ctx, v)});
  auto want = d2f_sin(kX);
  for (std::size_t i = 0; i < want.size(); ++i) want[i] *= v[i];
  check_close(values(hv), want, 1e-12);
}

TFE_TEST("no_grad and capture_trace scopes", "[ad]") {
  tfe::Context ctx;
  tfe::Tensor x = tfe::tensor(ctx, kX).set_requires_grad();
  {
    const tfe::NoGrad guard(ctx);
    CHECK(!(x * 2.0).requires_grad());
    {
      const tfe::NoGrad nested(ctx);
      CHECK(!(x * x).requires_grad());
    }
    CHECK(!(x * x).requires_grad());
  }
  CHECK((x * 2.0).requires_grad());

  const tfe::Tensor c = tfe::tensor(ctx, {1.0, -2.0});
  tfe::Tensor z;
  {
    const tfe::CaptureTrace capture(ctx);
    z = tfe::sum(c * c * c);
  }
  CHECK(c.requires_grad()); // now a captured leaf
  check_close(values(tfe::vjp(z, {c})[0]), {3, 12});
}

TFE_TEST("traced functions and their transforms", "[ad][program]") {
  tfe::Context ctx;
  const tfe::Tensor xs = tfe::symbolic(ctx, tfe::DType::F64, {-1});
  CHECK(xs.is_symbolic());
  CHECK(xs.shape() == tfe::Shape{-1});
  CHECK(xs.extent_text(0) == "s1");
  const tfe::Function f({xs}, {f_sin(xs)});
  CHECK(f.num_inputs() == 1);
  CHECK(f.num_outputs() == 1);

  const tfe::Tensor x = tfe::tensor(ctx, kX);
  CHECK(!x.is_symbolic());
  double want = 0;
  for (double v : kX) want += v * std::sin(v);
  check_close({f.call1({x}).item<double>()}, {want});
  check_close({f.call1({tfe::tensor(ctx, {1.0})}).item<double>()}, {std::sin(1.0)});
  check_close({f({x})[0].item<double>()}, {want});

  const tfe::Function g = f.grad();
  check_close(values(g.call1({x})), df_sin(kX), 1e-13);
  const tfe::Function g0 = f.grad({0});
  check_close(values(g0.call1({x})), df_sin(kX), 1e-13);

  const std::vector<double> v = {1, 0.5, -2};
  const tfe::Tensor vt = tfe::tensor(ctx, v);
  const std::vector<tfe::Tensor> jv = f.jvp().call({x, vt}); // (f, df . v)
  REQUIRE(jv.size() == 2);
  double dot = 0;
  const auto d = df_sin(kX);
  for (std::size_t i = 0; i < v.size(); ++i) dot += d[i] * v[i];
  check_close({jv[0].item<double>(), jv[1].item<double>()}, {want, dot}, 1e-13);

  const std::vector<tfe::Tensor> vj = f.vjp().call({x, tfe::scalar(ctx, 2.0)});
  REQUIRE(vj.size() == 2);
  auto d2 = d;
  for (double& e : d2) e *= 2;
  check_close(values(vj[1]), d2, 1e-13);

  auto hv_want = d2f_sin(kX);
  for (std::size_t i = 0; i < v.size(); ++i) hv_want[i] *= v[i];
  check_close(values(f.hvp().call1({x, vt})), hv_want, 1e-12);
  check_close(values(f.hvp({0}, tfe::HvpMode::ReverseOverReverse).call1({x, vt})), hv_want, 1e-12);
  // Second derivative by transforming twice, against a finite difference of the gradient.
  const tfe::Tensor ss = tfe::symbolic(ctx, tfe::DType::F64, {});
  const tfe::Function cube({ss}, {ss * ss * ss});
  check_close({cube.grad().grad().call1({tfe::scalar(ctx, 2.0)}).item<double>()}, {12}, 1e-13);
  const auto grad_at = [&](const std::vector<double>& p) {
    return cube.grad().call1({tfe::scalar(ctx, p[0])}).item<double>();
  };
  check_close({cube.grad().grad().call1({tfe::scalar(ctx, 0.7)}).item<double>()},
              {central_diff(grad_at, {0.7}, 0)}, 1e-8);

  // An input nothing depends on gets a structurally zero gradient.
  const tfe::Tensor ys = tfe::symbolic(ctx, tfe::DType::F64, {-1});
  const tfe::Function two({xs, ys}, {f_sin(xs), xs * 2.0});
  CHECK(two.num_inputs() == 2);
  CHECK(two.num_outputs() == 2);
  const tfe::Function tv = two.vjp();
  CHECK(!tv.output_is_zero(2));
  CHECK(tv.output_is_zero(3));

  // Copies share the function.
  tfe::Function copy = f;
  CHECK(copy.get() == f.get());
  tfe::Function moved = std::move(copy);
  tfe::Function back = tfe::Function::adopt(moved.release());
  tfe::Function again = tfe::Function::borrow(back.get());
  CHECK(again.call1({x}).item<double>() == f.call1({x}).item<double>());

  // Caches of the context saw the transforms.
  CHECK(ctx.cache_stats(tfe::Cache::Derivative).entries > 0);
}

TFE_TEST("dataflow contexts: backward seeds, grad waits", "[ad][dataflow]") {
  for (const tfe::Context& ctx :
       {tfe::Context::dataflow(), tfe::Context::dataflow(tfe::Scheduler::Debug)}) {
    tfe::Tensor x = tfe::tensor(ctx, kX).set_requires_grad();
    const tfe::Tensor loss = f_sin(x);
    loss.backward();
    check_close(values(x.grad()), df_sin(kX), 1e-13);
    double want = 0;
    for (double v : kX) want += v * std::sin(v);
    check_close({loss.item<double>()}, {want});
  }
}
