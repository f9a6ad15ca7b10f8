"""Eager AD from Python (tenferro.autograd, Tensor.requires_grad/backward/grad): the closed
forms of docs/design/ad-contract.md, the recording rules (mixed dtypes, released temporaries,
concatenate/stack pinned to eager shapes), scopes, errors, and a PyTorch cross-check."""

import gc

import numpy as np
import pytest

import tenferro as tf
from tenferro import autograd as ag


def F(values, shape):
    """Column-major data (as the oracles are written) as a NumPy array."""
    return np.array(values).reshape(shape, order="F")


def var(values, dtype=None, context=None):
    a = np.asarray(values)
    if dtype is None:
        dtype = np.complex128 if np.iscomplexobj(a) else np.float64
    return tf.tensor(a.astype(dtype), context=context).requires_grad_()


# ---- the published oracles ------------------------------------------------------------------


def test_sum_of_squares():
    x = var([1.0, 2.0, 3.0])
    y = (x * x).sum()
    assert y.requires_grad and y.item() == 14.0
    (g,) = ag.vjp(y, x)
    np.testing.assert_array_equal(g.numpy(), [2, 4, 6])
    dy = ag.jvp(y, x, [0.1, 1, -2])
    assert dy.item() == pytest.approx(-7.8, abs=1e-14)


def test_matmul_oracle():
    a = var(F([1, 2, 3, 4, 5, 6], (2, 3)))
    b = tf.tensor(F([0.5, -1, 2, 1.5, -0.25, 3], (3, 2)))
    c = a @ b
    (ga,) = ag.vjp(c, a, F([1, -0.5, 0.25, 2], (2, 2)))
    np.testing.assert_allclose(ga.numpy(), F([0.875, 2.75, -1.0625, 0.0, 2.75, 5.0], (2, 3)),
                               rtol=0, atol=1e-14)
    dc = ag.jvp(c, a, F([1, -0.5, 0.25, 0, 2, -1], (2, 3)))
    np.testing.assert_allclose(dc.numpy(), F([4.25, -2.25, 7.4375, -3.75], (2, 2)), atol=1e-14)


def test_backward_accumulates_and_clears():
    x, y = var([1.0, 2.0]), var([3.0, 4.0])
    assert x.grad is None
    (x * y).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3, 4])
    earlier = x.grad
    (x * y).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [6, 8])
    np.testing.assert_array_equal(earlier.numpy(), [3, 4])  # a fetched grad keeps its value
    assert not x.grad.requires_grad  # stored gradients are detached
    x.grad = None
    assert x.grad is None
    (x * y).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3, 4])
    np.testing.assert_array_equal(y.grad.numpy(), [3, 6])  # three backwards, never cleared
    y.clear_grad()
    assert y.grad is None


def test_hvp_forward_over_reverse():
    x = var([2.5])
    (g,) = ag.vjp((x * x * x).sum(), x)
    assert g.requires_grad  # the gradient is recorded again
    assert ag.jvp(g, x, 1.0).item() == pytest.approx(15.0, abs=1e-13)

    a = tf.tensor(F([2, 0.5, 1.5, 3], (2, 2)))
    x = var([[1.0], [-1.0]])  # a column: matmul operands have rank >= 2
    v = np.array([[0.5], [2.0]])
    f = (x * (a @ x)).sum()  # x^T A x
    (g,) = ag.vjp(f, x)
    hv = ag.jvp(g, x, v)
    np.testing.assert_allclose(hv.numpy(), [[6], [13]], atol=1e-13)
    # reverse over reverse: the gradient of <g, v>
    (hv2,) = ag.vjp((g * tf.tensor(v)).sum(), x)
    np.testing.assert_allclose(hv2.numpy(), [[6], [13]], atol=1e-13)


@pytest.mark.parametrize("real_dt,complex_dt", [(np.float64, np.complex128),
                                                (np.float32, np.complex64)])
