"""The shape helpers, linspace/logspace, the *_like constructors and linalg matrix_rank, logdet
and cholesky_solve, which call their C functions: NumPy (or PyTorch) values, finite-difference
derivatives, bad input, and the same calls inside a traced function (tf.jit) and in a dataflow
context."""

import numpy as np
import pytest
import torch

import tenferro as tf
from tenferro import tenferro_c as c
from tenferro._core import _wrap



def assert_close(got, want, atol=1e-12, rtol=1e-10):
    got = got.numpy() if isinstance(got, tf.Tensor) else np.asarray(got)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


def fd_grad(f, a, w, eps=1e-6):
    """d sum(w * f(a)) / da by central differences (real a)."""
    g = np.zeros_like(a)
    for i in np.ndindex(a.shape):
        d = np.zeros_like(a)
        d[i] = eps
        g[i] = np.sum(w * (f(a + d) - f(a - d))) / (2 * eps)
    return g


# ---- shape helpers: traced and dataflow, the C conventions underneath -----------------------

SHAPE_CALLS = [
    ("squeeze", lambda m, x: m.squeeze(x, axis=1), (3, 1, 2)),
    ("expand_dims", lambda m, x: m.expand_dims(x, (0, 3)), (3, 2)),
    ("moveaxis", lambda m, x: m.moveaxis(x, 0, -1), (2, 3, 4)),
    ("swapaxes", lambda m, x: m.swapaxes(x, 0, 2), (2, 3, 4)),
    ("ravel", lambda m, x: m.ravel(x), (2, 3, 4)),
    ("tile", lambda m, x: m.tile(x, (2, 1, 3)), (2, 3)),
    ("repeat", lambda m, x: m.repeat(x, [1, 0, 2], axis=1), (2, 3)),
    ("roll", lambda m, x: m.roll(x, (1, -2), axis=(0, 1)), (2, 3)),
    ("diagonal", lambda m, x: m.diagonal(x, 1, 0, 2), (3, 2, 4)),
    ("diag", lambda m, x: m.diag(x, -1), (4,)),
]


@pytest.mark.parametrize("name,call,shape", SHAPE_CALLS, ids=[c[0] for c in SHAPE_CALLS])
def test_shape_helpers_traced(rng, name, call, shape):
    a = rng.standard_normal(shape)
    want = call(np, a)
    f = tf.jit(shape)(lambda x: call(tf, x))
    assert_close(f(a).numpy(), want)


@pytest.mark.parametrize("name,call,shape", SHAPE_CALLS, ids=[c[0] for c in SHAPE_CALLS])
def test_shape_helpers_dataflow(rng, name, call, shape):
    ctx = tf.Context("dataflow")
    a = rng.standard_normal(shape)
    w = rng.standard_normal(call(np, a).shape)
    x = tf.tensor(a, context=ctx).requires_grad_()
    y = call(tf, x)
    assert_close(y.numpy(), call(np, a))
    (y * tf.tensor(w, context=ctx)).sum().backward()
    assert_close(x.grad.numpy(), fd_grad(lambda v: call(np, v), a, w), atol=1e-7)


def test_split_traced_and_dataflow(rng):
    a = rng.standard_normal((6, 4))
    f = tf.jit((6, 4))(lambda x: tuple(tf.split(x, [2, -1], axis=0)))
    for g, w in zip(f(a), np.split(a, [2, -1], axis=0)):
        assert_close(g.numpy(), w)
    ctx = tf.Context("dataflow")
    parts = tf.split(tf.tensor(a, context=ctx), 2, axis=1)
    for g, w in zip(parts, np.split(a, 2, axis=1)):
        assert_close(g.numpy(), w)


@pytest.mark.parametrize("shift,axis", [((1, 2), 0), (2, (0, 1)), (-7, None)], ids=str)
def test_roll_broadcasts_like_numpy(shift, axis):
    a = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(tf.roll(a, shift, axis).numpy(), np.roll(a, shift, axis))


def test_c_conventions():
    """The C functions keep the library's layout: flatten is column-major, the diagonal of
    tfe_diagonal is dim 0 and tile is left-aligned; Python translates to NumPy's rules."""
    a = np.arange(24.0).reshape(2, 3, 4)
    x = tf.tensor(a)
    assert_close(_wrap(c.tfe_flatten(x._h)).numpy(), a.ravel(order="F"))
    assert _wrap(c.tfe_diagonal(x._h, 0, 0, 2)).shape == (2, 3)  # the diagonal first
    assert _wrap(c.tfe_tile(x._h, [1, 1, 1, 5])).shape == (2, 3, 4, 5)  # extra reps: trailing
    assert_close(tf.ravel(x).numpy(), a.ravel())
    assert_close(tf.ravel(x, order="F").numpy(), a.ravel(order="F"))
    assert tf.diagonal(x, 0, 0, 2).shape == np.diagonal(a, 0, 0, 2).shape  # NumPy: diagonal last
    assert tf.tile(np.ones((2, 3)), (4, 1, 1)).shape == (4, 2, 3)  # NumPy: new leading axis


