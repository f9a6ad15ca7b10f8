"""Zero-copy exchange: from_numpy (tfe_tensor_from_buffer) and DLPack both ways with NumPy and
PyTorch, the capsule rules, and lifetimes (nothing leaks, nothing is freed early)."""

import gc
import sys
import threading

import numpy as np
import pytest

import tenferro as tf
import tenferro.tenferro_c as c
from conftest import ALL_DTYPES, assert_close, dtype_id, rand

NUMPY_DLPACK_DTYPES = [d for d in ALL_DTYPES if d is not np.bool_]  # NumPy 1.24: no kDLBool


def data_ptr(t):
    return c.tfe_tensor_data(t._h)


# ---- from_numpy ----


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_from_numpy_is_zero_copy(rng, dtype):
    a = rand(rng, (4, 3), dtype)
    t = tf.from_numpy(a)
    assert data_ptr(t) == a.ctypes.data
    assert_close(t, a.copy())
    v = tf.from_numpy(a[::-1, 1:])  # element (0,0) of a negative-stride view
    assert data_ptr(v) == a[::-1, 1:].ctypes.data
    assert_close(v, a[::-1, 1:].copy())


def test_from_numpy_keeps_the_array_alive(rng):
    a = rand(rng, (1000,), np.float64)
    want = a.copy()
    refs = sys.getrefcount(a)
    t = tf.from_numpy(a)
    assert sys.getrefcount(a) == refs + 1  # the buffer view holds one reference
    del a
    gc.collect()
    assert_close(t * 1.0, want)
    view = t.T  # a view shares the adopted storage
    del t
    gc.collect()
    assert_close(view, want)


def test_from_numpy_releases_the_array(rng):
    a = rand(rng, (10, 10), np.float64)
    refs = sys.getrefcount(a)
    t = tf.from_numpy(a)
    u = tf.exp(t)
    s = t[2:5]
    del t, s
    assert sys.getrefcount(a) == refs  # released with the last view
    del u


def test_from_numpy_release_on_another_thread(rng):
    """The deleter takes the GIL: dropping the last reference off the main thread is safe."""
    a = rand(rng, (100,), np.float64)
    refs = sys.getrefcount(a)
    holder = [tf.from_numpy(a)]

    def drop():
        holder.clear()

    th = threading.Thread(target=drop)
    th.start()
    th.join()
    assert sys.getrefcount(a) == refs


def test_from_numpy_errors():
    bad_bool = np.array([0, 2], np.uint8).view(np.bool_)
    with pytest.raises(tf.InvalidArgumentError, match=r"^tenferro\.from_numpy\(\)"):
        tf.from_numpy(bad_bool)
    refs = sys.getrefcount(bad_bool)
    with pytest.raises(tf.InvalidArgumentError):
        tf.from_numpy(bad_bool)
    assert sys.getrefcount(bad_bool) == refs  # a failed adoption gives the buffer back
    with pytest.raises(TypeError):
        tf.from_numpy([1.0, 2.0])
    with pytest.raises(TypeError):
        tf.from_numpy(np.zeros(2, np.uint16))


# ---- DLPack with NumPy ----


