"""The gamma family (lgamma, digamma, polygamma) against SciPy and the numerically careful
functions of tenferro/ops_numeric.h (logaddexp, hypot, sigmoid, isclose, var, logsumexp, ...)
against NumPy/SciPy: values at the extreme arguments where naive formulas fail, derivatives
against central differences, keyword behaviour, a traced function, a dataflow context and bad
input."""

import numpy as np
import pytest
import scipy.special as sp

import tenferro as tf

from conftest import dtype_id

REAL = [np.float32, np.float64]


def tol(dtype):
    return 3e-6 if dtype == np.float32 else 1e-13


def fd_grad(f, a, w, eps=1e-6):
    g = np.zeros_like(a)
    for idx in np.ndindex(a.shape):
        hi, lo = a.copy(), a.copy()
        hi[idx] += eps
        lo[idx] -= eps
        g[idx] = ((f(hi) - f(lo)) * w).sum() / (2 * eps)
    return g


# ---- the gamma family -------------------------------------------------------------------

@pytest.mark.parametrize("dtype", REAL, ids=dtype_id)
def test_gamma_family_values(rng, dtype):
    # Positive and negative non-integer arguments, small and large.
    negative = -rng.uniform(0.05, 0.95, 5) - rng.integers(0, 5, 5)
    x = np.concatenate([rng.uniform(0.01, 30, 20), negative, [1e-8, 1e3, 1e7]]).astype(dtype)
    np.testing.assert_allclose(tf.lgamma(x).numpy(), sp.gammaln(x.astype(float)), rtol=tol(dtype),
                               atol=tol(dtype))
    np.testing.assert_allclose(tf.digamma(x).numpy(), sp.digamma(x.astype(float)),
                               rtol=tol(dtype) * 10, atol=tol(dtype))
    for n in range(5):
        want = sp.polygamma(n, x.astype(float)).astype(dtype)  # float32 overflows near 0
        got = tf.polygamma(n, x).numpy()
        assert got.dtype == dtype
        np.testing.assert_allclose(got, want, rtol=tol(dtype) * 100, atol=0)


def test_gamma_family_poles_and_orders():
    x = np.array([0.0, -0.0, -1.0, -3.0, np.inf, -np.inf, np.nan])
    np.testing.assert_array_equal(tf.lgamma(x).numpy()[:5], sp.gammaln(x[:5]))
    # digamma's one-sided limits at 0 and NaN at the negative integers, as SciPy.
    np.testing.assert_array_equal(tf.digamma(x).numpy(), sp.digamma(x))
    # Odd orders: +inf from both sides of every pole, as SciPy.
    np.testing.assert_array_equal(tf.polygamma(1, x[:4]).numpy(), sp.polygamma(1, x[:4]))
    # Orders round to the nearest integer (half to even); a negative order is NaN.
    got = tf.polygamma(np.array([0.4, 1.5, 2.5, -1.0]), np.array([2.0, 2.0, 2.0, 2.0])).numpy()
    want = [sp.digamma(2.0), sp.polygamma(2, 2.0), sp.polygamma(2, 2.0), np.nan]
    np.testing.assert_allclose(got, want, rtol=1e-13)
    # Integers and Bool are computed in float64, as SciPy.
    assert tf.lgamma(np.arange(1, 4)).dtype == np.float64


def test_gamma_family_derivatives(rng):
    a = rng.uniform(0.3, 4, (2, 3))
    w = rng.standard_normal((2, 3))
    for f, ref, d in [(tf.lgamma, sp.gammaln, sp.digamma),
                      (tf.digamma, sp.digamma, lambda v: sp.polygamma(1, v)),
                      (lambda v: tf.polygamma(2, v), lambda v: sp.polygamma(2, v),
                       lambda v: sp.polygamma(3, v))]:
        x = tf.Tensor(a).requires_grad_()
        (f(x) * w).sum().backward()
        np.testing.assert_allclose(x.grad.numpy(), d(a) * w, rtol=1e-10)
        np.testing.assert_allclose(x.grad.numpy(), fd_grad(ref, a, w), rtol=1e-6)
    # Second order: d^2 lgamma = polygamma(1); the order operand has no derivative.
    x = tf.Tensor(a).requires_grad_()
    n = tf.Tensor(np.full((2, 3), 1.0)).requires_grad_()
    (g,) = tf.autograd.vjp(tf.lgamma(x).sum(), [x])
    h = tf.autograd.jvp(g, [x], [np.ones((2, 3))])
    np.testing.assert_allclose(h.numpy(), sp.polygamma(1, a), rtol=1e-10)
    gn = tf.autograd.vjp(tf.polygamma(n, x).sum(), [n])[0]
    assert gn is None or not np.any(gn.numpy())


# ---- the numeric functions ----------------------------------------------------------------