@pytest.mark.parametrize("real_first", [True, False])
def test_mixed_add(real_dt, complex_dt, real_first):
    r = var([1.25, -2.5], real_dt)
    c = var([3 + 0.5j, -4 - 1.25j], complex_dt)
    y = r + c if real_first else c + r
    assert y.dtype == np.dtype(complex_dt)
    np.testing.assert_array_equal(y.numpy(), [4.25 + 0.5j, -6.5 - 1.25j])
    ct = np.array([0.5 + 0.75j, -1.25 - 0.25j], complex_dt)
    gr, gc_ = ag.vjp(y, [r, c], ct)
    assert gr.dtype == np.dtype(real_dt) and gc_.dtype == np.dtype(complex_dt)
    np.testing.assert_array_equal(gr.numpy(), [0.5, -1.25])
    np.testing.assert_array_equal(gc_.numpy(), ct)
    # only r active: no gradient for the untracked operand, and backward stores only into r
    r2, c2 = var([1.25, -2.5], real_dt), tf.tensor(np.array([3 + 0.5j, -4 - 1.25j], complex_dt))
    y2 = r2 + c2 if real_first else c2 + r2
    gr2, gc2 = ag.vjp(y2, [r2, c2], ct)
    assert gc2 is None
    np.testing.assert_array_equal(gr2.numpy(), [0.5, -1.25])
    y2.backward(ct)
    np.testing.assert_array_equal(r2.grad.numpy(), [0.5, -1.25])
    assert c2.grad is None
    # forward mode casts a real tangent up
    dy = ag.jvp(y, [r, c], [[1.0, 2.0], None])
    np.testing.assert_array_equal(dy.numpy(), [1, 2])


def test_complex_convention():
    z = var([1 + 2j, -0.5 + 0.25j], np.complex128)
    (abs(z) * abs(z)).sum().backward()
    np.testing.assert_allclose(z.grad.numpy(), 2 * z.numpy(), atol=1e-14)


# ---- pinned shapes: concatenate and stack -----------------------------------------------------


def test_concatenate_unequal_axis_extents():
    a, b, c = var(F([1, 2], (2, 1))), var(F([3, 4, 5, 6], (2, 2))), var(F([7, 8], (2, 1)))
    y = tf.concatenate([a, b, c], 1)
    np.testing.assert_array_equal(y.numpy(), F(range(1, 9), (2, 4)))
    ct = F([0.5, -1.25, 2, 1.5, -0.25, 0.75, 3, -2], (2, 4))
    ga, gb, gc_ = ag.vjp(y, [a, b, c], ct)
    np.testing.assert_array_equal(ga.numpy(), F([0.5, -1.25], (2, 1)))
    np.testing.assert_array_equal(gb.numpy(), F([2, 1.5, -0.25, 0.75], (2, 2)))
    np.testing.assert_array_equal(gc_.numpy(), F([3, -2], (2, 1)))
    dy = ag.jvp(y, b, F([0.25, -0.5, 1.25, -1.5], (2, 2)))
    np.testing.assert_array_equal(dy.numpy(), F([0, 0, 0.25, -0.5, 1.25, -1.5, 0, 0], (2, 4)))


@pytest.mark.parametrize("tracked_first", [True, False])
@pytest.mark.parametrize("axis", [0, -1])
def test_stack_orders_and_axes(tracked_first, axis):
    t, u = var([10.0, 20.0]), tf.tensor([30.0, 40.0])
    y = tf.stack([t, u] if tracked_first else [u, t], axis)
    k = 0 if tracked_first else 1  # the tracked input's index along the new axis
    want = np.stack([t.numpy(), u.numpy()] if tracked_first else [u.numpy(), t.numpy()], axis)
    np.testing.assert_array_equal(y.numpy(), want)
    ct = np.arange(4.0).reshape(want.shape) - 1.5
    (g,) = ag.vjp(y, t, ct)
    np.testing.assert_array_equal(g.numpy(), np.take(ct, k, axis=axis))
    dy = ag.jvp(y, t, [0.25, -1.5])
    expect = np.zeros(want.shape)
    np.moveaxis(expect, axis, 0)[k] = [0.25, -1.5]
    np.testing.assert_array_equal(dy.numpy(), expect)


