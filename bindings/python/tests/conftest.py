"""Shared fixtures and NumPy reference helpers for the tenferro Python tests.

Run with the build tree's package on the path, e.g.
    PYTHONPATH=build/python /usr/bin/python3 -m pytest -q bindings/python/tests
"""

import gc
import zlib

import numpy as np
import pytest

import tenferro as tf

ALL_DTYPES = [np.bool_, np.int32, np.int64, np.float32, np.float64, np.complex64, np.complex128]
INT_DTYPES = [np.int32, np.int64]
REAL_DTYPES = [np.float32, np.float64]
COMPLEX_DTYPES = [np.complex64, np.complex128]
FLOAT_DTYPES = REAL_DTYPES + COMPLEX_DTYPES
NUMERIC_DTYPES = INT_DTYPES + FLOAT_DTYPES  # everything but bool
ORDERED_DTYPES = [np.bool_] + INT_DTYPES + REAL_DTYPES  # everything but complex


def dtype_id(d):
    return np.dtype(d).name


@pytest.fixture(autouse=True)
def no_leaks():
    """Every test must give back every handle it made: after the test's objects are collected,
    tenferro.debug_live_objects() is back at its starting value (the default context is created
    first so that it does not count as a leak). gc.collect() runs only when the count differs
    (it costs ~40 ms; tensors are normally freed by reference counting)."""
    tf.default_context()
    before = tf.debug_live_objects()
    yield
    after = tf.debug_live_objects()
    if after != before:
        gc.collect()
        after = tf.debug_live_objects()
    assert after == before, f"{after - before} tenferro handle(s) leaked"


@pytest.fixture
def rng(request):
    # a stable seed per test, so failures reproduce
    return np.random.default_rng(zlib.crc32(request.node.nodeid.encode()))


def rand(rng, shape, dtype, low=-3.0, high=3.0, nonzero=False):
    """Random values of dtype in [low, high] (complex: both parts)."""
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return np.ones(shape, bool) if nonzero else np.asarray(rng.random(shape) < 0.5)
    if dt.kind == "i":
        a = np.asarray(rng.integers(int(np.floor(low)), int(np.ceil(high)) + 1, size=shape)).astype(dt)
        if nonzero:
            a[a == 0] = 1
        return a
    if dt.kind == "f":
        a = np.asarray(rng.uniform(low, high, size=shape)).astype(dt)
    else:
        a = np.asarray(rng.uniform(low, high, size=shape)
                       + 1j * rng.uniform(low, high, size=shape)).astype(dt)
    if nonzero:
        a[np.abs(a) < 0.1] = 1
    return a


def tol(dtype):
    dt = np.dtype(dtype)
    if dt in (np.dtype(np.float32), np.dtype(np.complex64)):
        return dict(rtol=2e-5, atol=2e-6)
    return dict(rtol=1e-12, atol=1e-13)


def assert_close(got, want, dtype=None, **kw):
    """got (a Tensor) equals want (a NumPy array): same shape, same dtype, close values."""
    assert isinstance(got, tf.Tensor)
    want = np.asarray(want)
    g = got.numpy()
    assert g.shape == want.shape, (g.shape, want.shape)
    assert g.dtype == want.dtype, (g.dtype, want.dtype)
    if g.dtype.kind in "biu":
        np.testing.assert_array_equal(g, want)
    else:
        t = tol(g.dtype if dtype is None else dtype)
        t.update(kw)
        np.testing.assert_allclose(g, want, equal_nan=True, **t)


def left_align(*arrays):
    """Reshapes arrays to one rank by appending extents of 1 (tenferro's left-aligned rule), so
    that NumPy's broadcasting then gives tenferro's result."""
    nd = max(np.ndim(a) for a in arrays)
    return [np.reshape(a, np.shape(a) + (1,) * (nd - np.ndim(a))) for a in arrays]


def np_matmul(a, b):
    """tenferro's matmul in NumPy: [M,K,B..] x [K,N,B..] -> [M,N,B..], batch dims left-aligned."""
    nb = max(a.ndim, b.ndim) - 2
    a = a.reshape(a.shape + (1,) * (nb + 2 - a.ndim))
    b = b.reshape(b.shape + (1,) * (nb + 2 - b.ndim))
    am = np.moveaxis(a, [0, 1], [-2, -1])  # [B..,M,K]
    bm = np.moveaxis(b, [0, 1], [-2, -1])
    return np.moveaxis(np.matmul(am, bm), [-2, -1], [0, 1])
