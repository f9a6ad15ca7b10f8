"""Contraction, reductions, conversion, structural and indexing ops (ops_shape.h) and the
creation functions (tensor.h) against NumPy. Matrices are [M,N,batch..] in tenferro."""

import numpy as np
import pytest

import tenferro as tf
from conftest import (ALL_DTYPES, COMPLEX_DTYPES, FLOAT_DTYPES, INT_DTYPES, NUMERIC_DTYPES,
                      ORDERED_DTYPES, REAL_DTYPES, assert_close, dtype_id, left_align, np_matmul,
                      rand)

AXES = [None, 0, 1, -1, (0, 2), (2, 0, 1)]


def np_axes(axes):
    return None if axes is None else axes


def widen(dtype):
    """sum/prod accumulate Bool and I32 in I64 (as NumPy on Linux)."""
    d = np.dtype(dtype)
    return np.dtype(np.int64) if d.kind in "bi" else d


REDUCTIONS = {
    "sum": (lambda x, ax: np.sum(x, axis=ax, dtype=widen(x.dtype)), ALL_DTYPES),
    "prod": (lambda x, ax: np.prod(x, axis=ax, dtype=widen(x.dtype)), ALL_DTYPES),
    "mean": (lambda x, ax: np.mean(x, axis=ax, dtype=np.float64 if x.dtype.kind in "bi" else x.dtype),
             ALL_DTYPES),
    "reduce_sum": (lambda x, ax: np.sum(x, axis=ax, dtype=x.dtype), NUMERIC_DTYPES),
    "reduce_prod": (lambda x, ax: np.prod(x, axis=ax, dtype=x.dtype), NUMERIC_DTYPES),
    "reduce_max": (lambda x, ax: np.max(x, axis=ax), ORDERED_DTYPES),
    "reduce_min": (lambda x, ax: np.min(x, axis=ax), ORDERED_DTYPES),
}


def reduction_cases():
    for name, (_, dtypes) in REDUCTIONS.items():
        for d in dtypes:
            yield pytest.param(name, d, id=f"{name}-{dtype_id(d)}")


@pytest.mark.parametrize("name,dtype", list(reduction_cases()))
@pytest.mark.parametrize("axes", AXES, ids=str)
def test_reductions(rng, name, dtype, axes):
    ref = REDUCTIONS[name][0]
    x = rand(rng, (3, 4, 2), dtype, -1.5, 1.5)
    want = np.asarray(ref(x, np_axes(axes)))
    got = getattr(tf, name)(tf.Tensor(x), axes)
    assert_close(got, want, rtol=1e-4 if np.dtype(dtype).itemsize <= 8 else 1e-11)


def test_reduction_methods_and_rank0(rng):
    x = rand(rng, (3, 4), np.float64)
    t = tf.Tensor(x)
    assert_close(t.sum(), np.sum(x))
    assert_close(t.sum(1), np.sum(x, 1))
    assert_close(t.mean((0, 1)), np.mean(x))
    assert_close(t.max(0), np.max(x, 0))
    assert_close(t.min(), np.min(x))
    assert_close(t.prod(-1), np.prod(x, -1))
    assert_close(tf.amax(t, 1), np.max(x, 1))
    assert tf.sum(t).shape == ()


@pytest.mark.parametrize("name", ["reduce_max", "reduce_min"])
@pytest.mark.parametrize("dtype", COMPLEX_DTYPES, ids=dtype_id)
def test_ordered_reductions_reject_complex(name, dtype):
    with pytest.raises(tf.DtypeMismatchError, match=r"^tenferro\." + name + r"\(\)"):
        getattr(tf, name)(np.ones((2, 2), dtype))


def test_reduction_axis_errors():
    t = tf.Tensor(np.ones((2, 3)))
    with pytest.raises(tf.InvalidArgumentError, match=r"^tenferro\.sum\(\)"):
        tf.sum(t, (0, 0))
    with pytest.raises(tf.InvalidArgumentError, match=r"^tenferro\.sum\(\)"):
        tf.sum(t, 5)


# ---- matmul / dot_general ----

MATMUL_SHAPES = [((3, 4), (4, 5)), ((3, 4, 2), (4, 5, 2)), ((3, 4, 2), (4, 5)),
                 ((2, 3), (3, 2, 4)), ((3, 4, 2, 3), (4, 1, 2, 3)), ((1, 0), (0, 2)),
                 ((2, 3, 1), (3, 2, 5))]