def test_stack_published_oracle():
    t, u = var([10.0, 20.0]), tf.tensor([30.0, 40.0])
    y = tf.stack([t, u], -1)
    np.testing.assert_array_equal(y.numpy().ravel(order="F"), [10, 20, 30, 40])
    (g,) = ag.vjp(y, t, F([0.5, -1.25, 2, 1.5], (2, 2)))
    np.testing.assert_array_equal(g.numpy(), [0.5, -1.25])
    y0 = tf.stack([t, u], 0)
    np.testing.assert_array_equal(y0.numpy().ravel(order="F"), [10, 30, 20, 40])
    (g0,) = ag.vjp(y0, t, F([0.5, -1.25, 2, 1.5], (2, 2)))
    np.testing.assert_array_equal(g0.numpy(), [0.5, 2])


def test_concatenate_cache_identity():
    ctx = tf.Context()

    def concat_vjp(na, nb):
        a = var(np.arange(na, dtype=float), context=ctx)
        b = var(-np.arange(nb, dtype=float), context=ctx)
        w = np.linspace(-1, 1, na + nb)
        y = tf.concatenate([a, b], 0)
        with tf.no_grad(ctx):  # the derivative program then runs compiled, not recorded
            ga, gb = ag.vjp(y, [a, b], w)
        np.testing.assert_array_equal(ga.numpy(), w[:na])
        np.testing.assert_array_equal(gb.numpy(), w[na:])

    concat_vjp(2, 3)
    d0 = ctx.cache_stats("derivative").entries
    c0 = ctx.cache_stats("compiled").entries
    concat_vjp(3, 2)  # same total, another split: never the first's programs
    assert ctx.cache_stats("derivative").entries == d0 + 1
    assert ctx.cache_stats("compiled").entries == c0 + 1
    hits = ctx.cache_stats("derivative").hits
    concat_vjp(2, 3)
    assert ctx.cache_stats("derivative").entries == d0 + 1
    assert ctx.cache_stats("derivative").hits > hits


def test_symbolic_reuse_across_shapes():
    ctx = tf.Context()
    for n in (3, 5, 8):
        x = var(np.linspace(0, 1, n), context=ctx)
        (tf.exp(x) * x).sum().backward()
        xv = x.numpy()
        np.testing.assert_allclose(x.grad.numpy(), np.exp(xv) * (1 + xv), rtol=1e-14)
    assert ctx.cache_stats("derivative").entries == 1  # one derivative program serves all n


# ---- lifetime: the trace owns what it needs -----------------------------------------------


def test_released_temporaries():
    x = var([0.5, 1.5])
    y = x
    for _ in range(3):
        e = tf.tensor(2.0)  # a temporary untracked exponent
        y = y ** e * 0.5
        del e
    c = tf.tensor(np.array([1 + 1j, 2 - 0.5j]))
    out = y * c
    del y, c
    gc.collect()
    # out = 0.5^7 x^8 (1+i, 2-0.5i); d Re(sum out)/dx = 8 * 0.5^7 x^7 * Re(c)
    out.real.sum().backward()
    xv = np.array([0.5, 1.5])
    np.testing.assert_allclose(x.grad.numpy(), 8 * 0.5**7 * xv**7 * np.array([1, 2]), rtol=1e-13)
    # a complex cotangent w gives the real leaf Re(conj(w) d out/dx)
    (g,) = ag.vjp(out, x, np.array([1j, 0.5j]))
    np.testing.assert_allclose(g.numpy(), 8 * 0.5**7 * xv**7 * np.array([1, -0.25]), rtol=1e-13)
    dy = ag.jvp(out, x, [1.0, 0.0])
    np.testing.assert_allclose(dy.numpy(), [8 * 0.5**7 * 0.5**7 * (1 + 1j), 0], rtol=1e-13)


# ---- promotion: mixed dtypes replay what executed ------------------------------------------


