"""NumPy's indexing on tensors (None, Ellipsis, negative steps, integer arrays, boolean masks and
their combinations), its derivatives, and the functional updates t.at[key].set/add/multiply."""

import numpy as np
import pytest

import tenferro as tf

A_SHAPE = (3, 4, 5)


def keys(a):
    return [
        (None,), (0, None, slice(None, None, -1)), (Ellipsis, None), (None, Ellipsis, None, 1),
        (slice(None, None, -2), None, slice(1, None)),
        ([2, 0, 0],), (np.array([[1, 2], [0, -1]]),), (a > 0,), (a[:, :, 0] > 0,),
        (slice(None), [0, 3], [1, 4]), (0, slice(None), [1, 2]), (np.array([True, False, True]),),
        (1, Ellipsis, [0, -1]), ([0, 2], slice(None, None, -1), None),
        (tf.Tensor(np.array([1, 0], np.int32)),), (tf.Tensor(a[..., 0] > 0),),
        ([[0], [2]], [1, 3]),
    ]


def plain(k):
    return tuple(x.numpy() if isinstance(x, tf.Tensor) else x for x in k)


@pytest.mark.parametrize("which", range(17))
def test_getitem_matches_numpy(rng, which):
    a = rng.standard_normal(A_SHAPE)
    key = keys(a)[which]
    want = a[plain(key)]
    got = tf.Tensor(a)[key if len(key) > 1 else key[0]]
    assert got.shape == want.shape
    np.testing.assert_array_equal(got.numpy(), want)
    # derivative: the cotangent lands on the selected elements (twice for a repeated index)
    x = tf.Tensor(a).requires_grad_()
    w = rng.standard_normal(want.shape)
    (x[key] * w).sum().backward()
    g = np.zeros_like(a)
    np.add.at(g, plain(key), w)
    np.testing.assert_allclose(x.grad.numpy(), g, atol=1e-14)


@pytest.mark.parametrize("which", [1, 5, 7, 9, 10, 13])
def test_at_updates_match_numpy(rng, which):
    a = rng.standard_normal(A_SHAPE)
    key = keys(a)[which]
    sel_shape = a[plain(key)].shape
    v = rng.standard_normal(sel_shape)
    want = a.copy()
    np.add.at(want, plain(key), v)
    np.testing.assert_allclose(tf.Tensor(a).at[key].add(v).numpy(), want)
    if which == 5:  # [2, 0, 0] selects row 0 twice: only add accepts that
        with pytest.raises(IndexError, match="more than once"):
            tf.Tensor(a).at[key].set(v)
        return
    want = a.copy()
    want[plain(key)] = v
    np.testing.assert_array_equal(tf.Tensor(a).at[key].set(v).numpy(), want)
    want = a.copy()
    want[plain(key)] *= v
    np.testing.assert_allclose(tf.Tensor(a).at[key].multiply(v).numpy(), want)


def test_at_update_derivatives(rng):
    a = rng.standard_normal((3, 4))
    v = rng.standard_normal(4)
    w = rng.standard_normal((3, 4))
    for name in ("set", "add", "multiply"):
        x = tf.Tensor(a).requires_grad_()
        tv = tf.Tensor(v).requires_grad_()
        (getattr(x.at[1], name)(tv) * w).sum().backward()
        gx = w.copy()
        if name == "set":
            gx[1] = 0
        elif name == "multiply":
            gx[1] *= v
        gv = {"set": w[1], "add": w[1], "multiply": w[1] * a[1]}[name]
        np.testing.assert_allclose(x.grad.numpy(), gx, atol=1e-14)
        np.testing.assert_allclose(tv.grad.numpy(), gv, atol=1e-14)


def test_at_scalar_and_dtype():
    t = tf.Tensor(np.zeros(4, np.float32))
    r = t.at[1:3].set(2)
    assert r.dtype == np.float32
    np.testing.assert_array_equal(r.numpy(), [0, 2, 2, 0])
    np.testing.assert_array_equal(t.numpy(), np.zeros(4))  # unchanged


def test_item_assignment_points_to_at():
    t = tf.Tensor(np.zeros(3))
    with pytest.raises(TypeError, match=r"\.at\[idx\]\.set"):
        t[0] = 1.0


def test_index_errors():
    t = tf.Tensor(np.zeros((2, 3)))
    with pytest.raises(IndexError):
        t[[5]]
    with pytest.raises(IndexError):
        t[np.array([True, False, True])]
    with pytest.raises(IndexError):
        t.at[[0, 0]].set(1.0)