@pytest.mark.parametrize("dtype", REAL, ids=dtype_id)
def test_extreme_values(dtype):
    inf = np.inf
    a = np.array([1000, -1000, -inf, inf, 0, 0.5, 80], dtype)
    b = np.array([1000, -1001, -inf, inf, -40, 2, -inf], dtype)
    np.testing.assert_allclose(tf.logaddexp(a, b).numpy(), np.logaddexp(a, b), rtol=tol(dtype))
    h1 = np.array([1e300 if dtype == np.float64 else 1e30, 3e-310 if dtype == np.float64 else 3e-40,
                   3, inf, np.nan], dtype)
    h2 = np.array([h1[0], h1[1], -4, np.nan, inf], dtype)
    np.testing.assert_allclose(tf.hypot(h1, h2).numpy(), np.hypot(h1, h2), rtol=tol(dtype))
    x = np.array([-700 if dtype == np.float64 else -80, -40, 0, 40, -inf, inf], dtype)
    np.testing.assert_allclose(tf.sigmoid(x).numpy(), sp.expit(x), rtol=tol(dtype))
    c = np.array([1.0, -2.0, 3.0, -0.0], dtype)
    s = np.array([-0.0, 0.0, -np.inf, -1.0], dtype)
    np.testing.assert_array_equal(tf.copysign(c, s).numpy(), np.copysign(c, s))
    z = np.array([-2.0, -0.0, 0.0, 3.0, np.nan, -inf], dtype)
    np.testing.assert_array_equal(tf.angle(z).numpy(), np.angle(z))
    np.testing.assert_allclose(tf.angle(z, deg=True).numpy(), np.angle(z, deg=True))


@pytest.mark.parametrize("name,ref,args", [
    ("logaddexp", np.logaddexp, 2), ("hypot", np.hypot, 2), ("sigmoid", sp.expit, 1),
    ("square", np.square, 1), ("reciprocal", np.reciprocal, 1), ("copysign", np.copysign, 2)])
def test_derivatives(rng, name, ref, args):
    xs = [rng.standard_normal((3, 4)) * 3 for _ in range(args)]
    if name == "reciprocal":
        xs[0] = rng.uniform(0.5, 3, (3, 4))
    w = rng.standard_normal((3, 4))
    ts = [tf.Tensor(x).requires_grad_() for x in xs]
    (getattr(tf, name)(*ts) * w).sum().backward()
    for i, t in enumerate(ts):
        g = np.zeros_like(xs[i]) if t.grad is None else t.grad.numpy()
        f = (lambda v, i=i: ref(*[v if k == i else xs[k] for k in range(args)]))
        np.testing.assert_allclose(g, fd_grad(f, xs[i], w), rtol=1e-5, atol=1e-6)


def test_ties_split_the_gradient():
    a = tf.Tensor(np.array([2.0, -1.0])).requires_grad_()
    b = tf.Tensor(np.array([2.0, -1.0])).requires_grad_()
    tf.logaddexp(a, b).sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), [0.5, 0.5])
    np.testing.assert_allclose(b.grad.numpy(), [0.5, 0.5])
    a = tf.Tensor(np.array([3.0])).requires_grad_()
    b = tf.Tensor(np.array([-3.0])).requires_grad_()
    tf.hypot(a, b).sum().backward()
    np.testing.assert_allclose([a.grad.item(), b.grad.item()], [2 ** -0.5, -(2 ** -0.5)])
    x = tf.Tensor(np.array([0.0])).requires_grad_()
    tf.sigmoid(x).sum().backward()
    assert x.grad.item() == 0.25


def test_isclose_numpy_semantics(rng):
    a = np.array([1.0, np.inf, -np.inf, np.nan, 1.0, 0.0, 1e-9])
    b = np.array([np.inf, np.inf, np.inf, np.nan, 1 + 1e-6, 1e-9, 0.0])
    for eq in (False, True):
        for rtol, atol in [(1e-5, 1e-8), (0.0, 0.0), (1e-3, 0.0)]:
            got = tf.isclose(a, b, rtol=rtol, atol=atol, equal_nan=eq)
            assert got.dtype == np.bool_
            np.testing.assert_array_equal(got.numpy(), np.isclose(a, b, rtol, atol, eq))
    assert tf.allclose(a[4:6], b[4:6]) is True and tf.allclose(a[:2], b[:2]) is False
    assert tf.allclose(a[3:4], b[3:4], equal_nan=True) is True
    i = np.arange(4)
    np.testing.assert_array_equal(tf.isclose(i, i + 1e-9).numpy(), np.isclose(i, i + 1e-9))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128, np.int32], ids=dtype_id)
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 2), -1, ()], ids=str)
@pytest.mark.parametrize("ddof", [0, 1])
@pytest.mark.parametrize("keepdims", [False, True])
def test_var_std(rng, dtype, axis, ddof, keepdims):
    a = rng.standard_normal((3, 4, 2)) * 3
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal((3, 4, 2))
    a = a.astype(dtype)
    with np.errstate(divide="ignore", invalid="ignore"):
        for name in ("var", "std"):
            want = getattr(np, name)(a, axis=axis, ddof=ddof, keepdims=keepdims)
            got = getattr(tf, name)(a, axis=axis, ddof=ddof, keepdims=keepdims)
            assert got.shape == want.shape
            assert got.dtype == want.dtype
            np.testing.assert_allclose(got.numpy(), want, rtol=tol(np.float32) * 10)