@pytest.mark.parametrize("dtype", NUMPY_DLPACK_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("view", [lambda t: t, lambda t: t.T, lambda t: t[::-1, 1:],
                                  lambda t: tf.reverse(t, 1)], ids=["plain", "T", "slice", "rev"])
def test_numpy_from_dlpack(rng, dtype, view):
    x = rand(rng, (4, 5), dtype)
    t = view(tf.Tensor(x))
    a = np.from_dlpack(t)
    assert a.shape == t.shape and a.dtype == t.dtype
    np.testing.assert_array_equal(a, t.numpy())
    if min(t.element_strides) >= 0:
        assert a.ctypes.data == data_ptr(t)  # shared, no copy
    else:
        assert a.strides[0] > 0 and a.strides[1] > 0  # negative strides: a compact copy
    del t
    gc.collect()
    np.testing.assert_array_equal(a, view(tf.Tensor(x)).numpy())  # a keeps the storage alive


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_from_dlpack_numpy(rng, dtype):
    x = rand(rng, (3, 4), dtype)
    for a in (x, x.T, x[::-1, ::2]):
        if dtype is np.bool_:
            continue  # NumPy 1.24 cannot export bool through DLPack
        t = tf.from_dlpack(a)
        assert data_ptr(t) == a.ctypes.data
        assert_close(t, a.copy())


def test_dlpack_keeps_numpy_alive_and_releases_it(rng):
    a = rand(rng, (50,), np.float64)
    refs = sys.getrefcount(a)
    t = tf.from_dlpack(a)
    assert sys.getrefcount(a) > refs
    u = t[1:]
    del t
    assert sys.getrefcount(a) > refs
    del u
    gc.collect()
    assert sys.getrefcount(a) == refs


def test_capsule_rules(rng):
    t = tf.Tensor(rand(rng, (2, 3), np.float64))
    cap = t.__dlpack__()
    assert type(cap).__name__ == "PyCapsule" and c._tfepy_capsule_name(cap) == "dltensor"
    u = tf.from_dlpack(cap)
    assert c._tfepy_capsule_name(cap) == "used_dltensor"
    with pytest.raises(ValueError, match="already consumed"):
        tf.from_dlpack(cap)
    with pytest.raises(TypeError):
        c.tfe_tensor_from_dlpack(tf.default_context()._h, object())
    assert_close(u, t.numpy())
    del cap
    # an unconsumed capsule frees its tensor reference when collected
    for _ in range(3):
        t.__dlpack__()
    assert t.__dlpack_device__() == (1, 0)
    with pytest.raises(BufferError):
        t.__dlpack__(stream=1)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_versioned_round_trip(rng, dtype):
    """DLPack 1.0 (read-only flag): NumPy 1.24 and torch 1.13 read only the legacy form, so the
    versioned path is checked against ourselves."""
    x = rand(rng, (3, 4), dtype)
    t = tf.Tensor(x).T
    cap = t.__dlpack__(max_version=(1, 0))
    assert c._tfepy_capsule_name(cap) == "dltensor_versioned"
    u = tf.from_dlpack(cap)
    assert c._tfepy_capsule_name(cap) == "used_dltensor_versioned"
    assert data_ptr(u) == data_ptr(t)
    assert_close(u, x.T)
    v = tf.from_dlpack(t, context=tf.Context())  # through __dlpack__(max_version=(1, 0))
    assert_close(v, x.T)
    assert data_ptr(v) == data_ptr(t)
    del cap  # unconsumed versioned capsules are freed too
    t.__dlpack__(max_version=(1, 0))


# ---- DLPack with PyTorch ----

TORCH_DTYPES = [np.int32, np.int64, np.float32, np.float64, np.complex64, np.complex128]


@pytest.mark.parametrize("dtype", TORCH_DTYPES, ids=dtype_id)
def test_torch_round_trip(rng, dtype):
    torch = pytest.importorskip("torch")
    from torch.utils import dlpack as tdl

    x = rand(rng, (3, 4), dtype)
    t = tf.Tensor(x)
    for v in (t, t.T, t[::2, ::-1]):
        pt = tdl.from_dlpack(v)  # uses __dlpack__ / __dlpack_device__
        assert tuple(pt.shape) == v.shape
        if min(v.element_strides) >= 0:  # negative strides are exported as a copy
            assert pt.data_ptr() == data_ptr(v)
        np.testing.assert_array_equal(pt.numpy(), v.numpy())
        pt2 = tdl.from_dlpack(v.__dlpack__())  # a bare capsule
        np.testing.assert_array_equal(pt2.numpy(), v.numpy())

    src = torch.from_numpy(x.copy()).t()
    u = tf.from_dlpack(src)
    assert data_ptr(u) == src.data_ptr()
    np.testing.assert_array_equal(u.numpy(), src.numpy())
    w = tf.from_dlpack(tdl.to_dlpack(src))  # a capsule from torch
    np.testing.assert_array_equal(w.numpy(), src.numpy())
    del src
    gc.collect()
    np.testing.assert_array_equal(u.numpy(), x.T)


def test_torch_unsupported_dtype():
    torch = pytest.importorskip("torch")
    h = torch.zeros(3, dtype=torch.float16)
    with pytest.raises(tf.NotSupportedError, match=r"^tenferro\.from_dlpack\(\)"):
        tf.from_dlpack(h)
    # the capsule was not consumed: the torch tensor is intact and freed normally
    assert float(h.sum()) == 0.0


# ---- threads ----


def test_ops_from_several_threads(rng):
    """The wrapper releases the GIL around C calls; several Python threads share one context."""
    a = rand(rng, (64, 64), np.float64)
    want = a @ a
    errors = []

    def work():
        try:
            t = tf.Tensor(a)
            for _ in range(20):
                np.testing.assert_allclose((t @ t).numpy(), want, rtol=1e-12)
                tf.from_numpy(a).sum()
        except Exception as e:  # pragma: no cover (reported below)
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