def test_mixed_concatenate_and_matmul():
    r, c = var([1.0, 2.0]), var(np.array([3 + 1j, -1j, 2.0]))
    y = tf.concatenate([r, c], 0)
    assert y.dtype == np.complex128
    ct = np.array([1 + 2j, 3 - 1j, 0.5j, 2, -1 + 1j])
    gr, gc_ = ag.vjp(y, [r, c], ct)
    np.testing.assert_array_equal(gr.numpy(), [1, 3])
    np.testing.assert_array_equal(gc_.numpy(), ct[2:])

    a32 = var(F([1, 2, 3, 4], (2, 2)), np.float32)
    b64 = var(F([0.5, -1, 2, 1.5], (2, 2)))
    p = a32 @ b64
    assert p.dtype == np.float64
    ga, gb = ag.vjp(p, [a32, b64], np.ones((2, 2)))
    assert ga.dtype == np.float32 and gb.dtype == np.float64
    np.testing.assert_allclose(ga.numpy(), np.ones((2, 2)) @ b64.numpy().T, rtol=1e-6)
    np.testing.assert_allclose(gb.numpy(), a32.numpy().T.astype(float) @ np.ones((2, 2)))


# ---- scopes, detach, errors -----------------------------------------------------------------


def test_no_grad_and_detach():
    x = var([1.0, 2.0])
    with tf.no_grad():
        assert not (x * x).requires_grad
    assert (x * x).requires_grad
    d = x.detach()
    assert not d.requires_grad
    np.testing.assert_array_equal(d.numpy(), [1, 2])

    @tf.no_grad()
    def untracked(t):
        return t * 2

    assert not untracked(x).requires_grad


def test_capture_trace():
    ctx = tf.Context()
    u = tf.tensor([1.0, 3.0], context=ctx)
    with tf.capture_trace(ctx):
        y = (u * u).sum()
    assert u.requires_grad and y.requires_grad
    (g,) = ag.vjp(y, u)
    np.testing.assert_array_equal(g.numpy(), [2, 6])
    with pytest.raises(tf.NotDifferentiableError):
        y.backward()  # backward never stores into a captured leaf: nothing is tracked here
    assert u.grad is None


def test_errors():
    with pytest.raises(tf.DtypeMismatchError):
        tf.tensor([1, 2]).requires_grad = True
    x = var([1.0, 2.0])
    y = x * x
    with pytest.raises(tf.InvalidArgumentError, match=r"^Tensor\.requires_grad_\(\): .*use Tensor\.detach\(\)"):
        y.requires_grad = False  # not a leaf
    with pytest.raises(tf.InvalidArgumentError, match=r"^Tensor\.backward\(\)"):
        y.backward()  # two elements need a seed
    with pytest.raises(tf.NotDifferentiableError):
        tf.tensor([1.0]).sum().backward()
    assert x.grad is None  # failed calls stored nothing
    other = var([1.0, 2.0], context=tf.Context())
    with pytest.raises(tf.InvalidArgumentError):
        ag.vjp(y.sum(), [other])
    with pytest.raises(tf.ShapeMismatchError):
        ag.jvp(y, x, tf.tensor([1.0, 2.0, 3.0]))
    with pytest.raises(TypeError):
        x.grad = tf.tensor([1.0, 1.0])


# ---- PyTorch cross-check --------------------------------------------------------------------


def test_against_pytorch():
    torch = pytest.importorskip("torch", reason="python3-torch is not installed")
    rng = np.random.default_rng(7)
    zv = rng.standard_normal(4) + 1j * rng.standard_normal(4)
    xv = rng.standard_normal(4)

    z, x = var(zv), var(xv)
    loss = (abs(tf.exp(z) * x + tf.sin(z)) ** 2.0).sum() + (tf.tanh(x) * x).sum()
    loss.backward()

    tz = torch.tensor(zv, requires_grad=True)
    tx = torch.tensor(xv, requires_grad=True)
    tloss = ((torch.exp(tz) * tx + torch.sin(tz)).abs() ** 2).sum() + (torch.tanh(tx) * tx).sum()
    tloss.backward()
    np.testing.assert_allclose(loss.item(), tloss.item(), rtol=1e-13)
    np.testing.assert_allclose(z.grad.numpy(), tz.grad.numpy(), rtol=1e-12)
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-12)
