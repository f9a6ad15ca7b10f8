"""The Tensor class: construction from NumPy arrays (any strides), lists and scalars, properties,
conversion back to NumPy, scalar conversions."""

import numpy as np
import pytest

import tenferro as tf
from conftest import ALL_DTYPES, assert_close, dtype_id, rand


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("shape", [(), (0,), (5,), (3, 4), (2, 3, 4), (2, 0, 3), (1, 1, 1, 2)], ids=str)
def test_roundtrip(rng, dtype, shape):
    x = rand(rng, shape, dtype)
    t = tf.Tensor(x)
    assert t.shape == x.shape
    assert t.dtype == x.dtype
    assert t.ndim == x.ndim
    assert t.size == x.size
    y = t.numpy()
    assert y.flags.f_contiguous and y.shape == x.shape and y.dtype == x.dtype
    np.testing.assert_array_equal(y, x)
    np.testing.assert_array_equal(np.asarray(t), x)
    np.testing.assert_array_equal(np.array(t, dtype=np.complex128), x.astype(np.complex128))
    if shape:
        assert len(t) == shape[0]


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("view", [
    lambda a: a.T,
    lambda a: a[::-1],
    lambda a: a[:, ::-2],
    lambda a: a[1:, ::3],
    lambda a: a[::-1, ::-1].T,
    lambda a: np.asfortranarray(a),
    lambda a: np.broadcast_to(a[:1], a.shape),  # zero stride, read-only
    lambda a: a.reshape(6, 7)[:, 2],
], ids=["T", "neg0", "neg1", "slice", "negT", "F", "bcast", "col"])
def test_strided_inputs(rng, dtype, view):
    base = rand(rng, (6, 7), dtype)
    x = view(base)
    assert_close(tf.Tensor(x), x.copy())
    assert_close(tf.from_numpy(x), x.copy())  # zero-copy handles the same strides


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64, np.complex64,
                                   np.complex128], ids=dtype_id)
def test_non_native_byte_order_is_copied(rng, dtype):
    x = rand(rng, (3, 4), dtype)
    swapped = x.astype(x.dtype.newbyteorder("S"))
    assert not swapped.dtype.isnative
    t = tf.Tensor(swapped)
    assert t.dtype == x.dtype  # native
    np.testing.assert_array_equal(t.numpy(), x)
    with pytest.raises(ValueError, match="byte order"):
        tf.from_numpy(swapped)


def test_strides_not_whole_elements_are_copied(rng):
    rec = np.zeros(5, dtype=[("a", "i1"), ("b", "f8")])  # packed: field b has stride 9
    rec["b"] = rng.standard_normal(5)
    b = rec["b"]
    assert b.strides[0] % b.itemsize != 0
    np.testing.assert_array_equal(tf.Tensor(b).numpy(), b)
    with pytest.raises(ValueError, match="aligned|whole elements"):
        tf.from_numpy(b)


def test_misaligned_data_is_copied():
    raw = np.zeros(8 * 5 + 1, np.uint8)
    x = raw[1:].view(np.float64)  # misaligned
    x[:] = np.arange(5)
    assert not x.flags.aligned
    np.testing.assert_array_equal(tf.Tensor(x).numpy(), np.arange(5.0))
    with pytest.raises(ValueError):
        tf.from_numpy(x)


def test_from_lists_and_scalars():
    assert tf.Tensor(1).dtype == np.int64
    assert tf.Tensor(1.5).dtype == np.float64
    assert tf.Tensor(1 + 2j).dtype == np.complex128
    assert tf.Tensor(True).dtype == np.bool_
    assert tf.Tensor(1).shape == ()
    t = tf.Tensor([[1, 2, 3], [4, 5, 6]])
    assert t.shape == (2, 3) and t.dtype == np.int64
    assert t.tolist() == [[1, 2, 3], [4, 5, 6]]
    assert tf.Tensor([1.0, 2.0], dtype=np.float32).dtype == np.float32
    assert tf.Tensor([1, 2], dtype="complex64").dtype == np.complex64
    assert tf.tensor([[True]]).shape == (1, 1)
    assert tf.Tensor(np.float32(2.5)).dtype == np.float32
    assert tf.Tensor([]).shape == (0,)


