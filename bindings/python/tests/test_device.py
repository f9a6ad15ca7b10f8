"""Placement from Python: Tensor.to, Tensor.device, device_count, the device rule, printing and
DLPack of device tensors. The ctest entry python_device runs this file with the host-memory
device plugin (TFE_CUDA_PLUGIN, tests/device/fake_plugin.cpp) and TFE_EXPECT_DEVICES=2; without a
device the tests that need one skip."""
import os

import numpy as np
import pytest

import tenferro as tf

needs_device = pytest.mark.skipif(tf.device_count("cuda") == 0, reason="SKIP: no CUDA device")


def test_device_count_matches_the_environment():
    expected = os.environ.get("TFE_EXPECT_DEVICES")
    if expected is None:
        pytest.skip("SKIP: no device expectation set (run through ctest python_device)")
    assert tf.device_count("cuda") == int(expected)
    assert tf.device_count("cpu") == 1
    with pytest.raises(ValueError):
        tf.device_count("tpu")


def test_host_tensors_are_on_the_cpu():
    x = tf.Tensor(np.arange(6.0).reshape(2, 3))
    assert x.device == "cpu"
    assert x.to("cpu").device == "cpu"
    with pytest.raises(ValueError):
        x.to("gpu")


@needs_device
def test_ops_on_the_device_equal_the_host():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((4, 3))
    b = rng.standard_normal((3, 5))
    x, y = tf.Tensor(a), tf.Tensor(b)
    xd, yd = x.to("cuda"), y.to("cuda:0")
    assert xd.device == "cuda:0"
    cases = [
        (lambda p, q: p @ q, 1e-12),
        (lambda p, q: tf.sin(p) * 2.0 + 1, 0),
        (lambda p, q: tf.sum(p, axis=0), 0),
        (lambda p, q: p.T.reshape((2, 6)), 0),
        (lambda p, q: tf.einsum("ij,jk->ki", p, q), 1e-12),
        (lambda p, q: tf.mean(p * p), 0),
        (lambda p, q: tf.concatenate([p, p], axis=1)[::2], 0),
    ]
    for f, tol in cases:
        host = f(x, y).numpy()
        dev = f(xd, yd)
        assert dev.device == "cuda:0"
        np.testing.assert_allclose(dev.to("cpu").numpy(), host, rtol=tol, atol=tol)


@needs_device
def test_the_device_rule():
    x = tf.Tensor(np.ones((2, 2)))
    xd = x.to("cuda")
    with pytest.raises(tf.DeviceError, match="cuda:0"):
        x + xd
    if tf.device_count("cuda") > 1:
        with pytest.raises(tf.DeviceError, match="cuda:1"):
            xd + x.to("cuda:1")
    # a rank-0 host tensor is a scalar argument
    assert (xd * tf.Tensor(3.0)).device == "cuda:0"
    with pytest.raises(tf.DeviceError, match=r"Tensor\.to\(\)"):
        xd.numpy()
    with pytest.raises(tf.NotSupportedError, match="cuda:0"):
        tf.linalg.qr_pivoted(tf.Tensor(np.eye(3)).to("cuda"))


@needs_device
def test_derivatives_of_device_tensors():
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((3, 3)), rng.standard_normal((3, 4))
    host = [tf.Tensor(a).requires_grad_(), tf.Tensor(b).requires_grad_()]
    dev = [tf.Tensor(a).to("cuda").requires_grad_(), tf.Tensor(b).to("cuda").requires_grad_()]
    for x, y in (host, dev):
        tf.sum(tf.sin(x) * tf.sum(x @ y)).backward()
    for h, d in zip(host, dev):
        assert d.grad.device == "cuda:0"
        np.testing.assert_allclose(d.grad.cpu().numpy(), h.grad.numpy(), rtol=1e-12)
    # functional reverse mode with a device seed
    seed = tf.Tensor(np.ones((3, 4)))
    (gh,) = tf.autograd.vjp(host[0] @ host[1], host[0], seed)
    (gd,) = tf.autograd.vjp(dev[0] @ dev[1], dev[0], seed.to("cuda"))
    assert gd.device == "cuda:0"
    # vjp's results are recorded again (for higher orders), and they move like any tensor
    assert gd.cpu().device == "cpu" and gd.cpu().requires_grad
    np.testing.assert_allclose(gd.cpu().detach().numpy(), gh.detach().numpy(), rtol=1e-12)


@needs_device
def test_gradients_flow_through_transfers():
    a = np.linspace(-1.0, 2.0, 6).reshape(2, 3)
    x = tf.Tensor(a).requires_grad_()
    # a loss with a device part and a host part
    loss = tf.sum(tf.sin(x.to("cuda"))).cpu() + tf.sum(tf.cos(x))
    loss.backward()
    assert x.grad.device == "cpu"
    np.testing.assert_allclose(x.grad.numpy(), np.cos(a) - np.sin(a), rtol=1e-12)
    # a device variable differentiated through a host computation
    y = tf.Tensor(a).to("cuda").requires_grad_()
    tf.sum(y.cpu() ** 2).backward()
    assert y.grad.device == "cuda:0"
    np.testing.assert_allclose(y.grad.cpu().numpy(), 2 * a, rtol=1e-12)
    # the dataflow engine
    ctx = tf.Context("dataflow")
    z = tf.Tensor(a, context=ctx).requires_grad_()
    tf.sum(tf.exp(z.to("cuda"))).cpu().backward()
    np.testing.assert_allclose(z.grad.numpy(), np.exp(a), rtol=1e-12)


