"""NumPy's rules that users rely on: weak Python scalars (NEP 50) in every operator and function,
and the axis=/keepdims=/dtype= keywords of reductions (functions and methods).

The expected dtypes come from NumPy itself run under NEP 50 (``np._set_promotion_state("weak")``,
NumPy >= 1.24), so no dtype table is written down here."""

import contextlib
import operator

import numpy as np
import pytest

import tenferro as tf

from conftest import ALL_DTYPES, dtype_id

SCALARS = [True, 3, 2.5, 1.5 - 0.5j]


@contextlib.contextmanager
def nep50():
    if not hasattr(np, "_set_promotion_state"):
        pytest.skip("this NumPy cannot switch to NEP 50 promotion")
    old = np._get_promotion_state()
    np._set_promotion_state("weak")
    try:
        yield
    finally:
        np._set_promotion_state(old)


def numpy_dtype(op, arr, scalar, scalar_first=False):
    with nep50(), np.errstate(all="ignore"):
        try:
            r = op(scalar, arr) if scalar_first else op(arr, scalar)
        except (TypeError, OverflowError):
            return None
    return np.asarray(r).dtype


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("scalar", SCALARS, ids=lambda s: type(s).__name__)
def test_operators_keep_the_tensor_dtype_within_a_kind(dtype, scalar):
    a = np.array([1, 0, 1]).astype(dtype)
    t = tf.Tensor(a)
    for pyop, fn in [(operator.add, tf.add), (operator.mul, tf.mul),
                     (operator.truediv, tf.div), (operator.eq, tf.equal)]:
        want = numpy_dtype(pyop, a, scalar)
        if want is None or want == np.bool_ and pyop is not operator.eq:
            continue  # NumPy refuses it, or Bool arithmetic (tenferro has none)
        for got in (pyop(t, scalar), pyop(scalar, t), fn(t, scalar), fn(scalar, t)):
            assert got.dtype == want, (pyop, dtype, scalar)
        want_vals = pyop(a, scalar)
        np.testing.assert_allclose(pyop(t, scalar).numpy(), want_vals, rtol=1e-6)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("scalar", SCALARS + [-2, 0.25], ids=lambda s: type(s).__name__)
def test_every_scalar_operator_matches_numpy(dtype, scalar):
    """The one-call scalar path (tfe_binary_scalar) of every operator, both operand orders."""
    a = np.array([1, 0, 2]).astype(dtype)
    t = tf.Tensor(a)
    ops = [operator.add, operator.sub, operator.mul, operator.truediv, operator.pow,
           operator.and_, operator.or_, operator.xor, operator.eq, operator.ne, operator.lt,
           operator.le, operator.gt, operator.ge]
    checked = 0
    for pyop in ops:
        for first in (False, True):
            if first and pyop in (operator.lt, operator.le, operator.gt, operator.ge,
                                  operator.eq, operator.ne):
                continue  # Python reflects these to the tensor's own method
            try:
                want = numpy_dtype(pyop, a, scalar, first)
            except ValueError:
                continue  # integers to negative integer powers
            if want is None:
                continue
            with nep50(), np.errstate(all="ignore"):
                want_vals = pyop(scalar, a) if first else pyop(a, scalar)
            try:
                got = pyop(scalar, t) if first else pyop(t, scalar)
            except (tf.DtypeMismatchError, TypeError):
                continue  # tenferro refuses some that NumPy accepts (Bool arithmetic)
            assert got.dtype == want, (pyop, first)
            # NumPy's complex 0 ** 1 is nan; compare where NumPy's value is finite
            finite = np.isfinite(want_vals)
            np.testing.assert_allclose(got.numpy()[finite], np.asarray(want_vals)[finite],
                                       rtol=1e-6)
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.complex64], ids=dtype_id)
def test_functions_take_weak_scalars(dtype):
    t = tf.Tensor(np.array([1, 2, 3]).astype(dtype))
    want = numpy_dtype(np.add, np.ones(1, dtype), 2)
    assert tf.where(t == t, t, 0).dtype == want
    if np.dtype(dtype).kind != "c":
        assert tf.clip(t, 0, 2).dtype == want
        assert tf.maximum(t, 2).dtype == want
    assert tf.pow(t, 2).dtype == want
    assert tf.Tensor(np.ones(3, dtype)).__rsub__(1).dtype == want


def test_scalar_against_a_numpy_array_is_weak_too():
    assert tf.mul(2.0, np.ones(2, np.float32)).dtype == np.float32
    assert tf.add(np.ones(2, np.int32), 1).dtype == np.int32