def test_shape_helper_errors():
    x = tf.tensor(np.zeros((2, 3)))
    with pytest.raises(tf.InvalidArgumentError, match="squeeze"):
        tf.squeeze(x, axis=0)
    with pytest.raises(tf.InvalidArgumentError, match="expand_dims"):
        tf.expand_dims(x, (0, 0))
    with pytest.raises(tf.InvalidArgumentError, match="repeat"):
        tf.repeat(x, [1, 2], axis=1)
    with pytest.raises(tf.InvalidArgumentError, match="tile"):
        tf.tile(x, (-1, 1))
    with pytest.raises(tf.InvalidArgumentError):
        tf.split(x, 2, axis=1)
    with pytest.raises(tf.InvalidArgumentError):
        tf.diag(np.zeros((2, 2, 2)))


# ---- creation ----------------------------------------------------------------------------

@pytest.mark.parametrize("start,stop,num,endpoint,dtype", [
    (0.0, 1.0, 5, True, None), (-2.5, 7.0, 7, False, None), (0.1, 0.3, 11, True, np.float32),
    (1 + 2j, -3 - 1j, 4, True, None), (0.0, 1.0, 1, True, None), (0.0, 1.0, 0, True, None),
    (0.0, 2j, 5, False, np.complex64), (0.0, 10.0, 6, True, np.int64)], ids=str)
def test_linspace_logspace(start, stop, num, endpoint, dtype):
    want = np.linspace(start, stop, num, endpoint=endpoint, dtype=dtype)
    got = tf.linspace(start, stop, num, endpoint=endpoint, dtype=dtype).numpy()
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)  # exact, as NumPy computes it
    if dtype is None or np.dtype(dtype).kind in "fc":
        want = np.logspace(start, stop, num, endpoint=endpoint, base=2.0, dtype=dtype)
        got = tf.logspace(start, stop, num, endpoint=endpoint, base=2.0, dtype=dtype).numpy()
        assert got.dtype == want.dtype
        assert_close(got, want)


def test_linspace_errors():
    with pytest.raises(tf.InvalidArgumentError):
        tf.linspace(0, 1, -1)
    with pytest.raises(tf.InvalidArgumentError, match="linspace"):
        tf.linspace(0, float("inf"), 3)


@pytest.mark.parametrize("fn,ref", [(tf.zeros_like, np.zeros_like), (tf.ones_like, np.ones_like)])
def test_zeros_ones_like(fn, ref):
    a = np.arange(6.0).reshape(2, 3)
    for dtype in (None, np.int32, np.complex64):
        got, want = fn(a, dtype=dtype).numpy(), ref(a, dtype=dtype)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
    assert fn(a, shape=(4,)).shape == (4,)


def test_full_like_traced_and_dataflow():
    a = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(tf.full_like(a, 2.5, dtype=np.float32).numpy(),
                                  np.full_like(a, 2.5, dtype=np.float32))
    f = tf.jit((2, 3))(lambda x: x + tf.full_like(x, 1.5) * tf.ones_like(x))
    assert_close(f(a).numpy(), a + 1.5)
    ctx = tf.Context("dataflow")
    x = tf.tensor(a, context=ctx).requires_grad_()
    y = (x * tf.zeros_like(x) + tf.ones_like(x, dtype=np.float64) * x).sum()
    y.backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.ones_like(a))  # the *_like are constants


# ---- linalg --------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
def test_matrix_rank(rng, dtype):
    b, c = rng.standard_normal((5, 2)), rng.standard_normal((2, 4))
    a = (b @ c).astype(dtype)
    assert int(tf.linalg.matrix_rank(a).numpy()) == np.linalg.matrix_rank(a) == 2
    assert int(tf.linalg.matrix_rank(a, tol=1e6).numpy()) == 0
    assert int(tf.linalg.matrix_rank(a, rtol=0.9).numpy()) == \
        int(torch.linalg.matrix_rank(torch.tensor(a), rtol=0.9))
    assert int(tf.linalg.matrix_rank(a, atol=1e-3, rtol=1e-1).numpy()) == \
        int(torch.linalg.matrix_rank(torch.tensor(a), atol=1e-3, rtol=1e-1))
    h = a @ a.conj().T
    assert int(tf.linalg.matrix_rank(h, hermitian=True).numpy()) == \
        np.linalg.matrix_rank(h, hermitian=True)
    batch = np.stack([a, np.eye(5, 4, dtype=dtype)], axis=-1)  # [5, 4, 2]: batch dims last
    np.testing.assert_array_equal(tf.linalg.matrix_rank(batch).numpy(), [2, 4])
    assert tf.linalg.matrix_rank(a).dtype == np.int64