@pytest.mark.parametrize("bad", [np.zeros(3, np.float16), np.zeros(3, np.uint8),
                                 np.zeros(3, np.int16), np.array(["a"]), np.zeros(2, object),
                                 np.zeros(2, "datetime64[s]")], ids=lambda a: str(a.dtype))
def test_unsupported_dtypes(bad):
    with pytest.raises(TypeError, match="no dtype"):
        tf.Tensor(bad)
    with pytest.raises(TypeError):
        tf.from_numpy(bad)
    with pytest.raises(TypeError):
        tf.zeros(3, bad.dtype)


def test_bool_bytes_normalised_on_copy():
    raw = np.array([0, 1, 2, 255], np.uint8).view(np.bool_)
    np.testing.assert_array_equal(tf.Tensor(raw).numpy().view(np.uint8), [0, 1, 1, 1])


def test_tensor_of_tensor_and_asarray(rng):
    x = rand(rng, (2, 3), np.float64)
    t = tf.Tensor(x)
    assert tf.asarray(t) is t
    u = tf.Tensor(t)
    assert_close(u, x)
    assert_close(tf.Tensor(t, np.float32), x.astype(np.float32))
    assert_close(tf.asarray(t, np.int32), x.astype(np.int32))
    assert_close(tf.asarray(x), x)


def test_scalar_conversions():
    assert float(tf.Tensor(2.5)) == 2.5
    assert int(tf.Tensor([7])) == 7
    assert complex(tf.Tensor(1j)) == 1j
    assert tf.Tensor([[3.0]]).item() == 3.0
    assert bool(tf.Tensor(True)) is True
    assert [10, 20, 30][tf.Tensor(1)] == 20  # __index__
    with pytest.raises(ValueError, match="ambiguous"):
        bool(tf.Tensor([1, 2]))
    with pytest.raises(ValueError):
        tf.Tensor([1, 2]).item()
    with pytest.raises(TypeError):
        [1][tf.Tensor(0.0)]


def test_repr_and_str():
    t = tf.Tensor([[1.0, 2.0], [3.0, 4.0]])
    r = repr(t)
    assert r.startswith("Tensor([[1., 2.],") and r.endswith("dtype=float64)")
    assert str(t) == str(t.numpy())


def test_element_strides_views_and_contiguous(rng):
    x = rand(rng, (3, 4), np.float64)
    t = tf.Tensor(x)
    assert t.element_strides == (1, 3)  # column-major
    tt = t.T
    assert tt.element_strides == (3, 1)  # a view
    r = tf.reverse(t, 0)
    assert r.element_strides[0] == -1
    c = tt.contiguous()
    assert c.element_strides == (1, 4)
    assert_close(c, x.T)
    assert t.context == tf.default_context()
    assert isinstance(hash(t.context), int)
    assert "Context" in repr(t.context)


def test_tensor_context_argument():
    ctx = tf.Context()
    t = tf.Tensor([1.0], context=ctx)
    assert t.context == ctx
    with pytest.raises(ValueError):
        tf.Tensor(t, context=tf.default_context())
    with pytest.raises(TypeError):
        tf.Tensor([1.0], context="nope")


def test_pickle_and_copy(rng):
    import copy
    import pickle

    x = rand(rng, (2, 3), np.complex64)
    t = tf.Tensor(x)
    u = pickle.loads(pickle.dumps(t))
    assert_close(u, x)
    assert copy.copy(t) is t and copy.deepcopy(t) is t


def test_numpy_scalars_as_arguments(rng):
    x = rand(rng, (2, 3, 4), np.float64)
    assert_close(tf.sum(x, np.int64(1)), x.sum(1))
    assert_close(tf.concatenate([x, x], axis=np.int32(-1)), np.concatenate([x, x], -1))
    assert_close(tf.tril(x, np.int64(1)), np.moveaxis(np.tril(np.moveaxis(x, 2, 0), 1), 0, 2))
    assert_close(tf.arange(np.float32(0.5), np.int64(3)), np.arange(0.5, 3))
    assert_close(tf.zeros((np.int64(2), np.int32(3))), np.zeros((2, 3)))
    import tenferro.tenferro_c as c
    with pytest.raises(OverflowError):
        c.tfe_eye(tf.default_context()._h, 2**31, 2, 2)
    with pytest.raises(TypeError):
        c.tfe_eye(tf.default_context()._h, c.TFE_F64, 2.5, 2)