@pytest.mark.parametrize("dtype", NUMERIC_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("shapes", MATMUL_SHAPES, ids=str)
def test_matmul(rng, dtype, shapes):
    a = rand(rng, shapes[0], dtype)
    b = rand(rng, shapes[1], dtype)
    want = np_matmul(a, b)
    assert_close(tf.matmul(a, b), want, rtol=1e-4 if np.dtype(dtype).itemsize <= 8 else 1e-11)
    assert_close(tf.Tensor(a) @ tf.Tensor(b), want, rtol=1e-4 if np.dtype(dtype).itemsize <= 8 else 1e-11)


@pytest.mark.parametrize("da,db", [(np.int32, np.float32), (np.float32, np.float64),
                                   (np.float64, np.complex64), (np.int64, np.complex128)],
                         ids=str)
def test_matmul_promotion(rng, da, db):
    a, b = rand(rng, (2, 3), da), rand(rng, (3, 4), db)
    got = tf.matmul(a, b)
    assert got.dtype == np.result_type(da, db)
    np.testing.assert_allclose(got.numpy(), a.astype(got.dtype) @ b.astype(got.dtype), rtol=1e-5)


def test_matmul_transposed_operands_and_errors(rng):
    a = rand(rng, (5, 3), np.float64)
    b = rand(rng, (5, 4), np.float64)
    assert_close(tf.Tensor(a).T @ tf.Tensor(b), a.T @ b)  # a transposed view goes to BLAS
    with pytest.raises(tf.ShapeMismatchError, match=r"^tenferro\.matmul\(\)"):
        tf.matmul(a, b)
    with pytest.raises(tf.ShapeMismatchError, match=r"^tenferro\.matmul\(\)"):
        tf.matmul(np.ones(3), np.ones(4))  # vector . vector of different lengths
    with pytest.raises(ValueError, match="scalar"):
        tf.matmul(np.ones(()), np.ones(3))
    with pytest.raises(tf.DtypeMismatchError, match=r"^tenferro\.matmul\(\)"):
        tf.matmul(np.ones((2, 2), bool), np.ones((2, 2), bool))


@pytest.mark.parametrize("dtype", NUMERIC_DTYPES, ids=dtype_id)
def test_dot_general(rng, dtype):
    lhs = rand(rng, (3, 4, 2), dtype)  # [i, k, b]
    rhs = rand(rng, (5, 4, 2), dtype)  # [j, k, b]
    got = tf.dot_general(lhs, rhs, [1], [1], [2], [2])
    want = np.einsum("ikb,jkb->ijb", lhs, rhs)  # free lhs, free rhs, batch
    assert_close(got, want, rtol=1e-4 if np.dtype(dtype).itemsize <= 8 else 1e-11)
    got = tf.dot_general(lhs, rhs, [1, 2], [1, 2])
    assert_close(got, np.einsum("ikb,jkb->ij", lhs, rhs),
                 rtol=1e-4 if np.dtype(dtype).itemsize <= 8 else 1e-11)


# ---- conversion ----


@pytest.mark.parametrize("src", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("dst", ALL_DTYPES, ids=dtype_id)
def test_convert_and_cast(rng, src, dst):
    x = rand(rng, (3, 2), src, -3, 3)
    if np.result_type(src, dst) == np.dtype(dst):  # lossless: convert allowed
        assert_close(tf.convert(x, dst), x.astype(dst))
    else:
        with pytest.raises(tf.DtypeMismatchError, match=r"^tenferro\.convert\(\)"):
            tf.convert(x, dst)
    got = tf.cast(x, dst)
    assert got.dtype == np.dtype(dst)
    if np.dtype(src).kind == "c" and np.dtype(dst).kind != "c":
        want = x.real.astype(dst) if np.dtype(dst) != np.bool_ else x != 0
    elif np.dtype(dst) == np.bool_:
        want = x != 0
    else:
        want = x.astype(dst)  # float -> int truncates toward zero (values are in range)
    assert_close(got, np.asarray(want))
    assert_close(tf.Tensor(x).astype(dst), np.asarray(want))


def test_cast_saturates_and_nan():
    x = np.array([1e20, -1e20, np.nan, 2.7, -2.7])
    assert_close(tf.cast(x, np.int32),
                 np.array([2**31 - 1, -(2**31), 0, 2, -2], np.int32))


# ---- structure ----


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_transpose_reshape_reverse(rng, dtype):
    x = rand(rng, (2, 3, 4), dtype)
    t = tf.Tensor(x)
    assert_close(tf.transpose(t, (2, 0, 1)), np.transpose(x, (2, 0, 1)))
    assert_close(tf.transpose(t), x.T)
    assert_close(t.T, x.T)
    assert_close(t.transpose(1, 0, 2), np.transpose(x, (1, 0, 2)))
    assert_close(t.mT, np.swapaxes(x, 0, 1))
    assert_close(tf.reshape(t, (6, 4)), x.reshape((6, 4), order="F"))  # column-major order
    assert_close(t.reshape(4, -1), x.reshape((4, 6), order="F"))
    assert_close(tf.reshape(tf.transpose(t, (1, 2, 0)), (12, 2)),
                 np.transpose(x, (1, 2, 0)).reshape((12, 2), order="F"))
    assert_close(tf.reverse(t, (0, 2)), x[::-1, :, ::-1])
    assert_close(tf.flip(t, -2), x[:, ::-1, :])


def test_reshape_errors():
    t = tf.Tensor(np.ones((2, 3)))
    with pytest.raises(tf.ShapeMismatchError, match=r"^tenferro\.reshape\(\)"):
        tf.reshape(t, (4, 2))
    with pytest.raises(ValueError):
        t.reshape(-1, -1)
    with pytest.raises(tf.InvalidArgumentError, match=r"^tenferro\.transpose\(\)"):
        tf.transpose(t, (0, 0))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_broadcasts(rng, dtype):
    x = rand(rng, (3,), dtype)
    assert_close(tf.broadcast_to(x, (3, 4)), np.broadcast_to(x[:, None], (3, 4)))  # left-aligned
    assert_close(tf.broadcast_in_dim(x, (4, 3), [1]), np.broadcast_to(x, (4, 3)))
    y = rand(rng, (3, 1), dtype)
    assert_close(tf.broadcast_in_dim(y, (2, 3, 5), [1, 2]), np.broadcast_to(y, (2, 3, 5)))
    with pytest.raises(tf.ShapeMismatchError, match=r"^tenferro\.broadcast_to\(\)"):
        tf.broadcast_to(x, (4, 3))


def np_extract_diag(x, a, b):
    d = np.diagonal(x, axis1=a, axis2=b)  # diagonal last
    pos = a if a < b else a - 1
    return np.moveaxis(d, -1, pos)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("shape,axes", [((4, 4), (0, 1)), ((3, 5, 2), (0, 1)), ((3, 2, 3), (2, 0)),
                                        ((2, 4, 3), (1, 2))], ids=str)
def test_extract_and_embed_diag(rng, dtype, shape, axes):
    x = rand(rng, shape, dtype)
    d = tf.extract_diag(x, *axes)
    assert_close(d, np_extract_diag(x, *axes))
    if shape[axes[0]] == shape[axes[1]]:
        e = tf.embed_diag(d, *axes)
        n = shape[axes[0]]
        want = np.zeros(shape, x.dtype)
        for i in range(n):
            idx = [slice(None)] * len(shape)
            idx[axes[0]] = i
            idx[axes[1]] = i
            want[tuple(idx)] = x[tuple(idx)]
        assert_close(e, want)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("k", [-1, 0, 2])
def test_tril_triu(rng, dtype, k):
    x = rand(rng, (4, 5, 2), dtype)
    xb = np.moveaxis(x, 2, 0)  # NumPy works on the last two dims
    assert_close(tf.tril(x, k), np.moveaxis(np.tril(xb, k), 0, 2))
    assert_close(tf.triu(x, k), np.moveaxis(np.triu(xb, k), 0, 2))


@pytest.mark.parametrize("dtype", NUMERIC_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_iota(dtype, axis):
    shape = (3, 4, 2)
    got = tf.iota(shape, axis, dtype)
    want = np.broadcast_to(
        np.arange(shape[axis]).reshape([-1 if d == axis % 3 else 1 for d in range(3)]), shape)
    assert_close(got, want.astype(dtype))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_slice(rng, dtype):
    x = rand(rng, (6, 7, 3), dtype)
    assert_close(tf.slice(x, (1, 0, 2), (5, 7, 3)), x[1:5, 0:7, 2:3])
    assert_close(tf.slice(x, (0, 1, 0), (6, 7, 3), (2, 3, 1)), x[0:6:2, 1:7:3, 0:3:1])
    with pytest.raises(tf.InvalidArgumentError, match=r"^tenferro\.slice\(\)"):
        tf.slice(x, (3, 0, 0), (2, 1, 1))
    with pytest.raises(ValueError):  # arrays of one call must have one length
        tf.slice(x, (0, 0), (1, 1, 1))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_dynamic_slice_and_update(rng, dtype):
    x = rand(rng, (5, 6), dtype)
    assert_close(tf.dynamic_slice(x, [1, 2], (3, 2)), x[1:4, 2:4])
    assert_close(tf.dynamic_slice(x, np.array([4, 5], np.int32), (3, 2)), x[2:5, 4:6])  # clamped
    u = rand(rng, (2, 3), dtype)
    want = x.copy()
    want[3:5, 1:4] = u
    assert_close(tf.dynamic_update_slice(x, u, [3, 1]), want)
    want = x.copy()
    want[3:5, 3:6] = u  # clamped start
    assert_close(tf.dynamic_update_slice(x, u, tf.Tensor([9, 9])), want)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_gather(rng, dtype, axis):
    x = rand(rng, (4, 5, 3), dtype)
    n = x.shape[axis]
    idx = rng.integers(0, n, size=(2, 3)).astype(np.int64)
    assert_close(tf.gather(x, idx, axis), np.take(x, idx, axis=axis))
    assert_close(tf.gather(x, idx.astype(np.int32), axis), np.take(x, idx, axis=axis))


def test_gather_out_of_range():
    with pytest.raises(tf.InvalidArgumentError, match=r"^tenferro\.gather\(\)"):
        tf.gather(np.ones((3, 2)), np.array([0, 3]), 0)


@pytest.mark.parametrize("dtype", NUMERIC_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("axis", [0, 1])
def test_scatter(rng, dtype, axis):
    x = rand(rng, (4, 5), dtype)
    idx = np.array([0, 2, 2, 3], np.int64)  # duplicates accumulate
    upd_shape = list(x.shape)
    upd_shape[axis] = len(idx)
    upd = rand(rng, tuple(upd_shape), dtype)
    want = x.copy()
    for k, i in enumerate(idx):
        src = np.take(upd, k, axis=axis)
        if axis == 0:
            want[i, :] += src
        else:
            want[:, i] += src
    assert_close(tf.scatter(x, idx, upd, axis), want)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_pad(rng, dtype):
    x = rand(rng, (3, 4), dtype)
    assert_close(tf.pad(x, (1, 0), (2, 1)), np.pad(x, ((1, 2), (0, 1))))
    assert_close(tf.pad(x, (-1, 1), (0, -2)), np.pad(x, ((0, 0), (1, 0)))[1:, :-2])
    got = tf.pad(x, (0, 0), (0, 0), (1, 0))  # one zero between rows
    want = np.zeros((5, 4), x.dtype)
    want[::2] = x
    assert_close(got, want)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_concatenate_and_stack(rng, dtype, axis):
    xs = [rand(rng, (2, 3), dtype) for _ in range(3)]
    assert_close(tf.concatenate(xs, axis), np.concatenate(xs, axis))
    assert_close(tf.stack([tf.Tensor(x) for x in xs], axis), np.stack(xs, axis))
    assert_close(tf.stack(xs, 2), np.stack(xs, 2))


def test_concatenate_promotes_and_errors(rng):
    a = rand(rng, (2, 3), np.int32)
    b = rand(rng, (1, 3), np.float64)
    got = tf.concatenate([a, tf.Tensor(b)], 0)
    assert_close(got, np.concatenate([a, b], 0))
    with pytest.raises(tf.ShapeMismatchError, match=r"^tenferro\.concatenate\(\)"):
        tf.concatenate([a, b], 1)
    with pytest.raises(tf.InvalidArgumentError, match=r"^tenferro\.concatenate\(\)"):
        tf.concatenate([], 0)
    with pytest.raises(tf.ShapeMismatchError, match=r"^tenferro\.stack\(\)"):
        tf.stack([a, b])


# ---- basic indexing ----


@pytest.mark.parametrize("key", [
    1, -1, slice(None), slice(1, 3), slice(None, None, -1), slice(3, 0, -2), (1, 2),
    (slice(None), 2), (Ellipsis, 1), (-1, Ellipsis), (slice(0, 0),), (slice(None, None, 2), -3, 1),
    (slice(5, 1),), (slice(None), slice(None, None, -3), slice(1, None)),
], ids=str)
def test_getitem(rng, key):
    x = rand(rng, (4, 5, 3), np.float64)
    assert_close(tf.Tensor(x)[key], x[key])


def test_getitem_errors_and_iteration(rng):
    x = rand(rng, (3, 2), np.float64)
    t = tf.Tensor(x)
    with pytest.raises(IndexError):
        t[3]
    with pytest.raises(IndexError):
        t[0, 0, 0]
    with pytest.raises(IndexError):
        t[np.array([0, 3])]  # integer arrays gather (test_indexing.py); out of range raises
    rows = list(t)
    assert len(rows) == 3
    assert_close(rows[2], x[2])
    with pytest.raises(TypeError):
        len(tf.Tensor(1.0))


# ---- creation ----


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_zeros_ones_full_eye(dtype):
    assert_close(tf.zeros((2, 3), dtype), np.zeros((2, 3), dtype))
    assert_close(tf.ones(4, dtype), np.ones(4, dtype))
    assert_close(tf.zeros((), dtype), np.zeros((), dtype))
    v = np.array(1, dtype)
    assert_close(tf.full((3, 2), v, dtype), np.full((3, 2), v, dtype))
    assert_close(tf.eye(3, dtype=dtype), np.eye(3, dtype=dtype))
    assert_close(tf.eye(2, 4, dtype), np.eye(2, 4, dtype=dtype))


def test_full_infers_dtype():
    assert tf.full(2, 7).dtype == np.int64
    assert tf.full(2, 7.5).dtype == np.float64
    assert tf.full(2, 1j).dtype == np.complex128
    assert tf.full(2, True).dtype == np.bool_
    assert_close(tf.full((2, 2), 2.5, np.float32), np.full((2, 2), 2.5, np.float32))


@pytest.mark.parametrize("args,dtype", [((5,), None), ((2, 9, 3), None), ((0.0, 1.0, 0.25), None),
                                        ((5, 0, -1), None), ((1, 4), np.float32),
                                        ((0, 3), np.complex64), ((-3, 3), np.int32)], ids=str)
def test_arange(args, dtype):
    assert_close(tf.arange(*args, dtype=dtype), np.arange(*args, dtype=dtype))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES, ids=dtype_id)
def test_random(dtype):
    u = tf.random_uniform((200, 50), 2.0, 3.0, seed=42, dtype=dtype)
    assert u.shape == (200, 50) and u.dtype == np.dtype(dtype)
    un = u.numpy()
    parts = [un.real, un.imag] if np.dtype(dtype).kind == "c" else [un]
    for p in parts:
        assert p.min() >= 2.0 and p.max() < 3.0
        assert abs(p.mean() - 2.5) < 0.02
    assert_close(tf.random_uniform((200, 50), 2.0, 3.0, seed=42, dtype=dtype), un)  # same seed
    assert not np.array_equal(tf.random_uniform((200, 50), 2.0, 3.0, seed=43, dtype=dtype).numpy(), un)
    n = tf.random_normal((100, 100), seed=7, dtype=dtype).numpy()
    assert abs(n.mean()) < 0.05
    assert abs(np.mean(np.abs(n) ** 2) - 1.0) < 0.05  # complex: parts of variance 1/2
    assert_close(tf.random_normal((100, 100), seed=7, dtype=dtype), n)
    assert tf.random_normal(3).shape == (3,)  # seed=None: from Python's random


@pytest.mark.parametrize("dtype", [np.bool_] + INT_DTYPES, ids=dtype_id)
def test_random_rejects_non_float(dtype):
    with pytest.raises(tf.TenferroError, match=r"^tenferro\.random_normal\(\)"):
        tf.random_normal((2,), seed=0, dtype=dtype)


def test_creation_in_explicit_context():
    ctx = tf.Context()
    z = tf.zeros((2,), context=ctx)
    assert z.context == ctx
    assert z.context != tf.default_context()
    with pytest.raises(tf.InvalidArgumentError, match=r"^tenferro\.add\(\)"):
        z + tf.zeros((2,))
    # a scalar joins the tensor's own context
    assert_close(z + 1.0, np.ones(2))
