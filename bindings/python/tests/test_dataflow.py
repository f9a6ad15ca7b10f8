"""Dataflow contexts from Python (tenferro.Context(mode="dataflow")): the same ops and Tensor
methods as eager mode, with the dataflow semantics: ops return at once, reads wait, backward seeds
once, grad seals, sealed tensors feed new ops; gradients equal eager ones (and PyTorch's), with
the same bits under both schedulers."""

import threading

import numpy as np
import pytest

import tenferro as tf
from tenferro import autograd as ag


def loss_of(x, w):
    return (tf.sin(x) * x + tf.exp(x) * w).sum()


def grad_in(context, xv, wv):
    x = tf.tensor(xv, context=context).requires_grad_()
    w = tf.tensor(wv, context=context)
    loss = loss_of(x, w)
    loss.backward()
    return x.grad.numpy(), loss.item()


XV = np.array([0.1, -0.7, 1.3, 2.0])
WV = np.array([0.5, 1.5, -2.0, 0.25])


def test_modes_and_gradients_match_eager():
    eager = tf.Context()
    pool = tf.Context("dataflow", threads=2)
    debug = tf.Context("dataflow", scheduler="debug")
    assert eager.mode == "eager" and pool.mode == "dataflow" and debug.mode == "dataflow"
    want = np.sin(XV) + XV * np.cos(XV) + np.exp(XV) * WV
    ge, le = grad_in(eager, XV, WV)
    gp, lp = grad_in(pool, XV, WV)
    gd, ld = grad_in(debug, XV, WV)
    np.testing.assert_allclose(ge, want, rtol=1e-13)
    np.testing.assert_allclose(gp, ge, rtol=1e-14)
    assert gp.tobytes() == gd.tobytes()  # the same bits under both schedulers
    assert lp == pytest.approx(le, rel=1e-15)


def test_each_context_owns_its_vjp_kernels():
    a = tf.Context("dataflow", scheduler="debug")
    b = tf.Context("dataflow", threads=2)
    grad_in(a, XV, WV)
    first = a.cache_stats("vjp_kernel")
    assert first.entries >= 4 and b.cache_stats("vjp_kernel").entries == 0
    grad_in(a, XV, WV)
    again = a.cache_stats("vjp_kernel")
    assert again.entries == first.entries and again.hits >= first.hits + 4
    a.clear_cache("vjp_kernel")
    assert a.cache_stats("vjp_kernel").entries == 0


def test_bad_context_arguments():
    with pytest.raises(ValueError):
        tf.Context("lazy")
    with pytest.raises(ValueError):
        tf.Context("dataflow", scheduler="fifo")
    with pytest.raises(tf.InvalidArgumentError):
        tf.Context("dataflow", scheduler="debug", threads=4)
    with pytest.raises(ValueError):
        tf.Context(threads=2)


def test_complex_convention_and_seeds():
    ctx = tf.Context("dataflow")
    zv = np.array([1.5 - 2.5j, -0.5 + 1.0j])
    z = tf.tensor(zv, context=ctx).requires_grad_()
    tf.real(z * tf.conj(z)).sum().backward()
    np.testing.assert_allclose(z.grad.numpy(), 2 * zv, rtol=1e-14)

    z1 = tf.tensor(np.complex128(1.5 - 2.5j), context=ctx).requires_grad_()
    re, im = tf.real(z1), tf.imag(z1)
    im.backward(3.0)  # the order of the seeds does not matter
    re.backward(2.0)
    assert z1.grad.item() == 2 + 3j


def test_errors_surface_where_the_table_says():
    ctx = tf.Context("dataflow", threads=2)
    a = tf.tensor(np.array([1.0, 2.0, 3.0]), context=ctx).requires_grad_()
    b = tf.tensor(np.array([1.0, 2.0]), context=ctx)
    with pytest.raises(tf.ShapeMismatchError):
        a + b  # validation errors come from the op at once
    singular = tf.tensor(np.zeros((2, 2)), context=ctx)
    x = tf.linalg.solve(singular, tf.tensor(np.ones((2, 1)), context=ctx))  # returns at once
    downstream = tf.sin(x)
    with pytest.raises(tf.SingularError):
        downstream.numpy()
    loss = (a * a).sum()
    loss.backward()
    with pytest.raises(tf.InvalidArgumentError, match="seeded already"):
        loss.backward()
    np.testing.assert_array_equal(a.grad.numpy(), [2.0, 4.0, 6.0])
    with pytest.raises(tf.InvalidArgumentError):
        loss.backward()  # sealed
    with pytest.raises(tf.NotSupportedError):
        ag.vjp(loss, [a])
    with pytest.raises(tf.NotSupportedError):
        with tf.capture_trace(ctx):
            pass
    with pytest.raises(tf.NotDifferentiableError):
        (b * b).sum().backward()


def test_pipelined_optimiser_and_no_grad():
    ctx = tf.Context("dataflow")
    x = tf.tensor(np.array([1.0, -2.0]), context=ctx).requires_grad_()
    for _ in range(10):
        (x * x).sum().backward()
        x = (x - 0.1 * x.grad).requires_grad_()  # a new variable from a pending value
    np.testing.assert_allclose(x.numpy(), 0.8**10 * np.array([1.0, -2.0]), rtol=1e-14)

    y = tf.tensor(np.array([0.5, 2.0]), context=ctx).requires_grad_()
    with tf.no_grad(ctx):
        c = y * y
    assert not c.requires_grad
    unused = tf.tensor(np.array([1.0]), context=ctx).requires_grad_()
    tf.sin(unused)  # never seeded: its gradient is absent
    (c * y).sum().backward()
    np.testing.assert_allclose(y.grad.numpy(), [0.25, 4.0])
    assert unused.grad is None


def test_threads_share_a_context():
    ctx = tf.Context("dataflow", threads=2)
    shared = tf.tensor(np.array([0.5, -1.0, 2.0]), context=ctx)
    results = [None] * 4

    def work(i):
        x = shared.detach().requires_grad_()
        tf.exp(x * (i + 1.0)).sum().backward()
        results[i] = x.grad.numpy()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i, g in enumerate(results):
        np.testing.assert_allclose(g, (i + 1) * np.exp((i + 1) * shared.numpy()), rtol=1e-13)


def test_linalg_loss_against_pytorch():
    torch = pytest.importorskip("torch", reason="python3-torch is not installed")
    rng = np.random.default_rng(3)
    av = rng.standard_normal((4, 4)) + 4 * np.eye(4) + 1j * rng.standard_normal((4, 4))
    bv = rng.standard_normal((4, 2)) + 0j
    ctx = tf.Context("dataflow", threads=2)
    a = tf.tensor(av, context=ctx).requires_grad_()
    sol = tf.linalg.solve(a, tf.tensor(bv, context=ctx))
    loss = tf.real(sol * tf.conj(sol)).sum() + tf.abs(tf.linalg.det(a))
    loss.backward()
    ta = torch.tensor(av, requires_grad=True)
    tsol = torch.linalg.solve(ta, torch.tensor(bv))
    tloss = (tsol * tsol.conj()).real.sum() + torch.linalg.det(ta).abs()
    tloss.backward()
    np.testing.assert_allclose(a.grad.numpy(), ta.grad.numpy(), rtol=1e-10, atol=1e-12)