def test_var_derivative(rng):
    a = rng.standard_normal((3, 4))
    w = rng.standard_normal(4)
    x = tf.Tensor(a).requires_grad_()
    (tf.std(x, axis=0, ddof=1) * w).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), fd_grad(lambda v: np.std(v, 0, ddof=1), a, w),
                               rtol=1e-6)


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1), ()], ids=str)
@pytest.mark.parametrize("keepdims", [False, True])
def test_logsumexp_any_all(rng, axis, keepdims):
    a = rng.standard_normal((3, 4)) * 300
    a[0, 0] = -np.inf
    if axis != ():  # SciPy reads an empty tuple as every axis
        got = tf.logsumexp(a, axis=axis, keepdims=keepdims)
        want = sp.logsumexp(a, axis=axis, keepdims=keepdims)
        assert got.shape == np.shape(want)
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
    b = rng.integers(0, 2, (3, 4)) * rng.integers(0, 2, (3, 4))
    for name in ("any", "all"):
        got = getattr(tf, name)(b, axis=axis, keepdims=keepdims)
        want = getattr(np, name)(b, axis=axis, keepdims=keepdims)
        assert got.dtype == np.bool_ and got.shape == want.shape
        np.testing.assert_array_equal(got.numpy(), want)


def test_logsumexp_infinities_and_gradient(rng):
    a = np.array([[-np.inf, -np.inf], [np.inf, 1.0], [1000.0, 1000.0]])
    np.testing.assert_array_equal(tf.logsumexp(a, axis=1).numpy(), sp.logsumexp(a, axis=1))
    b = rng.standard_normal((2, 3))
    x = tf.Tensor(b).requires_grad_()
    tf.logsumexp(x, axis=1).sum().backward()
    e = np.exp(b)
    np.testing.assert_allclose(x.grad.numpy(), e / e.sum(1, keepdims=True), rtol=1e-12)


def test_predicates_and_nan_to_num_dtypes():
    a = np.array([1.0, np.nan, np.inf, -np.inf], np.float32)
    np.testing.assert_array_equal(tf.nan_to_num(a).numpy(), np.nan_to_num(a))
    np.testing.assert_array_equal(tf.nan_to_num(a, posinf=5.0).numpy(),
                                  np.nan_to_num(a, posinf=5.0))
    for name in ("isnan", "isinf", "isfinite"):
        for x in (a, np.arange(3), np.array([True, False]),
                  np.array([1 + 1j, complex(np.nan, 0), complex(0, np.inf)])):
            np.testing.assert_array_equal(getattr(tf, name)(x).numpy(), getattr(np, name)(x))


def test_traced_function(rng):
    @tf.jit((3, 4))
    def f(x):
        return (tf.logsumexp(x, axis=1), tf.var(x, axis=0, ddof=1), tf.sigmoid(x),
                tf.isclose(x, x * 1.0000001), tf.lgamma(x * x + 1))

    a = rng.standard_normal((3, 4))
    l, v, s, c, g = f(a)
    np.testing.assert_allclose(l.numpy(), sp.logsumexp(a, axis=1), rtol=1e-12)
    np.testing.assert_allclose(v.numpy(), np.var(a, 0, ddof=1), rtol=1e-12)
    np.testing.assert_allclose(s.numpy(), sp.expit(a), rtol=1e-12)
    assert c.numpy().all()
    np.testing.assert_allclose(g.numpy(), sp.gammaln(a * a + 1), rtol=1e-12)


def test_dataflow_context(rng):
    ctx = tf.Context("dataflow", threads=2)
    a = rng.uniform(0.5, 3, 5)
    b = rng.standard_normal(5)
    x = tf.tensor(a, context=ctx).requires_grad_()
    y = tf.tensor(b, context=ctx)
    (tf.logaddexp(x, y).sum() + tf.digamma(x).sum() + tf.hypot(x, y).sum()).backward()
    want = sp.expit(a - b) + sp.polygamma(1, a) + a / np.hypot(a, b)
    np.testing.assert_allclose(x.grad.numpy(), want, rtol=1e-10)
    np.testing.assert_allclose(tf.std(x).numpy(), np.std(a), rtol=1e-12)
    assert not tf.any(tf.isinf(x)).item() and tf.all(tf.isfinite(y)).item()


def test_bad_input():
    with pytest.raises(TypeError):
        tf.logaddexp(np.ones(2, complex), np.ones(2))
    with pytest.raises(TypeError):
        tf.logsumexp(np.ones(2, complex))
    with pytest.raises(TypeError):
        tf.lgamma(np.ones(2, complex))
    with pytest.raises(tf.InvalidArgumentError):
        tf.var(np.ones((2, 3)), axis=2)
    with pytest.raises(tf.InvalidArgumentError, match=r"tenferro\.isclose\(\)"):
        tf.isclose(np.ones(2), np.ones(2), rtol=-1.0)
    with pytest.raises(tf.ShapeMismatchError):
        tf.hypot(np.ones(2), np.ones(3))
