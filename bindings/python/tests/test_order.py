"""Sorting, top-k, arg-reductions and running sums/products (tfe_argsort, tfe_sort, tfe_topk,
tfe_argmax, tfe_argmin, tfe_cumsum, tfe_cumprod) against NumPy: values and dtypes, NaN and ties,
NumPy's axis=None flattening, derivatives against finite differences (cumprod with zeros
included, and second order in program AD), a traced function, a dataflow context and bad input.
"""

import numpy as np
import pytest

import tenferro as tf
from conftest import ORDERED_DTYPES, NUMERIC_DTYPES, dtype_id, rand


def with_nan(a):
    a = a.copy()
    if a.dtype.kind == "f":
        a.flat[::5] = np.nan
    return a


@pytest.mark.parametrize("dtype", ORDERED_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_argsort_sort_match_numpy_stable(rng, dtype, axis):
    a = with_nan(rand(rng, (6, 7), dtype, -2, 2))  # few distinct values: many ties
    got = tf.argsort(a, axis)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got.numpy(), np.argsort(a, axis, kind="stable"))
    np.testing.assert_array_equal(tf.sort(a, axis).numpy(), np.sort(a, axis, kind="stable"))


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64], ids=dtype_id)
def test_descending_is_stable_sort_of_negation(rng, dtype):
    a = with_nan(rand(rng, (5, 8), dtype, -2, 2))
    np.testing.assert_array_equal(tf.argsort(a, 1, descending=True).numpy(),
                                  np.argsort(-a, 1, kind="stable"))
    r = tf.topk(a, 3, axis=1)
    np.testing.assert_array_equal(r.indices.numpy(), np.argsort(-a, 1, kind="stable")[:, :3])
    np.testing.assert_array_equal(r.values.numpy(), np.take_along_axis(a, r.indices.numpy(), 1))
    small = tf.topk(a, 2, axis=0, largest=False)
    np.testing.assert_array_equal(small.values.numpy(), np.sort(a, 0, kind="stable")[:2])


@pytest.mark.parametrize("name", ["argmax", "argmin"])
@pytest.mark.parametrize("dtype", ORDERED_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("axis", [0, 2, -1, None])
def test_argmax_argmin_match_numpy(rng, name, dtype, axis):
    a = with_nan(rand(rng, (3, 4, 5), dtype, -2, 2))
    got = getattr(tf, name)(a, axis=axis)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got.numpy(), getattr(np, name)(a, axis=axis))
    kept = getattr(tf, name)(a, axis=axis, keepdims=True)
    np.testing.assert_array_equal(kept.numpy(), getattr(np, name)(a, axis=axis, keepdims=True))


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
@pytest.mark.parametrize("dtype", [np.bool_] + NUMERIC_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("axis", [0, 1, None])
def test_scans_match_numpy(rng, name, dtype, axis):
    a = rand(rng, (4, 6), dtype, -2, 2)
    got = getattr(tf, name)(a, axis=axis)
    want = getattr(np, name)(a, axis=axis)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5 if dtype in (np.float32, np.complex64)
                               else 1e-12)


def test_scan_is_one_pass_on_a_long_lane(rng):
    a = rng.standard_normal(200_001)
    np.testing.assert_allclose(tf.cumsum(a).numpy(), np.cumsum(a), rtol=1e-9, atol=1e-9)


def fd_grad(f, a, h=1e-6):
    g = np.zeros_like(a)
    for i in range(a.size):
        e = np.zeros_like(a)
        e.flat[i] = h
        g.flat[i] = (f(a + e) - f(a - e)) / (2 * h)
    return g


@pytest.mark.parametrize("zeros", [[], [2], [1, 3], [0]])
def test_cumprod_gradient_with_zeros(rng, zeros):
    a = rng.uniform(0.5, 1.5, 6) * rng.choice([-1, 1], 6)
    a[zeros] = 0
    w = rng.standard_normal(6)
    x = tf.Tensor(a).requires_grad_()
    (tf.cumprod(x) * w).sum().backward()
    g = x.grad.numpy()
    assert np.all(np.isfinite(g))
    np.testing.assert_allclose(g, fd_grad(lambda v: (np.cumprod(v) * w).sum(), a), atol=1e-8)


def test_cumprod_second_order_in_program_ad(rng):
    a = np.array([0.7, 0.0, -1.2, 0.9, 1.1])
    w = rng.standard_normal(5)
    u = rng.standard_normal(5)
    x = tf.symbolic((5,))
    f = tf.Function([x], (tf.cumprod(x) * w).sum())
    df = tf.grad(f, 0)
    _, hu = tf.jvp(df, [a], [u])

    def grad_np(v):
        return np.array([sum(w[i] * np.prod([v[k] for k in range(i + 1) if k != j])
                             for i in range(j, 5)) for j in range(5)])

    h = 1e-6
    want = (grad_np(a + h * u) - grad_np(a - h * u)) / (2 * h)
    np.testing.assert_allclose(hu.numpy(), want, atol=1e-7)
    np.testing.assert_allclose(df(a).numpy(), grad_np(a), atol=1e-12)


def test_cumsum_and_sort_gradients(rng):
    a = rng.standard_normal((3, 5))
    w = rng.standard_normal((3, 5))
    x = tf.Tensor(a).requires_grad_()
    (tf.cumsum(x, axis=1) * w).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.cumsum(w[:, ::-1], 1)[:, ::-1], rtol=1e-12)
    x = tf.Tensor(a).requires_grad_()
    (tf.sort(x, 0, descending=True) * w).sum().backward()
    g = np.zeros_like(a)
    np.put_along_axis(g, np.argsort(-a, 0, kind="stable"), w, 0)
    np.testing.assert_allclose(x.grad.numpy(), g)


def test_traced_function(rng):
    @tf.jit((4, 3))
    def f(x):
        return tf.sort(x, axis=0), tf.cumprod(x, axis=1), tf.argmax(x, axis=0)

    a = rng.standard_normal((4, 3))
    s, c, m = f(a)
    np.testing.assert_array_equal(s.numpy(), np.sort(a, 0))
    np.testing.assert_allclose(c.numpy(), np.cumprod(a, 1), rtol=1e-12)
    np.testing.assert_array_equal(m.numpy(), np.argmax(a, 0))


def test_dataflow_context(rng):
    ctx = tf.Context("dataflow", threads=2)
    a = rng.standard_normal(6)
    x = tf.tensor(a, context=ctx).requires_grad_()
    r = tf.topk(x, 2)
    (r.values * np.array([1.0, 10.0])).sum().backward()
    g = np.zeros(6)
    order = np.argsort(-a, kind="stable")
    g[order[0]], g[order[1]] = 1.0, 10.0
    np.testing.assert_allclose(x.grad.numpy(), g)
    np.testing.assert_allclose(tf.cumsum(x).numpy(), np.cumsum(a))
    assert tf.argmin(x).item() == np.argmin(a)


def test_bad_input():
    with pytest.raises(TypeError):
        tf.sort(np.ones(3, complex))
    with pytest.raises(TypeError):
        tf.argmax(np.ones(3, complex))
    with pytest.raises(tf.InvalidArgumentError):
        tf.argsort(np.ones((2, 3)), axis=2)
    with pytest.raises(tf.InvalidArgumentError):
        tf.cumsum(np.ones((2, 3)), axis=-3)
    with pytest.raises(tf.InvalidArgumentError):
        tf.topk(np.ones((2, 3)), 4, axis=1)
    with pytest.raises(ValueError):
        tf.argmin(np.ones((0, 3)), axis=0)