def _spd(rng, n, batch=()):
    x = rng.standard_normal((n, n) + batch)
    return np.einsum("ij...,kj...->ik...", x, x) + 3 * np.eye(n).reshape((n, n) + (1,) * len(batch))


def test_logdet(rng):
    a = _spd(rng, 3)
    assert_close(tf.linalg.logdet(a).numpy(), np.log(np.linalg.det(a)))
    neg = np.diag([-1.0, 2.0, 3.0])
    assert np.isnan(tf.linalg.logdet(neg).numpy())
    assert np.isneginf(tf.linalg.logdet(np.zeros((2, 2))).numpy())
    z = rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3))
    assert_close(tf.linalg.logdet(z).numpy(), torch.logdet(torch.tensor(z)).numpy())
    batch = np.stack([a, 2 * a], axis=-1)
    assert_close(tf.linalg.logdet(batch).numpy(),
                 [np.log(np.linalg.det(a)), np.log(np.linalg.det(2 * a))])
    x = tf.tensor(a).requires_grad_()
    tf.linalg.logdet(x).backward()
    assert_close(x.grad.numpy(), fd_grad(lambda v: np.log(np.linalg.det(v)), a, 1.0), atol=1e-7)
    with pytest.raises(tf.ShapeMismatchError, match="logdet"):
        tf.linalg.logdet(np.zeros((2, 3)))


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_solve(rng, upper):
    a = _spd(rng, 3)
    l = np.linalg.cholesky(a)
    f = l.T if upper else l
    b = rng.standard_normal((3, 2))
    assert_close(tf.linalg.cholesky_solve(b, f, upper=upper).numpy(), np.linalg.solve(a, b))
    assert_close(tf.linalg.cholesky_solve(b, f, upper=upper).numpy(),
                 torch.cholesky_solve(torch.tensor(b), torch.tensor(f), upper=upper).numpy())
    w = rng.standard_normal((3, 2))
    fx, bx = tf.tensor(f).requires_grad_(), tf.tensor(b).requires_grad_()
    (tf.linalg.cholesky_solve(bx, fx, upper=upper) * w).sum().backward()

    def ref(fv, bv):
        t = np.triu(fv) if upper else np.tril(fv)
        m = t.T @ t if upper else t @ t.T
        return np.linalg.solve(m, bv)
    assert_close(bx.grad.numpy(), fd_grad(lambda v: ref(f, v), b, w), atol=1e-7)
    assert_close(fx.grad.numpy(), fd_grad(lambda v: ref(v, b), f, w), atol=1e-7)
    with pytest.raises(tf.ShapeMismatchError, match="cholesky_solve.*l of shape"):
        tf.linalg.cholesky_solve(b, np.zeros((3, 2)))


def test_linalg_traced_and_dataflow(rng):
    a = _spd(rng, 3)
    b = rng.standard_normal((3, 2))
    l = np.linalg.cholesky(a)
    f = tf.jit((3, 3), (3, 2))(lambda x, y: (tf.linalg.logdet(x),
                                             tf.linalg.cholesky_solve(y, tf.linalg.cholesky(x)),
                                             tf.linalg.matrix_rank(x)))
    ld, sol, rk = f(a, b)
    assert_close(ld.numpy(), np.log(np.linalg.det(a)))
    assert_close(sol.numpy(), np.linalg.solve(a, b))
    assert int(rk.numpy()) == 3
    ctx = tf.Context("dataflow")
    x = tf.tensor(a, context=ctx).requires_grad_()
    tf.linalg.logdet(x).backward()
    assert_close(x.grad.numpy(), np.linalg.inv(a).T)
    s = tf.linalg.cholesky_solve(tf.tensor(b, context=ctx), tf.tensor(l, context=ctx))
    assert_close(s.numpy(), np.linalg.solve(a, b))
    assert int(tf.linalg.matrix_rank(tf.tensor(a, context=ctx)).numpy()) == 3
