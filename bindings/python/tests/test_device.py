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
        tf.cumsum(xd, axis=0)
    with pytest.raises(tf.NotSupportedError):
        xd.requires_grad_()
    with pytest.raises(tf.NotSupportedError):
        x.requires_grad_().to("cuda")


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
