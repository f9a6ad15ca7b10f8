"""Leak checks: after `del` and gc.collect(), tenferro.debug_live_objects() is back at its
starting value. (conftest.no_leaks also checks this around every test.)"""

import gc

import numpy as np
import pytest

import tenferro as tf


@pytest.fixture
def live_objects():
    """A function returning the number of tenferro handles created since the fixture started
    (after a full garbage collection)."""
    tf.default_context()
    gc.collect()
    start = tf.debug_live_objects()

    def delta():
        gc.collect()
        return tf.debug_live_objects() - start

    yield delta
    assert delta() == 0


def test_ops_and_views_release_everything(live_objects):
    x = tf.Tensor(np.arange(24.0).reshape(2, 3, 4))
    ys = [x + 1, x * x, tf.exp(x), x.T, x[1, ::-1], tf.sum(x, (0, 2)), tf.reshape(x, (6, 4)),
          tf.concatenate([x, x], 1), tf.stack([x, x]), tf.matmul(x, tf.Tensor(np.ones((3, 2))))]
    assert live_objects() >= len(ys) + 1
    del x, ys
    assert live_objects() == 0


def test_reference_cycles_are_collected(live_objects):
    t = tf.zeros((3,))
    cycle = [t]
    cycle.append(cycle)
    del t, cycle
    assert live_objects() == 0


def test_failed_calls_leak_nothing(live_objects):
    a = tf.Tensor(np.ones((2, 3)))
    for _ in range(50):
        with pytest.raises(tf.ShapeMismatchError):
            a + tf.Tensor(np.ones(3))
        with pytest.raises(tf.DtypeMismatchError):
            tf.exp(tf.Tensor([1, 2]))
        with pytest.raises(ValueError):
            tf.slice(a, [0], [1, 1])
    del a
    assert live_objects() == 0


def test_contexts_outlive_their_last_python_reference(live_objects):
    ctx = tf.Context()
    t = tf.ones((2,), context=ctx)
    del ctx  # the tensor keeps its context alive
    assert (t + 1).numpy().tolist() == [2.0, 2.0]
    assert live_objects() >= 2
    del t
    assert live_objects() == 0


def test_interop_releases_everything(live_objects):
    a = np.arange(10.0)
    t = tf.from_numpy(a)
    b = np.from_dlpack(t)
    u = tf.from_dlpack(np.arange(5.0))
    unused = [t.__dlpack__(), t.__dlpack__(max_version=(1, 0))]  # never consumed
    del t, b, u, unused
    assert live_objects() == 0


def test_the_check_sees_a_leak(live_objects):
    kept = tf.zeros((1,))
    assert live_objects() == 1
    del kept