def test_two_scalars_use_the_default_dtypes():
    assert tf.add(1, 2).dtype == np.int64
    assert tf.add(1, 2.0).dtype == np.float64


def test_numpy_scalars_are_strong():
    f32 = tf.Tensor(np.ones(2, np.float32))
    with nep50():
        want = (np.ones(2, np.float32) * np.float64(2.0)).dtype
    assert (f32 * np.float64(2.0)).dtype == want


def test_out_of_range_int_raises_overflow_like_numpy():
    i32 = tf.Tensor(np.ones(2, np.int32))
    with pytest.raises(OverflowError):
        i32 + 2**40
    with pytest.raises(OverflowError):
        tf.Tensor(np.ones(2, np.int64)) + 2**70
    assert (i32 + (2**31 - 1)).dtype == np.int32


def test_weak_float_beyond_float32_is_inf():
    r = (tf.Tensor(np.ones(1, np.float32)) * 1e300).numpy()
    assert r.dtype == np.float32 and np.isinf(r[0])


def test_weak_scalar_gradients():
    x = tf.Tensor(np.array([1.0, 2.0], np.float32)).requires_grad_()
    (x * 3.0 + 1).sum().backward()
    assert x.grad.dtype == np.float32
    np.testing.assert_allclose(x.grad.numpy(), [3.0, 3.0])


# ---- reductions ---------------------------------------------------------------------------

REDUCTIONS = ["sum", "prod", "mean", "max", "min", "any", "all", "std", "var"]
AXES = [None, 0, 1, -1, (0, 2), (2, 0, 1)]


@pytest.mark.parametrize("name", REDUCTIONS)
@pytest.mark.parametrize("axis", AXES, ids=str)
@pytest.mark.parametrize("keepdims", [False, True])
def test_reduction_keywords_match_numpy(rng, name, axis, keepdims):
    a = rng.standard_normal((2, 3, 4))
    want = getattr(np, name)(a, axis=axis, keepdims=keepdims)
    for got in (getattr(tf, name)(a, axis=axis, keepdims=keepdims),
                getattr(tf.Tensor(a), name)(axis=axis, keepdims=keepdims)):
        assert got.shape == np.shape(want)
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", ["sum", "prod", "mean"])
@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.complex128], ids=dtype_id)
def test_reduction_dtype_keyword(rng, name, dtype):
    a = rng.integers(1, 4, (3, 2)).astype(np.int32)
    want = getattr(np, name)(a, axis=0, dtype=dtype)
    got = getattr(tf, name)(a, axis=0, dtype=dtype)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)


@pytest.mark.parametrize("ddof", [0, 1])
def test_std_var_ddof_and_complex(rng, ddof):
    a = rng.standard_normal((4, 3)) + 1j * rng.standard_normal((4, 3))
    for name in ("std", "var"):
        want = getattr(np, name)(a, axis=0, ddof=ddof)
        got = getattr(tf, name)(a, axis=0, ddof=ddof)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)


@pytest.mark.parametrize("name", ["argmax", "argmin"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1], ids=str)
@pytest.mark.parametrize("keepdims", [False, True])
def test_argmax_argmin(rng, name, axis, keepdims):
    a = rng.integers(0, 3, (3, 4, 2)).astype(np.float64)  # ties: the first one wins
    a[1, 2, 0] = np.nan
    want = getattr(np, name)(a, axis=axis, keepdims=keepdims)
    got = getattr(tf.Tensor(a), name)(axis=axis, keepdims=keepdims)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
@pytest.mark.parametrize("axis", [None, 0, 1, 2], ids=str)
@pytest.mark.parametrize("dtype", [np.bool_, np.int32, np.float64, np.complex64], ids=dtype_id)
def test_scans_match_numpy(rng, name, axis, dtype):
    a = (rng.integers(-2, 3, (3, 5, 2))).astype(dtype)
    want = getattr(np, name)(a, axis=axis)
    got = getattr(tf, name)(a, axis=axis)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5)


@pytest.mark.parametrize("name", ["cumsum", "cumprod", "std", "var", "mean"])
def test_composite_reductions_differentiate(rng, name):
    a = rng.uniform(0.5, 1.5, (3, 4))
    x = tf.Tensor(a).requires_grad_()
    w = rng.standard_normal(np.shape(getattr(np, name)(a, axis=1)))
    (getattr(tf, name)(x, axis=1) * w).sum().backward()
    eps = 1e-6
    num = np.zeros_like(a)
    for i in np.ndindex(a.shape):
        d = np.zeros_like(a)
        d[i] = eps
        num[i] = ((getattr(np, name)(a + d, axis=1) - getattr(np, name)(a - d, axis=1)) * w).sum()
    np.testing.assert_allclose(x.grad.numpy(), num / (2 * eps), rtol=1e-5, atol=1e-7)