@needs_device
def test_creation_on_a_device():
    host = tf.Tensor(1.0)
    with tf.device("cuda"):
        made = [tf.zeros((2, 3)), tf.ones(4, dtype=np.complex64), tf.full((2, 2), 7),
                tf.eye(3), tf.arange(5), tf.linspace(0, 1, 5), tf.iota((2, 3), axis=1),
                tf.random_normal((3,), seed=1), tf.tensor([[1.0, 2.0]])]
        assert tf.sin(host).device == "cpu"  # ops run where their operands are
    assert all(t.device == "cuda:0" for t in made)
    np.testing.assert_array_equal(made[3].cpu().numpy(), np.eye(3))
    np.testing.assert_array_equal(made[7].cpu().numpy(), tf.random_normal((3,), seed=1).numpy())
    assert tf.zeros(3).device == "cpu"
    assert tf.full((2,), 0.5, device="cuda").device == "cuda:0"
    np.testing.assert_array_equal(tf.full((2,), 0.5, device="cuda").cpu().numpy(), [0.5, 0.5])
    with pytest.raises(ValueError):
        tf.zeros(3, device="tpu")


@needs_device
def test_repr_and_dlpack_of_a_device_tensor():
    x = tf.Tensor(np.arange(3.0))
    xd = x.to("cuda")
    assert "device='cuda:0'" in repr(xd)
    assert repr(xd).replace(", device='cuda:0'", "") == repr(x)
    assert xd.__dlpack_device__() == (2, 0)
    back = tf.from_dlpack(xd.__dlpack__())
    assert back.device == "cuda:0"
    np.testing.assert_array_equal(back.cpu().numpy(), x.numpy())


@needs_device
def test_a_traced_function_runs_on_its_arguments_device():
    k = tf.Tensor(np.linspace(0, 1, 6).reshape(2, 3))

    @tf.jit((2, 3))
    def f(v):
        return tf.sum(tf.cos(v) * k)

    x = tf.Tensor(np.arange(6.0).reshape(2, 3))
    d = f(x.to("cuda"))
    assert d.device == "cuda:0"
    np.testing.assert_array_equal(d.cpu().numpy(), f(x).numpy())


@needs_device
def test_linear_algebra_on_a_device():
    rng = np.random.default_rng(7)
    a = rng.standard_normal((4, 4, 2))
    b = rng.standard_normal((4, 3, 2))
    spd = np.einsum("jib,jkb->ikb", a, a) + 4 * np.eye(4)[:, :, None]
    A, B, P = tf.Tensor(a), tf.Tensor(b), tf.Tensor(spd)
    Ad, Bd, Pd = A.to("cuda"), B.to("cuda"), P.to("cuda")
    pairs = [
        (tf.linalg.solve(A, B), tf.linalg.solve(Ad, Bd)),
        (tf.linalg.inv(A), tf.linalg.inv(Ad)),
        (tf.linalg.cholesky(P), tf.linalg.cholesky(Pd)),
        (tf.linalg.eigvalsh(P), tf.linalg.eigvalsh(Pd)),
        (tf.linalg.svdvals(A), tf.linalg.svdvals(Ad)),
    ]
    for host, dev in pairs:
        assert dev.device == "cuda:0"
        np.testing.assert_allclose(dev.cpu().numpy(), host.numpy(), rtol=1e-10, atol=1e-12)
    q, r = tf.linalg.qr(Ad)
    np.testing.assert_allclose((q @ r).cpu().numpy(), a, atol=1e-12)
    np.testing.assert_allclose(tf.linalg.det(Ad).cpu().numpy(), np.linalg.det(a.transpose(2, 0, 1)),
                               rtol=1e-10)
    np.testing.assert_allclose(tf.linalg.matrix_exp(Ad).cpu().numpy(),
                               tf.linalg.matrix_exp(A).numpy(), rtol=1e-10)
    p, l, u = tf.linalg.lu(Ad)
    np.testing.assert_allclose((p @ l @ u).cpu().numpy(), a, atol=1e-12)
    # the gradient of a factorisation on the device equals the host's
    xs = [tf.Tensor(spd).requires_grad_(), tf.Tensor(spd).to("cuda").requires_grad_()]
    for x in xs:
        tf.sum(tf.linalg.cholesky(x)).backward()
    np.testing.assert_allclose(xs[1].grad.cpu().numpy(), xs[0].grad.numpy(), rtol=1e-10)