def test_reduction_errors():
    t = tf.Tensor(np.ones((2, 3)))
    with pytest.raises(tf.InvalidArgumentError, match=r"^tenferro\.sum\(\): axis 2 is out of"):
        t.sum(axis=2)
    with pytest.raises(tf.InvalidArgumentError, match="repeated"):
        t.sum(axis=(0, 0))
    with pytest.raises(TypeError):
        tf.argmax(tf.Tensor(np.ones(2, np.complex128)))


def test_old_axes_keyword_still_works():
    t = tf.Tensor(np.ones((2, 3)))
    np.testing.assert_allclose(tf.sum(t, axes=1).numpy(), [3.0, 3.0])


# ---- matmul with rank-1 operands ----------------------------------------------------------

def _np_matmul(a, b):
    """NumPy's matmul in tenferro's layout: batch dims after the matrix dims."""
    def to_np(x):
        return np.moveaxis(x, (0, 1), (-2, -1)) if x.ndim >= 2 else x
    r = np.matmul(to_np(a), to_np(b))
    if a.ndim >= 2 and b.ndim >= 2:
        return np.moveaxis(r, (-2, -1), (0, 1))
    return np.moveaxis(r, -1, 0) if r.ndim >= 1 and (a.ndim >= 2) != (b.ndim >= 2) else r


RANK1_SHAPES = [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3, 5), (3,)),
                ((3,), (3, 4, 5)), ((0,), (0,)), ((2, 0), (0,))]


@pytest.mark.parametrize("sa,sb", RANK1_SHAPES, ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.complex64, np.int32], ids=dtype_id)
def test_matmul_rank1_follows_numpy(rng, sa, sb, dtype):
    a = rng.integers(-3, 4, sa).astype(dtype)
    b = rng.integers(-3, 4, sb).astype(dtype)
    want = _np_matmul(a, b)
    for got in (tf.Tensor(a) @ tf.Tensor(b), tf.matmul(a, b), a @ tf.Tensor(b),
                tf.Tensor(a) @ b):
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)


@pytest.mark.parametrize("sa,sb", RANK1_SHAPES[:5], ids=str)
def test_matmul_rank1_gradients(rng, sa, sb):
    a, b = rng.standard_normal(sa), rng.standard_normal(sb)
    w = rng.standard_normal(_np_matmul(a, b).shape)
    ta, tb = tf.Tensor(a).requires_grad_(), tf.Tensor(b).requires_grad_()
    ((ta @ tb) * w).sum().backward()
    eps = 1e-6
    for x, t, other_first in ((a, ta, False), (b, tb, True)):
        num = np.zeros_like(x)
        for i in np.ndindex(x.shape):
            d = np.zeros_like(x)
            d[i] = eps
            plus = _np_matmul(a + d, b) if not other_first else _np_matmul(a, b + d)
            minus = _np_matmul(a - d, b) if not other_first else _np_matmul(a, b - d)
            num[i] = ((plus - minus) * w).sum() / (2 * eps)
        np.testing.assert_allclose(t.grad.numpy(), num, rtol=1e-6, atol=1e-8)


def test_matmul_rank1_in_a_traced_program():
    ctx = tf.Context()
    h = tf.symbolic(("n", "n"), context=ctx)
    psi = tf.symbolic(("n",), context=ctx)
    f = tf.Function([h, psi], (psi @ (h @ psi)))
    a = np.arange(9.0).reshape(3, 3)
    v = np.array([1.0, -1.0, 2.0])
    np.testing.assert_allclose(f(a, v).numpy(), v @ a @ v)


def test_keywords_and_composites_in_a_traced_program(rng):
    ctx = tf.Context()
    x = tf.symbolic(("n", 3), np.float32, context=ctx)
    outs = [x.sum(axis=0, keepdims=True) * 2.0, tf.std(x, axis=0), tf.logsumexp(x, axis=1),
            x.argmax(1), x.cumsum(1), x[:, None, 0]]
    f = tf.Function([x], outs)
    a = rng.standard_normal((4, 3)).astype(np.float32)
    m = a.max(1, keepdims=True)
    wants = [a.sum(axis=0, keepdims=True) * 2.0, a.std(axis=0),
             (np.log(np.exp(a - m).sum(1, keepdims=True)) + m)[:, 0], a.argmax(1),
             a.cumsum(1), a[:, None, 0]]
    for got, want in zip(f(a), wants):
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-5)
